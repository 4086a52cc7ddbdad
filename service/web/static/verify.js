// @ts-check
// Verifiable dice checked in the browser, trusting nothing the service says about them: the same recomputation
// as `rulekeeper verify` (service/dice/verifiable.py, "The algorithm, exactly"), with the browser's own
// SHA-256 and HMAC. WebCrypto exists only in secure contexts (https, or a page on localhost).
const SPACE = 1n << 64n;
const utf8 = new TextEncoder();

/** @param {string} seed */
function seedBytes(seed) {
  if (!/^[0-9a-fA-F]{64}$/.test(seed)) throw new Error("the seed must be 64 hexadecimal characters");
  return Uint8Array.from(seed.match(/../g) || [], (h) => parseInt(h, 16));
}

/** @param {ArrayBuffer} buf */
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** @param {string} seed */
export async function commitmentOf(seed) {
  return hex(await crypto.subtle.digest("SHA-256", seedBytes(seed)));
}

/** @param {string} seed */
async function hmacKey(seed) {
  return crypto.subtle.importKey("raw", seedBytes(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

// The face of the die with counter `counter` and `sides` sides, and how many HMACs it took.
/**
 * @param {string} seed
 * @param {string} clientSeed
 * @param {number} counter
 * @param {number | string} sides
 * @param {CryptoKey} [key]
 */
export async function deriveFace(seed, clientSeed, counter, sides, key) {
  key ??= await hmacKey(seed);
  const n = BigInt(sides);
  const limit = SPACE - (SPACE % n);
  for (let attempt = 0; ; attempt++) {
    const digest = await crypto.subtle.sign("HMAC", key, utf8.encode(`${clientSeed}:${counter}:${attempt}`));
    const x = new DataView(digest).getBigUint64(0, false);
    if (x < limit) return { face: (x % n) + 1n, draws: attempt + 1 };
  }
}

/**
 * A closed session's seed, commitment and dice (the DiceSessionVerification query): every die recomputed.
 * @param {{ seed: string, commitment: string, clientSeed: string, rolls: Array<{ seq: number, sides: number, face: number }> }} doc
 */
export async function verifyDocument(doc) {
  const seed = doc.seed;
  const commitmentOk = (await commitmentOf(seed)) === String(doc.commitment).trim().toLowerCase();
  const key = await hmacKey(seed);
  const mismatches = [];
  const seen = new Set();
  let duplicates = 0;
  for (const roll of doc.rolls || []) {
    if (seen.has(roll.seq)) duplicates++;
    seen.add(roll.seq);
    const { face } = await deriveFace(seed, doc.clientSeed || "", roll.seq, roll.sides, key);
    if (face !== BigInt(roll.face)) mismatches.push({ seq: roll.seq, face: roll.face, expected: String(face) });
  }
  const max = seen.size ? Math.max(...seen) : -1;
  const gaps = max + 1 - seen.size;
  return { ok: commitmentOk && !mismatches.length && !gaps && !duplicates, commitmentOk, dice: seen.size,
           mismatches, gaps, duplicates };
}
