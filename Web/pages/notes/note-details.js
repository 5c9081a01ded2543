// The note's heading, title and who sees it (the top of the note editor):
// read from the hub, renamed when the title field is left or Enter
// pressed, its sharing chosen by its owner (pages/notes/note-sharing.js), and
// kept up to date from the live stream. Someone the owner lets only read
// it gets a read-only title and a sentence saying so. Its own file so
// note-editor.js keeps to wiring.
import { getJSON, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, pageHeading } from '../../dom.js';
import { canEditNote, mayEdit, readOnlyNotice, sharingPatch, sharingSentence } from '../../notes/sharing.js';
import { askNoteSharing } from './note-sharing.js';

/**
 * `household` knows who is using this browser; `gone()` runs when the note
 * is not there, or not for this person; `accessChanged(canEdit)` whenever
 * the note is read (from the hub or the live stream) and says whether
 * this person may change it. Returns the elements { heading, titleInput,
 * visibilityText, visibilityButton, readOnlyNotice } and load() (again
 * after a failure: `known` says whether it has worked), followLive()
 * (which returns what stops it).
 */
export function createNoteDetails(app, household, noteId, { gone, accessChanged = () => {} }) {
  const { t } = app;
  let meta = null;
  let known = false;
  let loading = null;
  let savedTitle = null;
  const heading = pageHeading(t('notes.untitled'));
  const titleInput = h('input', {
    id: 'note-title', name: 'title', type: 'text', maxlength: '200', autocomplete: 'off',
    onchange: () => saveTitle(),
    onkeydown: (event) => { if (event.key === 'Enter') saveTitle(); },
  });
  const visibilityText = h('p', { id: 'note-visibility', class: 'note-visibility' });
  const visibilityButton = h('button', {
    id: 'note-visibility-button', type: 'button', class: 'secondary-button', hidden: true, 'aria-haspopup': 'dialog', onclick: chooseSharing,
  }, t('notes.actions.sharing'));
  const notice = h('p', { id: 'note-read-only-notice', class: 'note-read-only-notice', hidden: true });
  const path = paths.note(noteId);

  const canEdit = () => meta !== null && mayEdit(meta, household.current?.personId);

  function showMeta() {
    if (!meta) return;
    const me = household.current;
    const name = String(meta.displayTitle ?? '').trim() || t('notes.untitled');
    heading.textContent = name;
    document.title = t('app.documentTitle', { page: name });
    if (document.activeElement !== titleInput) titleInput.value = meta.title ?? '';
    const editable = canEdit();
    titleInput.readOnly = !editable;
    titleInput.setAttribute('aria-readonly', String(!editable));
    notice.hidden = editable;
    notice.textContent = editable ? '' : readOnlyNotice(meta, me?.people, t);
    visibilityText.textContent = sharingSentence(meta, me, t, app.language);
    visibilityButton.hidden = meta.ownerId !== me?.personId;
    accessChanged(editable);
  }

  function load() {
    // The hub's canEdit is enough to edit: the household's names only word the sentences.
    loading ??= Promise.all([getJSON(path, { t }), household.load().catch(() => null)])
      .then(([note]) => {
        meta = note;
        known = true;
        showMeta();
      }, (problem) => {
        if (problem?.status === 404 || problem?.status === 401) gone();
        if (problem?.status === 404) app.showProblem(t('notes.editor.notFound'));
        else app.reportProblem(problem);
      })
      .finally(() => { loading = null; });
    return loading;
  }

  async function saveTitle() {
    const title = titleInput.value.trim();
    if (!meta || !canEdit() || title === (savedTitle ?? meta.title)) return;
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

  async function chooseSharing() {
    if (!meta) return;
    const chosen = await askNoteSharing(app, {
      note: meta, title: heading.textContent, me: household.current, returnFocus: () => visibilityButton,
    });
    const body = sharingPatch(meta, chosen);
    if (!body) return;
    try {
      meta = await sendJSON('PATCH', path, body, { t });
      app.clearProblem();
      showMeta();
    } catch (problem) {
      app.reportProblem(problem);
    }
  }

  return {
    heading, titleInput, visibilityText, visibilityButton, readOnlyNotice: notice, load,
    get known() {
      return known;
    },
    followLive: () => app.live.onChange((change) => {
      if (change.entity !== 'note' || change.entityId !== noteId || !change.payload) return;
      if (change.payload.deletedAt || change.payload.gone) return; // the editing socket closes with "gone"
      // The stream's payload is the same for every listener, so it has no
      // canEdit: worked out here from the owner and readOnly it carries.
      const merged = { ...meta, ...change.payload };
      meta = { ...merged, canEdit: canEditNote(merged, household.current?.personId) };
      showMeta();
    }),
  };
}
