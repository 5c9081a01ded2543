// A question in a native modal <dialog>: the browser keeps the keyboard
// inside it, makes the page behind inert and closes it on Escape; this adds
// putting the keyboard back afterwards. The page may have been redrawn
// while the question was open (a live update), so "back" is asked of
// `returnFocus` at the end rather than remembered at the start.
import { h } from './dom.js';

// Elements every dialog takes in while it is open, by what they are for (a
// senior's SOS bar, the alert banner): a modal dialog makes the rest of the
// page inert, and neither help nor an SOS may be.
const companions = new Map();

/**
 * Lends `element` (or nothing, when null) to every dialog while it is open,
 * in the place named `role` (one element a role). The alert banner goes
 * first in the dialog, the SOS bar last.
 */
export function keepInEveryDialog(element, role = 'sos') {
  if (element) companions.set(role, element);
  else companions.delete(role);
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
    // Each lent element goes back where it was, before the same neighbour.
    const lent = [...companions].map(([role, element]) => ({ role, element, home: element.parentNode, before: element.nextSibling }));
    for (const { role, element } of lent) {
      if (role === 'alerts') dialog.prepend(element);
      else dialog.append(element);
    }
    dialog.addEventListener('close', () => {
      for (const { element, home, before } of lent) {
        if (!home || element.parentNode !== dialog) continue;
        if (before?.parentNode === home) home.insertBefore(element, before);
        else home.append(element);
      }
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
