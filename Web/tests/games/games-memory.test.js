import test from 'node:test';
import assert from 'node:assert/strict';
import { hasIcon } from '../../icon.js';
import {
  LOWEST_MEMORY_SCORE, PICTURES, SIZES, dealMemory, flip, hasMismatch, hideMismatch, isFaceUp,
  isFinished, memoryScore, newMemoryGame, pairsFound, pictureById,
} from '../../games/memory.js';

test('each deal has each of its pictures exactly twice, and the right number of cards', () => {
  for (const [size, { rows, columns, pairs }] of Object.entries(SIZES)) {
    for (let seed = 0; seed < 300; seed += 1) {
      const cards = dealMemory(seed, size);
      assert.equal(cards.length, rows * columns);
      const counts = new Map();
      for (const id of cards) counts.set(id, (counts.get(id) ?? 0) + 1);
      assert.equal(counts.size, pairs, `${size} seed ${seed}`);
      for (const [id, count] of counts) {
        assert.equal(count, 2, `${id} in ${size} seed ${seed}`);
        assert.ok(pictureById(id), `${id} is a known picture`);
      }
    }
  }
});

test('the same seed deals the same cards; other seeds shuffle and pick differently', () => {
  assert.deepEqual(dealMemory(11, '4x4'), dealMemory(11, '4x4'));
  assert.notDeepEqual(dealMemory(11, '4x4'), dealMemory(12, '4x4'));
  const pictures = new Set();
  for (let seed = 0; seed < 50; seed += 1) for (const id of dealMemory(seed, '3x4')) pictures.add(id);
  assert.equal(pictures.size, PICTURES.length, 'every picture turns up in some deal');
  assert.throws(() => dealMemory(1, '5x5'), RangeError);
});

test('the pictures are distinct, and enough for the largest size', () => {
  assert.equal(new Set(PICTURES.map((p) => p.id)).size, PICTURES.length);
  assert.equal(new Set(PICTURES.map((p) => p.icon)).size, PICTURES.length);
  for (const picture of PICTURES) assert.ok(hasIcon(picture.icon), `${picture.icon} is in Web/icons`);
  assert.ok(PICTURES.length >= Math.max(...Object.values(SIZES).map((s) => s.pairs)));
});

/** A game and where its pictures lie: the two cards of each picture. */
function game(seed = 5, size = '3x4') {
  const state = newMemoryGame(seed, size);
  const places = new Map();
  state.cards.forEach((id, i) => places.set(id, [...(places.get(id) ?? []), i]));
  const pairs = [...places.values()];
  return { state, pairs };
}

test('two cards that match stay face up and count one move', () => {
  const { state, pairs } = game();
  const [a, b] = pairs[0];
  const one = flip(state, a);
  assert.deepEqual(one.open, [a]);
  assert.equal(one.moves, 0, 'one card is half a move');
  assert.ok(isFaceUp(one, a) && !isFaceUp(one, b));
  const two = flip(one, b);
  assert.deepEqual(two.open, []);
  assert.deepEqual(two.matched, [a, b]);
  assert.equal(two.moves, 1);
  assert.equal(two.last, 'pair');
  assert.equal(pairsFound(two), 1);
  assert.equal(flip(two, a), two, 'a found card does nothing');
});

test('two that do not match show until hidden, or until the next card is pressed', () => {
  const { state, pairs } = game();
  const [a] = pairs[0];
  const [c, d] = pairs[1];
  const shown = flip(flip(state, a), c);
  assert.ok(hasMismatch(shown));
  assert.equal(shown.last, 'mismatch');
  assert.equal(shown.moves, 1);
  assert.ok(isFaceUp(shown, a) && isFaceUp(shown, c));
  const hidden = hideMismatch(shown);
  assert.deepEqual(hidden.open, []);
  assert.ok(!isFaceUp(hidden, a));
  assert.equal(hideMismatch(hidden), hidden, 'nothing to hide is no change');
  const next = flip(shown, d);
  assert.deepEqual(next.open, [d], 'the next press turns the two back and this one up');
  assert.equal(next.moves, 1);
  assert.equal(next.last, null);
  assert.deepEqual(flip(shown, c).open, [c], 'pressing one of the two shows just that one');
});

test('pressing the card already turned, or no card, changes nothing', () => {
  const { state, pairs } = game();
  const one = flip(state, pairs[0][0]);
  assert.equal(flip(one, pairs[0][0]), one);
  assert.equal(flip(state, -1), state);
  assert.equal(flip(state, state.cards.length), state);
});

test('finding every pair finishes the game; nothing turns after that', () => {
  const { state, pairs } = game(8, '4x4');
  let s = state;
  for (const [a, b] of pairs) {
    assert.ok(!isFinished(s));
    s = flip(flip(s, a), b);
  }
  assert.ok(isFinished(s));
  assert.equal(s.moves, 8);
  assert.equal(pairsFound(s), 8);
  assert.equal(flip(s, 0), s);
});

test('the score: 25 a pair, 5 fewer for each move that found none, never below the lowest', () => {
  assert.equal(memoryScore('3x4', 6), 150);
  assert.equal(memoryScore('4x4', 8), 200);
  assert.equal(memoryScore('3x4', 10), 130);
  assert.equal(memoryScore('4x4', 20), 140);
  assert.equal(memoryScore('3x4', 500), LOWEST_MEMORY_SCORE);
  for (const size of Object.keys(SIZES)) {
    let before = Infinity;
    for (let moves = SIZES[size].pairs; moves < 80; moves += 1) {
      const score = memoryScore(size, moves);
      assert.ok(Number.isInteger(score) && score >= 1);
      assert.ok(score <= before, 'more moves never score more');
      before = score;
    }
  }
  assert.ok(memoryScore('3x4', 12) > memoryScore('3x4', 13), 'fewer moves score more');
});
