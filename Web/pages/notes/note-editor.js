// One note (#/notes/<id>): its title, who sees it, and its text in a plain
// <textarea> edited together with everyone else who has it open. Each input
// event becomes CRDT operations (notes/diff.js); others' operations are
// applied without moving this person's cursor or selection off their text
// (notes/selection.js); the connection, outbox and localStorage are in
// notes/session.js. Also: who else is here and on which line, "Read aloud",
// and a checklist view that ticks "[ ]" lines through the CRDT.
// Someone the owner lets only read the note gets the text live in a
// read-only textarea and sends the hub nothing (it would close the socket
// with 4403); the page follows the note's sharing as it changes.
// This file puts the editor together and says what the connection is
// doing; its sections are note-details.js (title, who sees it),
// note-text.js (the textarea), note-checklist-view.js and
// note-presence-list.js.
import { h } from '../../dom.js';
import { fieldBox } from '../../fields.js';
import { pageHref } from '../../router.js';
import { canReadAloud, readAloud, stopReading } from '../../notes/read-aloud.js';
import { createNoteSession } from '../../notes/session.js';
import { createChecklistView } from './note-checklist-view.js';
import { createNoteDetails } from './note-details.js';
import { createPresenceList } from './note-presence-list.js';
import { bindNoteText } from './note-text.js';
import { deviceStorage } from '../../device-storage.js';

// The status line changes after this long, so typing on a fast hub does not
// make a screen reader say "Saving… Saved" at every pause.
const STATUS_DELAY_MS = 800;


export function createNoteEditorPage(app, household) {
  // The checklist view stays chosen across a language switch.
  const chosen = { checklistView: false };
  return (outlet, noteId) => renderEditor(app, household, chosen, outlet, noteId);
}

/** Draws the note `noteId` into `outlet`; returns what to call when the page is left. */
function renderEditor(app, household, chosen, outlet, noteId) {
  const { t } = app;
  // Whether this person may change the note is not known until it is read:
  // until then typing is kept here but nothing is sent.
  const session = createNoteSession({ noteId, storage: deviceStorage(), readOnly: null });
  const status = h('p', { id: 'note-status', class: 'note-status', role: 'status', 'aria-live': 'polite' });
  const details = createNoteDetails(app, household, noteId, {
    // Not there, or not for this person: stop knocking at its editing socket.
    gone: () => { session.stop(); status.textContent = ''; },
    accessChanged: (canEdit) => {
      session.setReadOnly(!canEdit);
      showAccess();
    },
  });
  const reading = readAloudButtons(app, { title: () => details.titleInput.value, text: () => text.shown() });
  const textarea = h('textarea', {
    id: 'note-text', name: 'text', rows: '14', spellcheck: 'true', readonly: true,
    'aria-describedby': 'note-text-hint note-status',
  });
  const textHint = h('p', { id: 'note-text-hint', class: 'hint' }, t('notes.editor.textHint'));
  const textField = h('div', { class: 'field note-text-field' },
    h('label', { for: 'note-text' }, t('notes.editor.text')), textHint, textarea);
  const checklist = createChecklistView(app, session, chosen, { textField, text: () => text });
  const presence = createPresenceList(app, session);

  outlet.append(
    h('p', { class: 'back-link' }, h('a', { href: pageHref('notes'), id: 'notes-back' }, t('notes.editor.back'))),
    details.heading,
    status,
    details.readOnlyNotice,
    fieldBox({ id: 'note-title', label: t('notes.editor.title'), control: details.titleInput }),
    h('div', { class: 'note-visibility-row' }, details.visibilityText, details.visibilityButton),
    h('div', { class: 'note-tools' },
      reading.readButton, reading.stopButton, checklist.button),
    h('p', { class: 'hint', hidden: canReadAloud() }, t('notes.editor.cannotReadAloud')),
    textField,
    checklist.element,
    h('section', { class: 'note-presence-section', 'aria-labelledby': 'note-presence-heading' },
      h('h2', { id: 'note-presence-heading' }, t('notes.editor.presence.heading')),
      presence.element),
  );
  if (!canReadAloud()) reading.readButton.hidden = true;

  const text = bindNoteText(session, textarea, {
    changed: () => { checklist.refresh(); presence.schedule(); },
  });
  // The textarea follows whether it may be typed in now: read-only while
  // loading, when gone, and for someone who may only read the note.
  function showAccess() {
    textarea.readOnly = !session.editable;
    textarea.setAttribute('aria-readonly', String(textarea.readOnly));
    const reader = session.readOnly === true;
    // Someone who may only read it is told so (the notice, the status
    // line), never that what they type is saved.
    textHint.hidden = reader;
    textarea.setAttribute('aria-describedby', reader ? 'note-read-only-notice note-status' : 'note-text-hint note-status');
    checklist.refresh();
  }
  const statusLine = createStatusLine(app, session, { status, textarea, showAccess });
  const stopStatus = session.onStatus((value) => {
    statusLine.show(value);
    // Opened without the hub: who may change the note is asked once it is back.
    if (!details.known && ['saved', 'saving', 'reading'].includes(value)) details.load();
  });
  const stopProblem = session.onProblem((kind) => {
    if (kind !== 'gone') app.showProblem(t(`notes.editor.problems.${kind}`));
    // The hub said this person may only read it: read again who may change it.
    if (kind === 'readOnly') details.load();
    showAccess();
  });
  const stopEditors = session.onEditors(presence.schedule);
  const stopLive = details.followLive();

  const onOnline = () => session.retryNow();
  const onPageHide = () => session.stop();
  window.addEventListener('online', onOnline);
  window.addEventListener('pagehide', onPageHide);

  session.start();
  text.showText([], '');
  statusLine.show(session.status);
  presence.show();
  checklist.apply();
  details.load();

  return function leaveEditor() {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('pagehide', onPageHide);
    text.stop();
    stopStatus();
    stopProblem();
    stopEditors();
    stopLive();
    statusLine.stop();
    presence.stop();
    stopReading();
    session.stop();
  };
}

/**
 * What the connection is doing ("Saving…", "Offline"), said politely,
 * and whether the textarea may be typed in. Returns { show(state), stop() }.
 */
function createStatusLine(app, session, { status, textarea, showAccess }) {
  const { t } = app;
  let timer = null;
  return {
    show(value) {
      showAccess();
      textarea.setAttribute('aria-busy', value === 'loading' ? 'true' : 'false');
      const previous = status.getAttribute('data-state');
      status.setAttribute('data-state', value);
      clearTimeout(timer);
      const write = () => {
        const words = t(`notes.editor.status.${value}`);
        if (status.textContent !== words) status.textContent = words; // unchanged words are not said again
      };
      // Saved/Saving flicker while typing; the rest is said at once.
      const quiet = (state) => state === 'saving' || state === 'saved';
      if (quiet(value) && quiet(previous)) timer = setTimeout(write, STATUS_DELAY_MS);
      else write();
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** "Read aloud" (the title, then the text) and "Stop reading", which takes the keyboard while it reads. */
function readAloudButtons(app, { title, text }) {
  const { t } = app;
  const readButton = h('button', { id: 'read-aloud', type: 'button', class: 'secondary-button', onclick: start }, t('notes.editor.readAloud'));
  const stopButton = h('button', { id: 'stop-reading', type: 'button', class: 'secondary-button', hidden: true, onclick: stopNow }, t('notes.editor.stopReading'));
  function start() {
    const words = [title().trim(), text()].filter(Boolean).join('.\n');
    const started = readAloud(words, app.language, { onEnd: () => { stopButton.hidden = true; } });
    if (started) {
      stopButton.hidden = false;
      stopButton.focus();
    }
  }
  function stopNow() {
    stopReading();
    stopButton.hidden = true;
    readButton.focus();
  }
  return { readButton, stopButton };
}
