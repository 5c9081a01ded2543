// Sudoku: dealing a puzzle with exactly one answer. A full grid is filled
// at random, then cells are emptied in a random order, each kept empty only
// if the puzzle still has one answer, until the level's number of givens is
// reached. Everything comes from the seed (games/seed.js), so a seed deals
// the same puzzle in the page and in Node tests. No DOM here.
//
// Speed matters (a test deals a thousand): each row, column and 3×3 box
// keeps the digits it has as bits of a number, and the search always fills
// the empty cell with the fewest digits left first.
import { seededRandom } from './seed.js';

/** The levels, easiest first. */
export const LEVELS = Object.freeze(['easy', 'medium', 'hard']);

/** How many digits a level's puzzle shows at the start, [fewest, most]. */
export const GIVENS = Object.freeze({
  easy: Object.freeze([40, 45]),
  medium: Object.freeze([32, 35]),
  hard: Object.freeze([26, 28]),
});

const ALL = 0x1ff; // digits 1–9 as bits 0–8
const ROW_OF = new Uint8Array(81);
const COL_OF = new Uint8Array(81);
const BOX_OF = new Uint8Array(81);
for (let i = 0; i < 81; i += 1) {
  ROW_OF[i] = Math.floor(i / 9);
  COL_OF[i] = i % 9;
  BOX_OF[i] = Math.floor(ROW_OF[i] / 3) * 3 + Math.floor(COL_OF[i] / 3);
}
const BITS = new Uint8Array(512);
for (let mask = 1; mask < 512; mask += 1) BITS[mask] = BITS[mask >> 1] + (mask & 1);

/** The row, column and box (0–8 each) a cell (0–80) is in. */
export function placeOf(index) {
  return { row: ROW_OF[index], col: COL_OF[index], box: BOX_OF[index] };
}

/**
 * The search's state for a grid: the used digits of each row, column and
 * box, and the empty cells. Null when two givens clash (no answer then).
 */
function searchState(grid) {
  const rows = new Uint16Array(9);
  const cols = new Uint16Array(9);
  const boxes = new Uint16Array(9);
  const cells = Uint8Array.from(grid);
  const empty = [];
  for (let i = 0; i < 81; i += 1) {
    const digit = cells[i];
    if (digit === 0) { empty.push(i); continue; }
    const bit = 1 << (digit - 1);
    if ((rows[ROW_OF[i]] | cols[COL_OF[i]] | boxes[BOX_OF[i]]) & bit) return null;
    rows[ROW_OF[i]] |= bit;
    cols[COL_OF[i]] |= bit;
    boxes[BOX_OF[i]] |= bit;
  }
  return { rows, cols, boxes, cells, empty };
}

/**
 * Fills the empty cells depth first, the most constrained one each time;
 * `digitsOf(mask)` says in which order to try a cell's digits. Calls
 * `found(cells)` for each answer and stops when it returns true.
 */
function search(state, digitsOf, found) {
  const { rows, cols, boxes, cells, empty } = state;
  function step(left) {
    if (left === 0) return found(cells);
    // The empty cell with the fewest possible digits; swapped to the end of
    // the still-empty part of the list so the deeper steps skip it. (They
    // may reorder the part before it, which changes nothing: it is the
    // same set of cells.)
    let bestAt = -1;
    let bestMask = 0;
    let bestCount = 10;
    for (let k = 0; k < left; k += 1) {
      const i = empty[k];
      const mask = ALL & ~(rows[ROW_OF[i]] | cols[COL_OF[i]] | boxes[BOX_OF[i]]);
      const count = BITS[mask];
      if (count < bestCount) {
        bestAt = k;
        bestMask = mask;
        bestCount = count;
        if (count <= 1) break;
      }
    }
    if (bestCount === 0) return false;
    const cell = empty[bestAt];
    empty[bestAt] = empty[left - 1];
    empty[left - 1] = cell;
    const r = ROW_OF[cell];
    const c = COL_OF[cell];
    const b = BOX_OF[cell];
    let stop = false;
    for (const digit of digitsOf(bestMask)) {
      const bit = 1 << (digit - 1);
      rows[r] |= bit; cols[c] |= bit; boxes[b] |= bit;
      cells[cell] = digit;
      stop = step(left - 1);
      rows[r] &= ~bit; cols[c] &= ~bit; boxes[b] &= ~bit;
      cells[cell] = 0;
      if (stop) break;
    }
    return stop;
  }
  step(empty.length);
}

const DIGITS_OF_MASK = Array.from({ length: 512 }, (_, mask) =>
  [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((digit) => mask & (1 << (digit - 1))));

/**
 * How many answers a grid (81 numbers, 0 = empty) has, counting no further
 * than `limit`: 0, 1, or "at least 2" with the default.
 */
export function countSolutions(grid, limit = 2) {
  const state = searchState(grid);
  if (!state) return 0;
  let count = 0;
  search(state, (mask) => DIGITS_OF_MASK[mask], () => {
    count += 1;
    return count >= limit;
  });
  return count;
}

/** The first answer found (an array of 81 digits), or null when there is none. */
export function solveSudoku(grid) {
  const state = searchState(grid);
  if (!state) return null;
  let answer = null;
  search(state, (mask) => DIGITS_OF_MASK[mask], (cells) => {
    answer = Array.from(cells);
    return true;
  });
  return answer;
}

/** A full valid grid, different for each stream of random numbers. */
function randomFullGrid(random) {
  const state = searchState(new Array(81).fill(0));
  let grid = null;
  search(state, (mask) => random.shuffle(DIGITS_OF_MASK[mask]), (cells) => {
    grid = Array.from(cells);
    return true;
  });
  return grid;
}

/**
 * Empties the full grid's cells in a random order while the puzzle keeps
 * one answer, until `target` givens are left or no cell can go. (A cell
 * that could not go cannot go later either: fewer givens never make the
 * answer more certain, so one pass is enough.)
 */
function dig(solution, target, random) {
  const puzzle = [...solution];
  let givens = 81;
  for (const index of random.shuffle([...Array(81).keys()])) {
    if (givens <= target) break;
    const digit = puzzle[index];
    puzzle[index] = 0;
    if (countSolutions(puzzle, 2) === 1) givens -= 1;
    else puzzle[index] = digit;
  }
  return { puzzle, givens };
}

// A rare full grid cannot be emptied down to a hard level's givens before
// every cell left is needed; another is filled then (from the same seed's
// numbers, so the deal stays the same). After this many, the fewest wins.
const ATTEMPTS = 25;

/**
 * The puzzle the seed deals at `level` ("easy", "medium", "hard"):
 * { puzzle: 81 digits with 0 for empty, solution: 81 digits, level, seed }.
 * The puzzle has exactly one answer, the solution.
 */
export function generateSudoku(seed, level) {
  if (!LEVELS.includes(level)) throw new RangeError(`Unknown Sudoku level: ${level}`);
  const random = seededRandom(seed);
  const [fewest, most] = GIVENS[level];
  const target = fewest + random.below(most - fewest + 1);
  let best = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const solution = randomFullGrid(random);
    const { puzzle, givens } = dig(solution, target, random);
    if (!best || givens < best.givens) best = { puzzle, solution, givens };
    if (givens <= most) break;
  }
  return { puzzle: best.puzzle, solution: best.solution, level, seed: seed >>> 0 };
}
