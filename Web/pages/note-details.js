// The note's heading, title and who sees it (the top of the note editor):
// read from the hub, renamed when the title field is left or Enter
// pressed, shared or made private by its owner, and kept up to date from
// the live stream. Its own file so note-editor.js keeps to wiring.
import { getJSON, sendJSON } from '../api.js';
import { h, pageHeading } from '../dom.js';

/**
 * `household` knows who is using this browser; `gone()` runs when the note
 * is not there, or not for this person. Returns the elements { heading,
 * titleInput, visibilityText, visibilityButton } and load(), followLive()
 * (which returns what stops it).
 */
export function createNoteDetails(app, household, noteId, { gone }) {
  const { t } = app;
  let meta = null;
  let savedTitle = null;
  const heading = pageHeading(t('notes.untitled'));
  const titleInput = h('input', {
    id: 'note-title', name: 'title', type: 'text', maxlength: '200', autocomplete: 'off',
    onchange: () => saveTitle(),
    onkeydown: (event) => { if (event.key === 'Enter') saveTitle(); },
  });
  const visibilityText = h('p', { id: 'note-visibility', class: 'note-visibility' });
  const visibilityButton = h('button', { id: 'note-visibility-button', type: 'button', class: 'secondary-button', hidden: true, onclick: toggleVisibility });
  const path = `/notes/${encodeURIComponent(noteId)}`;

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

  async function load() {
    try {
      const [note] = await Promise.all([getJSON(path, { t }), household.load()]);
      meta = note;
      showMeta();
    } catch (problem) {
      if (problem?.status === 404 || problem?.status === 401) gone();
      if (problem?.status === 404) app.showProblem(t('notes.editor.notFound'));
      else app.reportProblem(problem);
    }
  }

  async function saveTitle() {
    const title = titleInput.value.trim();
    if (!meta || title === (savedTitle ?? meta.title)) return;
    savedTitle = title;
    try {
      meta = await sendJSON('PATCH', path, { title }, { t });
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
      meta = await sendJSON('PATCH', path, { visibility: meta.visibility === 'shared' ? 'private' : 'shared' }, { t });
      app.clearProblem();
      showMeta();
      visibilityButton.focus();
    } catch (problem) {
      app.reportProblem(problem);
    }
  }

  return {
    heading, titleInput, visibilityText, visibilityButton, load,
    followLive: () => app.live.onChange((change) => {
      if (change.entity !== 'note' || change.entityId !== noteId || !change.payload) return;
      if (change.payload.deletedAt) return; // the editing socket closes with "gone"
      meta = { ...meta, ...change.payload };
      showMeta();
    }),
  };
}
