// "Copy" beside a value a person carries into another app (the alert app's
// server address, user name and password). The hub is usually opened at its
// address on the home network over plain http, where browsers offer no
// navigator.clipboard (it needs a secure context); then the value is
// selected and the older copy command tried, and if that does nothing
// either the person is told it is selected, to copy with their own Copy.
import { h } from '../dom.js';

/**
 * Copies the text of `element`. Resolves to "copied", or "selected" when
 * the browser would not copy and the text is left selected instead.
 * `clipboard` and `doc` are injectable for the Node tests.
 */
export async function copyText(element, { clipboard = globalThis.navigator?.clipboard, doc = globalThis.document } = {}) {
  const text = element.textContent;
  if (typeof clipboard?.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return 'copied';
    } catch {
      // Refused (no permission, the page not focused): select it instead.
    }
  }
  selectContents(element, doc);
  try {
    if (doc.execCommand?.('copy') === true) return 'copied';
  } catch {
    // Not allowed here: the selection stays for the person to copy.
  }
  return 'selected';
}

function selectContents(element, doc) {
  const selection = doc.getSelection?.();
  if (!selection || typeof doc.createRange !== 'function') return;
  const range = doc.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/**
 * One value to copy, as a term and its description for a <dl>: the label,
 * an optional hint, the value in a monospace block screen readers read as
 * text, its Copy button (named "Copy <what>" for screen readers, "Copy" on
 * screen) and a line saying what became of the last press. `id` names the
 * value (the button is `copy-<id>`); `copied` is "copied" | "selected" |
 * null; `onCopy(id, result)` hears each press once it is done.
 */
export function copyableValue(t, { id, label, hint = null, value, copyName, copied = null, onCopy }) {
  // A <code> takes no name of its own (ARIA prohibits it): the <dt> before it says what it is.
  const valueElement = h('code', { id, class: 'credential-value' }, value);
  return h('div', { class: 'credential', 'data-credential': id },
    h('dt', { id: `${id}-label` }, label),
    h('dd', {},
      hint ? h('p', { id: `${id}-hint`, class: 'hint' }, hint) : null,
      valueElement,
      h('div', { class: 'credential-actions' },
        h('button', {
          type: 'button', id: `copy-${id}`, class: 'secondary-button copy-button', 'data-focus-key': `copy-${id}`,
          'aria-label': copyName,
          onclick: async () => onCopy(id, await copyText(document.getElementById(id) ?? valueElement)),
        }, t('phoneAlerts.copy.button')),
        h('p', { id: `copy-${id}-status`, class: 'copy-status' },
          copied ? t(copied === 'copied' ? 'phoneAlerts.copy.copied' : 'phoneAlerts.copy.selected') : ''))));
}
