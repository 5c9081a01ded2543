// A question in a native modal <dialog>: the browser keeps the keyboard
// inside it, makes the page behind inert and closes it on Escape; this adds
// putting the keyboard back afterwards. The page may have been redrawn
// while the question was open (a live update), so "back" is asked of
// `returnFocus` at the end rather than remembered at the start.
import { h } from './dom.js';

// An element every dialog takes in while it is open (a senior's SOS bar):
// a modal dialog makes the rest of the page inert, and help must not be.
let companion = null;

/** Lends `element` (or nothing, when null) to every dialog while it is open. */
export function keepInEveryDialog(element) {
  companion = element;
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
    const lent = companion;
    const home = lent?.parentNode ?? null;
    if (lent) dialog.append(lent);
    dialog.addEventListener('close', () => {
      if (lent && home && lent.parentNode === dialog) home.append(lent);
      dialog.remove();
      const target = returnFocus();
      if (target?.isConnected) target.focus();
      resolve(result);
    }, { once: true });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector('[autofocus]')?.focus();
  });
}
