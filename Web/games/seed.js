// Where a game's deal comes from. A real game is dealt from the browser's
// cryptographic random numbers; a test may set `globalThis.hearthGameSeed`
// from its own script (nothing on any page can) to deal a game it knows the
// answer to. The same seed always deals the same game, in the page and in
// Node tests, because the generator below is ours, not Math.random.

/** A fresh seed: the test's, if it set one, else 32 random bits. */
export function newSeed({ crypto = globalThis.crypto, testSeed = globalThis.hearthGameSeed } = {}) {
  if (Number.isInteger(testSeed)) return testSeed >>> 0;
  const word = new Uint32Array(1);
  crypto.getRandomValues(word);
  return word[0];
}

/**
 * A small seeded generator (mulberry32): `next()` is a float in [0, 1),
 * `below(n)` a whole number in [0, n), `shuffle(list)` a shuffled copy.
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }
  const below = (n) => Math.floor(next() * n);
  function shuffle(list) {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = below(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }
  return { next, below, shuffle };
}
