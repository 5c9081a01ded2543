// Memory (pairs): the deal and the rules of turning cards. Pure, no DOM:
// the page draws from the state and Node tests check the rules. The
// pictures are large icons (Web/icons), chosen to differ at a glance in
// shape, each drawn in a colour of its own (style.css, by id); each has a
// name (games.memory.pictures.<id>) for screen readers.
import { seededRandom } from './seed.js';

/** The pictures a deal picks from: an id (its name's key and colour) and its icon. */
export const PICTURES = Object.freeze([
  { id: 'apple', icon: 'apple' },
  { id: 'flower', icon: 'flower1' },
  { id: 'house', icon: 'house-fill' },
  { id: 'cup', icon: 'cup-hot-fill' },
  { id: 'moon', icon: 'moon-fill' },
  { id: 'star', icon: 'star-fill' },
  { id: 'bicycle', icon: 'bicycle' },
  { id: 'tree', icon: 'tree-fill' },
  { id: 'umbrella', icon: 'umbrella-fill' },
  { id: 'gift', icon: 'gift-fill' },
  { id: 'bell', icon: 'bell-fill' },
  { id: 'heart', icon: 'heart-fill' },
  { id: 'airplane', icon: 'airplane-fill' },
  { id: 'car', icon: 'car-front-fill' },
].map(Object.freeze));

/** The sizes offered: rows × columns, and so how many pairs. */
export const SIZES = Object.freeze({
  '3x4': Object.freeze({ rows: 3, columns: 4, pairs: 6 }),
  '4x4': Object.freeze({ rows: 4, columns: 4, pairs: 8 }),
});

export const pictureById = (id) => PICTURES.find((picture) => picture.id === id) ?? null;

/**
 * The cards the seed deals for `size`: a list of picture ids, each picture
 * exactly twice, in shuffled order.
 */
export function dealMemory(seed, size) {
  const shape = SIZES[size];
  if (!shape) throw new RangeError(`Unknown Memory size: ${size}`);
  const random = seededRandom(seed);
  const chosen = random.shuffle(PICTURES).slice(0, shape.pairs).map((picture) => picture.id);
  return random.shuffle([...chosen, ...chosen]);
}

/**
 * A game at its start: `cards` (picture ids), `matched` (the indexes of
 * pairs found, face up for good), `open` (the one or two cards turned this
 * move), `moves` (pairs of cards turned) and `last` (what the last move
 * did: 'pair', 'mismatch', or null while a move is half done).
 */
export function newMemoryGame(seed, size) {
  return { size, seed: seed >>> 0, cards: dealMemory(seed, size), matched: [], open: [], moves: 0, last: null };
}

/** Two turned cards that are not a pair are still showing. */
export const hasMismatch = (state) => state.open.length === 2;

/** Turns a shown non-pair face down again (after a moment, or on the next press). */
export function hideMismatch(state) {
  return hasMismatch(state) ? { ...state, open: [] } : state;
}

export const isFaceUp = (state, index) => state.matched.includes(index) || state.open.includes(index);

export const isFinished = (state) => state.matched.length === state.cards.length;

export const pairsFound = (state) => state.matched.length / 2;

/**
 * Turns card `index`. A non-pair still showing goes face down first. A card
 * found or already turned this move does nothing. The second card of a move
 * counts the move and either keeps the pair face up or leaves the two
 * showing until hidden.
 */
export function flip(state, index) {
  if (!(index >= 0 && index < state.cards.length) || isFinished(state)) return state;
  const start = hideMismatch(state);
  if (start.matched.includes(index) || start.open.includes(index)) return state;
  const open = [...start.open, index];
  if (open.length === 1) return { ...start, open, last: null };
  const moves = start.moves + 1;
  const [first, second] = open;
  if (start.cards[first] === start.cards[second]) {
    return { ...start, open: [], matched: [...start.matched, first, second], moves, last: 'pair' };
  }
  return { ...start, open, moves, last: 'mismatch' };
}

/** Points for each pair; each move that found no pair takes some away. */
export const POINTS_A_PAIR = 25;
export const POINTS_A_MISS = 5;
export const LOWEST_MEMORY_SCORE = 10;

/**
 * The score for a finished game: POINTS_A_PAIR a pair, minus POINTS_A_MISS
 * for each move that was not a pair (moves beyond the number of pairs),
 * never below LOWEST_MEMORY_SCORE. The rules on the page say the same.
 */
export function memoryScore(size, moves) {
  const { pairs } = SIZES[size] ?? SIZES['3x4'];
  const misses = Math.max(0, Math.round(moves) - pairs);
  return Math.max(LOWEST_MEMORY_SCORE, pairs * POINTS_A_PAIR - misses * POINTS_A_MISS);
}
