// A Sudoku game in play: what the person has written in each cell, their
// pencil marks, the mistakes they asked to see, and the score at the end.
// Pure: each change returns a new board, so the page redraws from it and
// Node tests check the rules without a DOM. Dealing is games/sudoku.js.

/** Points for finishing a level, before time and checks. */
export const LEVEL_POINTS = Object.freeze({ easy: 100, medium: 200, hard: 300 });
/** Extra points for each whole minute under an hour. */
export const POINTS_A_MINUTE = 2;
export const BONUS_MINUTES = 60;
/** Points taken for each "Check for mistakes". */
export const POINTS_A_CHECK = 15;
/** A finished puzzle never scores less. */
export const LOWEST_SCORE = 10;

/**
 * A board from a deal ({ puzzle, solution, level, seed }): `values` are
 * the digits in the cells now (givens included, 0 = empty), `marks` each
 * cell's pencil marks as bits (digit d is bit d − 1), `wrong` the cells a
 * check marked (until they are changed), `checks` how often it was asked.
 */
export function newBoard({ puzzle, solution, level, seed }) {
  return {
    puzzle: [...puzzle],
    solution: [...solution],
    level,
    seed,
    values: [...puzzle],
    marks: new Array(81).fill(0),
    wrong: [],
    checks: 0,
  };
}

export const isGiven = (board, index) => board.puzzle[index] !== 0;

const without = (list, index) => list.filter((i) => i !== index);

/** Writes `digit` (1–9) in a cell; a given stays as it is. */
export function enterDigit(board, index, digit) {
  if (isGiven(board, index) || !(digit >= 1 && digit <= 9)) return board;
  const values = [...board.values];
  values[index] = digit;
  return { ...board, values, wrong: without(board.wrong, index) };
}

/**
 * Clears a cell: its digit first (its pencil marks come back into view),
 * then, pressed again on an empty cell, its pencil marks.
 */
export function clearCell(board, index) {
  if (isGiven(board, index)) return board;
  if (board.values[index] !== 0) {
    const values = [...board.values];
    values[index] = 0;
    return { ...board, values, wrong: without(board.wrong, index) };
  }
  if (board.marks[index] === 0) return board;
  const marks = [...board.marks];
  marks[index] = 0;
  return { ...board, marks };
}

/** Adds a pencil mark to an empty cell, or takes it away if it is there. */
export function toggleMark(board, index, digit) {
  if (board.values[index] !== 0 || !(digit >= 1 && digit <= 9)) return board;
  const marks = [...board.marks];
  marks[index] ^= 1 << (digit - 1);
  return { ...board, marks };
}

/** A cell's pencil marks, smallest first. */
export function marksOf(board, index) {
  const mask = board.marks[index];
  return [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((digit) => mask & (1 << (digit - 1)));
}

/** The cells whose written digit is not the answer's (empty cells are not mistakes). */
export function findMistakes(values, solution) {
  const found = [];
  for (let i = 0; i < 81; i += 1) {
    if (values[i] !== 0 && values[i] !== solution[i]) found.push(i);
  }
  return found;
}

/** "Check for mistakes": marks the wrong cells and counts the check. */
export function checkMistakes(board) {
  return { ...board, wrong: findMistakes(board.values, board.solution), checks: board.checks + 1 };
}

export const emptyCells = (board) => board.values.filter((value) => value === 0).length;

/** Every cell is written in; it may still be wrong. */
export const isFull = (board) => emptyCells(board) === 0;

/** Every cell holds the answer's digit. */
export const isSolved = (board) => board.values.every((value, i) => value === board.solution[i]);

/**
 * The score for a solved puzzle: the level's points, plus POINTS_A_MINUTE
 * for each whole minute under BONUS_MINUTES, minus POINTS_A_CHECK for each
 * check; never below LOWEST_SCORE. The rules on the page say the same.
 */
export function sudokuScore(level, seconds, checks) {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const bonus = Math.max(0, BONUS_MINUTES - minutes) * POINTS_A_MINUTE;
  const score = (LEVEL_POINTS[level] ?? LEVEL_POINTS.easy) + bonus - POINTS_A_CHECK * Math.max(0, checks);
  return Math.max(LOWEST_SCORE, Math.round(score));
}

/**
 * Where the keyboard goes from cell `index` on `key`: the arrow keys one
 * cell (stopping at the edge), Home and End the row's ends, with Ctrl the
 * grid's first and last cell, as a grid's keys do. Null for other keys.
 */
export function moveInGrid(index, key, { ctrl = false } = {}) {
  const row = Math.floor(index / 9);
  const col = index % 9;
  switch (key) {
    case 'ArrowUp': return Math.max(0, row - 1) * 9 + col;
    case 'ArrowDown': return Math.min(8, row + 1) * 9 + col;
    case 'ArrowLeft': return row * 9 + Math.max(0, col - 1);
    case 'ArrowRight': return row * 9 + Math.min(8, col + 1);
    case 'Home': return ctrl ? 0 : row * 9;
    case 'End': return ctrl ? 80 : row * 9 + 8;
    default: return null;
  }
}
