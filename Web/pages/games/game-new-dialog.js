// "Start a new game?" — asked before a game in progress is thrown away
// (by "New game", or by choosing another level or size), since one stray
// tap would otherwise lose a half-solved puzzle. "Keep playing" has the
// keyboard first, so a stray Enter loses nothing. Shared by Sudoku and
// Memory; the words are each game's own (games.<game>.confirm.*).
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';

/** Resolves with true to start a new game, false to keep playing. */
export function confirmNewGame(app, game, { returnFocus }) {
  const { t } = app;
  return showDialog({
    id: `${game}-new-dialog`,
    labelledBy: `${game}-new-title`,
    describedBy: `${game}-new-text`,
    returnFocus,
    build: (close) => [
      h('h2', { id: `${game}-new-title` }, t(`games.${game}.confirm.title`)),
      h('p', { id: `${game}-new-text` }, t(`games.${game}.confirm.text`)),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', id: `${game}-new-confirm`, class: 'primary-button', onclick: () => close(true) },
          t(`games.${game}.confirm.start`)),
        h('button', { type: 'button', id: `${game}-new-cancel`, class: 'secondary-button', autofocus: true, onclick: () => close(false) },
          t(`games.${game}.confirm.keep`))),
    ],
  }).then((answer) => answer === true);
}
