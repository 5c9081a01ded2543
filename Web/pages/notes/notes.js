// Notes: the list (pinned first, then recently changed), search with the
// matched words marked, creating a note, pin, who sees it (the owner
// only: pages/notes/note-sharing.js), Trash and restoring from it. #/notes/trash shows the Trash and
// #/notes/<id> opens the editor (pages/notes/note-editor.js). The list follows
// the live connection: any note change re-fetches it.
import { getJSON, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { focusInPlace, h, pageHeading } from '../../dom.js';
import { sharingPatch, sharingSentence } from '../../notes/sharing.js';
import { pageHref } from '../../router.js';
import { createNoteEditorPage } from './note-editor.js';
import { askNoteSharing } from './note-sharing.js';
import { newNoteButton, noteItem, noteName, searchField } from './notes-list.js';
import { createAnnouncer, createNewestLoader, reloadOnLiveChanges } from '../page-tools.js';

const SEARCH_DELAY_MS = 300;

export function createNotesPage(app) {
  // Who is using this browser and the household's names, shared with every page.
  const household = app.me;
  const renderEditor = createNoteEditorPage(app, household);
  // Kept across renders (a language switch) so the search is not lost.
  const search = { query: '' };

  return function renderNotes(outlet, route) {
    const [first] = route.params;
    if (first && first !== 'trash') return renderEditor(outlet, first);
    return renderList(app, search, outlet, first === 'trash');
  };
}

/** Draws the list (or the Trash) into `outlet`; returns what to call when the page is left. */
function renderList(app, search, outlet, inTrash) {
  const { t, live } = app;
  const household = app.me;
  const { element: announcer, announce } = createAnnouncer('notes-announcer');
  const listHeading = h('h2', { id: 'notes-list-heading', tabindex: '-1' });
  const listSlot = h('div', { class: 'note-list-slot' });
  let notes = null;
  let searchTimer = null;

  outlet.append(pageHeading(inTrash ? t('notes.trash.heading') : t('pages.notes')), announcer, ...aboveTheList(app, search, inTrash, typed),
    h('section', { class: 'note-list-section', 'aria-labelledby': 'notes-list-heading' }, listHeading, listSlot));

  function typed(text) {
    search.query = text; // remembered at once, even if the page is left before the search runs
    clearTimeout(searchTimer);
    searchTimer = setTimeout(load, SEARCH_DELAY_MS);
  }

  const searching = () => !inTrash && search.query.trim() !== '';

  const { load, stop: stopLoading } = createNewestLoader(app, {
    async read(signal) {
      const path = inTrash ? paths.notes({ trash: true }) : searching() ? paths.notes({ q: search.query.trim() }) : paths.notes();
      const [found] = await Promise.all([
        getJSON(path, { t, signal }),
        household.load(),
      ]);
      return found;
    },
    shown(found) {
      notes = Array.isArray(found) ? found : [];
      app.clearProblem();
      show();
    },
    failed: () => { if (notes === null) listSlot.replaceChildren(); },
  });

  function show() {
    listHeading.textContent = inTrash ? t('notes.trash.heading')
      : searching() ? t('notes.search.results', { count: notes.length }) : t('notes.list.heading');
    // Keep the keyboard where it was when the list is redrawn.
    const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
    if (notes.length === 0) {
      const empty = inTrash ? t('notes.trash.empty') : searching() ? t('notes.search.none', { query: search.query.trim() }) : t('notes.list.empty');
      listSlot.replaceChildren(h('p', { id: 'notes-empty', class: 'empty' }, empty));
    } else {
      listSlot.replaceChildren(h('ul', { id: 'note-list', class: 'note-list' }, notes.map((note) => noteItem(listed, note))));
    }
    if (focusKey) {
      const again = listSlot.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again) focusInPlace(again);
      else if (listSlot.contains(document.activeElement) || document.activeElement === document.body) listHeading.focus();
    }
  }

  const listed = {
    app, household, inTrash,
    change: (...what) => changeNote(app, { announce, load }, ...what),
    share: (note) => shareNote(app, { announce, load }, note),
  };

  // A person renamed: their name is read again with the list.
  const stopPeople = live.onChange((change) => { if (change.entity === 'person') household.forget(); });
  const reloads = reloadOnLiveChanges(live, load, (change) => change.entity === 'note' || change.entity === 'person');

  listSlot.replaceChildren(h('p', { class: 'loading' }, t('notes.loading')));
  listHeading.textContent = inTrash ? t('notes.trash.heading') : t('notes.list.heading');
  load();

  return function leaveNotes() {
    stopPeople();
    reloads.stop();
    stopLoading();
    clearTimeout(searchTimer);
  };
}

/** Between the heading and the list: the way back and what the Trash is, or a new note, the search and the Trash's link. */
function aboveTheList(app, search, inTrash, typed) {
  const { t } = app;
  if (inTrash) {
    return [
      h('p', {}, h('a', { href: pageHref('notes'), id: 'notes-back' }, t('notes.trash.back'))),
      h('p', {}, t('notes.trash.intro')),
    ];
  }
  return [
    h('div', { class: 'notes-top' }, newNoteButton(app),
      h('a', { href: pageHref('notes', 'trash'), id: 'trash-link', class: 'button-link secondary' }, t('notes.trash.link'))),
    searchField(app, search.query, typed),
  ];
}

/** What a note's button does (pin, share, trash, restore): sent, said aloud, and the list read again. */
async function changeNote(app, { announce, load }, note, method, path, body, announcement) {
  const { t } = app;
  try {
    await sendJSON(method, path, body, { t });
    app.clearProblem();
    announce(t(`notes.announce.${announcement}`, { title: noteName(note, t) }));
    await load();
  } catch (problem) {
    app.reportProblem(problem);
  }
}

/** "Who can see it…" on the owner's note: asked in a dialog, sent, said aloud with the new sharing, and the list read again. */
async function shareNote(app, { announce, load }, note) {
  const { t } = app;
  const me = await app.me.load().catch(() => app.me.current);
  const button = () => document.querySelector(`[data-focus-key="${CSS.escape(`${note.id}:visibility`)}"]`);
  const chosen = await askNoteSharing(app, { note, title: noteName(note, t), me, returnFocus: button });
  const body = sharingPatch(note, chosen);
  if (!body) return;
  try {
    const saved = await sendJSON('PATCH', paths.note(note.id), body, { t });
    app.clearProblem();
    const sharing = sharingSentence(saved ?? { ...note, ...body }, app.me.current, t, app.language);
    announce(t('notes.announce.sharing', { title: noteName(note, t), sharing }));
    await load();
  } catch (problem) {
    app.reportProblem(problem);
  }
}
