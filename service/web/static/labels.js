// @ts-check
// The names of the forms' fields in Polish and Russian, by the GraphQL input field's name (the schema names them
// in English only; an option's and a move's own name come translated from the API). A field missing here reads
// in English, humanized from its name.

/** @type {Record<string, Record<string, string>>} */
export const FIELDS = {
  pl: {
  },
  ru: {
  },
};
