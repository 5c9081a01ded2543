// Builds elements from plain values. Text always goes in as text nodes, never
// as HTML, so a household or person's name can't inject markup; and no inline
// style attributes, which the Content-Security-Policy would block anyway.

/**
 * h('a', { href: '#/notes', class: 'nav-link' }, 'Notes')
 * Attribute values of false/null/undefined are left out; true sets "".
 * Keys starting with "on" add event listeners.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

/** Every page starts with one h1 that navigation moves focus to. */
export function pageHeading(text) {
  return h('h1', { class: 'page-title', tabindex: '-1' }, text);
}

/**
 * Puts the keyboard back on `element`, a control drawn again where it was
 * (a live change redrew its list), without scrolling to it: whoever
 * scrolled on since pressing it keeps their place, and a page that jumped
 * back would put another button under their next tap. Returns `element`.
 */
export function focusInPlace(element) {
  element?.focus({ preventScroll: true });
  return element ?? null;
}

/**
 * Replaces a container's children (a form redrawn from its state) and puts
 * the keyboard back on the element with the same id or data-focus-key, the
 * caret where it was, if the keyboard was inside. Returns that element.
 */
export function replaceKeepingFocus(container, ...children) {
  const active = document.activeElement;
  const inside = active && active !== container && container.contains(active);
  const id = inside ? active.id : '';
  const key = inside ? active.getAttribute('data-focus-key') : null;
  const caret = inside && typeof active.selectionStart === 'number' ? active.selectionStart : null;
  container.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  if (!inside) return null;
  const again = (id && container.querySelector(`#${CSS.escape(id)}`))
    || (key && container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`));
  if (!again) return null;
  focusInPlace(again);
  if (caret !== null) {
    try {
      again.setSelectionRange(caret, caret);
    } catch {
      // not a field with a caret
    }
  }
  return again;
}
