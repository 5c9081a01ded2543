// A question in a native modal <dialog>: the browser keeps the keyboard
// inside it, makes the page behind inert and closes it on Escape; this adds
// putting the keyboard back afterwards. The page may have been redrawn
// while the question was open (a live update), so "back" is asked of
// `returnFocus` at the end rather than remembered at the start.
import { h } from './dom.js';

// Elements every dialog takes in while it is open, by what they are for (a
// senior's SOS bar, the alert banner and its announcer): a modal dialog
// makes the rest of the page inert, and neither help nor an SOS may be.
// Each keeps a mark of its home in the page, so it always goes back there
// (or to the dialog still open under this one), whatever order dialogs
// close in.
const companions = new Map();
// The dialogs open now, the newest last.
const openDialogs = [];

/**
 * Lends `element` (or nothing, when null) to every dialog while it is open,
 * in the place named `role` (one element a role). The alert banner goes
 * first in the dialog, the rest last.
 */
export function keepInEveryDialog(element, role = 'sos') {
  companions.get(role)?.home.remove();
  if (!element) {
    companions.delete(role);
    return;
  }
  const home = document.createComment(`${role}: its place in the page`);
  if (element.parentNode && !openDialogs.includes(element.parentNode)) element.before(home);
  else document.body.append(home);
  companions.set(role, { element, home });
  if (openDialogs.length > 0) placeCompanions();
}

/** Puts each lent element into the newest open dialog, or home when none is open. */
function placeCompanions() {
  const top = openDialogs.at(-1) ?? null;
  for (const [role, { element, home }] of companions) {
    if (top) {
      if (element.parentNode === top) continue;
      if (role === 'alerts') top.prepend(element);
      else top.append(element);
    } else if (home.isConnected) {
      home.after(element);
    }
  }
}

/**
 * Shows a modal dialog and resolves with what `build`'s buttons passed to
 * `close(value)`, or null when it was cancelled (Escape, or close()).
 * `build(close)` returns the dialog's content; the element with the
 * `autofocus` attribute gets the keyboard first (else the browser picks the
 * first focusable one). `labelledBy` / `describedBy` are ids inside it.
 */
export function showDialog({ id, className = '', labelledBy, describedBy = null, build, returnFocus = () => null }) {
  return new Promise((resolve) => {
    let result = null;
    const dialog = h('dialog', {
      id, class: `dialog ${className}`.trim(), 'aria-labelledby': labelledBy, 'aria-describedby': describedBy,
    });
    const close = (value = null) => {
      result = value;
      if (dialog.open) dialog.close();
    };
    dialog.append(...[build(close)].flat().filter(Boolean));
    dialog.addEventListener('close', () => {
      openDialogs.splice(openDialogs.indexOf(dialog), 1);
      placeCompanions();
      dialog.remove();
      const target = returnFocus();
      if (target?.isConnected) target.focus();
      resolve(result);
    }, { once: true });
    document.body.append(dialog);
    openDialogs.push(dialog);
    placeCompanions();
    dialog.showModal();
    dialog.querySelector('[autofocus]')?.focus();
  });
}

/**
 * A yes-or-no question before something a stray tap must not do (remove a
 * device, archive a person, throw a game away): a title, its sentences, and
 * two buttons. "Cancel" has the keyboard first, so a stray Enter does
 * nothing. Resolves with true for the first button, false otherwise.
 *
 * `name` makes the ids: `<name>-dialog`, `<name>-title`, and the buttons
 * `<buttons>-confirm` / `<buttons>-cancel` (`buttons` defaults to `name`).
 * `lines` are [{ id, text, warning, strong }] (nulls skipped), each read
 * out with the title. `danger` colours the first button as a loss.
 */
export function confirmDialog({ name, buttons = name, title, lines, confirm, cancel, danger = true, returnFocus }) {
  const shown = lines.filter(Boolean);
  return showDialog({
    id: `${name}-dialog`,
    labelledBy: `${name}-title`,
    describedBy: shown.map((line) => line.id).join(' '),
    returnFocus,
    build: (close) => [
      h('h2', { id: `${name}-title` }, title),
      ...shown.map((line) => h('p', { id: line.id, class: line.warning ? 'dialog-warning' : null },
        line.strong ? h('strong', {}, line.text) : line.text)),
      h('div', { class: 'dialog-actions' },
        h('button', {
          type: 'button', id: `${buttons}-confirm`, class: danger ? 'primary-button danger-button' : 'primary-button',
          onclick: () => close(true),
        }, confirm),
        h('button', { type: 'button', id: `${buttons}-cancel`, class: 'secondary-button', autofocus: true, onclick: () => close(false) },
          cancel)),
    ],
  }).then((answer) => answer === true);
}
