// @ts-check
// The table as GraphQL answers it, in the spelling of the rules and their specs (the REST document's): keys
// `hearts_max` for `heartsMax`, a map's `{key, value}` entries as an object, a field aliased `<field>_<Member>`
// (where two members of a union give one name two types: service/web/tables.py) under its own name, a value of
// one of several shapes (its fields aliased `<shape>_oneOf`) as the one value set, and an `Untyped` value as its
// JSON. The table is drawn, and moves are named, in that one spelling.

/** `heartsMax` is `hearts_max`, `variantD6Only` is `variant_d6_only`. @param {string} name */
export function snake(name) {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `gm_note` is `gmNote`, the field of the system's ActionInput that makes the move. @param {string} name */
export function camel(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** @param {unknown} v @returns {v is { key: string, value: unknown }} */
function isEntry(v) {
  if (!v || typeof v !== "object") return false;
  const keys = Object.keys(v).filter((k) => k !== "__typename");
  return keys.length === 2 && "key" in v && "value" in v;
}

/**
 * @param {unknown} v
 * @returns {any}
 */
export function rulesShape(v) {
  if (Array.isArray(v)) {
    if (v.length && v.every(isEntry)) return Object.fromEntries(v.map((e) => [e.key, rulesShape(e.value)]));
    return v.map(rulesShape);
  }
  if (!v || typeof v !== "object") return v;
  /** @type {Record<string, unknown>} */
  const obj = /** @type {any} */ (v);
  if (obj.__typename === "Untyped") return obj.json;
  const keys = Object.keys(obj).filter((k) => k !== "__typename");
  if (keys.length && keys.every((k) => k.endsWith("_oneOf"))) {
    const set = keys.find((k) => obj[k] !== null && obj[k] !== undefined);
    return set === undefined ? null : rulesShape(obj[set]);
  }
  const suffix = typeof obj.__typename === "string" ? `_${obj.__typename}` : null;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, x] of Object.entries(obj)) {
    if (k === "__typename") continue;
    const name = suffix && k.endsWith(suffix) ? k.slice(0, -suffix.length) : k;
    out[snake(name)] = rulesShape(x);
  }
  return out;
}
