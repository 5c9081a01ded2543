// "Start a new game?" — asked before a game in progress is thrown away
// (by "New game", or by choosing another level or size), since one stray
// tap would otherwise lose a half-solved puzzle; "Keep playing" has the
// keyboard first. Shared by Sudoku and Memory; the words are each game's
// own (games.<game>.confirm.*).
import { confirmDialog } from '../../dialog.js';

/** Resolves with true to start a new game, false to keep playing. */
export function confirmNewGame(app, game, { returnFocus }) {
  const { t } = app;
  return confirmDialog({
    name: `${game}-new`,
    title: t(`games.${game}.confirm.title`),
    lines: [{ id: `${game}-new-text`, text: t(`games.${game}.confirm.text`) }],
    confirm: t(`games.${game}.confirm.start`),
    cancel: t(`games.${game}.confirm.keep`),
    danger: false,
    returnFocus,
  });
}
