// Sudoku for a senior: three levels, a grid of large squares written in
// by touch (a square, then a number under the grid) or by keyboard, pencil
// marks, and mistakes shown only when asked ("Check for mistakes" — seeing
// them unasked spoils the puzzle). A solved grid is scored and kept on the
// hub by the game frame. The game stays as it is across a language switch
// or a visit to another page; time counts only while the page is in view.
// The squares are sudoku-grid.js; dealing and the rules are games/.
import { h } from '../../dom.js';
import { icon } from '../../icon.js';
import { readSaved, writeSaved } from '../../preferences.js';
import { newSeed } from '../../games/seed.js';
import { LEVELS, generateSudoku } from '../../games/sudoku.js';
import {
  LEVEL_POINTS, LOWEST_SCORE, POINTS_A_CHECK, POINTS_A_MINUTE,
  checkMistakes, clearCell, emptyCells, enterDigit, isFull, isGiven, isSolved, marksOf, newBoard, sudokuScore, toggleMark,
} from '../../games/sudoku-play.js';
import { createGameFrame } from './game-frame.js';
import { confirmNewGame } from './game-new-dialog.js';
import { createAnnouncer } from '../page-tools.js';
import { createSudokuGrid } from './sudoku-grid.js';
import { deviceStorage } from '../../device-storage.js';

const LEVEL_KEY = 'hearth.games.sudoku.level';
const DIGITS = [1, 2, 3, 4, 5, 6, 7, 8, 9];


/** The level last played on this device, Easy the first time. */
function savedLevel() {
  const level = readSaved(deviceStorage(), LEVEL_KEY);
  return LEVELS.includes(level) ? level : 'easy';
}

export function createSudokuPage(app) {
  // The game in play: the board, the square chosen, pencil on or off, and
  // the time played so far (ms). Kept here, not in the page, so leaving the
  // page or switching language does not throw a half-solved puzzle away.
  const game = { board: null, chosen: 0, pencil: false, finished: false, solvedMinutes: 0, playedMs: 0 };
  return (outlet) => renderSudoku(app, game, outlet);
}

/** The rules, in short sentences; the score's numbers are the ones sudoku-play.js uses. */
function rulesOf(t) {
  return [
    ...[1, 2, 3, 4, 5, 6].map((n) => t(`games.sudoku.rules${n}`)),
    t('games.sudoku.rules7', {
      ...LEVEL_POINTS, perMinute: POINTS_A_MINUTE, perCheck: POINTS_A_CHECK, lowest: LOWEST_SCORE,
    }),
  ];
}

function renderSudoku(app, game, outlet) {
  const { t } = app;
  const frame = createGameFrame(app, { game: 'sudoku', rules: rulesOf(t) });
  const { element: announcer, announce } = createAnnouncer('sudoku-said');
  const clock = playClock(game);

  const levelInputs = LEVELS.map((level) => h('input', {
    type: 'radio', id: `sudoku-level-${level}`, name: 'sudoku-level', value: level,
    onchange: () => startNew(level, () => document.getElementById(`sudoku-level-${level}`)),
  }));
  const levelChoice = h('fieldset', { class: 'choices game-choices' },
    h('legend', {}, t('games.sudoku.level')),
    LEVELS.map((level, i) => h('label', { class: 'choice', for: `sudoku-level-${level}` },
      levelInputs[i], h('span', {}, t(`games.sudoku.levels.${level}`)))));
  const newGame = h('button', {
    id: 'sudoku-new-game', type: 'button', class: 'primary-button',
    onclick: () => startNew(game.board.level, () => document.getElementById('sudoku-new-game')),
  }, t('games.sudoku.newGame'));
  const status = h('p', { id: 'sudoku-status', class: 'game-status' });

  const grid = createSudokuGrid(app, {
    onChoose: (index) => { game.chosen = index; draw(); },
    onDigit: write,
    onClear: clear,
  });
  const padButtons = [
    ...DIGITS.map((digit) => h('button', {
      id: `sudoku-pad-${digit}`, type: 'button', class: 'sudoku-pad-button', onclick: () => write(digit),
    }, String(digit))),
    h('button', { id: 'sudoku-clear', type: 'button', class: 'sudoku-pad-button sudoku-clear', onclick: clear }, t('games.sudoku.clear')),
  ];
  const pad = h('div', { id: 'sudoku-pad', class: 'sudoku-pad', role: 'group', 'aria-label': t('games.sudoku.pad') }, padButtons);
  const pencil = h('button', {
    id: 'sudoku-pencil', type: 'button', class: 'secondary-button sudoku-tool', onclick: togglePencil,
  }, icon('pencil', 'sudoku-tool-icon'), t('games.sudoku.pencil'));
  const check = h('button', {
    id: 'sudoku-check', type: 'button', class: 'secondary-button sudoku-tool', onclick: checkNow,
  }, t('games.sudoku.check'));

  outlet.append(
    ...frame.elements,
    h('div', { class: 'game-options' }, levelChoice, newGame),
    status,
    h('div', { class: 'sudoku-board game-play' },
      ...grid.elements,
      h('div', { class: 'sudoku-tools' },
        h('p', { class: 'hint sudoku-pad-hint' }, t('games.sudoku.padHint')),
        pad, pencil, check)),
    announcer,
  );

  const where = (index) => ({ row: Math.floor(index / 9) + 1, col: (index % 9) + 1 });
  const levelName = (level) => t(`games.sudoku.levels.${level}`);

  function draw() {
    const { board, finished } = game;
    grid.draw(board, { chosen: game.chosen, finished });
    LEVELS.forEach((level, i) => { levelInputs[i].checked = level === board.level; });
    status.textContent = finished
      ? t('games.sudoku.said.solved', { minutes: game.solvedMinutes })
      : t('games.sudoku.status', { level: levelName(board.level), count: emptyCells(board) });
    pencil.setAttribute('aria-pressed', game.pencil ? 'true' : 'false');
    pad.dataset.pencil = game.pencil ? 'true' : 'false';
    for (const button of [...padButtons, pencil, check]) {
      if (finished) button.setAttribute('aria-disabled', 'true');
      else button.removeAttribute('aria-disabled');
    }
  }

  function deal(level) {
    game.board = newBoard(generateSudoku(newSeed(), level));
    game.chosen = Math.max(0, game.board.puzzle.indexOf(0));
    game.finished = false;
    game.solvedMinutes = 0;
    clock.restart();
    writeSaved(deviceStorage(), LEVEL_KEY, level);
    frame.newGame();
    draw();
  }

  /** A new game at `level`, asking first if that would throw away one in progress. */
  async function startNew(level, returnFocus) {
    if (inProgress(game) && !(await confirmNewGame(app, 'sudoku', { returnFocus }))) {
      draw(); // the level chosen goes back to the game's
      return;
    }
    deal(level);
    announce(t('games.sudoku.said.newGame', { level: levelName(level) }));
  }

  function write(digit) {
    if (game.finished) return;
    const index = game.chosen;
    const before = game.board;
    if (isGiven(before, index)) {
      announce(t('games.sudoku.said.given'));
    } else if (game.pencil) {
      if (before.values[index] !== 0) {
        announce(t('games.sudoku.said.clearFirst'));
        return;
      }
      const had = marksOf(before, index).includes(digit);
      game.board = toggleMark(before, index, digit);
      draw();
      announce(t(had ? 'games.sudoku.said.markRemoved' : 'games.sudoku.said.markAdded', { digit }));
    } else {
      game.board = enterDigit(before, index, digit);
      draw();
      const said = t('games.sudoku.said.entered', { digit, ...where(index) });
      if (isSolved(game.board)) finish(said);
      else announce(isFull(game.board) ? `${said} ${t('games.sudoku.said.full')}` : said);
    }
  }

  function clear() {
    if (game.finished) return;
    const index = game.chosen;
    if (isGiven(game.board, index)) {
      announce(t('games.sudoku.said.given'));
      return;
    }
    const before = game.board;
    game.board = clearCell(before, index);
    if (game.board === before) return;
    draw();
    announce(t('games.sudoku.said.cleared', where(index)));
  }

  function togglePencil() {
    if (game.finished) return;
    game.pencil = !game.pencil;
    draw();
    announce(t(game.pencil ? 'games.sudoku.said.pencilOn' : 'games.sudoku.said.pencilOff'));
  }

  function checkNow() {
    if (game.finished) return;
    game.board = checkMistakes(game.board);
    draw();
    const count = game.board.wrong.length;
    announce(count ? t('games.sudoku.said.mistakes', { count }) : t('games.sudoku.said.noMistakes'));
  }

  async function finish(said) {
    const seconds = clock.seconds();
    game.finished = true;
    clock.pause();
    game.solvedMinutes = Math.max(1, Math.ceil(seconds / 60));
    draw();
    announce(`${said} ${t('games.sudoku.said.solved', { minutes: game.solvedMinutes })}`);
    await frame.finished(sudokuScore(game.board.level, seconds, game.board.checks));
  }

  const onVisibility = () => (document.visibilityState === 'hidden' ? clock.pause() : clock.resume());
  document.addEventListener('visibilitychange', onVisibility);

  if (game.board) {
    clock.resume();
    draw();
  } else {
    deal(savedLevel());
  }

  return function leaveSudoku() {
    clock.pause();
    document.removeEventListener('visibilitychange', onVisibility);
  };
}

/** Something would be lost: a digit or mark written, or a check made, in an unfinished game. */
function inProgress({ board, finished }) {
  if (!board || finished) return false;
  return board.checks > 0 || board.marks.some(Boolean) || board.values.some((value, i) => value !== board.puzzle[i]);
}

/**
 * The time a game has been played: counted while the page is shown and in
 * view, kept in `game.playedMs` between visits, stopped when it is solved.
 */
function playClock(game) {
  let since = null;
  const clock = {
    resume() {
      if (since === null && !game.finished && document.visibilityState !== 'hidden') since = Date.now();
    },
    pause() {
      if (since === null) return;
      game.playedMs += Date.now() - since;
      since = null;
    },
    restart() {
      game.playedMs = 0;
      since = null;
      clock.resume();
    },
    seconds: () => (game.playedMs + (since === null ? 0 : Date.now() - since)) / 1000,
  };
  return clock;
}
