// @ts-check
// Forms built from the GraphQL schema's input types, read by introspection (the InputType query) as a form needs
// them: a field per input field, the value read back as the variables the API takes. What a plain control cannot
// express (a map, a nested choice) is asked for as JSON text.
import { el, fieldLabel, language, t, valueLabel } from "./dom.js";

/** @typedef {import("../../../web/types/graphql").InputTypeQuery} InputTypeQuery */
/** @typedef {NonNullable<InputTypeQuery["__type"]>} InputType */
/** @typedef {import("../../../web/types/graphql").TypeRefFragment} TypeRef */
/** @typedef {import("./api.js").Api} Api */
/**
 * @typedef {object} FormOptions
 * @property {Record<string, string>} [labels] a field's name in the reader's language, from the API
 * @property {Record<string, Array<[unknown, string]>>} [choices] a field's values to pick from: [value, shown text]
 * @property {Record<string, any>} [defaults] a field's value to start with
 * @property {string[]} [skip] fields the caller fills in
 * @property {Record<string, string>} [oneOf] for a @oneOf input type, the member the caller chose (its field name)
 */
/** @typedef {{ node: HTMLElement | null, read: () => any }} Field */

let counter = 0;
/** @param {string} name */
const uid = (name) => `f${++counter}-${String(name).replace(/[^a-z0-9_-]/gi, "")}`;

// The input types, enums and scalars met so far, by name: a form asks for each type once per page.
export class Types {
  /** @param {() => Api} api */
  constructor(api) {
    this.api = api;
    /** @type {Map<string, Promise<InputType>>} */
    this.cache = new Map();
  }

  /** @param {string} name */
  one(name) {
    let found = this.cache.get(name);
    if (!found) {
      found = this.api().call("InputType", { name }).then((r) => {
        if (!r.__type) throw new Error(`the schema has no type ${name}`);
        return r.__type;
      });
      this.cache.set(name, found);
      found.catch(() => this.cache.delete(name));
    }
    return found;
  }

  /**
   * A type and every input type and enum its fields reach, loaded before a form is drawn (a form is drawn at once).
   * @param {string} name
   * @param {Record<string, string>} [oneOf]
   */
  async load(name, oneOf = {}) {
    /** @type {Map<string, InputType>} */
    const loaded = new Map();
    let wave = [name];
    while (wave.length) {
      const types = await Promise.all(wave.map((n) => this.one(n)));
      wave = [];
      for (const type of types) {
        loaded.set(type.name || "", type);
        const fields = type.inputFields || [];
        const member = oneOf[type.name || ""];
        for (const f of member ? fields.filter((x) => x.name === member) : fields) {
          const inner = named(f.type);
          if ((inner.kind === "INPUT_OBJECT" || inner.kind === "ENUM") && inner.name && !loaded.has(inner.name)
              && !wave.includes(inner.name)) wave.push(inner.name);
        }
      }
    }
    return loaded;
  }
}

/** @param {TypeRef} ref @returns {{ kind: string, name: string }} */
function named(ref) {
  /** @type {any} */
  let r = ref;
  while (r.ofType) r = r.ofType;
  return { kind: r.kind, name: r.name || "" };
}

// A GraphQL default value is a literal: a string, number, boolean or null in JSON's spelling, an enum bare.
/** @param {string | null | undefined} literal */
function literal(literal) {
  if (literal === null || literal === undefined) return undefined;
  try { return JSON.parse(literal); } catch { /* not JSON */ }
  return /^[_A-Za-z]\w*$/.test(literal) ? literal : undefined;
}

/** `baseTn` reads "Base Tn", as the REST schema titles its `base_tn`. @param {string} name */
export function humanize(name) {
  return String(name).replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/** A map is a list of `{key, value}` entries in GraphQL. @param {InputType | undefined} type */
const isEntry = (type) => {
  const names = (type?.inputFields || []).map((f) => f.name).sort();
  return names.length === 2 && names[0] === "key" && names[1] === "value";
};

/**
 * @param {Map<string, InputType>} types
 * @param {{ name: string, description?: string | null, defaultValue?: string | null, type: TypeRef }} input
 * @param {FormOptions} opts
 * @returns {Field}
 */
function field(types, input, opts) {
  const { name } = input;
  let ref = /** @type {any} */ (input.type);
  const required = ref.kind === "NON_NULL";
  if (required) ref = ref.ofType;
  const list = ref.kind === "LIST";
  const inner = named(ref);
  const id = uid(name);
  const label = opts.labels?.[name] || fieldLabel(name, humanize(name));
  // The schema describes its fields in English only: a page in another language shows the translated label alone.
  const hint = input.description && language() === "en"
    ? el("small", { class: "hint", id: `${id}-hint` }, input.description) : null;
  const described = hint ? { "aria-describedby": `${id}-hint` } : {};
  const choices = opts.choices?.[name];
  const preset = opts.defaults?.[name] ?? literal(input.defaultValue);
  const type = types.get(inner.name);
  /** @param {HTMLElement} control @param {string} [text] */
  const row = (control, text = label) => el("div", { class: "field" }, el("label", { for: id }, text), control, hint);

  if (!list && (choices || inner.kind === "ENUM" || inner.name === "Boolean")) {
    // A yes/no that may be left unsaid (the rules decide) is a choice of three, not a checkbox.
    const tristate = inner.name === "Boolean" && !required;
    /** @type {Array<[unknown, string]>} */
    const values = choices || (inner.name === "Boolean" ? [[true, t("yes")], [false, t("no")]]
      : (type?.enumValues || []).map((v) => [v.name, valueLabel(v.name)]));
    if (inner.name === "Boolean" && !tristate && !choices) {
      const box = el("input", { type: "checkbox", id, name, ...described });
      /** @type {HTMLInputElement} */ (box).checked = Boolean(preset);
      return { node: el("div", { class: "field check" }, box, el("label", { for: id }, label), hint),
               read: () => /** @type {HTMLInputElement} */ (box).checked };
    }
    const select = /** @type {HTMLSelectElement} */ (el("select", { id, name, ...described },
      ...(required && values.length ? [] : [el("option", { value: "" }, "—")]),
      ...values.map(([v, text]) => el("option", { value: JSON.stringify(v) }, String(text)))));
    if (preset !== undefined && preset !== null) select.value = JSON.stringify(preset);
    return { node: row(select), read: () => (select.value === "" ? undefined : JSON.parse(select.value)) };
  }
  if (!list && (inner.name === "Int" || inner.name === "Float")) {
    const input = /** @type {HTMLInputElement} */ (el("input", { type: "number", id, name, inputmode: "numeric",
                                                                 step: inner.name === "Int" ? "1" : "any", ...described }));
    if (preset !== undefined && preset !== null) input.value = String(preset);
    return { node: row(input), read: () => (input.value.trim() === "" ? undefined : Number(input.value)) };
  }
  if (!list && (inner.name === "String" || inner.name === "ID")) {
    const long = /text|description|note|narrat/i.test(name);
    const input = /** @type {HTMLInputElement} */ (el(long ? "textarea" : "input",
      { id, name, ...(long ? { rows: 2 } : { type: "text" }), ...described }));
    if (typeof preset === "string") input.value = preset;
    return { node: row(input), read: () => (input.value.trim() === "" ? undefined : input.value.trim()) };
  }
  if (list && inner.kind !== "INPUT_OBJECT" && inner.name !== "JSON") {
    const input = /** @type {HTMLInputElement} */ (el("input", { type: "text", id, name, ...described }));
    if (Array.isArray(preset)) input.value = preset.join(", ");
    const note = el("small", { class: "hint" }, t("comma_separated"));
    /** @param {string} v */
    const cast = (v) => (inner.name === "Int" || inner.name === "Float" ? Number(v) : v);
    return { node: el("div", { class: "field" }, el("label", { for: id }, label), input, note, hint),
             read: () => {
               const parts = input.value.split(",").map((v) => v.trim()).filter(Boolean);
               return parts.length ? parts.map(cast) : (required ? [] : undefined);
             } };
  }
  if (list && type && !isEntry(type)) {
    /** @type {Array<{ read: () => any }>} */
    const rows = [];
    const box = el("div", { class: "rows" });
    const add = el("button", { type: "button", class: "small" }, `+ ${label}`);
    add.addEventListener("click", () => {
      const sub = objectFields(types, type, { ...opts, defaults: {}, skip: [], oneOf: {} });
      const remove = el("button", { type: "button", class: "small", "aria-label": `${t("remove")} ${label}` }, "×");
      const item = el("fieldset", { class: "row" }, sub.node, remove);
      const entry = { read: sub.read };
      rows.push(entry);
      remove.addEventListener("click", () => { rows.splice(rows.indexOf(entry), 1); item.remove(); });
      box.append(item);
    });
    return { node: el("fieldset", { class: "field" }, el("legend", {}, label), hint, box, add),
             read: () => (rows.length ? rows.map((r) => r.read()) : (required ? [] : undefined)) };
  }
  if (!list && type && inner.kind === "INPUT_OBJECT") {
    const sub = objectFields(types, type, { ...opts, defaults: opts.defaults?.[name] || {}, skip: [] });
    if (required) return { node: el("fieldset", { class: "field" }, el("legend", {}, label), hint, sub.node), read: sub.read };
    const details = /** @type {HTMLDetailsElement} */ (el("details", {}, el("summary", {}, label), hint, sub.node));
    return { node: details, read: () => (details.open ? sub.read() : undefined) };
  }
  // A map (a list of {key, value}) is written as a JSON object; anything else no control covers, as JSON.
  const map = list && isEntry(type);
  const area = /** @type {HTMLTextAreaElement} */ (el("textarea", { id, name, rows: 2, class: "json", spellcheck: "false",
                                                                     ...described }));
  if (preset !== undefined && preset !== null) area.value = JSON.stringify(preset);
  return { node: row(area, `${label} (JSON)`),
           read: () => {
             if (!area.value.trim()) return required && map ? [] : undefined;
             let value;
             try { value = JSON.parse(area.value); } catch { throw new Error(`${label}: ${t("not_json")}`); }
             return map && value && typeof value === "object" && !Array.isArray(value)
               ? Object.entries(value).map(([key, v]) => ({ key, value: v })) : value;
           } };
}

/**
 * @param {Map<string, InputType>} types
 * @param {InputType} type
 * @param {FormOptions} opts
 */
function objectFields(types, type, opts) {
  const skip = new Set(opts.skip || []);
  const member = opts.oneOf?.[type.name || ""];
  /** @type {Array<[string, Field]>} */
  const fields = [];
  for (const input of type.inputFields || []) {
    if (skip.has(input.name) || (member && input.name !== member)) continue;
    const inner = named(input.type);
    const chosen = inner.kind === "INPUT_OBJECT" ? opts.oneOf?.[inner.name] : undefined;
    if (chosen) {
      // A @oneOf input whose member the caller chose: its member's fields, sent under the member's name.
      const memberType = (types.get(inner.name)?.inputFields || []).find((f) => f.name === chosen);
      const sub = memberType && field(types, { ...memberType, name: input.name, description: input.description },
                                      { ...opts, skip: [] });
      if (sub) fields.push([input.name, { node: sub.node, read: () => {
        const v = sub.read();
        return v === undefined ? undefined : { [chosen]: v };
      } }]);
      continue;
    }
    fields.push([input.name, field(types, input, { ...opts, skip: [] })]);
  }
  const node = el("div", { class: "fields" }, ...fields.map(([, f]) => f.node).filter((n) => n !== null));
  return {
    node,
    read: () => {
      /** @type {Record<string, any>} */
      const out = {};
      for (const [name, f] of fields) {
        const v = f.read();
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
  };
}

/**
 * The form for one input type (its types loaded with Types.load).
 * @param {Map<string, InputType>} types
 * @param {string} name
 * @param {FormOptions} [opts]
 */
export function inputForm(types, name, opts = {}) {
  const type = types.get(name);
  if (!type) throw new Error(`the schema has no input type ${name}`);
  return objectFields(types, type, opts);
}
