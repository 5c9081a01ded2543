// One note (#/notes/<id>): its title, who sees it, and its text in a plain
// <textarea> edited together with everyone else who has it open. Each input
// event becomes CRDT operations (notes/diff.js); others' operations are
// applied without moving this person's cursor or selection off their text
// (notes/selection.js); the connection, outbox and localStorage are in
// notes/session.js. Also: who else is here and on which line, "Read aloud",
// and a checklist view that ticks "[ ]" lines through the CRDT.
import { getJSON, sendJSON } from '../api.js';
import { scalarPosition } from '../notes/crdt.js';
import { h, pageHeading } from '../dom.js';
import { pageHref } from '../router.js';
import { readChecklist, setChecked } from '../notes/checklist.js';
import { applyValueChange } from '../notes/diff.js';
import { cursorId, describeEditors } from '../notes/presence.js';
import { canReadAloud, readAloud, stopReading } from '../notes/read-aloud.js';
import { moveTextareaSelection } from '../notes/selection.js';
import { changesBetween, createNoteSession } from '../notes/session.js';

// The status line changes after this long, so typing on a fast hub does not
// make a screen reader say "Saving… Saved" at every pause.
const STATUS_DELAY_MS = 800;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function createNoteEditorPage(app, household) {
  // The checklist view stays chosen across a language switch.
  let checklistView = false;

  return function renderEditor(outlet, noteId) {
    const { t, live } = app;
    let meta = null;
    let shown = ''; // the textarea's value as the CRDT knows it
    let statusTimer = null;
    let presenceTimer = null;

    const heading = pageHeading(t('notes.untitled'));
    const status = h('p', { id: 'note-status', class: 'note-status', role: 'status', 'aria-live': 'polite' });
    const titleInput = h('input', {
      id: 'note-title', name: 'title', type: 'text', maxlength: '200', autocomplete: 'off',
      onchange: () => saveTitle(),
      onkeydown: (event) => { if (event.key === 'Enter') saveTitle(); },
    });
    const visibilityText = h('p', { id: 'note-visibility', class: 'note-visibility' });
    const visibilityButton = h('button', { id: 'note-visibility-button', type: 'button', class: 'secondary-button', hidden: true, onclick: toggleVisibility });
    const readButton = h('button', { id: 'read-aloud', type: 'button', class: 'secondary-button', onclick: startReading }, t('notes.editor.readAloud'));
    const stopButton = h('button', { id: 'stop-reading', type: 'button', class: 'secondary-button', hidden: true, onclick: stopNow }, t('notes.editor.stopReading'));
    const checklistButton = h('button', {
      id: 'checklist-view', type: 'button', class: 'secondary-button', 'aria-pressed': String(checklistView),
      'aria-controls': 'note-checklist', onclick: toggleChecklistView,
    }, t('notes.editor.checklistView'));
    const textarea = h('textarea', {
      id: 'note-text', name: 'text', rows: '14', spellcheck: 'true', readonly: true,
      'aria-describedby': 'note-text-hint note-status',
    });
    const textField = h('div', { class: 'field note-text-field' },
      h('label', { for: 'note-text' }, t('notes.editor.text')),
      h('p', { id: 'note-text-hint', class: 'hint' }, t('notes.editor.textHint')),
      textarea);
    const checklist = h('fieldset', { id: 'note-checklist', class: 'choices note-checklist', hidden: true });
    const presenceList = h('ul', { id: 'note-presence', class: 'note-presence' });

    outlet.append(
      h('p', { class: 'back-link' }, h('a', { href: pageHref('notes'), id: 'notes-back' }, t('notes.editor.back'))),
      heading,
      status,
      h('div', { class: 'field' }, h('label', { for: 'note-title' }, t('notes.editor.title')), titleInput),
      h('div', { class: 'note-visibility-row' }, visibilityText, visibilityButton),
      h('div', { class: 'note-tools' },
        readButton, stopButton, checklistButton),
      h('p', { class: 'hint', hidden: canReadAloud() }, t('notes.editor.cannotReadAloud')),
      textField,
      checklist,
      h('section', { class: 'note-presence-section', 'aria-labelledby': 'note-presence-heading' },
        h('h2', { id: 'note-presence-heading' }, t('notes.editor.presence.heading')),
        presenceList),
    );
    if (!canReadAloud()) readButton.hidden = true;

    const session = createNoteSession({ noteId, storage: storage() });

    // --- the text --------------------------------------------------------

    // Local typing: whatever the input event was, diff the old and new value.
    textarea.addEventListener('input', () => {
      const note = session.note;
      if (!session.editable) {
        textarea.value = shown; // not editable yet: undo the keystroke
        return;
      }
      const after = textarea.value;
      try {
        const ops = applyValueChange(note, shown, after, textarea.selectionEnd);
        shown = after;
        if (note.text !== after) throw new Error('the note and the textarea disagree');
        session.recordLocal(ops);
      } catch (error) {
        console.error('note edit could not be applied', error);
        showText(changesBetween(after, note.text), after);
      }
      sendCursor();
      refreshChecklist();
      schedulePresence();
    });

    // Shows session.note.text in the textarea, moving the selection by
    // `changes` (relative to `before`, what the textarea showed).
    function showText(changes, before = shown) {
      const after = session.note?.text ?? '';
      if (before === after && textarea.value === after) return;
      const { selectionStart, selectionEnd, selectionDirection, scrollTop } = textarea;
      const moved = moveTextareaSelection(before, after, selectionStart, selectionEnd, changes);
      textarea.value = after;
      shown = after;
      textarea.setSelectionRange(moved.start, moved.end, selectionDirection);
      textarea.scrollTop = scrollTop;
    }

    function sendCursor() {
      const note = session.note;
      if (!note) return;
      session.setCursor(cursorId(note, scalarPosition(shown, Math.min(textarea.selectionEnd, shown.length))));
    }
    for (const type of ['keyup', 'mouseup', 'focus', 'select']) textarea.addEventListener(type, sendCursor);
    const onSelectionChange = () => { if (document.activeElement === textarea) sendCursor(); };
    document.addEventListener('selectionchange', onSelectionChange);

    const stopText = session.onText((changes, { reset }) => {
      // A whole new copy from the hub: diff it against what is on screen.
      showText(reset ? changesBetween(shown, session.note.text) : changes);
      refreshChecklist();
      schedulePresence();
    });

    // --- status ----------------------------------------------------------

    function showStatus(value) {
      textarea.readOnly = !session.editable;
      textarea.setAttribute('aria-busy', value === 'loading' ? 'true' : 'false');
      const previous = status.getAttribute('data-state');
      status.setAttribute('data-state', value);
      clearTimeout(statusTimer);
      const write = () => {
        const text = t(`notes.editor.status.${value}`);
        if (status.textContent !== text) status.textContent = text; // unchanged words are not said again
      };
      // Saved/Saving flicker while typing; the rest is said at once.
      const quiet = (state) => state === 'saving' || state === 'saved';
      if (quiet(value) && quiet(previous)) statusTimer = setTimeout(write, STATUS_DELAY_MS);
      else write();
    }
    const stopStatus = session.onStatus(showStatus);
    const stopProblem = session.onProblem((kind) => {
      if (kind !== 'gone') app.showProblem(t(`notes.editor.problems.${kind}`));
    });

    // --- who else is here ------------------------------------------------

    function showPresence() {
      presenceTimer = null;
      const note = session.note;
      const others = note ? describeEditors(session.editors, note) : [];
      if (others.length === 0) {
        presenceList.replaceChildren(h('li', { class: 'nobody' }, t('notes.editor.presence.nobody')));
        return;
      }
      presenceList.replaceChildren(...others.map((other) => {
        const name = other.name ?? t('notes.editor.presence.someone');
        const swatch = h('span', { class: 'presence-swatch', 'aria-hidden': 'true' });
        // A CSS custom property set through the CSSOM: the CSP forbids style attributes.
        if (other.colour) swatch.style.setProperty('--editor-colour', other.colour);
        return h('li', { class: 'presence-item', 'data-editor': other.editor }, swatch,
          other.line === null ? t('notes.editor.presence.here', { name })
            : t('notes.editor.presence.line', { name, line: other.line }));
      }));
    }
    function schedulePresence() {
      presenceTimer ??= setTimeout(showPresence, 100);
    }
    const stopEditors = session.onEditors(schedulePresence);

    // --- checklist -------------------------------------------------------

    function toggleChecklistView() {
      checklistView = !checklistView;
      applyChecklistView();
    }
    function applyChecklistView() {
      checklistButton.setAttribute('aria-pressed', String(checklistView));
      checklist.hidden = !checklistView;
      textField.hidden = checklistView;
      refreshChecklist();
    }
    function refreshChecklist() {
      if (!checklistView) return;
      const lines = readChecklist(shown);
      const items = lines.filter((line) => line.isItem);
      const focusedLine = document.activeElement?.closest?.('#note-checklist')
        ? document.activeElement.getAttribute('data-line') : null;
      const legend = h('legend', {}, t('notes.editor.checklistHeading'));
      if (items.length === 0) {
        checklist.replaceChildren(legend, h('p', { class: 'hint' }, t('notes.editor.checklistEmpty')));
        return;
      }
      checklist.replaceChildren(legend, ...items.map((line) => {
        const id = `check-line-${line.index}`;
        return h('label', { class: 'choice', for: id },
          h('input', {
            type: 'checkbox', id, 'data-line': String(line.index), checked: line.checked,
            disabled: !session.editable,
            onchange: (event) => tick(line.index, event.target.checked),
          }),
          h('span', {}, line.label.trim() === '' ? '…' : line.label));
      }));
      if (focusedLine !== null) checklist.querySelector(`[data-line="${focusedLine}"]`)?.focus();
    }
    function tick(lineIndex, checked) {
      const note = session.note;
      if (!session.editable) return;
      const before = shown;
      const ops = setChecked(note, lineIndex, checked);
      if (ops.length > 0) session.recordLocal(ops);
      showText(changesBetween(before, note.text), before);
      refreshChecklist();
    }

    // --- read aloud ------------------------------------------------------

    function startReading() {
      const text = [titleInput.value.trim(), shown].filter(Boolean).join('.\n');
      const started = readAloud(text, app.language, { onEnd: () => { stopButton.hidden = true; } });
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

    // --- title and visibility ---------------------------------------------

    function showMeta() {
      if (!meta) return;
      const name = String(meta.displayTitle ?? '').trim() || t('notes.untitled');
      heading.textContent = name;
      document.title = t('app.documentTitle', { page: name });
      if (document.activeElement !== titleInput) titleInput.value = meta.title ?? '';
      const mine = meta.ownerId === household.current?.personId;
      visibilityText.textContent = meta.visibility === 'shared' ? t('notes.visibility.shared')
        : mine ? t('notes.visibility.private') : t('notes.visibility.privateOther');
      visibilityButton.hidden = !mine;
      visibilityButton.textContent = meta.visibility === 'shared' ? t('notes.actions.makePrivate') : t('notes.actions.share');
    }

    async function loadMeta() {
      try {
        const [note] = await Promise.all([getJSON(`/notes/${encodeURIComponent(noteId)}`, { t }), household.load()]);
        meta = note;
        showMeta();
      } catch (problem) {
        // Not there, or not for this person: stop knocking at its editing socket.
        if (problem?.status === 404 || problem?.status === 401) {
          session.stop();
          status.textContent = '';
        }
        if (problem?.status === 404) app.showProblem(t('notes.editor.notFound'));
        else app.reportProblem(problem);
      }
    }

    let savedTitle = null;
    async function saveTitle() {
      const title = titleInput.value.trim();
      if (!meta || title === (savedTitle ?? meta.title)) return;
      savedTitle = title;
      try {
        meta = await sendJSON('PATCH', `/notes/${encodeURIComponent(noteId)}`, { title }, { t });
        app.clearProblem();
        showMeta();
      } catch (problem) {
        savedTitle = null;
        app.reportProblem(problem);
      }
    }

    async function toggleVisibility() {
      if (!meta) return;
      try {
        meta = await sendJSON('PATCH', `/notes/${encodeURIComponent(noteId)}`,
          { visibility: meta.visibility === 'shared' ? 'private' : 'shared' }, { t });
        app.clearProblem();
        showMeta();
        visibilityButton.focus();
      } catch (problem) {
        app.reportProblem(problem);
      }
    }

    const stopLive = live.onChange((change) => {
      if (change.entity !== 'note' || change.entityId !== noteId || !change.payload) return;
      if (change.payload.deletedAt) return; // the editing socket closes with "gone"
      meta = { ...meta, ...change.payload };
      showMeta();
    });

    // --- start and leave ---------------------------------------------------

    const onOnline = () => session.retryNow();
    const onPageHide = () => session.stop();
    window.addEventListener('online', onOnline);
    window.addEventListener('pagehide', onPageHide);

    session.start();
    showText([], '');
    showStatus(session.status);
    showPresence();
    applyChecklistView();
    loadMeta();

    return function leaveEditor() {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('selectionchange', onSelectionChange);
      stopText();
      stopStatus();
      stopProblem();
      stopEditors();
      stopLive();
      clearTimeout(statusTimer);
      clearTimeout(presenceTimer);
      stopReading();
      session.stop();
    };
  };
}
