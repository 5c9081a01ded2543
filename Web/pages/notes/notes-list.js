// What the Notes list is drawn from: the "New note" button and the dialog
// it opens, the search field, and one note of the list (a card) with its
// buttons. Kept apart from
// notes.js, which loads the list, follows the live stream and keeps the
// keyboard's place, so each file does one job.
import { getJSON, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';
import { icon } from '../../icon.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { mayEdit, newNoteSharing, sharingSentence } from '../../notes/sharing.js';
import { isCutExcerpt, spokenNote } from '../../care/spoken.js';
import { pageHref } from '../../router.js';
import { listenButton } from '../listen-button.js';
import { sharingFields } from './note-sharing.js';
import { whileBusy } from '../page-tools.js';
import { localeOf } from '../../i18n.js';

/** The name a note goes by in the list: its title, its first line, or "Untitled". */
export function noteName(note, t) {
  const name = String(note?.displayTitle ?? '').trim();
  return name === '' ? t('notes.untitled') : name;
}

/** "New note", first on the page: it opens the dialog that asks for the title and who sees it. */
export function newNoteButton(app) {
  const opener = h('button', {
    id: 'new-note-open', type: 'button', class: 'primary-button new-note-open', 'aria-haspopup': 'dialog',
    onclick: () => showDialog({
      id: 'new-note-dialog', labelledBy: 'new-note-heading', returnFocus: () => opener,
      build: (close) => newNoteForm(app, close),
    }),
  }, icon('plus-lg'), app.t('notes.newNote.open'));
  return opener;
}

/** The dialog's form: its title and who sees it (only its owner, unless chosen); created, the editor opens on it. */
function newNoteForm(app, close) {
  const { t } = app;
  const titleHint = t('notes.newNote.titleHint');
  const title = h('input', {
    id: 'new-note-title', name: 'title', type: 'text', maxlength: '200', ...fieldAria('new-note-title', { hint: titleHint }), autocomplete: 'off',
    autofocus: true,
  });
  // Ids apart from the editor's dialog (note-visibility-*), which can open over this page.
  const sharing = sharingFields(app, { prefix: 'new-note', me: app.me.current });
  // The circle is worded for the owner's role, which may still be on its way.
  app.me.load().then(sharing.showFor, () => {});
  const button = h('button', { id: 'new-note-button', type: 'submit', class: 'primary-button' }, t('notes.newNote.create'));
  async function create(event) {
    event.preventDefault();
    await whileBusy(button, t('notes.newNote.creating'), async () => {
      try {
        const note = await sendJSON('POST', paths.notes(), {
          title: title.value.trim(),
          ...newNoteSharing(sharing.value()),
        }, { t });
        app.clearProblem();
        close();
        location.hash = pageHref('notes', note.id);
      } catch (problem) {
        app.reportProblem(problem);
      }
    });
  }
  return h(
    'form',
    { class: 'new-note', 'aria-labelledby': 'new-note-heading', onsubmit: create },
    h('h2', { id: 'new-note-heading' }, t('notes.newNote.heading')),
    fieldBox({ id: 'new-note-title', label: t('notes.newNote.title'), hint: titleHint, control: title }),
    sharing.element,
    h('div', { class: 'dialog-actions' }, button,
      h('button', { id: 'new-note-cancel', type: 'button', class: 'secondary-button', onclick: () => close() }, t('notes.newNote.cancel'))),
  );
}

/** The search field, showing `query`; `typed(text)` hears every keystroke. */
export function searchField(app, query, typed) {
  const { t } = app;
  const hint = t('notes.search.hint');
  const input = h('input', {
    id: 'notes-search', name: 'q', type: 'search', value: query, maxlength: '200',
    autocomplete: 'off', ...fieldAria('notes-search', { hint }),
    oninput: () => typed(input.value),
  });
  return h('div', { role: 'search', class: 'notes-search' },
    fieldBox({ id: 'notes-search', label: t('notes.search.label'), hint, control: input }));
}

/**
 * One note of the list: its name, whose it is, who sees it, its preview,
 * "Listen" (its title and text read aloud, for everyone who sees it) and
 * its buttons. `list` is { app, household, inTrash, change, share },
 * where change(note, method, path, body, announcement) sends what a
 * button does and share(note) asks its owner who may see it.
 */
/** Who sees a note, as a picture beside the words that say it. */
const VISIBILITY_ICONS = Object.freeze({ private: 'lock-fill', shared: 'people-fill', circle: 'person-hearts' });

export function noteItem(list, note) {
  const { app, household, inTrash, change, share } = list;
  const { t } = app;
  const name = noteName(note, t);
  const titleId = `note-title-${note.id}`;
  const me = household.current;
  const mine = note.ownerId === me?.personId;
  const owner = mine ? t('notes.owner.you')
    : household.nameOf(note.ownerId) ? t('notes.owner.named', { name: household.nameOf(note.ownerId) }) : t('notes.owner.unknown');
  // The owner keeps every button she had; the others lose what the hub says they may not do.
  const canEdit = mine || mayEdit(note, me?.personId);
  const facts = [
    owner, ' · ',
    h('span', { class: 'note-sharing' }, icon(VISIBILITY_ICONS[note.visibility] ?? 'lock-fill', 'fact-icon'), sharingSentence(note, me, t, app.language)),
  ];
  if (!canEdit) facts.push(' · ', h('span', { class: 'note-read-only' }, t('notes.readOnlyMark')));
  if (note.pinned && !inTrash) facts.push(' · ', h('span', { class: 'note-pinned' }, icon('pin-angle-fill', 'fact-icon'), t('notes.pinned')));
  const heading = inTrash
    ? h('h3', { id: titleId }, name)
    : h('h3', { id: titleId }, h('a', { href: pageHref('notes', note.id), class: 'note-link' }, name));
  return h(
    'li',
    {
      class: 'note-item', 'data-note-id': note.id, 'data-pinned': note.pinned ? 'true' : 'false',
      'data-visibility': note.visibility, 'data-read-only': note.readOnly === true ? 'true' : 'false', 'data-can-edit': String(canEdit),
    },
    h('article', { 'aria-labelledby': titleId },
      heading,
      h('p', { class: 'note-facts' }, facts),
      preview(note),
      h('div', { class: 'listen-row' }, listenButton(app, {
        id: `note-${note.id}-listen`, label: name,
        // The list holds only the start of a long note: its whole text is fetched to be read.
        text: () => (isCutExcerpt(note.excerpt)
          ? getJSON(paths.note(note.id), { t }).then((whole) => spokenNote(t, whole), () => spokenNote(t, note))
          : spokenNote(t, note)),
        attributes: { 'data-focus-key': `${note.id}:listen` },
      })),
      inTrash && note.purgeAt ? h('p', { class: 'purge-at' }, t('notes.trash.purgeAt', { date: formatDate(app, note.purgeAt) })) : null,
      !canEdit ? null : h('div', { class: 'note-actions' }, inTrash ? [
        actionButton(note, 'restore', t('notes.actions.restore'), () => change(note, 'POST', paths.noteRestore(note.id), undefined, 'restored')),
      ] : [
        actionButton(note, 'pin', note.pinned ? t('notes.actions.unpin') : t('notes.actions.pin'),
          () => change(note, 'PATCH', paths.note(note.id), { pinned: !note.pinned }, note.pinned ? 'unpinned' : 'pinned'),
          { 'aria-pressed': note.pinned ? 'true' : 'false' }),
        mine ? actionButton(note, 'visibility', t('notes.actions.sharing'), () => share(note), { 'aria-haspopup': 'dialog' }) : null,
        actionButton(note, 'trash', t('notes.actions.trash'), () => change(note, 'DELETE', paths.note(note.id), undefined, 'trashed')),
      ]),
    ),
  );
}

// A search shows the passage that matched with the words marked; built
// from text nodes and <mark>, never HTML, so a note cannot inject markup.
function preview(note) {
  if (Array.isArray(note.snippet) && note.snippet.length > 0) {
    return h('p', { class: 'note-snippet' }, note.snippet.map((piece) =>
      piece.matched ? h('mark', {}, String(piece.text)) : String(piece.text)));
  }
  return note.excerpt ? h('p', { class: 'note-excerpt' }, note.excerpt) : null;
}

function actionButton(note, action, label, onClick, extra = {}) {
  return h('button', {
    type: 'button', class: 'secondary-button', 'data-action': action,
    'data-focus-key': `${note.id}:${action}`, 'aria-describedby': `note-title-${note.id}`,
    onclick: onClick, ...extra,
  }, label);
}

function formatDate(app, iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(localeOf(app.language), { dateStyle: 'long' }).format(date);
}
