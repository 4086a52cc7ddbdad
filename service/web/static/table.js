// The table as the API returns it, drawn for reading: a summary of the characters (and Step Dice's encounter)
// where that is cheap, and under it a structured view of the whole state for every system.
import { el, t } from "./dom.js";
import { humanize } from "./forms.js";

// Step Dice keeps `hearts` and `hearts_max`: shown as one "4/5".
function gauges(obj) {
  const out = [];
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== "number" || k.endsWith("_max")) continue;
    const max = obj[`${k}_max`];
    out.push(el("span", { class: "gauge" }, `${humanize(k)} `, el("b", {}, max === undefined ? v : `${v}/${max}`)));
  }
  return out;
}

function characterCard(id, c, names) {
  const name = c.name || names[id] || id;
  const words = ["condition", "role", "state", "status"].filter((k) => typeof c[k] === "string")
    .map((k) => el("span", { class: "tag" }, c[k]));
  return el("li", { class: "card" }, el("strong", {}, name), " ", ...words, el("div", { class: "gauges" }, ...gauges(c)));
}

function enemies(encounter) {
  if (!encounter?.enemies || typeof encounter.enemies !== "object") return null;
  const list = Object.entries(encounter.enemies);
  if (!list.length) return null;
  return el("ul", { class: "cards" }, ...list.map(([id, e]) => el("li", { class: "card enemy" },
    el("strong", {}, e.name || id), " ", typeof e.kind === "string" ? el("span", { class: "tag" }, e.kind) : null,
    typeof e.state === "string" ? el("span", { class: "tag" }, e.state) : null,
    el("div", { class: "gauges" }, ...gauges(e)))));
}

// Step Dice's grid: whoever has a position, on the smallest board that holds them all (at most 12 squares a side).
function grid(encounter, names) {
  const pieces = [];
  for (const [id, pc] of Object.entries(encounter?.pcs || {})) if (pc?.position) pieces.push([names[id] || id, pc.position, "pc"]);
  for (const [id, e] of Object.entries(encounter?.enemies || {})) if (e?.position) pieces.push([e.name || id, e.position, "foe"]);
  if (!pieces.length) return null;
  const xs = pieces.map(([, p]) => p.x), ys = pieces.map(([, p]) => p.y);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const [w, h] = [Math.min(Math.max(...xs) - x0 + 1, 12), Math.min(Math.max(...ys) - y0 + 1, 12)];
  const cells = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const here = pieces.filter(([, p]) => p.x - x0 === x && p.y - y0 === y);
      cells.push(el("div", { class: `cell ${here[0]?.[2] || ""}`, title: here.map(([n]) => n).join(", ") || null },
        here.map(([n]) => n.slice(0, 2)).join(" ")));
    }
  }
  const label = pieces.map(([n, p]) => `${n} (${p.x}, ${p.y})`).join("; ");
  const board = el("div", { class: "grid", role: "img", "aria-label": label }, ...cells);
  board.style.setProperty("--cols", String(w));  // through the CSSOM: the page's policy allows no style attributes
  return board;
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

export function renderTable(state, names) {
  const parts = [];
  const chars = state.characters && typeof state.characters === "object" ? Object.entries(state.characters) : [];
  if (chars.length) {
    parts.push(el("h3", {}, t("characters")), el("ul", { class: "cards" }, ...chars.map(([id, c]) => characterCard(id, c, names))));
  }
  const foes = enemies(state.table?.encounter);
  if (foes) parts.push(foes);
  const board = grid(state.table?.encounter, names);
  if (board) parts.push(board);
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
