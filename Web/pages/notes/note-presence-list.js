// Who else has the note open, and on which line (the note editor's last
// section). Its own file so note-editor.js keeps to wiring; drawn at most
// every 100 ms, as typing moves everyone's line.
import { h } from '../../dom.js';
import { describeEditors } from '../../notes/presence.js';

/** Returns { element, show(), schedule(), stop() } for `session`'s other editors. */
export function createPresenceList(app, session) {
  const { t } = app;
  const element = h('ul', { id: 'note-presence', class: 'note-presence' });
  let timer = null;

  function show() {
    timer = null;
    const note = session.note;
    const others = note ? describeEditors(session.editors, note) : [];
    if (others.length === 0) {
      element.replaceChildren(h('li', { class: 'nobody' }, t('notes.editor.presence.nobody')));
      return;
    }
    element.replaceChildren(...others.map((other) => {
      const name = other.name ?? t('notes.editor.presence.someone');
      const swatch = h('span', { class: 'presence-swatch', 'aria-hidden': 'true' });
      // A CSS custom property set through the CSSOM: the CSP forbids style attributes.
      if (other.colour) swatch.style.setProperty('--editor-colour', other.colour);
      return h('li', { class: 'presence-item', 'data-editor': other.editor }, swatch,
        other.line === null ? t('notes.editor.presence.here', { name })
          : t('notes.editor.presence.line', { name, line: other.line }));
    }));
  }

  return {
    element,
    show,
    schedule() {
      timer ??= setTimeout(show, 100);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
