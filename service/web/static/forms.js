// Forms built from the API's JSON Schemas (the OpenAPI document's components): a field per property, the value
// read back as the JSON the API takes. What a plain control cannot express is asked for as JSON text.
import { el, t } from "./dom.js";

let counter = 0;
const uid = (name) => `f${++counter}-${String(name).replace(/[^a-z0-9_-]/gi, "")}`;

export function resolve(doc, schema) {
  let s = schema || {};
  for (let i = 0; s.$ref && i < 20; i++) {
    const rest = { ...s };
    delete rest.$ref;
    const target = s.$ref.replace(/^#\//, "").split("/").reduce((o, k) => o && o[k], doc);
    s = { ...target, ...rest };
  }
  return s;
}

// `anyOf: [X, null]` is an optional X.
function unwrapNullable(doc, schema) {
  const s = resolve(doc, schema);
  const alts = s.anyOf || s.oneOf;
  if (alts && !s.discriminator) {
    const real = alts.filter((a) => a.type !== "null");
    if (real.length === 1 && real.length < alts.length) {
      const inner = resolve(doc, real[0]);
      return { schema: { ...inner, title: s.title || inner.title, description: s.description || inner.description,
                         default: s.default }, nullable: true };
    }
  }
  return { schema: s, nullable: false };
}

export function humanize(key) {
  const s = String(key).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function isScalar(s) {
  return ["string", "integer", "number", "boolean"].includes(s.type) || s.enum;
}

// A field: { node, read() } where read() gives the value, or undefined for "left out".
function field(doc, name, rawSchema, required, opts) {
  const { schema: s, nullable } = unwrapNullable(doc, rawSchema);
  const id = uid(name);
  // A referenced model's own title is its schema name (StepDiceEquipment): the property's name reads better.
  const label = opts.labels?.[name] || rawSchema.title || humanize(name);
  const hint = s.description ? el("small", { class: "hint", id: `${id}-hint` }, s.description) : null;
  const described = hint ? { "aria-describedby": `${id}-hint` } : {};
  const choices = opts.choices?.[name];

  if (s.const !== undefined) return { node: null, read: () => s.const };

  // A yes/no that may be left unsaid (null lets the rules decide) is a choice of three, not a checkbox.
  const tristate = s.type === "boolean" && nullable;
  if ((choices && s.type !== "array") || s.enum || tristate) {
    const values = choices || (tristate ? [[true, t("yes")], [false, t("no")]] : s.enum.map((v) => [v, v]));
    const select = el("select", { id, name, ...described },
      ...(required && values.length && !tristate ? [] : [el("option", { value: "" }, "—")]),
      ...values.map(([v, text]) => el("option", { value: JSON.stringify(v) }, String(text))));
    const preset = opts.defaults?.[name] ?? s.default;
    if (preset !== undefined && preset !== null) select.value = JSON.stringify(preset);
    return { node: el("div", { class: "field" }, el("label", { for: id }, label), select, hint),
             read: () => (select.value === "" ? undefined : JSON.parse(select.value)) };
  }
  if (s.type === "boolean") {
    const box = el("input", { type: "checkbox", id, name, ...described });
    box.checked = Boolean(opts.defaults?.[name] ?? s.default);
    return { node: el("div", { class: "field check" }, box, el("label", { for: id }, label), hint),
             read: () => box.checked };
  }
  if (s.type === "integer" || s.type === "number") {
    const input = el("input", { type: "number", id, name, inputmode: "numeric", step: s.type === "integer" ? "1" : "any",
                                ...(s.minimum !== undefined ? { min: s.minimum } : {}),
                                ...(s.maximum !== undefined ? { max: s.maximum } : {}), ...described });
    const preset = opts.defaults?.[name] ?? s.default;
    if (preset !== undefined && preset !== null) input.value = preset;
    return { node: el("div", { class: "field" }, el("label", { for: id }, label), input, hint),
             read: () => (input.value.trim() === "" ? undefined : Number(input.value)) };
  }
  if (s.type === "string") {
    const long = (s.maxLength || 0) > 200;
    const input = el(long ? "textarea" : "input", { id, name, ...(long ? { rows: 2 } : { type: "text" }),
                                                    ...(s.maxLength ? { maxlength: s.maxLength } : {}), ...described });
    const preset = opts.defaults?.[name] ?? s.default;
    if (typeof preset === "string") input.value = preset;
    return { node: el("div", { class: "field" }, el("label", { for: id }, label), input, hint),
             read: () => (input.value.trim() === "" ? undefined : input.value.trim()) };
  }
  if (s.type === "array") {
    const items = resolve(doc, s.items);
    if (isScalar(items) && choices) {
      // A list of things the table names (a team, the players of a session): a box to tick for each.
      const boxes = choices.map(([v, text], i) => {
        const box = el("input", { type: "checkbox", id: `${id}-${i}`, value: JSON.stringify(v) });
        return [box, el("div", { class: "field check" }, box, el("label", { for: `${id}-${i}` }, String(text)))];
      });
      return { node: el("fieldset", { class: "field", ...described }, el("legend", {}, label), hint, ...boxes.map(([, n]) => n)),
               read: () => {
                 const picked = boxes.filter(([b]) => b.checked).map(([b]) => JSON.parse(b.value));
                 return picked.length ? picked : (required ? [] : undefined);
               } };
    }
    if (isScalar(items)) {
      const input = el("input", { type: "text", id, name, ...described });
      const preset = opts.defaults?.[name] ?? s.default;
      if (Array.isArray(preset)) input.value = preset.join(", ");
      const note = el("small", { class: "hint" }, t("comma_separated"));
      const cast = (v) => (items.type === "integer" || items.type === "number" || typeof items.enum?.[0] === "number"
        ? Number(v) : v);
      return { node: el("div", { class: "field" }, el("label", { for: id }, label), input, note, hint),
               read: () => {
                 const parts = input.value.split(",").map((v) => v.trim()).filter(Boolean);
                 return parts.length ? parts.map(cast) : (required ? [] : undefined);
               } };
    }
    if (items.type === "object" && items.properties) {
      const rows = [];
      const list = el("div", { class: "rows" });
      const add = el("button", { type: "button", class: "small" }, `+ ${label}`);
      add.addEventListener("click", () => {
        const sub = objectFields(doc, items, { ...opts, defaults: {} });
        const remove = el("button", { type: "button", class: "small", "aria-label": `${t("remove")} ${label}` }, "×");
        const row = el("fieldset", { class: "row" }, sub.node, remove);
        const entry = { read: sub.read };
        rows.push(entry);
        remove.addEventListener("click", () => { rows.splice(rows.indexOf(entry), 1); row.remove(); });
        list.append(row);
      });
      return { node: el("fieldset", { class: "field" }, el("legend", {}, label), hint, list, add),
               read: () => (rows.length ? rows.map((r) => r.read()) : (required ? [] : undefined)) };
    }
  }
  if (s.type === "object" && s.properties) {
    const sub = objectFields(doc, s, { ...opts, defaults: opts.defaults?.[name] || {} });
    const box = el("fieldset", { class: "field" }, el("legend", {}, label), hint, sub.node);
    if (required) return { node: box, read: sub.read };
    const details = el("details", {}, el("summary", {}, label), hint, sub.node);
    return { node: details, read: () => (details.open ? sub.read() : undefined) };
  }
  // Anything else (maps, unions): JSON text, checked before it is sent.
  const area = el("textarea", { id, name, rows: 2, class: "json", spellcheck: "false", ...described });
  const preset = opts.defaults?.[name] ?? s.default;
  if (preset !== undefined && preset !== null) area.value = JSON.stringify(preset);
  return { node: el("div", { class: "field" }, el("label", { for: id }, `${label} (JSON)`), area, hint),
           read: () => {
             if (!area.value.trim()) return undefined;
             try { return JSON.parse(area.value); } catch { throw new Error(`${label}: ${t("not_json")}`); }
           } };
}

function objectFields(doc, schema, opts) {
  const s = resolve(doc, schema);
  const required = new Set(s.required || []);
  const skip = new Set(opts.skip || []);
  const fields = [];
  for (const [name, prop] of Object.entries(s.properties || {})) {
    if (skip.has(name)) continue;
    fields.push([name, field(doc, name, prop, required.has(name), { ...opts, skip: [] })]);
  }
  const node = el("div", { class: "fields" }, ...fields.map(([, f]) => f.node).filter(Boolean));
  return {
    node,
    read: () => {
      const out = {};
      for (const [name, f] of fields) {
        const v = f.read();
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
  };
}

// The form for one object schema. opts: labels (name -> text), choices (name -> [[value, text]]),
// defaults (name -> value), skip (names the caller fills in).
export function schemaForm(doc, schema, opts = {}) {
  return objectFields(doc, schema, opts);
}
