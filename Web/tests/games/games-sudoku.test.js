import test from 'node:test';
import assert from 'node:assert/strict';
import { GIVENS, LEVELS, countSolutions, generateSudoku, solveSudoku } from '../../games/sudoku.js';
import {
  LOWEST_SCORE, checkMistakes, clearCell, emptyCells, enterDigit, findMistakes, isFull, isSolved,
  marksOf, moveInGrid, newBoard, sudokuScore, toggleMark,
} from '../../games/sudoku-play.js';

// The answers are counted here by a solver of the test's own — the plainest
// backtracking, first empty cell first, digits 1 to 9 — so a mistake in
// the module's faster search cannot hide a puzzle with two answers.
function fits(grid, index, digit) {
  const row = Math.floor(index / 9);
  const col = index % 9;
  const top = row - (row % 3);
  const left = col - (col % 3);
  for (let k = 0; k < 9; k += 1) {
    if (grid[row * 9 + k] === digit || grid[k * 9 + col] === digit) return false;
    if (grid[(top + Math.floor(k / 3)) * 9 + left + (k % 3)] === digit) return false;
  }
  return true;
}

function plainCount(grid, limit = 2) {
  const index = grid.indexOf(0);
  if (index < 0) return 1;
  let count = 0;
  for (let digit = 1; digit <= 9 && count < limit; digit += 1) {
    if (!fits(grid, index, digit)) continue;
    grid[index] = digit;
    count += plainCount(grid, limit - count);
    grid[index] = 0;
  }
  return count;
}

function isValidGrid(grid) {
  if (grid.length !== 81 || !grid.every((d) => Number.isInteger(d) && d >= 1 && d <= 9)) return false;
  const groups = [];
  for (let k = 0; k < 9; k += 1) {
    groups.push([...Array(9).keys()].map((j) => k * 9 + j));
    groups.push([...Array(9).keys()].map((j) => j * 9 + k));
    const top = Math.floor(k / 3) * 3;
    const left = (k % 3) * 3;
    groups.push([...Array(9).keys()].map((j) => (top + Math.floor(j / 3)) * 9 + left + (j % 3)));
  }
  return groups.every((cells) => new Set(cells.map((i) => grid[i])).size === 9);
}

const SEEDS = 1000;

test(`${SEEDS} deals over the three levels: one answer each, the right number of givens`, (t) => {
  const started = Date.now();
  for (let n = 0; n < SEEDS; n += 1) {
    const seed = (n * 2654435761) >>> 0;
    const level = LEVELS[n % LEVELS.length];
    const { puzzle, solution, level: dealt, seed: kept } = generateSudoku(seed, level);
    const where = `seed ${seed}, ${level}`;
    assert.equal(dealt, level, where);
    assert.equal(kept, seed, where);
    assert.equal(puzzle.length, 81, where);
    assert.ok(isValidGrid(solution), `${where}: the solution is a valid grid`);
    assert.ok(puzzle.every((d, i) => d === 0 || d === solution[i]), `${where}: the givens agree with the solution`);
    const givens = puzzle.filter((d) => d !== 0).length;
    const [fewest, most] = GIVENS[level];
    assert.ok(givens >= fewest && givens <= most, `${where}: ${givens} givens, not ${fewest}–${most}`);
    assert.equal(plainCount([...puzzle]), 1, `${where}: exactly one answer`);
  }
  // Said, not asserted: how long the thousand took on this machine.
  t.diagnostic(`${SEEDS} Sudoku deals checked in ${Date.now() - started} ms`);
});

test('the same seed deals the same puzzle; another seed another', () => {
  for (const level of LEVELS) {
    assert.deepEqual(generateSudoku(2024, level), generateSudoku(2024, level));
    assert.notDeepEqual(generateSudoku(2024, level).puzzle, generateSudoku(2025, level).puzzle);
  }
});

test('an unknown level is refused', () => {
  assert.throws(() => generateSudoku(1, 'impossible'), RangeError);
});

test("the module's solver: none, one or more answers, and the answer itself", () => {
  const { puzzle, solution } = generateSudoku(7, 'hard');
  assert.equal(countSolutions(puzzle), 1);
  assert.deepEqual(solveSudoku(puzzle), solution);
  assert.equal(countSolutions(new Array(81).fill(0)), 2, 'an empty grid has many; counting stops at 2');
  const twice = new Array(81).fill(0);
  twice[0] = 5;
  twice[1] = 5;
  assert.equal(countSolutions(twice), 0, 'two 5s in a row have no answer');
  assert.equal(solveSudoku(twice), null);
  assert.equal(countSolutions(solution), 1, 'a full grid is its own answer');
});

/** A board with one empty cell to play with: the first the puzzle leaves empty. */
function board() {
  const dealt = generateSudoku(99, 'easy');
  const start = newBoard(dealt);
  const empty = dealt.puzzle.indexOf(0);
  const given = dealt.puzzle.findIndex((d) => d !== 0);
  const right = dealt.solution[empty];
  const wrong = right === 9 ? 1 : right + 1;
  return { dealt, start, empty, given, right, wrong };
}

test('a digit goes in an empty cell, never over a given', () => {
  const { start, empty, given, right } = board();
  const after = enterDigit(start, empty, right);
  assert.equal(after.values[empty], right);
  assert.equal(start.values[empty], 0, 'the board before is left as it was');
  assert.equal(enterDigit(start, given, 1), start);
  assert.equal(enterDigit(start, empty, 0), start);
  assert.equal(enterDigit(start, empty, 10), start);
});

test('mistakes are found only when checked, and a changed cell is no longer marked', () => {
  const { start, empty, right, wrong } = board();
  const typed = enterDigit(start, empty, wrong);
  assert.deepEqual(typed.wrong, [], 'nothing is marked before a check');
  const checked = checkMistakes(typed);
  assert.deepEqual(checked.wrong, [empty]);
  assert.equal(checked.checks, 1);
  assert.deepEqual(enterDigit(checked, empty, right).wrong, []);
  assert.deepEqual(clearCell(checked, empty).wrong, []);
  assert.deepEqual(checkMistakes(enterDigit(start, empty, right)).wrong, [], 'a right digit is no mistake');
  assert.deepEqual(findMistakes(start.values, start.solution), [], 'empty cells are not mistakes');
});

test('pencil marks toggle in an empty cell, hide under a digit and come back when it is cleared', () => {
  const { start, empty, given, right } = board();
  let b = toggleMark(start, empty, 3);
  b = toggleMark(b, empty, 7);
  assert.deepEqual(marksOf(b, empty), [3, 7]);
  b = toggleMark(b, empty, 3);
  assert.deepEqual(marksOf(b, empty), [7]);
  assert.equal(toggleMark(start, given, 3), start, 'a given takes no marks');
  const written = enterDigit(b, empty, right);
  assert.equal(toggleMark(written, empty, 2), written, 'a written cell takes no marks');
  const cleared = clearCell(written, empty);
  assert.equal(cleared.values[empty], 0);
  assert.deepEqual(marksOf(cleared, empty), [7], 'clearing the digit shows the marks again');
  assert.deepEqual(marksOf(clearCell(cleared, empty), empty), [], 'clearing again takes the marks away');
  assert.equal(clearCell(start, given), start, 'a given cannot be cleared');
});

test('full, solved, and how many cells are left', () => {
  const { dealt, start } = board();
  assert.equal(emptyCells(start), dealt.puzzle.filter((d) => d === 0).length);
  let b = start;
  dealt.puzzle.forEach((d, i) => { if (d === 0) b = enterDigit(b, i, dealt.solution[i]); });
  assert.ok(isFull(b) && isSolved(b));
  const i = dealt.puzzle.indexOf(0);
  const wrongly = enterDigit(b, i, dealt.solution[i] === 9 ? 1 : dealt.solution[i] + 1);
  assert.ok(isFull(wrongly) && !isSolved(wrongly), 'full is not yet solved');
  assert.ok(!isFull(start) && !isSolved(start));
});

test('the score: level points, a bonus for time under an hour, less for each check, never below the lowest', () => {
  assert.equal(sudokuScore('easy', 0, 0), 100 + 120);
  assert.equal(sudokuScore('medium', 10 * 60 + 59, 0), 200 + 100);
  assert.equal(sudokuScore('hard', 30 * 60, 2), 300 + 60 - 30);
  assert.equal(sudokuScore('easy', 3 * 3600, 0), 100, 'no bonus after an hour, nothing taken either');
  assert.equal(sudokuScore('easy', 3 * 3600, 100), LOWEST_SCORE);
  assert.ok(sudokuScore('hard', 600, 0) > sudokuScore('medium', 600, 0));
  assert.ok(sudokuScore('medium', 600, 0) > sudokuScore('medium', 600, 1), 'fewer checks score more');
  assert.ok(sudokuScore('medium', 600, 0) > sudokuScore('medium', 1200, 0), 'faster scores more');
  for (const level of LEVELS) {
    for (const seconds of [0, 59, 61, 3599, 99999]) {
      for (const checks of [0, 1, 5, 50]) {
        const score = sudokuScore(level, seconds, checks);
        assert.ok(Number.isInteger(score) && score >= 1, `${level} ${seconds} ${checks}`);
      }
    }
  }
});

test('the arrow keys move one cell and stop at the edges; Home and End go to the ends', () => {
  assert.equal(moveInGrid(40, 'ArrowUp'), 31);
  assert.equal(moveInGrid(40, 'ArrowDown'), 49);
  assert.equal(moveInGrid(40, 'ArrowLeft'), 39);
  assert.equal(moveInGrid(40, 'ArrowRight'), 41);
  assert.equal(moveInGrid(4, 'ArrowUp'), 4);
  assert.equal(moveInGrid(76, 'ArrowDown'), 76);
  assert.equal(moveInGrid(36, 'ArrowLeft'), 36);
  assert.equal(moveInGrid(44, 'ArrowRight'), 44);
  assert.equal(moveInGrid(40, 'Home'), 36);
  assert.equal(moveInGrid(40, 'End'), 44);
  assert.equal(moveInGrid(40, 'Home', { ctrl: true }), 0);
  assert.equal(moveInGrid(40, 'End', { ctrl: true }), 80);
  assert.equal(moveInGrid(40, 'a'), null);
});
