import test from 'node:test';
import assert from 'node:assert/strict';
import { newSeed, seededRandom } from '../../games/seed.js';

test('the same seed deals the same game, another seed another', () => {
  const a = seededRandom(42).shuffle([...Array(20).keys()]);
  const b = seededRandom(42).shuffle([...Array(20).keys()]);
  const c = seededRandom(43).shuffle([...Array(20).keys()]);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  assert.deepEqual([...a].sort((x, y) => x - y), [...Array(20).keys()]);
});

test('below(n) stays in range and reaches every value', () => {
  const random = seededRandom(7);
  const seen = new Set();
  for (let i = 0; i < 1000; i += 1) {
    const value = random.below(6);
    assert.ok(value >= 0 && value < 6 && Number.isInteger(value));
    seen.add(value);
  }
  assert.equal(seen.size, 6);
});

test("a test's seed is used only when one was set; otherwise the browser's random numbers", () => {
  assert.equal(newSeed({ testSeed: 5 }), 5);
  const crypto = { getRandomValues: (array) => { array[0] = 123456; return array; } };
  assert.equal(newSeed({ crypto, testSeed: undefined }), 123456);
});
