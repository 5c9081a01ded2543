// The Sudoku board on screen: a 9×9 ARIA grid of large squares, one of
// them "chosen" (where the number pad and the keyboard write). One square
// at a time is in the Tab order (the chosen one); the arrow keys move
// between them, as a grid's keys do. Each square says in words where it is
// and what it holds ("Row 3, column 5, given 4"); a mistake is said only
// after a check, as it is shown. Built once a visit and redrawn in place,
// so the keyboard never loses its square. The rules are games/sudoku-play.js.
import { h } from '../../dom.js';
import { isGiven, marksOf, moveInGrid } from '../../games/sudoku-play.js';

const DIGITS = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/**
 * `onChoose(index)` when a square is chosen (focused, by touch or key);
 * `onDigit(digit)` / `onClear()` for a key typed in the chosen square.
 * Returns { elements, draw(board, { chosen, finished }), focus(index) }.
 */
export function createSudokuGrid(app, { onChoose, onDigit, onClear }) {
  const { t } = app;
  const cells = [];
  const rows = [];
  for (let row = 0; row < 9; row += 1) {
    const rowCells = [];
    for (let col = 0; col < 9; col += 1) {
      const value = h('span', { class: 'sudoku-value', 'aria-hidden': 'true' });
      const marks = h('span', { class: 'sudoku-marks', 'aria-hidden': 'true' },
        DIGITS.map((digit) => h('span', { class: 'sudoku-mark', 'data-digit': String(digit) })));
      const cell = h('div', {
        id: `sudoku-cell-${row}-${col}`, role: 'gridcell', class: 'sudoku-cell', tabindex: '-1',
        'data-index': String(row * 9 + col),
      }, value, marks);
      cells.push({ cell, value, marks: [...marks.children] });
      rowCells.push(cell);
    }
    rows.push(h('div', { role: 'row', class: 'sudoku-row' }, rowCells));
  }
  const hint = h('p', { id: 'sudoku-grid-hint', class: 'visually-hidden' }, t('games.sudoku.gridHint'));
  const grid = h('div', {
    id: 'sudoku-grid', role: 'grid', class: 'sudoku-grid',
    'aria-label': t('games.sudoku.gridLabel'), 'aria-describedby': 'sudoku-grid-hint',
  }, rows);

  const indexOf = (target) => Number(target?.closest?.('.sudoku-cell')?.dataset.index ?? -1);

  grid.addEventListener('focusin', (event) => {
    const index = indexOf(event.target);
    if (index >= 0) onChoose(index);
  });
  grid.addEventListener('keydown', (event) => {
    const index = indexOf(event.target);
    if (index < 0 || event.altKey || event.metaKey) return;
    const next = moveInGrid(index, event.key, { ctrl: event.ctrlKey });
    if (next !== null) {
      event.preventDefault();
      focus(next);
      return;
    }
    if (event.ctrlKey) return; // the browser's own shortcuts
    if (/^[1-9]$/.test(event.key)) {
      event.preventDefault();
      onDigit(Number(event.key));
    } else if (event.key === 'Backspace' || event.key === 'Delete' || event.key === '0') {
      event.preventDefault();
      onClear();
    }
  });

  function focus(index) {
    cells[index]?.cell.focus();
  }

  function draw(board, { chosen, finished }) {
    const wrong = new Set(board.wrong);
    cells.forEach(({ cell, value, marks }, index) => {
      const digit = board.values[index];
      const given = isGiven(board, index);
      const shownMarks = digit === 0 ? marksOf(board, index) : [];
      const state = given ? 'given' : wrong.has(index) ? 'wrong' : digit ? 'entered' : 'empty';
      cell.dataset.state = state;
      cell.setAttribute('aria-label', cellName(t, index, state, digit, shownMarks));
      cell.setAttribute('aria-selected', index === chosen ? 'true' : 'false');
      cell.setAttribute('tabindex', index === chosen ? '0' : '-1');
      if (given || finished) cell.setAttribute('aria-readonly', 'true');
      else cell.removeAttribute('aria-readonly');
      value.textContent = digit ? String(digit) : '';
      marks.forEach((mark, k) => { mark.textContent = shownMarks.includes(k + 1) ? String(k + 1) : ''; });
    });
    grid.dataset.finished = finished ? 'true' : 'false';
  }

  return { elements: [hint, grid], draw, focus };
}

/** What a screen reader says for a square: where it is, then what it holds. */
function cellName(t, index, state, digit, marks) {
  const where = { row: Math.floor(index / 9) + 1, col: (index % 9) + 1 };
  if (state === 'given') return t('games.sudoku.cell.given', { ...where, digit });
  if (state === 'wrong') return t('games.sudoku.cell.wrong', { ...where, digit });
  if (state === 'entered') return t('games.sudoku.cell.value', { ...where, digit });
  if (marks.length) return t('games.sudoku.cell.marks', { ...where, marks: marks.join(', ') });
  return t('games.sudoku.cell.empty', where);
}
