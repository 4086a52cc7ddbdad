// @ts-check
// The public GraphQL API as any front end calls it: each of the page's named operations (graphql/*.graphql)
// POSTed to /graphql with a bearer token and Accept-Language, and the event subscription over
// graphql-transport-ws (written out here: a dozen messages, no library).

/** @typedef {import("../../../web/types/operations").Operations} Operations */
/** @typedef {import("../../../web/types/graphql").LoggedEventFragment} LoggedEvent */

/** A refusal as the API words it: the error's `extensions` (code, HTTP-like status, the field at fault). */
export class Problem extends Error {
  /**
   * @param {number} status
   * @param {{ message?: string, extensions?: { code?: string, status?: number, field?: string | null } } | null} error
   */
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = error?.extensions?.status || status;
    this.code = error?.extensions?.code || "http_error";
    this.detail = error?.message || "";
    this.field = error?.extensions?.field || null;
  }
}

/** @type {Promise<Map<string, string>> | null} */
let definitions = null;

// Each top-level definition of the page's documents by name. The documents are the page's own (no strings with
// braces in them): a definition ends where its braces close.
async function documents() {
  definitions ??= Promise.all(["operations", "tables"].map(async (name) => {
    const r = await fetch(new URL(`graphql/${name}.graphql`, import.meta.url));
    if (!r.ok) throw new Error(`graphql/${name}.graphql: HTTP ${r.status}`);
    return r.text();
  })).then((texts) => {
    const found = new Map();
    const text = texts.join("\n").replace(/#[^\n]*/g, "");
    let depth = 0, start = 0;
    for (let i = 0; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) {
        const def = text.slice(start, i + 1).trim();
        const name = /^(?:query|mutation|subscription|fragment)\s+([_A-Za-z]\w*)/.exec(def)?.[1];
        if (name) found.set(name, def);
        start = i + 1;
      }
    }
    return found;
  });
  return definitions;
}

/**
 * An operation with the fragments it spreads, as one document.
 * @param {string} name
 */
export async function documentOf(name) {
  const defs = await documents();
  const need = [name];
  for (let i = 0; i < need.length; i++) {
    const def = defs.get(need[i]);
    if (!def) throw new Error(`no GraphQL definition named ${need[i]}`);
    for (const [, spread] of def.matchAll(/\.\.\.\s*([_A-Za-z]\w*)/g)) {
      if (spread !== "on" && !need.includes(spread)) need.push(spread);
    }
  }
  return need.map((n) => defs.get(n)).join("\n");
}

export class Api {
  /** @param {string} base @param {string} language */
  constructor(base, language) {
    this.base = base.replace(/\/$/, "");
    this.language = language;
  }

  /**
   * One of the page's operations over HTTP: its data, or the first error as a Problem. A failed network rejects
   * with the browser's own error (a TypeError), not a Problem: the service may or may not have heard the request.
   * @template {keyof Operations} N
   * @param {N} name
   * @param {Operations[N][1]} variables
   * @param {string} [token]
   * @param {string} [key] an Idempotency-Key: the service makes a write sent again with it once
   * @returns {Promise<Operations[N][0]>}
   */
  async call(name, variables, token, key) {
    /** @type {Record<string, string>} */
    const headers = { "Accept-Language": this.language, "Content-Type": "application/json",
                      Accept: "application/graphql-response+json, application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (key) headers["Idempotency-Key"] = key;
    const query = await documentOf(name);
    const r = await fetch(`${this.base}/graphql`, { method: "POST", headers,
                                                  body: JSON.stringify({ query, variables, operationName: name }) });
    const text = await r.text();
    /** @type {{ data?: any, errors?: any[] } | null} */
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch { body = null; }
    if (body?.errors?.length) throw new Problem(r.status, body.errors[0]);
    if (!r.ok || !body?.data) throw new Problem(r.status, null);
    return body.data;
  }

  /**
   * A write whose answer may be lost on the way: sent again with the same Idempotency-Key while the network fails
   * or the service is briefly unavailable (503), so it is made once however many times it is sent.
   * @template {keyof Operations} N
   * @param {N} name
   * @param {Operations[N][1]} variables
   * @param {string} token
   * @param {string} key
   * @returns {Promise<Operations[N][0]>}
   */
  async write(name, variables, token, key, waits = RETRY_WAITS) {
    for (let i = 0; ; i++) {
      try {
        return await this.call(name, variables, token, key);
      } catch (err) {
        const unanswered = !(err instanceof Problem) || err.status === 503;
        if (!unanswered || i >= waits.length) throw err;
        await new Promise((resolve) => setTimeout(resolve, waits[i]));
      }
    }
  }

  socketUrl() { return this.base.replace(/^http/, "ws") + "/graphql"; }
}

// How long `write` waits before each new attempt, in milliseconds.
const RETRY_WAITS = [300, 1000, 3000];

/** A fresh Idempotency-Key. From getRandomValues, which a page served over plain HTTP has (randomUUID needs HTTPS). */
export function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One form's write, kept until the service answers it. A write whose answer never came (every attempt of `write`
 * failed on the network) may have been made; submitted again with the same input, it is the same attempt, sent with
 * the same variables and Idempotency-Key, so the service answers what it made instead of making it twice. Input
 * that differs is a new attempt, and so is any input once the service has answered (a refusal included).
 * @template V, T
 */
export class Attempt {
  /** @type {{ input: string, variables: V, key: string } | null} */
  #kept = null;

  /**
   * @param {string} input what the user asked for, as text: the same text is the same attempt
   * @param {() => V | Promise<V>} variables built for a new attempt only
   * @param {(variables: V, key: string) => Promise<T>} send
   * @returns {Promise<T>}
   */
  async send(input, variables, send) {
    if (this.#kept?.input !== input) this.#kept = { input, variables: await variables(), key: newKey() };
    const kept = this.#kept;
    try {
      const answer = await send(kept.variables, kept.key);
      this.#kept = null;
      return answer;
    } catch (err) {
      if (err instanceof Problem && err.status !== 503) this.#kept = null;  // answered: this attempt is over
      throw err;
    }
  }
}

/**
 * How long a feed waits before connecting again after `delay` (its backoff, doubling from 0.5 s to 5 s): a random
 * point between half of it and all of it. Every page a restart disconnected would otherwise come back at the same
 * moments, all at once on the first replica up.
 * @param {number} delay milliseconds
 * @param {number} [random] in [0, 1)
 */
export function reconnectWait(delay, random = Math.random()) {
  return delay / 2 + (random * delay) / 2;
}

/**
 * @typedef {object} FeedOptions
 * @property {Api} api
 * @property {string} token
 * @property {string} campaignId
 * @property {string} language
 * @property {number} [after]
 * @property {(event: LoggedEvent) => void} onEvent
 * @property {(status: string, error?: { message?: string }) => void} onStatus
 */

// A campaign's events, live. After a dropped socket (or a restarted server) it connects again and asks for
// everything after the last seq it received, so nothing is lost and nothing repeats.
export class Feed {
  /** @param {FeedOptions} options */
  constructor({ api, token, campaignId, language, after = 0, onEvent, onStatus }) {
    this.api = api;
    this.token = token;
    this.campaignId = campaignId;
    this.language = language;
    this.lastSeq = after;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.stopped = false;
    this.delay = 500;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  start() { this.stopped = false; this.connect(); return this; }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
  }

  async connect() {
    /** @type {string} */
    let query;
    try {
      query = await documentOf("CampaignEvents");
    } catch (err) {
      this.onStatus("error", { message: String(err) });
      return;
    }
    if (this.stopped) return;
    const ws = new WebSocket(this.api.socketUrl(), "graphql-transport-ws");
    this.ws = ws;
    /** @param {object} msg */
    const send = (msg) => ws.send(JSON.stringify(msg));
    ws.onopen = () => send({ type: "connection_init",
                             payload: { authorization: `Bearer ${this.token}`, language: this.language } });
    ws.onmessage = ({ data }) => {
      const msg = JSON.parse(data);
      if (msg.type === "connection_ack") {
        this.delay = 500;
        this.onStatus("live");
        /** @type {Operations["CampaignEvents"][1]} */
        const variables = { campaignId: this.campaignId, after: this.lastSeq };
        send({ id: "events", type: "subscribe",
               payload: { query, variables, operationName: "CampaignEvents" } });
      } else if (msg.type === "ping") {
        send({ type: "pong" });
      } else if (msg.type === "next") {
        const errors = msg.payload.errors;
        if (errors?.length) { this.onStatus("error", errors[0]); return; }
        /** @type {Operations["CampaignEvents"][0]} */
        const data = msg.payload.data;
        const event = data.campaignEvents;
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
      this.timer = setTimeout(() => this.connect(), reconnectWait(this.delay));
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }
}
