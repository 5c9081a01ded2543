// The word game: six rows of five large tiles, and the letters typed on
// the keys on the screen or on the person's own keyboard. Each guess is
// marked on its tiles by colour and by a mark (✓ in place, ● elsewhere in
// the word), and said in words for screen readers. The rules, the score
// and its best are the game frame's (game-frame.js); what a guess is worth
// and how it is marked are games/wordle.js.
import { h } from '../../dom.js';
import { newSeed } from '../../games/seed.js';
import {
  alphabet, createWordleGame, keyboardRows, keyboardStates, MAX_TRIES, normalizeWord, pickAnswer, rowInWords,
  WORD_LENGTH, wordleScore,
} from '../../games/wordle.js';
import { createGameFrame } from './game-frame.js';
import { createAnnouncer } from '../page-tools.js';
import { languageOf } from '../../i18n.js';

const RULE_COUNT = 8;
const MARK_SYMBOLS = { correct: '✓', present: '●', absent: '' };

// Each language's words, fetched once while the app is open: a new game,
// or coming back to the page, does not fetch them again. A failed fetch is
// forgotten, so "New game" tries again.
const wordLists = new Map();

function loadWords(language) {
  if (!wordLists.has(language)) {
    const loading = globalThis.fetch(`/games/words/${language}.json`).then(async (response) => {
      if (!response.ok) throw new Error(`words: HTTP ${response.status}`);
      const body = await response.json();
      return { answers: body.answers, accepted: new Set(body.accepted) };
    });
    loading.catch(() => wordLists.delete(language));
    wordLists.set(language, loading);
  }
  return wordLists.get(language);
}

export function createWordlePage(app) {
  // A language switch draws the page again, so a new game starts in the
  // new language's words.
  return (outlet) => renderWordle(app, outlet);
}

function renderWordle(app, outlet) {
  const { t } = app;
  const language = languageOf(app.language);
  const letters = alphabet(language);
  const upper = (letter) => letter.toLocaleUpperCase(language);
  const frame = createGameFrame(app, {
    game: 'wordle',
    rules: Array.from({ length: RULE_COUNT }, (_, i) => t(`games.wordle.rules${i + 1}`)),
  });
  const { element: said, announce } = createAnnouncer('wordle-said');
  const message = h('p', { id: 'wordle-message', class: 'wordle-message' });
  const tiles = Array.from({ length: MAX_TRIES }, (_, row) =>
    Array.from({ length: WORD_LENGTH }, (_, col) => h('div', { id: `wordle-tile-${row}-${col}`, class: 'wordle-tile' })));
  const board = h('div', { id: 'wordle-board', class: 'wordle-board', role: 'group', 'aria-label': t('games.wordle.board') },
    tiles.map((cells, row) => h('div', { class: 'wordle-row', role: 'group', 'aria-label': t('games.wordle.row', { number: row + 1 }) }, cells)));
  const keys = new Map();
  const keyboard = h('div', { id: 'wordle-keyboard', class: 'wordle-keyboard', role: 'group', 'aria-label': t('games.wordle.keyboard') },
    keyboardRows(language).map((row) => h('div', { class: 'wordle-key-row' }, row.map((letter) => {
      const key = h('button', { id: `wordle-key-${letter}`, type: 'button', class: 'wordle-key', 'data-key': letter, onclick: () => typeLetter(letter) });
      keys.set(letter, key);
      return key;
    }))),
    h('div', { class: 'wordle-key-row wordle-actions' },
      h('button', { id: 'wordle-backspace', type: 'button', class: 'wordle-key wordle-wide-key', 'aria-label': t('games.wordle.backspaceLabel'), onclick: erase },
        h('span', { 'aria-hidden': 'true' }, '⌫ '), t('games.wordle.backspace')),
      h('button', { id: 'wordle-enter', type: 'button', class: 'wordle-key wordle-wide-key wordle-enter', 'aria-label': t('games.wordle.enterLabel'), onclick: submit },
        t('games.wordle.enter'))));
  const newGameButton = h('button', { id: 'wordle-new-game', type: 'button', class: 'secondary-button wordle-new-game', onclick: () => start({ fresh: true }) },
    t('games.wordle.newGame'));

  outlet.append(...frame.elements, said,
    h('div', { class: 'wordle-game' },
      h('div', { class: 'wordle-play' }, board),
      h('div', { class: 'wordle-controls' }, message, keyboard, newGameButton, legend(t))));

  let words = null;
  let game = null;
  let left = false;

  function say(text, { visible = true } = {}) {
    if (visible) message.textContent = text;
    announce(text);
  }

  function drawTile(tile, letter, mark) {
    tile.replaceChildren();
    tile.removeAttribute('data-mark');
    tile.classList.toggle('wordle-tile-filled', Boolean(letter));
    if (!letter) return;
    tile.append(h('span', { class: 'wordle-letter' }, upper(letter)));
    if (mark) {
      tile.setAttribute('data-mark', mark);
      tile.append(
        h('span', { class: 'wordle-mark', 'aria-hidden': 'true' }, MARK_SYMBOLS[mark]),
        h('span', { class: 'visually-hidden' }, `, ${t(`games.wordle.tile.${mark}`)}`));
    }
  }

  function draw() {
    const rows = game?.rows ?? [];
    const typed = [...(game?.typed ?? '')];
    tiles.forEach((cells, row) => cells.forEach((tile, col) => {
      if (row < rows.length) drawTile(tile, [...rows[row].guess][col], rows[row].marks[col]);
      else if (row === rows.length) drawTile(tile, typed[col] ?? '', null);
      else drawTile(tile, '', null);
      tile.classList.toggle('wordle-tile-current', game?.state === 'playing' && row === rows.length && col === typed.length);
    }));
    const states = keyboardStates(rows);
    for (const [letter, key] of keys) {
      const mark = states.get(letter);
      key.replaceChildren(upper(letter));
      if (mark) {
        key.setAttribute('data-mark', mark);
        key.setAttribute('aria-label', t(`games.wordle.key.${mark}`, { letter: upper(letter) }));
        if (MARK_SYMBOLS[mark]) key.append(h('span', { class: 'wordle-mark', 'aria-hidden': 'true' }, MARK_SYMBOLS[mark]));
      } else {
        key.removeAttribute('data-mark');
        key.removeAttribute('aria-label');
      }
    }
    const over = game !== null && game.state !== 'playing';
    newGameButton.classList.toggle('primary-button', over);
    newGameButton.classList.toggle('secondary-button', !over);
  }

  function typeLetter(letter) {
    if (game?.type(letter).changed) draw();
  }

  function erase() {
    if (game?.erase().changed) draw();
  }

  async function submit() {
    if (!game) return;
    const result = game.submit();
    if (result.outcome === 'over') return;
    if (result.outcome === 'short') {
      say(t('games.wordle.short'));
      return;
    }
    if (result.outcome === 'unknown') {
      say(t('games.wordle.unknown', { word: upper(result.guess) }));
      return;
    }
    draw();
    const row = rowInWords(result.row.guess, result.row.marks, { t, language });
    const word = upper(game.answer);
    if (result.outcome === 'guessed') {
      const remaining = t('games.wordle.triesLeft', { count: MAX_TRIES - game.triesUsed });
      message.textContent = remaining;
      announce(`${row}. ${remaining}`);
      return;
    }
    const ending = result.outcome === 'won'
      ? t('games.wordle.won', { word, tries: game.triesUsed })
      : t('games.wordle.lost', { word });
    message.textContent = ending;
    announce(`${row}. ${ending}`);
    newGameButton.focus();
    if (result.outcome === 'won') await frame.finished(wordleScore(game.triesUsed));
  }

  async function start({ fresh = false } = {}) {
    game = null;
    frame.newGame();
    draw();
    if (!words) {
      message.textContent = t('games.wordle.loading');
      try {
        words = await loadWords(language);
      } catch {
        if (left) return;
        message.textContent = t('games.wordle.loadFailed');
        app.showProblem(t('games.wordle.loadFailed'));
        return;
      }
      if (left) return;
      app.clearProblem();
    }
    game = createWordleGame({ answer: pickAnswer(newSeed(), words.answers), accepted: words.accepted });
    message.textContent = '';
    draw();
    if (fresh) say(t('games.wordle.newGameReady'));
  }

  // The person's own keyboard: letters of the language, Enter and
  // Backspace, unless they are typing into a field, a dialog is open, or
  // it is a shortcut (Ctrl or Cmd; AltGr, which types "ą", is allowed).
  function onKey(event) {
    if (event.defaultPrevented || event.isComposing || event.metaKey || (event.ctrlKey && !event.altKey)) return;
    const target = event.target;
    if (target?.closest?.('input, textarea, select, [contenteditable], dialog')) return;
    if (event.key === 'Enter') {
      // Enter on a focused button presses it ("New game", "Delete"),
      // except on a letter key (focused by a tap on it), where it means
      // "check this word" rather than typing the letter again.
      if (event.repeat || (target?.closest?.('button, a') && !target.closest('[data-key]'))) return;
      event.preventDefault();
      submit();
    } else if (event.key === 'Backspace') {
      event.preventDefault();
      erase();
    } else if ([...event.key].length === 1 && letters.has(normalizeWord(event.key))) {
      event.preventDefault();
      typeLetter(normalizeWord(event.key));
    }
  }
  document.addEventListener('keydown', onKey);

  start();

  return function leaveWordle() {
    left = true;
    document.removeEventListener('keydown', onKey);
  };
}

/** What the marks mean, under the keys, drawn as on the tiles. */
function legend(t) {
  const item = (mark, text) => h('li', {},
    h('span', { class: 'wordle-tile wordle-legend-tile', 'data-mark': mark, 'aria-hidden': 'true' },
      h('span', { class: 'wordle-mark' }, MARK_SYMBOLS[mark])),
    ` ${text}`);
  return h('section', { class: 'wordle-legend', 'aria-labelledby': 'wordle-legend-heading' },
    h('h2', { id: 'wordle-legend-heading', class: 'wordle-legend-heading' }, t('games.wordle.legend')),
    h('ul', {},
      item('correct', t('games.wordle.legendCorrect')),
      item('present', t('games.wordle.legendPresent')),
      item('absent', t('games.wordle.legendAbsent'))));
}
