// Memory (pairs) for a senior: 12 or 16 big cards with large pictures.
// A card face down is only "Card 5, face down", on screen and to a screen
// reader alike: nothing of its picture is in the page until it is turned.
// Two cards that differ turn back after a moment, or at once when the next
// card is pressed. A finished game is scored and kept on the hub by the
// game frame. The game stays as it is across a language switch or a visit
// to another page. Dealing and the rules of turning are games/memory.js.
import { h } from '../../dom.js';
import { icon } from '../../icon.js';
import { readSaved, writeSaved } from '../../preferences.js';
import { newSeed } from '../../games/seed.js';
import {
  LOWEST_MEMORY_SCORE, POINTS_A_MISS, POINTS_A_PAIR, SIZES,
  flip, hasMismatch, hideMismatch, isFinished, memoryScore, newMemoryGame, pairsFound, pictureById,
} from '../../games/memory.js';
import { createGameFrame } from './game-frame.js';
import { confirmNewGame } from './game-new-dialog.js';
import { createAnnouncer } from '../page-tools.js';
import { deviceStorage } from '../../device-storage.js';

const SIZE_KEY = 'hearth.games.memory.size';
/** Long enough to see both pictures, short enough not to wait for. */
export const MISMATCH_SHOWN_MS = 1200;


/** The size last played on this device, the smaller one the first time. */
function savedSize() {
  const size = readSaved(deviceStorage(), SIZE_KEY);
  return Object.hasOwn(SIZES, size) ? size : '3x4';
}

export function createMemoryPage(app) {
  // The game in play, kept here rather than in the page so that leaving
  // the page or switching language does not throw it away.
  const game = { state: null, scored: false };
  return (outlet) => renderMemory(app, game, outlet);
}

function rulesOf(t) {
  return [
    ...[1, 2, 3, 4].map((n) => t(`games.memory.rules${n}`)),
    t('games.memory.rules5', { perPair: POINTS_A_PAIR, perMiss: POINTS_A_MISS, lowest: LOWEST_MEMORY_SCORE }),
  ];
}

function renderMemory(app, game, outlet) {
  const { t } = app;
  const frame = createGameFrame(app, { game: 'memory', rules: rulesOf(t) });
  const { element: announcer, announce } = createAnnouncer('memory-said');
  let hideTimer = null;

  const sizeInputs = Object.keys(SIZES).map((size) => h('input', {
    type: 'radio', id: `memory-size-${size}`, name: 'memory-size', value: size,
    onchange: () => startNew(size, () => document.getElementById(`memory-size-${size}`)),
  }));
  const sizeChoice = h('fieldset', { class: 'choices game-choices' },
    h('legend', {}, t('games.memory.size')),
    Object.keys(SIZES).map((size, i) => h('label', { class: 'choice', for: `memory-size-${size}` },
      sizeInputs[i], h('span', {}, t(`games.memory.sizes.${size}`)))));
  const newGame = h('button', {
    id: 'memory-new-game', type: 'button', class: 'primary-button',
    onclick: () => startNew(game.state.size, () => document.getElementById('memory-new-game')),
  }, t('games.memory.newGame'));
  const status = h('p', { id: 'memory-status', class: 'game-status' });
  const cardList = h('ul', { id: 'memory-cards', class: 'memory-grid game-play', 'aria-label': t('games.memory.gridLabel') });
  cardList.addEventListener('keydown', (event) => moveBetweenCards(event, cardList));

  outlet.append(...frame.elements, h('div', { class: 'game-options' }, sizeChoice, newGame), status, cardList, announcer);

  /** The cards' buttons, made anew for each deal (their number can change). */
  function layCards() {
    const { state } = game;
    cardList.dataset.size = state.size;
    cardList.replaceChildren(...state.cards.map((_, index) => h('li', { class: 'memory-slot' },
      h('button', { id: `memory-card-${index}`, type: 'button', class: 'memory-card', onclick: () => press(index) },
        h('span', { class: 'memory-face', 'aria-hidden': 'true' }),
        h('span', { class: 'visually-hidden memory-name' })))));
  }

  /** Each card as the state has it; a face-down card's picture is nowhere in the page. */
  function draw() {
    const { state } = game;
    Object.keys(SIZES).forEach((size, i) => { sizeInputs[i].checked = size === state.size; });
    status.textContent = t('games.memory.status', { moves: state.moves, found: pairsFound(state), pairs: SIZES[state.size].pairs });
    cardList.querySelectorAll('.memory-card').forEach((button, index) => {
      const found = state.matched.includes(index);
      const up = found || state.open.includes(index);
      const picture = up ? pictureById(state.cards[index]) : null;
      const number = index + 1;
      button.dataset.state = found ? 'found' : up ? 'up' : 'down';
      const face = button.querySelector('.memory-face');
      if (picture) face.replaceChildren(icon(picture.icon)); else face.replaceChildren();
      face.dataset.picture = picture?.id ?? '';
      button.querySelector('.memory-name').textContent = picture
        ? t(found ? 'games.memory.card.found' : 'games.memory.card.up', { number, picture: nameOf(picture) })
        : t('games.memory.card.down', { number });
      if (found) button.setAttribute('aria-disabled', 'true');
      else button.removeAttribute('aria-disabled');
    });
  }

  const nameOf = (picture) => t(`games.memory.pictures.${picture.id}`);

  function deal(size) {
    clearTimeout(hideTimer);
    game.state = newMemoryGame(newSeed(), size);
    game.scored = false;
    writeSaved(deviceStorage(), SIZE_KEY, size);
    frame.newGame();
    layCards();
    draw();
  }

  async function startNew(size, returnFocus) {
    const { state } = game;
    const playing = state.moves > 0 || state.open.length > 0;
    if (playing && !isFinished(state) && !(await confirmNewGame(app, 'memory', { returnFocus }))) {
      draw(); // the size chosen goes back to the game's
      return;
    }
    deal(size);
    announce(t('games.memory.said.newGame', { count: game.state.cards.length }));
  }

  async function press(index) {
    const before = game.state;
    const after = flip(before, index);
    if (after === before) return;
    clearTimeout(hideTimer);
    game.state = after;
    draw();
    const card = { number: index + 1, picture: nameOf(pictureById(after.cards[index])) };
    if (after.last === 'pair') {
      const said = t('games.memory.said.pair', { ...card, found: pairsFound(after), pairs: SIZES[after.size].pairs });
      announce(isFinished(after) ? `${said} ${t('games.memory.said.finished', { moves: after.moves })}` : said);
    } else if (after.last === 'mismatch') {
      announce(t('games.memory.said.mismatch', card));
      hideTimer = setTimeout(turnBack, MISMATCH_SHOWN_MS);
    } else {
      announce(t('games.memory.said.turned', card));
    }
    if (isFinished(after) && !game.scored) {
      game.scored = true;
      await frame.finished(memoryScore(after.size, after.moves));
    }
  }

  function turnBack() {
    game.state = hideMismatch(game.state);
    draw();
  }

  if (!game.state) {
    deal(savedSize());
  } else {
    // A pair left showing when the page was left is turned back now.
    if (hasMismatch(game.state)) game.state = hideMismatch(game.state);
    layCards();
    draw();
  }

  return function leaveMemory() {
    clearTimeout(hideTimer);
  };
}

/**
 * The arrow keys move between the cards as they lie (up and down a row
 * of four), Home and End to the first and last; Tab still goes through them.
 */
function moveBetweenCards(event, cardList) {
  const buttons = [...cardList.querySelectorAll('.memory-card')];
  const at = buttons.indexOf(event.target);
  if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
  const columns = SIZES[cardList.dataset.size]?.columns ?? 4;
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns };
  let next = null;
  if (event.key in steps) next = at + steps[event.key];
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = buttons.length - 1;
  if (next === null) return;
  event.preventDefault();
  buttons[next]?.focus(); // past the edge: stays where it is
}
