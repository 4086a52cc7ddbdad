// The table as the API returns it (in the rules' own spelling), drawn for reading at a glance: each system's
// board first (Step Dice's encounter grid, enemies and clocks; Action Deck's initiative cards, bennies and the
// deal; Trikus's lines, tokens and the pool; Danger Pool's pool, progress track and elements; Iskra's wounds,
// focus and the world), then the characters, and under it a structured view of the whole state. Only what this
// seat was sent is drawn: a player's page never holds what the service keeps from them.
import { el, language, t } from "./dom.js";
import { humanize } from "./forms.js";

// The board's own words; everything the rules say comes translated from the server.
const WORDS = {
  en: {
    characters: "Characters", encounter: "Encounter", round: "Round", phase: "Phase", enemies: "Enemies",
    clocks: "Clocks", hearts: "Hearts", mana: "Mana", initiative: "Initiative", bennies: "Bennies",
    gm_pool: "GM pool", npc_bennies: "NPC bennies", wounds: "Wounds", fatigue: "Fatigue", deal: "The deal",
    draw_pile: "Cards left", discard_pile: "Discarded", in_play: "In play", session: "Session", acting: "acting",
    on_hold: "on hold", joker: "Joker", lines: "Lines", light_tokens: "Light tokens", dark_tokens: "Dark tokens",
    morale: "Morale dice", pool: "The pool", gm_dice: "GM dice", unthrown: "Dice not thrown", thrown: "Thrown",
    wave: "Wave", stakes: "Stakes", resets: "Party resets", danger_pool: "Danger pool", progress: "Progress",
    elements: "Revealed elements", hidden_elements: "Elements (hidden from players)", hidden: "hidden",
    stamina: "Stamina", character_points: "Character points", scars: "Scars", last_roll: "Last roll",
    player_dice: "Player", danger_dice: "Danger", goal: "Goal", leader: "Leader", health: "Health",
    focus: "Focus points", xp: "XP", world: "The world", day: "Day", locations: "Locations", pending: "Waiting on",
    deaths_door: "Death's Door", order: "Order", dice: "dice", of: "of", none: "—", details: "All of it",
    segments: "segments", adversities: "Adversities",
  },
  pl: {
    characters: "Postacie", encounter: "Starcie", round: "Runda", phase: "Faza", enemies: "Wrogowie",
    clocks: "Zegary", hearts: "Serca", mana: "Mana", initiative: "Inicjatywa", bennies: "Fuksy",
    gm_pool: "Pula MG", npc_bennies: "Fuksy BN", wounds: "Rany", fatigue: "Zmęczenie", deal: "Rozdanie",
    draw_pile: "Karty w talii", discard_pile: "Odrzucone", in_play: "W grze", session: "Sesja", acting: "działa",
    on_hold: "czeka", joker: "Joker", lines: "Linie", light_tokens: "Żetony jasnej strony",
    dark_tokens: "Żetony ciemnej strony", morale: "Kości morale", pool: "Pula", gm_dice: "Kości MG",
    unthrown: "Kości nierzucone", thrown: "Rzucone", wave: "Fala", stakes: "Stawka", resets: "Odnowienia drużyny",
    danger_pool: "Pula zagrożenia", progress: "Postęp", elements: "Ujawnione elementy",
    hidden_elements: "Elementy (ukryte przed graczami)", hidden: "ukryty", stamina: "Wytrzymałość",
    character_points: "Punkty postaci", scars: "Blizny", last_roll: "Ostatni rzut", player_dice: "Gracz",
    danger_dice: "Zagrożenie", goal: "Cel", leader: "Przywódca", health: "Zdrowie", focus: "Punkty skupienia",
    xp: "PD", world: "Świat", day: "Dzień", locations: "Miejsca", pending: "Oczekuje", deaths_door: "Próg śmierci",
    order: "Kolejność", dice: "kości", of: "z", none: "—", details: "Wszystko", segments: "segmentów",
    adversities: "Przeciwności",
  },
  ru: {
    characters: "Персонажи", encounter: "Схватка", round: "Раунд", phase: "Фаза", enemies: "Враги",
    clocks: "Часы", hearts: "Сердца", mana: "Мана", initiative: "Инициатива", bennies: "Фишки",
    gm_pool: "Запас ведущего", npc_bennies: "Фишки NPC", wounds: "Раны", fatigue: "Усталость", deal: "Раздача",
    draw_pile: "Карт в колоде", discard_pile: "Сброс", in_play: "В игре", session: "Сессия", acting: "действует",
    on_hold: "ждёт", joker: "Джокер", lines: "Линии", light_tokens: "Светлые жетоны", dark_tokens: "Тёмные жетоны",
    morale: "Кубы морали", pool: "Пул", gm_dice: "Кубы ведущего", unthrown: "Не брошено", thrown: "Брошено",
    wave: "Волна", stakes: "Ставки", resets: "Восстановления отряда", danger_pool: "Пул опасности",
    progress: "Прогресс", elements: "Раскрытые элементы", hidden_elements: "Элементы (скрыты от игроков)",
    hidden: "скрыт", stamina: "Выносливость", character_points: "Очки персонажа", scars: "Шрамы",
    last_roll: "Последний бросок", player_dice: "Игрок", danger_dice: "Опасность", goal: "Цель", leader: "Лидер",
    health: "Здоровье", focus: "Очки фокуса", xp: "Опыт", world: "Мир", day: "День", locations: "Места",
    pending: "Ожидается", deaths_door: "На пороге смерти", order: "Порядок", dice: "кубов", of: "из", none: "—",
    details: "Всё целиком", segments: "делений", adversities: "Невзгоды",
  },
};
const w = (key) => WORDS[language()]?.[key] ?? WORDS.en[key] ?? key;

const obj = (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});
const list = (v) => (Array.isArray(v) ? v : []);
const num = (v) => (typeof v === "number" ? v : null);

// A named number: "Hearts 4/5".
/** @param {string} label @param {unknown} v @param {unknown} [max] @param {string | null} [testid] */
function gauge(label, v, max = null, testid = null) {
  if (num(v) === null) return null;
  return el("span", { class: "gauge", "data-testid": testid }, `${label} `, el("b", {}, max === null ? v : `${v}/${max}`));
}

// `filled` of `total` boxes, readable as text too: a progress track, a clock, a line of dice.
function boxes(filled, total, label, kind = "") {
  const cells = [];
  for (let i = 0; i < Math.min(total, 40); i++) cells.push(el("span", { class: `box ${i < filled ? "on" : ""} ${kind}` }));
  return el("span", { class: "boxes", role: "img", "aria-label": `${label}: ${filled}/${total}` }, ...cells);
}

// Dice faces as small squares, each with its number.
function dice(faces, kind = "") {
  return el("span", { class: `dice ${kind}` }, ...list(faces).map((f) => el("span", { class: "die" }, String(f))));
}

function section(title, testid, ...body) {
  const kept = body.flat().filter(Boolean);
  if (!kept.length) return null;
  return el("section", { class: "board", "data-testid": testid }, el("h3", {}, title), ...kept);
}

function card(name, tags, ...rows) {
  return el("li", { class: "card" }, el("strong", {}, name), " ",
    ...tags.filter((x) => typeof x === "string" && x).map((x) => el("span", { class: "tag" }, x)),
    el("div", { class: "gauges" }, ...rows.flat().filter(Boolean)));
}

// Generic numbers of a sheet (Step Dice keeps `hearts` and `hearts_max`: shown as one "Hearts 4/5").
function gauges(o, labels = {}) {
  const out = [];
  for (const [k, v] of Object.entries(o)) {
    if (typeof v !== "number" || k.endsWith("_max")) continue;
    const max = o[`${k}_max`];
    out.push(gauge(labels[k] || humanize(k), v, max === undefined ? null : max));
  }
  return out;
}

function charactersSection(state, names, draw) {
  const chars = Object.entries(obj(state.characters));
  if (!chars.length) return null;
  return section(w("characters"), "characters", el("ul", { class: "cards" },
    ...chars.map(([id, c]) => draw(id, obj(c), c.name || names[id] || id))));
}

// ---- Step Dice ----

function grid(encounter, names) {
  const pieces = [];
  for (const [id, pc] of Object.entries(obj(encounter.pcs))) if (pc?.position) pieces.push([names[id] || id, pc.position, "pc"]);
  for (const [id, e] of Object.entries(obj(encounter.enemies))) if (e?.position) pieces.push([e.name || id, e.position, "foe"]);
  if (!pieces.length) return null;
  const xs = pieces.map(([, p]) => p.x), ys = pieces.map(([, p]) => p.y);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  // The smallest board that holds them all, at most 12 squares a side.
  const [cols, rows] = [Math.min(Math.max(...xs) - x0 + 1, 12), Math.min(Math.max(...ys) - y0 + 1, 12)];
  const cells = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const here = pieces.filter(([, p]) => p.x - x0 === x && p.y - y0 === y);
      cells.push(el("div", { class: `cell ${here[0]?.[2] || ""}`, title: here.map(([n]) => n).join(", ") || null },
        here.map(([n]) => n.slice(0, 2)).join(" ")));
    }
  }
  const label = pieces.map(([n, p]) => `${n} (${p.x}, ${p.y})`).join("; ");
  const board = el("div", { class: "grid", role: "img", "aria-label": label, "data-testid": "grid" }, ...cells);
  board.style.setProperty("--cols", String(cols));  // through the CSSOM: the page's policy allows no style attributes
  return board;
}

function stepDice(state, names) {
  const table = obj(state.table);
  const enc = table.encounter ? obj(table.encounter) : null;
  const foes = Object.entries(obj(enc?.enemies));
  const clocks = Object.values(obj(table.clocks));
  return [
    enc && section(w("encounter"), "encounter",
      el("p", {}, gauge(w("round"), enc.round), typeof enc.phase === "string" ? el("span", { class: "tag" }, humanize(enc.phase)) : null),
      grid(enc, names),
      foes.length ? el("ul", { class: "cards" }, ...foes.map(([id, e]) => el("li", { class: "card enemy" },
        el("strong", {}, e.name || id), " ", ...[e.kind, e.state].filter((x) => typeof x === "string").map((x) => el("span", { class: "tag" }, x)),
        el("div", { class: "gauges" }, gauge("TN", e.tn), gauge(w("wounds"), e.wounds_taken, num(e.wounds_max)))))) : null),
    clocks.length ? section(w("clocks"), "clocks", el("ul", { class: "plain" }, ...clocks.map((c) => el("li", {},
      el("strong", {}, c.label), " ", boxes(c.value || 0, c.length || 0, c.label, "clock"), " ",
      el("span", { class: "tag" }, c.status || ""), c.consequence ? el("small", { class: "hint" }, ` ${c.consequence}`) : null)))) : null,
    charactersSection(state, names, (id, c, name) => card(name, [c.role, c.condition],
      gauge(w("hearts"), c.hearts, num(c.hearts_max)), gauge(w("mana"), c.mana, num(c.mana_max)))),
  ];
}

// ---- Action Deck ----

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
function playingCard(code) {
  if (typeof code !== "string") return null;
  if (code.startsWith("JK")) return el("span", { class: "pcard joker" }, `🃏 ${w("joker")}`);
  const suit = code.slice(-1);
  return el("span", { class: `pcard ${suit === "H" || suit === "D" ? "red" : ""}` }, code.slice(0, -1) + (SUITS[suit] || suit));
}

function actionDeck(state, names) {
  const table = obj(state.table);
  const enc = table.encounter ? obj(table.encounter) : null;
  const parts = obj(enc?.participants);
  const deck = obj(table.deck);
  const players = Object.entries(obj(table.players));
  const gm = table.gm ? obj(table.gm) : null;
  return [
    enc && section(w("initiative"), "initiative",
      el("p", {}, gauge(w("round"), enc.round), typeof enc.phase === "string" ? el("span", { class: "tag" }, humanize(enc.phase)) : null),
      el("ol", { class: "initiative" }, ...list(enc.order).map((cid) => {
        const slot = obj(parts[cid]);
        const current = enc.current_turn === cid;
        return el("li", { class: current ? "current" : null, "aria-current": current ? "true" : null },
          playingCard(slot.card) || el("span", { class: "pcard none" }, w("none")), " ", el("strong", {}, names[cid] || cid),
          current ? el("span", { class: "tag" }, w("acting")) : null, slot.on_hold ? el("span", { class: "tag" }, w("on_hold")) : null,
          list(slot.candidates).length > 1 ? el("span", { class: "candidates" }, " (", ...list(slot.candidates).map(playingCard), ")") : null);
      }))),
    section(w("bennies"), "bennies",
      players.length ? el("ul", { class: "plain" }, ...players.map(([pid, p]) => el("li", { "data-testid": "bennies-of" },
        `${names[pid] || pid}: `, el("b", {}, String(obj(p).bennies ?? 0))))) : null,
      gm ? el("p", { "data-testid": "gm-bennies" }, gauge(w("gm_pool"), gm.benny_pool),
        ...Object.entries(obj(gm.npc_bennies)).map(([cid, n]) => gauge(names[cid] || cid, n))) : null),
    (table.deck || table.session) && section(w("deal"), "deal",
      table.session ? el("p", {}, `${w("session")} ${table.session.number ?? ""}: `, el("span", { class: "tag" }, table.session.status || "")) : null,
      table.deck ? el("p", {}, gauge(w("draw_pile"), deck.draw_pile_count), gauge(w("in_play"), list(deck.in_play).length)) : null,
      list(deck.discard_pile).length ? el("p", {}, `${w("discard_pile")}: `, ...list(deck.discard_pile).map(playingCard)) : null),
    charactersSection(state, names, (id, c, name) => card(name, [c.side, c.kind, c.shaken ? "shaken" : null, c.stunned ? "stunned" : null],
      gauge(w("wounds"), c.wounds), gauge(w("fatigue"), c.fatigue))),
  ];
}

// ---- Trikus ----

function trikus(state, names) {
  const table = obj(state.table);
  const act = table.activity ? obj(table.activity) : null;
  const contest = act?.contest ? obj(act.contest) : null;
  const unthrown = obj(contest?.unthrown);
  return [
    act && section(w("pool"), "pool",
      el("p", {}, el("span", { class: "tag" }, humanize(act.kind || "")), el("span", { class: "tag" }, humanize(act.phase || "")),
        gauge(w("gm_dice"), act.gm_pool), contest ? gauge(w("wave"), contest.wave) : null),
      act.stakes ? el("p", { class: "hint" }, `${w("stakes")}: `, [act.stakes.on_success, act.stakes.on_failure].filter(Boolean).join(" / ")) : null,
      contest ? el("p", {}, `${w("unthrown")}: `, ...Object.entries(unthrown).map(([who, n]) =>
        gauge(who === "gm" ? t("gm") : (names[who] || who), n))) : null,
      contest && list(contest.dice).length ? el("p", {}, `${w("thrown")}: `, ...list(contest.dice).map((d) =>
        el("span", { class: "throw" }, `${d.thrower === "gm" ? t("gm") : (names[d.thrower] || d.thrower || "")} `, dice([d.value])))) : null),
    num(table.reset_count) !== null ? section(w("resets"), "resets", el("p", {}, gauge(w("resets"), table.reset_count))) : null,
    charactersSection(state, names, (id, c, name) => card(name, [c.tier, c.status],
      el("div", { class: "lines", "data-testid": "lines" }, `${w("lines")}: `, ...list(c.lines).map((ln) =>
        el("span", { class: `line ${ln.state}`, title: ln.state }, boxes(ln.state === "free" ? ln.dice : 0, ln.dice, `${ln.dice} ${w("dice")} ${ln.state}`),
          el("small", {}, ` ${ln.state}`)))),
      gauge(w("morale"), c.morale_dice), gauge(w("light_tokens"), obj(c.light_tokens).active),
      gauge(w("dark_tokens"), obj(c.dark_tokens).active))),
  ];
}

// ---- Danger Pool ----

function dangerPool(state, names) {
  const table = obj(state.table);
  const sc = table.scene ? obj(table.scene) : null;
  const els = list(sc?.elements);
  const shown = els.filter((e) => e.revealed);
  const hidden = els.filter((e) => !e.revealed);  // only the GM is ever sent these
  const roll = obj(sc?.last_roll || sc?.roll);
  return [
    sc && section(w("danger_pool"), "danger-pool",
      sc.goal ? el("p", {}, `${w("goal")}: `, el("strong", {}, sc.goal)) : null,
      el("p", {}, sc.leader_id ? `${w("leader")}: ${names[sc.leader_id] || sc.leader_id} ` : "", gauge(w("round"), sc.round),
        typeof sc.phase === "string" ? el("span", { class: "tag" }, humanize(sc.phase)) : null),
      num(sc.danger_pool_size) !== null ? el("p", { "data-testid": "danger-dice" }, gauge(w("danger_pool"), sc.danger_pool_size), " ",
        dice(Array(Math.min(sc.danger_pool_size, 40)).fill("⚠"), "danger")) : null,
      num(sc.progress_track_length) !== null ? el("p", { "data-testid": "progress" }, gauge(w("progress"), sc.progress_marked, sc.progress_track_length), " ",
        boxes(sc.progress_marked || 0, sc.progress_track_length, w("progress"), "track")) : null,
      roll.player_dice ? el("p", { "data-testid": "last-roll" }, `${w("last_roll")}: ${w("player_dice")} `, dice(roll.player_dice),
        ` ${w("danger_dice")} `, dice(roll.danger_dice, "danger"), el("span", { class: "tag" }, roll.outcome || humanize(roll.state || ""))) : null),
    shown.length ? section(w("elements"), "elements", el("ul", {}, ...shown.map((e) => el("li", {}, e.text)))) : null,
    hidden.length ? section(w("hidden_elements"), "hidden-elements",
      el("ul", {}, ...hidden.map((e) => el("li", {}, e.text, " ", el("span", { class: "tag" }, w("hidden")))))) : null,
    charactersSection(state, names, (id, c, name) => card(name, [c.status],
      gauge(w("stamina"), c.stamina, num(c.stamina_max)), gauge(w("character_points"), c.character_points),
      list(c.scars).length ? gauge(w("scars"), list(c.scars).length) : null)),
  ];
}

// ---- Iskra ----

function iskra(state, names) {
  const table = obj(state.table);
  const derived = obj(state.derived);
  const session = obj(table.session);
  const pending = table.pending ? obj(table.pending) : null;
  const enc = table.encounter ? obj(table.encounter) : null;
  const locations = Object.entries(obj(table.locations));
  return [
    section(w("world"), "world",
      el("p", {}, `${w("session")} ${session.number ?? ""} `, session.state ? el("span", { class: "tag" }, humanize(session.state)) : null,
        gauge(w("day"), table.day)),
      locations.length ? el("p", {}, `${w("locations")}: `, locations.map(([id, l]) => obj(l).name || id).join(", ")) : null,
      enc ? el("p", {}, gauge(w("round"), enc.round), list(enc.order).length ? `${w("order")}: ${list(enc.order).map((c) => names[c] || c).join(", ")}` : "") : null,
      pending ? el("p", { "data-testid": "pending" }, `${w("pending")}: `, el("span", { class: "tag" }, humanize(pending.kind || "")),
        pending.stage ? el("span", { class: "tag" }, humanize(pending.stage)) : null,
        pending.target_id ? ` ${names[pending.target_id] || pending.target_id}` : "", gauge(w("wounds"), pending.wounds)) : null,
      list(table.adversities).length ? el("p", {}, gauge(w("adversities"), list(table.adversities).length)) : null),
    charactersSection(state, names, (id, c, name) => card(name, [c.species, c.status, obj(derived[id]).deaths_door ? w("deaths_door") : null],
      gauge(w("health"), c.health, num(c.health_max)), gauge(w("focus"), c.focus_points, num(c.focus_max)), gauge(w("xp"), c.xp))),
  ];
}

function generic(state, names) {
  return [charactersSection(state, names, (id, c, name) => card(name, ["condition", "role", "state", "status"].map((k) => c[k]), gauges(c)))];
}

/** @type {Record<string, (state: any, names: Record<string, string>) => Array<HTMLElement | null>>} */
const BOARDS = { stepdice: stepDice, action_deck: actionDeck, trikus, danger_pool: dangerPool, iskra };

// Which system a table is, by the keys only that system keeps (for a caller that does not say).
function systemOf(state) {
  const table = obj(state.table);
  if ("deck" in table || "soaks_pending" in table) return "action_deck";
  if ("reset_count" in table) return "trikus";
  if ("traitor_elements" in table) return "danger_pool";
  if ("day" in table && "locations" in table) return "iskra";
  if ("clocks" in table || "failed_tests" in table) return "stepdice";
  return null;
}

export function value(v, names, depth = 0) {
  if (v === null || v === undefined) return el("span", { class: "none" }, "—");
  if (typeof v !== "object") {
    const text = typeof v === "string" && names[v] ? names[v] : String(v);
    return el("span", {}, text);
  }
  if (Array.isArray(v)) {
    if (!v.length) return el("span", { class: "none" }, "—");
    if (v.every((x) => x === null || typeof x !== "object")) return el("span", {}, v.map((x) => names[x] || String(x)).join(", "));
    return el("ol", { class: "tree" }, ...v.map((x) => el("li", {}, value(x, names, depth + 1))));
  }
  const entries = Object.entries(v);
  if (!entries.length) return el("span", { class: "none" }, "—");
  return el("dl", { class: "tree" }, ...entries.flatMap(([k, x]) => [
    el("dt", {}, names[k] || humanize(k)), el("dd", {}, value(x, names, depth + 1))]));
}

/**
 * The table drawn: the system's board, the characters, then everything. `system` is the campaign's system id.
 * @param {any} state @param {Record<string, string>} names @param {string | null} [system]
 */
export function renderTable(state, names, system = null) {
  const board = BOARDS[system || systemOf(state) || ""] || generic;
  const parts = /** @type {HTMLElement[]} */ (board(state, names).filter(Boolean));
  const rest = Object.entries(state).filter(([k]) => k !== "options");
  parts.push(el("details", { class: "whole" }, el("summary", {}, t("details")),
    el("dl", { class: "tree" }, ...rest.flatMap(([k, x]) => [el("dt", {}, humanize(k)), el("dd", {}, value(x, names))]))));
  return parts;
}

// Every `awaiting` list in the state, wherever the system keeps it.
export function awaitingOf(state) {
  const found = [];
  const walk = (v, depth) => {
    if (!v || typeof v !== "object" || depth > 4) return;
    if (Array.isArray(v.awaiting)) found.push(...v.awaiting);
    for (const [k, x] of Object.entries(v)) if (k !== "awaiting") walk(x, depth + 1);
  };
  walk(state, 0);
  return found;
}

// Fields of a move that name a character, a player, an enemy or an entry of the mover's own sheet, with the
// choices the table offers for them (labelled by name): nobody types an id. Keyed by the field names given, in
// either spelling (`leader_id` or GraphQL's `leaderId`); without names, every field this knows (a choice is used
// only where a form has a field of that name, at any depth).
const CHARACTER_FIELDS = new Set(["character_id", "character_ids", "target_character_id", "leader_id", "team",
  "participants", "member_ids", "defender_id", "source_character_id", "to_character_id", "beneficiary_id",
  "opponent_id", "challenger_id", "helper_ids", "target_id", "attacker_id", "initiator_id", "participant_id"]);
const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * @param {string[] | null} fieldNames
 * @param {{ state: any, characters: Array<{ id: string, name: string }>, players?: Array<{ id: string, name: string }> | null,
 *           mine: Set<string>, isGm: boolean }} seat
 * @returns {Record<string, Array<[unknown, string]>>}
 */
export function idChoices(fieldNames, { state, characters, players, mine, isGm }) {
  const everyone = characters.map((c) => [c.id, c.name]);
  const own = isGm ? everyone : everyone.filter(([id]) => mine.has(id));
  const sheets = Object.entries(obj(state?.characters)).filter(([id]) => isGm || mine.has(id)).map(([, s]) => obj(s));
  const fromSheets = (key, idKey, textKey) => sheets.flatMap((s) => list(s[key]).filter((x) => x && x[idKey])
    .map((x) => [x[idKey], sheets.length > 1 ? `${x[textKey]} (${s.name})` : x[textKey]]));
  const pools = {
    character_id: own,
    player_id: (players || []).map((p) => [p.id, p.name]),
    player_ids: (players || []).map((p) => [p.id, p.name]),
    target_enemy_id: Object.entries(obj(state?.table?.encounter?.enemies)).map(([id, e]) => [id, obj(e).name || id]),
    legends: fromSheets("legends", "legend_id", "text"),
    scars: fromSheets("scars", "scar_id", "text"),
  };
  pools.enemy_id = pools.target_enemy_id;
  // Danger Pool's declaration: one piece of equipment, by its item id.
  if (sheets.some((s) => list(s.equipment).some((x) => x?.item_id))) pools.equipment = fromSheets("equipment", "item_id", "text");
  /** @type {Record<string, Array<[unknown, string]>>} */
  const out = {};
  for (const name of fieldNames || [...Object.keys(pools), ...CHARACTER_FIELDS]) {
    const key = snake(name);
    const choices = pools[key] || (CHARACTER_FIELDS.has(key) ? everyone : null);
    if (choices?.length) out[name] = choices;
  }
  return out;
}
