// The web table: set up a campaign (GM), sit at it (GM or player, by the token in the link's fragment), play.
// Where the API is: `?api=` or the origin that served the page. The token is only ever in the fragment, which
// a browser never sends to a server.
import { Api, Feed, Problem } from "./api.js";
import { el, LANGUAGES, language, setLanguage, t } from "./dom.js";
import { resolve, schemaForm } from "./forms.js";
import { awaitingOf, idChoices, renderTable, value } from "./table.js";
import { verifyDocument } from "./verify.js";
import qrcode from "./vendor/qrcode.mjs";

const query = new URLSearchParams(location.search);
const apiBase = query.get("api") || location.origin;
const main = document.getElementById("main");
const page = { openapi: null, systems: null, systemsLanguage: null, feed: null, seat: null };

// A language picked on this device (`?lang=`, or the switch) wins over the one a player saved for their seat.
const chosenHere = () => query.get("lang") || localStorage.getItem("rk-language");

function pickLanguage() {
  const asked = chosenHere() || navigator.language || "en";
  return LANGUAGES[asked.slice(0, 2).toLowerCase()] ? asked.slice(0, 2).toLowerCase() : "en";
}

function seatFromHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  return h.get("campaign") && h.get("token") ? { campaign: h.get("campaign"), token: h.get("token") } : null;
}

// A link to this page for a seat: the same page and API, the token after the '#'.
function seatLink(campaign, token) {
  const url = new URL(location.href);
  url.hash = new URLSearchParams({ campaign, token }).toString();
  return url.toString();
}

const api = () => new Api(apiBase, language());

async function openapi() {
  page.openapi ??= await api().get("/openapi.json");
  return page.openapi;
}

async function systems() {
  if (page.systemsLanguage !== language()) {
    page.systems = (await api().get("/v1/systems")).items;
    page.systemsLanguage = language();
  }
  return page.systems;
}

// The schema of a campaign of `system` (CampaignCreate is discriminated by system), and its models' prefix.
function campaignSchema(doc, system) {
  const ref = doc.components.schemas.CampaignCreate.discriminator.mapping[system];
  const name = ref.split("/").pop();
  return { schema: resolve(doc, { $ref: ref }), prefix: name.replace(/^CampaignCreate/, "") };
}

function actionSchema(doc, prefix, type) {
  const union = doc.components.schemas[`${prefix}Action`];
  const ref = union?.discriminator?.mapping?.[type];
  return ref ? resolve(doc, { $ref: ref }) : { type: "object", properties: {} };
}

function problemBox(err) {
  const box = el("div", { class: "problem", role: "alert" });
  if (err instanceof Problem) {
    box.append(el("strong", {}, `${t("refused")}: `), el("code", {}, err.code), " ", err.detail,
               err.field ? el("small", {}, ` (${err.field})`) : null);
  } else {
    box.append(el("strong", {}, `${t("refused")}: `), String(err.message || err));
  }
  return box;
}

function header() {
  const select = el("select", { id: "language" },
    ...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code }, name)));
  select.value = language();
  select.addEventListener("change", async () => {
    const seat = page.table;
    setLanguage(select.value);
    localStorage.setItem("rk-language", select.value);
    // A player's switch is also saved as their own language: their other devices and whatever the service sends
    // them without a page's Accept-Language (a subscription opened elsewhere) follow it. The GM has the campaign's.
    let failed = null;
    if (seat && !seat.isGm()) {
      try { await seat.saveLanguage(select.value); } catch (err) { failed = err; }
    }
    await route();
    if (failed) main.append(problemBox(failed));
  });
  return el("header", {}, el("h1", {}, t("title")),
    el("label", { for: "language", class: "lang" }, t("language")), select);
}

function copyButton(text) {
  const b = el("button", { type: "button", class: "small" }, t("copy"));
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = t("copied"); } catch { /* the link is shown */ }
  });
  return b;
}

function linkBox(labelText, url, testid, qrName = null) {
  return el("div", { class: "link", "data-testid": testid }, el("span", {}, labelText),
    el("a", { href: url }, url), copyButton(url), qrName ? qrImage(url, qrName) : null);
}

// A join link as a QR code for a phone's camera, drawn here: the token stays in this page (a QR service would be
// sent the whole link). Error correction M survives a screen's glare; 4 px modules scan from arm's length.
function qrImage(url, alt) {
  const qr = qrcode(0, "M");
  qr.addData(url);
  qr.make();
  return el("img", { class: "qr", src: qr.createDataURL(4, 4), alt, "data-testid": "join-qr" });
}

// ---- setting up a campaign ----

async function setupView() {
  const [doc, list] = await Promise.all([openapi(), systems()]);
  const picker = el("select", { id: "system", name: "system" },
    ...list.map((s) => el("option", { value: s.id }, s.name)));
  const slot = el("div");
  const out = el("div");
  let form = null;
  const draw = () => {
    const system = list.find((s) => s.id === picker.value);
    const { schema } = campaignSchema(doc, system.id);
    const options = resolve(doc, schema.properties.options);
    const optionLabels = {};
    for (const k of Object.keys(options.properties || {})) optionLabels[k] = system.option_labels?.[k] || k;
    form = schemaForm(doc, schema, { skip: ["system"], labels: optionLabels,
                                     defaults: { language: language(), options: system.options } });
    slot.replaceChildren(form.node);
  };
  picker.addEventListener("change", draw);
  draw();
  const submit = el("button", { type: "submit" }, t("create"));
  const f = el("form", { class: "panel" }, el("h2", {}, t("new_campaign")),
    el("div", { class: "field" }, el("label", { for: "system" }, t("system")), picker), slot, submit, out);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    out.replaceChildren();
    try {
      const body = { ...form.read(), system: picker.value };
      const made = await api().post("/v1/campaigns", body);
      location.hash = new URLSearchParams({ campaign: made.campaign.id, token: made.gm_token }).toString();
    } catch (err) {
      out.replaceChildren(problemBox(err));
    }
  });
  return [f];
}

// ---- at the table ----

class Table {
  constructor(seat) {
    this.seat = seat;
    this.events = [];
    this.status = el("span", { class: "status", role: "status" }, t("loading"));
    this.log = el("ol", { class: "log", "aria-live": "polite" });
    this.stateBox = el("div", { class: "state" });
    this.awaitBox = el("div", { class: "awaiting" });
    this.movesBox = el("div", { class: "moves" });
    this.formBox = el("div", { class: "move-form" });
    this.sideBox = el("div");
    this.refreshing = null;
  }

  async load() {
    const { campaign, token } = this.seat;
    const a = api();
    const [doc, list, info] = await Promise.all([openapi(), systems(), a.get(`/v1/campaigns/${campaign}`, token)]);
    this.doc = doc;
    this.info = info;
    this.system = list.find((s) => s.id === info.system);
    this.prefix = campaignSchema(doc, info.system).prefix;
    await this.refresh();
  }

  refresh() {
    const run = this.reread().finally(() => { if (this.inflight === run) this.inflight = null; });
    this.inflight = run;
    return run;
  }

  async reread() {
    const { campaign, token } = this.seat;
    const a = api();
    const [state, chars, info] = await Promise.all([a.get(`/v1/campaigns/${campaign}/state`, token),
      a.get(`/v1/campaigns/${campaign}/characters`, token), a.get(`/v1/campaigns/${campaign}`, token)]);
    this.info = info;
    this.version = state.version;
    this.state = state.state;
    this.characters = chars.items;
    this.draw();
    this.reloadDice?.();
    await this.eventData();
  }

  // What each logged event carries (a note's text, the dice): read from the REST log, as this seat may see it.
  async eventData() {
    const shown = this.log.querySelectorAll(":scope > li:not([data-read])");
    if (!shown.length) return;
    const after = Number(shown[0].dataset.seq) - 1;
    const page = await api().get(`/v1/campaigns/${this.seat.campaign}/events?after=${after}&limit=500`, this.seat.token);
    const names = this.names();
    for (const e of page.items) {
      const li = this.log.querySelector(`:scope > li[data-seq="${e.seq}"]:not([data-read])`);
      if (!li) continue;
      li.dataset.read = "";
      if (e.data && Object.keys(e.data).length) {
        li.append(el("details", {}, el("summary", {}, e.type), value(e.data, names)));
      }
    }
  }

  // Several events arrive for one move: one reread of the table for all of them.
  soon() {
    clearTimeout(this.refreshing);
    this.refreshing = setTimeout(() => {
      this.refreshing = null;
      this.refresh().catch((err) => { this.status.textContent = String(err.message || err); });
    }, 60);
  }

  // The reread already under way for events this page has heard, done now: a move is sent against the version of
  // the table as drawn, not one a few milliseconds older than the log above it.
  async settled() {
    if (this.refreshing) {
      clearTimeout(this.refreshing);
      this.refreshing = null;
      await this.refresh();
    } else if (this.inflight) {
      await this.inflight;
    }
  }

  names() {
    const n = {};
    for (const c of this.characters || []) n[c.id] = c.name;
    for (const p of this.info.players || []) n[p.id] = p.name;
    return n;
  }

  saveLanguage(lang) {
    const { campaign, token } = this.seat;
    return api().rest("PUT", `/v1/campaigns/${campaign}/players/${this.info.you.player_id}/language`,
                      { body: { language: lang }, token });
  }

  // The language this player saved, unless one was picked on this device.
  savedLanguage() {
    if (this.isGm() || chosenHere()) return null;
    const lang = (this.info.players || []).find((p) => p.id === this.info.you.player_id)?.language;
    return lang && lang !== language() ? lang : null;
  }

  mine() { return new Set(this.info.you.character_ids || []); }
  isGm() { return this.info.you.role === "gm"; }

  label(type) { return this.system.action_labels?.[type] || type; }

  draw() {
    const names = this.names();
    const whole = this.stateBox.querySelector("details.whole");
    this.stateBox.replaceChildren(...renderTable(this.state, names, this.info.system));
    if (whole?.open) this.stateBox.querySelector("details.whole").open = true;
    const waits = awaitingOf(this.state);
    this.awaitBox.replaceChildren(el("h3", {}, t("whose_move")), waits.length
      ? el("ul", {}, ...waits.map((w) => el("li", { "data-testid": "awaiting" },
          el("strong", {}, w.who === "gm" ? t("gm") : (names[w.character_id] || w.character_id)), ": ",
          (w.may || []).map((m) => this.label(m)).join(", "),
          w.until ? el("span", { class: "until" }, ` — ${t("until")} ${new Date(w.until).toLocaleString(language())}`) : null)))
      : el("p", {}, t("nobody")));
    this.drawMoves(waits);
    this.drawSide();
  }

  myMoves(waits) {
    const mine = this.mine();
    const moves = [];
    for (const w of waits) {
      const ours = this.isGm() ? true : (w.who === "character" && mine.has(w.character_id));
      if (!ours) continue;
      for (const m of w.may || []) if (!moves.includes(m)) moves.push(m);
    }
    return moves;
  }

  drawMoves(waits) {
    const moves = this.myMoves(waits);
    // Unchanged moves keep their buttons: a control replaced under the pointer or the keyboard focus loses the press.
    const key = JSON.stringify([moves, language()]);
    if (key === this.movesKey) return;
    this.movesKey = key;
    const buttons = moves.map((m) => {
      const b = el("button", { type: "button", "data-move": m }, this.label(m));
      b.addEventListener("click", () => this.openMove(m));
      return b;
    });
    // `awaiting` says who play waits for; a seat may have other moves too (a test any time): all are offered.
    const other = el("select", { id: "other-move", "aria-label": t("other_move") }, el("option", { value: "" }, t("choose")),
      ...(this.system.actions || []).map((m) => el("option", { value: m }, this.label(m))));
    const go = el("button", { type: "button", class: "small" }, t("open"));
    go.addEventListener("click", () => other.value && this.openMove(other.value));
    this.movesBox.replaceChildren(el("h3", {}, t("your_moves")), el("div", { class: "buttons" }, ...buttons),
      el("div", { class: "field inline" }, el("label", { for: "other-move" }, t("other_move")), other, go));
  }

  characterChoices() {
    const mine = this.mine();
    const all = (this.characters || []).map((c) => [c.id, c.name]);
    return this.isGm() ? all : all.filter(([id]) => mine.has(id));
  }

  openMove(type) {
    const schema = actionSchema(this.doc, this.prefix, type);
    const chars = this.characterChoices();
    const choices = idChoices(null, { state: this.state, characters: this.characters || [], players: this.info.players,
                                      mine: this.mine(), isGm: this.isGm() });
    const form = schemaForm(this.doc, schema, { skip: ["type"], choices,
      defaults: chars.length === 1 ? { character_id: chars[0][0] } : {} });
    const dice = this.info.dice_mode === "table"
      ? el("div", { class: "field" }, el("label", { for: "dice" }, t("dice")),
           el("input", { id: "dice", type: "text", inputmode: "numeric", "aria-describedby": "dice-hint" }),
           el("small", { class: "hint", id: "dice-hint" }, t("dice_hint")))
      : null;
    const out = el("div");
    const cancel = el("button", { type: "button", class: "secondary" }, t("cancel"));
    cancel.addEventListener("click", () => this.formBox.replaceChildren());
    const f = el("form", { class: "panel", "data-testid": `move-${type}` }, el("h3", {}, this.label(type)),
      form.node, dice, el("div", { class: "buttons" }, el("button", { type: "submit" }, t("send")), cancel), out);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      out.replaceChildren();
      try {
        const body = { action: { type, ...form.read() } };
        const faces = dice?.querySelector("input").value.split(/[\s,]+/).filter(Boolean).map(Number);
        if (faces?.length) body.dice = faces;
        // Made on the table as this page last saw it: a move someone made since is a 412, not a move on a table
        // the player has not seen.
        try { await this.settled(); } catch { /* sent against the version last drawn */ }
        const done = await api().rest("POST", `/v1/campaigns/${this.seat.campaign}/actions`,
                                      { body, token: this.seat.token, ifMatch: this.version });
        this.state = done.state;
        this.version = done.version;
        this.formBox.replaceChildren(el("p", { class: "done", role: "status" }, `${t("done")}: `,
          done.events.map((e) => e.description).join(" · ")));
        this.soon();
      } catch (err) {
        if (err instanceof Problem && err.status === 412) {
          // The form stays as it was filled in, over the table as it is now: the player decides whether it still holds.
          out.replaceChildren(el("p", { class: "problem", role: "alert", "data-testid": "moved-on" }, t("moved_on")));
          try { await this.refresh(); } catch (again) { out.append(problemBox(again)); }
        } else {
          out.replaceChildren(problemBox(err));
        }
      }
    });
    this.formBox.replaceChildren(f);
    f.querySelector("input, select, textarea, button")?.focus();
  }

  drawSide() {
    // Drawn again on every event: the forms stay where they are (a moved field loses the focus and what is being
    // typed), only the list of players is redrawn.
    const want = [];
    if (this.isGm()) want.push(this.invitePanel ??= this.inviteForm());
    if (!this.isGm() && this.mine().size === 0) want.push(this.characterPanel ??= this.characterForm());
    if (this.info.dice_mode === "verifiable") want.push(this.dicePanel ??= this.diceForm());
    want.push(this.playersBox ??= el("div"));
    const now = [...this.sideBox.children];
    if (now.length !== want.length || want.some((node, i) => now[i] !== node)) this.sideBox.replaceChildren(...want);
    this.playersBox.replaceChildren(el("h3", {}, t("players")),
      el("ul", {}, ...(this.info.players || []).map((p) => el("li", {}, p.name))));
  }

  // Closed dice sessions checked here, by the browser's own recomputation (the GM closes the session).
  diceForm() {
    const list = el("ul", { class: "sessions" });
    const panel = el("section", { "data-testid": "dice-sessions" }, el("h3", {}, t("dice_sessions")), list);
    const base = `/v1/campaigns/${this.seat.campaign}/dice-sessions`;
    const load = async () => {
      const sessions = (await api().get(base, this.seat.token)).items;
      // Redrawn only when a session changed: a button replaced while it is pressed loses the press.
      const key = JSON.stringify([sessions, language()]);
      if (key === this.diceKey) return;
      this.diceKey = key;
      list.replaceChildren(...sessions.map((ds) => {
        const out = el("span", { role: "status" });
        const li = el("li", {}, `${t("session")} ${ds.number}: ${ds.status}, ${ds.rolls} ${t("dice_count")} `, out);
        if (ds.status === "closed") {
          const check = el("button", { type: "button", class: "small" }, t("check"));
          check.addEventListener("click", async () => {
            if (!globalThis.crypto?.subtle) { out.textContent = t("no_crypto"); return; }
            try {
              const r = await verifyDocument(await api().get(`${base}/${ds.number}/verification`, this.seat.token));
              out.textContent = r.ok ? `${t("verified")} (${r.dice})`
                : `${t("not_verified")}: ${JSON.stringify({ commitment: r.commitmentOk, mismatches: r.mismatches, gaps: r.gaps })}`;
              out.dataset.ok = String(r.ok);
            } catch (err) { out.replaceChildren(problemBox(err)); }
          });
          li.append(" ", check);
        }
        return li;
      }));
    };
    this.reloadDice = () => load().catch((err) => list.replaceChildren(problemBox(err)));
    if (this.isGm()) {
      const close = el("button", { type: "button", class: "small" }, t("close_session"));
      close.addEventListener("click", async () => {
        try { await api().post(`${base}/current/close`, undefined, this.seat.token); } catch (err) { list.append(problemBox(err)); }
        this.reloadDice();
      });
      panel.append(close);
    }
    this.reloadDice();
    return panel;
  }

  inviteForm() {
    const input = el("input", { id: "invite-name", type: "text", maxlength: 80, required: true });
    const links = el("div");
    const f = el("form", { class: "panel" }, el("h3", {}, t("invite")),
      el("div", { class: "field" }, el("label", { for: "invite-name" }, t("player_name")), input),
      el("button", { type: "submit" }, t("invite_button")), links);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const made = await api().post(`/v1/campaigns/${this.seat.campaign}/players`, { name: input.value.trim() },
                                      this.seat.token);
        links.append(linkBox(`${t("join_link")} ${made.player.name}`, seatLink(this.seat.campaign, made.token), "join-link",
                             `${t("join_qr")} ${made.player.name}`));
        input.value = "";
        this.soon();
      } catch (err) {
        links.append(problemBox(err));
      }
    });
    return f;
  }

  characterForm() {
    const schema = resolve(this.doc, { $ref: `#/components/schemas/${this.prefix}CharacterInput` });
    const form = schemaForm(this.doc, schema, {});
    const out = el("div");
    const f = el("form", { class: "panel", "data-testid": "character-form" }, el("h3", {}, t("new_character")), form.node,
      el("button", { type: "submit" }, t("create_character")), out);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      out.replaceChildren();
      try {
        await api().post(`/v1/campaigns/${this.seat.campaign}/characters`, { sheet: form.read() }, this.seat.token);
        await this.refresh();
      } catch (err) {
        out.replaceChildren(problemBox(err));
      }
    });
    return f;
  }

  addEvent(e) {
    this.log.append(el("li", { "data-seq": e.seq }, el("span", { class: "seq" }, `#${e.seq}`), " ", e.description));
    this.log.lastChild.scrollIntoView?.({ block: "nearest" });
    this.soon();
  }

  view() {
    const you = this.isGm() ? t("gm") : t("player");
    const parts = [el("section", { class: "panel title" }, el("h2", {}, this.info.name),
      el("p", {}, `${this.system.name} · ${t("you_are")}: `, el("strong", { "data-testid": "role" }, you), " · ", this.status))];
    if (this.isGm()) parts.push(linkBox(t("gm_link"), location.href, "gm-link"));
    parts.push(el("div", { class: "columns" },
      el("section", { class: "panel", "aria-label": t("table") }, el("h2", {}, t("table")), this.awaitBox, this.movesBox,
         this.formBox, this.stateBox),
      el("div", {}, el("section", { class: "panel" }, this.sideBox),
         el("section", { class: "panel", "aria-label": t("log") }, el("h2", {}, t("log")), this.log))));
    return parts;
  }

  follow() {
    this.feed = new Feed({ api: api(), token: this.seat.token, campaignId: this.seat.campaign, language: language(),
      onEvent: (e) => this.addEvent(e),
      onStatus: (s, err) => {
        this.status.textContent = s === "live" ? t("live") : s === "reconnecting" ? t("reconnecting") : (err?.message || s);
        this.status.dataset.state = s;
      } }).start();
    return this.feed;
  }
}

async function route() {
  page.feed?.stop();
  page.feed = null;
  page.table = null;
  const seat = seatFromHash();
  main.replaceChildren(header(), el("p", {}, t("loading")));
  try {
    if (!seat) {
      main.replaceChildren(header(), ...(await setupView()));
      return;
    }
    let table = new Table(seat);
    await table.load();
    const saved = table.savedLanguage();
    if (saved) {
      // Everything was read in the browser's language: read again in the saved one.
      setLanguage(saved);
      table = new Table(seat);
      await table.load();
    }
    main.replaceChildren(header(), ...table.view());
    page.table = table;
    page.feed = table.follow();
  } catch (err) {
    main.replaceChildren(header(), problemBox(err));
  }
}

setLanguage(pickLanguage());
window.addEventListener("hashchange", route);
route();
