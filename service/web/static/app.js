// @ts-check
// The web table: set up a campaign (GM), sit at it (GM or player, by the token in the link's fragment), play.
// Every call goes through the public GraphQL API (api.js, the operations in graphql/). Where the API is: `?api=`
// or the origin that served the page. The token is only ever in the fragment, which a browser never sends to a
// server.
import { Api, Attempt, Feed, Problem } from "./api.js";
import { el, LANGUAGES, language, loadLabels, setLanguage, t } from "./dom.js";
import { inputForm, Types } from "./forms.js";
import { camel, rulesShape } from "./shape.js";
import { awaitingOf, idChoices, renderTable, value } from "./table.js";
import { verifyDocument } from "./verify.js";
import qrcode from "./vendor/qrcode.mjs";

/** @typedef {import("../../../web/types/graphql").SeatFragment} Seat */
/** @typedef {import("../../../web/types/graphql").System} SystemId */
/** @typedef {import("../../../web/types/graphql").CampaignLanguage} CampaignLanguage */
/** @typedef {import("../../../web/types/graphql").LoggedEventFragment} LoggedEvent */
/** @typedef {import("../../../web/types/operations").Operations} Operations */
/** @typedef {import("../../../web/types/operations").TableQuery} TableQuery */
/**
 * A rule system as the page uses it: its names in the reader's language, keyed by the REST spelling.
 * @typedef {{ id: SystemId, name: string, actions: string[], optionLabels: Record<string, string>,
 *             actionLabels: Record<string, string> }} SystemInfo
 */

const query = new URLSearchParams(location.search);
const apiBase = query.get("api") || location.origin;
const main = /** @type {HTMLElement} */ (document.getElementById("main"));
/** @type {{ systems: SystemInfo[] | null, systemsLanguage: string | null, feed: Feed | null, table: Table | null }} */
const page = { systems: null, systemsLanguage: null, feed: null, table: null };

// Each system's names in GraphQL: its table query, its input types' prefix, its member of the @oneOf inputs.
/** @type {Record<SystemId, { table: "StepDiceTable" | "TrikusTable" | "DangerPoolTable" | "IskraTable" | "ActionDeckTable", prefix: string }>} */
const SYSTEMS = {
  stepdice: { table: "StepDiceTable", prefix: "StepDice" },
  trikus: { table: "TrikusTable", prefix: "Trikus" },
  danger_pool: { table: "DangerPoolTable", prefix: "DangerPool" },
  iskra: { table: "IskraTable", prefix: "Iskra" },
  action_deck: { table: "ActionDeckTable", prefix: "ActionDeck" },
};

// A language picked on this device (`?lang=`, or the switch) wins over the one a player saved for their seat.
const chosenHere = () => query.get("lang") || localStorage.getItem("rk-language");

function pickLanguage() {
  const asked = chosenHere() || navigator.language || "en";
  const code = asked.slice(0, 2).toLowerCase();
  return code in LANGUAGES ? code : "en";
}

/** @returns {{ campaign: string, token: string } | null} */
function seatFromHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const campaign = h.get("campaign"), token = h.get("token");
  return campaign && token ? { campaign, token } : null;
}

// A link to this page for a seat: the same page and API, the token after the '#'.
/** @param {string} campaign @param {string} token */
function seatLink(campaign, token) {
  const url = new URL(location.href);
  url.hash = new URLSearchParams({ campaign, token }).toString();
  return url.toString();
}

const api = () => new Api(apiBase, language());
// Input types do not change with the language: read once per page.
const types = new Types(api);

/** @param {Array<{ key: string, value: string }>} entries */
const byKey = (entries) => Object.fromEntries(entries.map((e) => [e.key, e.value]));

/** @returns {Promise<SystemInfo[]>} */
async function systems() {
  if (!page.systems || page.systemsLanguage !== language()) {
    const got = await api().call("Systems", {});
    page.systems = got.systems.map((s) => ({ id: s.id, name: s.name, actions: s.actions,
      optionLabels: byKey(s.optionLabels), actionLabels: byKey(s.actionLabels) }));
    page.systemsLanguage = language();
  }
  return page.systems;
}

/** A system's option names, by the GraphQL field they label. @param {SystemInfo} system */
const optionLabels = (system) => Object.fromEntries(Object.entries(system.optionLabels).map(([k, v]) => [camel(k), v]));

/** @param {any} err */
function problemBox(err) {
  const box = el("div", { class: "problem", role: "alert" });
  if (err instanceof Problem) {
    box.append(el("strong", {}, `${t("refused")}: `), el("code", {}, err.code), " ", err.detail,
               ...(err.field ? [el("small", {}, ` (${err.field})`)] : []));
  } else {
    box.append(el("strong", {}, `${t("refused")}: `), String(err.message || err));
  }
  return box;
}

function header() {
  const select = /** @type {HTMLSelectElement} */ (el("select", { id: "language" },
    ...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code }, name))));
  select.value = language();
  select.addEventListener("change", async () => {
    const seat = page.table;
    setLanguage(select.value);
    localStorage.setItem("rk-language", select.value);
    // A player's switch is also saved as their own language: their other devices and whatever the service sends
    // them without a page's Accept-Language (a subscription opened elsewhere) follow it. The GM has the campaign's.
    /** @type {unknown} */
    let failed = null;
    if (seat && !seat.isGm()) {
      try { await seat.saveLanguage(/** @type {CampaignLanguage} */ (select.value)); } catch (err) { failed = err; }
    }
    await route();
    if (failed) main.append(problemBox(failed));
  });
  return el("header", {}, el("h1", {}, t("title")),
    el("label", { for: "language", class: "lang" }, t("language")), select);
}

/** @param {string} text */
function copyButton(text) {
  const b = el("button", { type: "button", class: "small" }, t("copy"));
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = t("copied"); } catch { /* the link is shown */ }
  });
  return b;
}

/** @param {string} labelText @param {string} url @param {string} testid @param {string | null} [qrName] */
function linkBox(labelText, url, testid, qrName = null) {
  return el("div", { class: "link", "data-testid": testid }, el("span", {}, labelText),
    el("a", { href: url }, url), copyButton(url), qrName ? qrImage(url, qrName) : null);
}

// A join link as a QR code for a phone's camera, drawn here: the token stays in this page (a QR service would be
// sent the whole link). Error correction M survives a screen's glare; 4 px modules scan from arm's length.
/** @param {string} url @param {string} alt */
function qrImage(url, alt) {
  const qr = qrcode(0, "M");
  qr.addData(url);
  qr.make();
  return el("img", { class: "qr", src: qr.createDataURL(4, 4), alt, "data-testid": "join-qr" });
}

// ---- setting up a campaign ----

async function setupView() {
  const list = await systems();
  const picker = /** @type {HTMLSelectElement} */ (el("select", { id: "system", name: "system" },
    ...list.map((s) => el("option", { value: s.id }, s.name))));
  const slot = el("div", { id: "campaign-fields" });
  const out = el("div");
  /** @type {ReturnType<typeof inputForm> | null} */
  let form = null;
  let drawn = 0;
  // The campaign's fields, and the chosen system's options in place of the @oneOf of every system's. What was
  // typed before the system changed stays (the options are the new system's own).
  const draw = async () => {
    const mine = ++drawn;
    const system = /** @type {SystemInfo} */ (list.find((s) => s.id === picker.value));
    const oneOf = { OptionsInput: camel(system.id) };
    const loaded = await types.load("CreateCampaignInput", oneOf);
    if (mine !== drawn) return;
    /** @type {Record<string, unknown>} */
    let typed = { language: language() };
    try { typed = { ...typed, ...form?.read(), options: undefined }; } catch { /* not carried over */ }
    form = inputForm(loaded, "CreateCampaignInput", { skip: ["system"], labels: optionLabels(system), oneOf,
                                                      defaults: typed });
    slot.replaceChildren(form.node);
    slot.dataset.system = system.id; // which system's form is drawn (a page's tests wait for it)
  };
  // A campaign is created with the form of the system picked, never with the one still drawn for the last.
  let ready = draw();
  picker.addEventListener("change", () => {
    ready = draw();
    ready.catch((err) => slot.replaceChildren(problemBox(err)));
  });
  await ready;
  const submit = el("button", { type: "submit" }, t("create"));
  const f = el("form", { class: "panel" }, el("h2", {}, t("new_campaign")),
    el("div", { class: "field" }, el("label", { for: "system" }, t("system")), picker), slot, submit, out);
  /** @type {Attempt<Operations["CreateCampaign"][1], Operations["CreateCampaign"][0]>} */
  const creating = new Attempt();
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    out.replaceChildren();
    try {
      await ready;
      if (!form) return;
      /** @type {Operations["CreateCampaign"][1]["input"]} */
      const input = { .../** @type {any} */ (form.read()), system: /** @type {SystemId} */ (picker.value) };
      // Keyed: a lost answer is asked for again, and the campaign made (with its GM token) is answered, not a second.
      const made = (await creating.send(JSON.stringify(input), () => ({ input }),
                                        (variables, key) => api().write("CreateCampaign", variables, "", key))).createCampaign;
      location.hash = new URLSearchParams({ campaign: made.campaign.id, token: made.gmToken }).toString();
    } catch (err) {
      out.replaceChildren(problemBox(err));
    }
  });
  return [f];
}

// ---- at the table ----

class Table {
  /** @param {{ campaign: string, token: string }} seat */
  constructor(seat) {
    this.seat = seat;
    this.status = el("span", { class: "status", role: "status" }, t("loading"));
    this.log = el("ol", { class: "log", "aria-live": "polite" });
    this.stateBox = el("div", { class: "state" });
    this.awaitBox = el("div", { class: "awaiting" });
    this.movesBox = el("div", { class: "moves" });
    this.formBox = el("div", { class: "move-form" });
    this.sideBox = el("div");
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.refreshing = null;
    /** @type {Promise<void> | null} */
    this.inflight = null;
    /** @type {Seat} */
    this.info = /** @type {any} */ (null);
    /** @type {SystemInfo} */
    this.system = /** @type {any} */ (null);
    /** The table in the rules' spelling (shape.js), as table.js draws it. @type {any} */
    this.state = null;
    /** @type {number | null} */
    this.version = null;
    /** @type {Array<{ id: string, name: string, playerId?: string | null }>} */
    this.characters = [];
    /** @type {string | null} */
    this.movesKey = null;
    /** @type {string | null} */
    this.diceKey = null;
    /** @type {(() => void) | null} */
    this.reloadDice = null;
    /** @type {HTMLElement | null} */ this.invitePanel = null;
    /** @type {HTMLElement | null} */ this.characterPanel = null;
    /** @type {HTMLElement | null} */ this.dicePanel = null;
    /** @type {HTMLElement | null} */ this.playersBox = null;
    /** @type {Feed | null} */
    this.feed = null;
  }

  async load() {
    const [list, got] = await Promise.all([systems(), api().call("Campaign", { campaignId: this.seat.campaign },
                                                                   this.seat.token)]);
    this.info = got.campaign;
    this.system = /** @type {SystemInfo} */ (list.find((s) => s.id === got.campaign.system));
    await this.refresh();
  }

  get names() { return SYSTEMS[this.info.system]; }

  refresh() {
    const run = this.reread().finally(() => { if (this.inflight === run) this.inflight = null; });
    this.inflight = run;
    return run;
  }

  // The table, the seat and the characters in one query: the system's own, selecting every field of its state.
  async reread() {
    /** @type {TableQuery} */
    const got = await api().call(this.names.table, { campaignId: this.seat.campaign }, this.seat.token);
    this.info = got.campaign;
    this.version = got.state.version;
    this.state = rulesShape(got.state.state);
    this.characters = got.characters;
    this.draw();
    this.reloadDice?.();
  }

  // Several events arrive for one move: one reread of the table for all of them.
  soon() {
    if (this.refreshing) clearTimeout(this.refreshing);
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

  nameMap() {
    /** @type {Record<string, string>} */
    const n = {};
    for (const c of this.characters) n[c.id] = c.name;
    for (const p of this.info.players) n[p.id] = p.name;
    return n;
  }

  /** @param {CampaignLanguage} lang */
  saveLanguage(lang) {
    const playerId = this.info.you.playerId;
    if (!playerId) return Promise.resolve(null);
    return api().call("SetPlayerLanguage", { input: { campaignId: this.seat.campaign, playerId, language: lang } },
                      this.seat.token);
  }

  // The language this player saved, unless one was picked on this device.
  savedLanguage() {
    if (this.isGm() || chosenHere()) return null;
    const lang = this.info.players.find((p) => p.id === this.info.you.playerId)?.language;
    return lang && lang !== language() ? lang : null;
  }

  mine() { return new Set(this.info.you.characterIds); }
  isGm() { return this.info.you.role === "gm"; }

  /** @param {string} type */
  label(type) { return this.system.actionLabels[type] || type; }

  draw() {
    const names = this.nameMap();
    const whole = /** @type {HTMLDetailsElement | null} */ (this.stateBox.querySelector("details.whole"));
    this.stateBox.replaceChildren(...renderTable(this.state, names, this.info.system));
    const again = /** @type {HTMLDetailsElement | null} */ (this.stateBox.querySelector("details.whole"));
    if (whole?.open && again) again.open = true;
    /** @type {Array<{ who: string, character_id?: string | null, may?: string[], until?: string | null }>} */
    const waits = awaitingOf(this.state);
    this.awaitBox.replaceChildren(el("h3", {}, t("whose_move")), waits.length
      ? el("ul", {}, ...waits.map((w) => el("li", { "data-testid": "awaiting" },
          el("strong", {}, w.who === "gm" ? t("gm") : (names[w.character_id || ""] || w.character_id)), ": ",
          (w.may || []).map((m) => this.label(m)).join(", "),
          w.until ? el("span", { class: "until" }, ` — ${t("until")} ${new Date(w.until).toLocaleString(language())}`) : null)))
      : el("p", {}, t("nobody")));
    this.drawMoves(waits);
    this.drawSide();
  }

  /** @param {Array<{ who: string, character_id?: string | null, may?: string[] }>} waits */
  myMoves(waits) {
    const mine = this.mine();
    /** @type {string[]} */
    const moves = [];
    for (const w of waits) {
      const ours = this.isGm() ? true : (w.who === "character" && mine.has(w.character_id || ""));
      if (!ours) continue;
      for (const m of w.may || []) if (!moves.includes(m)) moves.push(m);
    }
    return moves;
  }

  /** @param {Array<{ who: string, character_id?: string | null, may?: string[] }>} waits */
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
    const other = /** @type {HTMLSelectElement} */ (el("select", { id: "other-move", "aria-label": t("other_move") },
      el("option", { value: "" }, t("choose")), ...this.system.actions.map((m) => el("option", { value: m }, this.label(m)))));
    const go = el("button", { type: "button", class: "small" }, t("open"));
    go.addEventListener("click", () => { if (other.value) this.openMove(other.value); });
    this.movesBox.replaceChildren(el("h3", {}, t("your_moves")), el("div", { class: "buttons" }, ...buttons),
      el("div", { class: "field inline" }, el("label", { for: "other-move" }, t("other_move")), other, go));
  }

  characterChoices() {
    const mine = this.mine();
    /** @type {Array<[string, string]>} */
    const all = this.characters.map((c) => [c.id, c.name]);
    return this.isGm() ? all : all.filter(([id]) => mine.has(id));
  }

  /** A move (its REST `type`, as `awaiting` names it): the form of its field of the system's ActionInput. @param {string} type */
  async openMove(type) {
    try {
      this.formBox.replaceChildren(this.moveForm(type, await this.moveTypes(type)));
    } catch (err) {
      this.formBox.replaceChildren(problemBox(err));
      return;
    }
    /** @type {HTMLElement | null} */ (this.formBox.querySelector("input, select, textarea, button"))?.focus();
  }

  /** @param {string} type */
  async moveTypes(type) {
    const union = `${this.names.prefix}ActionInput`;
    const field = camel(type);
    const loaded = await types.load(union, { [union]: field });
    const ref = (loaded.get(union)?.inputFields || []).find((f) => f.name === field)?.type;
    if (!ref) throw new Error(`${union} has no move ${field}`);
    // A move without fields is sent as `true`.
    return { loaded, field, input: ref.kind === "INPUT_OBJECT" ? ref.name : ref.ofType?.kind === "INPUT_OBJECT"
      ? ref.ofType.name : null };
  }

  /**
   * @param {string} type
   * @param {{ loaded: Awaited<ReturnType<Types["load"]>>, field: string, input: string | null | undefined }} found
   */
  moveForm(type, { loaded, field, input }) {
    const chars = this.characterChoices();
    // Every field that names something at the table (a character, an enemy, a player, a legend) is a choice of them,
    // at any depth of the move's input (an open session's players name their characters).
    const union = `${this.names.prefix}ActionInput`;
    const fields = input ? [...new Set([...loaded].filter(([n]) => n !== union)
      .flatMap(([, ty]) => (ty.inputFields || []).map((f) => f.name)))] : [];
    const choices = idChoices(fields, { state: this.state, characters: this.characters, players: this.info.players,
                                        mine: this.mine(), isGm: this.isGm() });
    const form = input ? inputForm(loaded, input, { choices, defaults: chars.length === 1 ? { characterId: chars[0][0] } : {} })
      : { node: null, read: () => true };
    const dice = this.info.diceMode === "table"
      ? el("div", { class: "field" }, el("label", { for: "dice" }, t("dice")),
           el("input", { id: "dice", type: "text", inputmode: "numeric", "aria-describedby": "dice-hint" }),
           el("small", { class: "hint", id: "dice-hint" }, t("dice_hint")))
      : null;
    const out = el("div");
    const cancel = el("button", { type: "button", class: "secondary" }, t("cancel"));
    cancel.addEventListener("click", () => this.formBox.replaceChildren());
    const f = el("form", { class: "panel", "data-testid": `move-${type}` }, el("h3", {}, this.label(type)),
      form.node, dice, el("div", { class: "buttons" }, el("button", { type: "submit" }, t("send")), cancel), out);
    // A move whose answer never came may have been made: the same input submitted again is the same attempt.
    /** @type {Attempt<Operations["Act"][1], Operations["Act"][0]>} */
    const attempt = new Attempt();
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      out.replaceChildren();
      try {
        const action = /** @type {any} */ ({ [camel(this.info.system)]: { [field]: form.read() } });
        const faces = /** @type {HTMLInputElement | null} */ (dice?.querySelector("input"))?.value
          .split(/[\s,]+/).filter(Boolean).map(Number);
        const done = (await attempt.send(JSON.stringify([action, faces]), async () => {
          // Made on the table as this page last saw it: a move someone made since is refused (`version_mismatch`),
          // not made on a table the player has not seen.
          try { await this.settled(); } catch { /* sent against the version last drawn */ }
          return { input: { campaignId: this.seat.campaign, action, dice: faces?.length ? faces : null, ifMatch: this.version } };
        }, (variables, key) => api().write("Act", variables, this.seat.token, key))).act;
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
    return f;
  }

  drawSide() {
    // Drawn again on every event: the forms stay where they are (a moved field loses the focus and what is being
    // typed), only the list of players is redrawn.
    /** @type {HTMLElement[]} */
    const want = [];
    if (this.isGm()) want.push(this.invitePanel ??= this.inviteForm());
    if (!this.isGm() && this.mine().size === 0) want.push(this.characterPanel ??= this.characterForm());
    if (this.info.diceMode === "verifiable") want.push(this.dicePanel ??= this.diceForm());
    const players = this.playersBox ??= el("div");
    want.push(players);
    const now = [...this.sideBox.children];
    if (now.length !== want.length || want.some((node, i) => now[i] !== node)) this.sideBox.replaceChildren(...want);
    players.replaceChildren(el("h3", {}, t("players")),
      el("ul", {}, ...this.info.players.map((p) => el("li", {}, p.name))));
  }

  // Closed dice sessions checked here, by the browser's own recomputation (the GM closes the session).
  diceForm() {
    const list = el("ul", { class: "sessions" });
    const panel = el("section", { "data-testid": "dice-sessions" }, el("h3", {}, t("dice_sessions")), list);
    const campaignId = this.seat.campaign, token = this.seat.token;
    const load = async () => {
      const sessions = (await api().call("DiceSessions", { campaignId }, token)).diceSessions;
      // Redrawn only when a session changed: a button replaced while it is pressed loses the press.
      const key = JSON.stringify([sessions, language()]);
      if (key === this.diceKey) return;
      this.diceKey = key;
      list.replaceChildren(...sessions.map((ds) => {
        const out = el("span", { role: "status" });
        const li = el("li", {}, `${t("session")} ${ds.number}: ${t(`session_${ds.status}`)}, ${ds.rolls} ${t("dice_count")} `,
                      out);
        if (ds.status === "closed") {
          const check = el("button", { type: "button", class: "small" }, t("check"));
          check.addEventListener("click", async () => {
            if (!globalThis.crypto?.subtle) { out.textContent = t("no_crypto"); return; }
            try {
              const got = await api().call("DiceSessionVerification", { campaignId, number: ds.number }, token);
              const r = await verifyDocument(got.diceSessionVerification);
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
    const reload = () => { load().catch((err) => list.replaceChildren(problemBox(err))); };
    this.reloadDice = reload;
    if (this.isGm()) {
      const close = el("button", { type: "button", class: "small" }, t("close_session"));
      /** @type {Attempt<Operations["CloseDiceSession"][1], Operations["CloseDiceSession"][0]>} */
      const closing = new Attempt();
      close.addEventListener("click", async () => {
        try {
          await closing.send(campaignId, () => ({ input: { campaignId } }),
                             (variables, key) => api().write("CloseDiceSession", variables, token, key));
        } catch (err) { list.append(problemBox(err)); }
        reload();
      });
      panel.append(close);
    }
    reload();
    return panel;
  }

  inviteForm() {
    const input = /** @type {HTMLInputElement} */ (el("input", { id: "invite-name", type: "text", maxlength: 80, required: true }));
    const links = el("div");
    const f = el("form", { class: "panel" }, el("h3", {}, t("invite")),
      el("div", { class: "field" }, el("label", { for: "invite-name" }, t("player_name")), input),
      el("button", { type: "submit" }, t("invite_button")), links);
    /** @type {Attempt<Operations["InvitePlayer"][1], Operations["InvitePlayer"][0]>} */
    const inviting = new Attempt();
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const name = input.value.trim();
        const made = (await inviting.send(name, () => ({ input: { campaignId: this.seat.campaign, name } }),
                                          (variables, key) => api().write("InvitePlayer", variables, this.seat.token, key))).invitePlayer;
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
    const slot = el("div");
    const out = el("div");
    const name = `${this.names.prefix}CharacterInput`;
    /** @type {ReturnType<typeof inputForm> | null} */
    let form = null;
    types.load(name).then((loaded) => {
      form = inputForm(loaded, name, {});
      slot.replaceChildren(form.node);
    }).catch((err) => slot.replaceChildren(problemBox(err)));
    const f = el("form", { class: "panel", "data-testid": "character-form" }, el("h3", {}, t("new_character")), slot,
      el("button", { type: "submit" }, t("create_character")), out);
    /** @type {Attempt<Operations["CreateCharacter"][1], Operations["CreateCharacter"][0]>} */
    const creating = new Attempt();
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      out.replaceChildren();
      try {
        if (!form) return;
        const sheet = /** @type {any} */ ({ [camel(this.info.system)]: form.read() });
        await creating.send(JSON.stringify(sheet), () => ({ input: { campaignId: this.seat.campaign, sheet } }),
                            (variables, key) => api().write("CreateCharacter", variables, this.seat.token, key));
        await this.refresh();
      } catch (err) {
        out.replaceChildren(problemBox(err));
      }
    });
    return f;
  }

  // An event as the log shows it: its words, and (opened) its type and what the page selected of its data.
  /** @param {LoggedEvent} e */
  addEvent(e) {
    const data = rulesShape(e.data);
    const shown = data && typeof data === "object" && Object.keys(data).length ? value(data, this.nameMap()) : null;
    this.log.append(el("li", { "data-seq": e.seq }, el("span", { class: "seq" }, `#${e.seq}`), " ", e.description,
      el("details", {}, el("summary", {}, e.type), shown)));
    /** @type {HTMLElement} */ (this.log.lastChild).scrollIntoView?.({ block: "nearest" });
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
    await loadLabels(language());
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
      await loadLabels(saved);
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
