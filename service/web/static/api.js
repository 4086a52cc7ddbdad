// The public API as any front end calls it: REST with a bearer token and Accept-Language, and the GraphQL
// subscription over graphql-transport-ws (written out here: a dozen messages, no library).
export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "http_error";
    this.detail = body?.detail || "";
    this.field = body?.field || null;
  }
}

export class Api {
  constructor(base, language) {
    this.base = base.replace(/\/$/, "");
    this.language = language;
  }

  async rest(method, path, { body, token, ifMatch } = {}) {
    const headers = { "Accept-Language": this.language };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    if (ifMatch !== undefined && ifMatch !== null) headers["If-Match"] = `"${ifMatch}"`;
    const r = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    const data = text ? JSON.parse(text) : null;
    if (!r.ok) throw new Problem(r.status, data);
    return data;
  }

  get(path, token) { return this.rest("GET", path, { token }); }
  post(path, body, token) { return this.rest("POST", path, { body, token }); }
  socketUrl() { return this.base.replace(/^http/, "ws") + "/graphql"; }
}

const EVENTS = `subscription($c: ID!, $a: Int!) {
  campaignEvents(campaignId: $c, after: $a) { seq type description actor { role playerId } createdAt } }`;

// A campaign's events, live. After a dropped socket (or a restarted server) it connects again and asks for
// everything after the last seq it received, so nothing is lost and nothing repeats.
export class Feed {
  constructor({ api, token, campaignId, language, after = 0, onEvent, onStatus }) {
    Object.assign(this, { api, token, campaignId, language, lastSeq: after, onEvent, onStatus });
    this.stopped = false;
    this.delay = 500;
  }

  start() { this.stopped = false; this.connect(); return this; }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
  }

  connect() {
    const ws = new WebSocket(this.api.socketUrl(), "graphql-transport-ws");
    this.ws = ws;
    const send = (msg) => ws.send(JSON.stringify(msg));
    ws.onopen = () => send({ type: "connection_init",
                             payload: { authorization: `Bearer ${this.token}`, language: this.language } });
    ws.onmessage = ({ data }) => {
      const msg = JSON.parse(data);
      if (msg.type === "connection_ack") {
        this.delay = 500;
        this.onStatus("live");
        send({ id: "events", type: "subscribe", payload: { query: EVENTS,
               variables: { c: this.campaignId, a: this.lastSeq } } });
      } else if (msg.type === "ping") {
        send({ type: "pong" });
      } else if (msg.type === "next") {
        const errors = msg.payload.errors;
        if (errors?.length) { this.onStatus("error", errors[0]); return; }
        const event = msg.payload.data.campaignEvents;
        if (event.seq <= this.lastSeq) return;
        this.lastSeq = event.seq;
        this.onEvent(event);
      } else if (msg.type === "error") {
        this.onStatus("error", msg.payload?.[0]);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.stopped) return;
      this.onStatus("reconnecting");
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }
}
