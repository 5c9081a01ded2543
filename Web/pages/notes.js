// Notes: the list (pinned first, then recently changed), search with the
// matched words marked, creating a note, pin, share/private (the owner
// only), Trash and restoring from it. #/notes/trash shows the Trash and
// #/notes/<id> opens the editor (pages/note-editor.js). The list follows
// the live connection: any note change re-fetches it.
import { getJSON, sendJSON } from '../api.js';
import { h, pageHeading } from '../dom.js';
import { pageHref } from '../router.js';
import { createNoteEditorPage } from './note-editor.js';
import { createAnnouncer, reloadOnLiveChanges, whileBusy } from './page-tools.js';

const SEARCH_DELAY_MS = 300;

/** The name a note goes by in the list: its title, its first line, or "Untitled". */
export function noteName(note, t) {
  const name = String(note?.displayTitle ?? '').trim();
  return name === '' ? t('notes.untitled') : name;
}

export function createNotesPage(app) {
  // Who is using this browser and the household's names, shared with every page.
  const household = app.me;
  const renderEditor = createNoteEditorPage(app, household);
  // Kept across renders (a language switch) so the search is not lost.
  let query = '';

  return function renderNotes(outlet, route) {
    const [first] = route.params;
    if (first && first !== 'trash') return renderEditor(outlet, first);
    return renderList(outlet, first === 'trash');
  };

  function renderList(outlet, inTrash) {
    const { t, live } = app;
    const { element: announcer, announce } = createAnnouncer('notes-announcer');
    const listHeading = h('h2', { id: 'notes-list-heading', tabindex: '-1' });
    const listSlot = h('div', { class: 'note-list-slot' });
    let notes = null;
    let request = null;
    let searchTimer = null;

    outlet.append(pageHeading(inTrash ? t('notes.trash.heading') : t('pages.notes')), announcer);

    if (inTrash) {
      outlet.append(
        h('p', {}, h('a', { href: pageHref('notes'), id: 'notes-back' }, t('notes.trash.back'))),
        h('p', {}, t('notes.trash.intro')),
      );
    } else {
      outlet.append(newNoteForm(), searchField(), h('p', {}, h('a', { href: pageHref('notes', 'trash'), id: 'trash-link', class: 'button-link secondary' }, t('notes.trash.link'))));
    }
    outlet.append(h('section', { class: 'note-list-section', 'aria-labelledby': 'notes-list-heading' }, listHeading, listSlot));

    function newNoteForm() {
      const title = h('input', { id: 'new-note-title', name: 'title', type: 'text', maxlength: '200', 'aria-describedby': 'new-note-title-hint', autocomplete: 'off' });
      const share = h('input', { id: 'new-note-shared', name: 'shared', type: 'checkbox' });
      const button = h('button', { id: 'new-note-button', type: 'submit', class: 'primary-button' }, t('notes.newNote.create'));
      async function create(event) {
        event.preventDefault();
        await whileBusy(button, t('notes.newNote.creating'), async () => {
          try {
            const note = await sendJSON('POST', '/notes', {
              title: title.value.trim(),
              visibility: share.checked ? 'shared' : 'private',
            }, { t });
            app.clearProblem();
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
        h('div', { class: 'field' },
          h('label', { for: 'new-note-title' }, t('notes.newNote.title')),
          h('p', { id: 'new-note-title-hint', class: 'hint' }, t('notes.newNote.titleHint')),
          title),
        h('div', { class: 'checkbox-field' }, share, h('label', { for: 'new-note-shared' }, t('notes.newNote.share'))),
        button,
      );
    }

    function searchField() {
      const input = h('input', {
        id: 'notes-search', name: 'q', type: 'search', value: query, maxlength: '200',
        autocomplete: 'off', 'aria-describedby': 'notes-search-hint',
        oninput: () => {
          query = input.value; // remembered at once, even if the page is left before the search runs
          clearTimeout(searchTimer);
          searchTimer = setTimeout(load, SEARCH_DELAY_MS);
        },
      });
      return h('div', { role: 'search', class: 'notes-search' },
        h('div', { class: 'field' },
          h('label', { for: 'notes-search' }, t('notes.search.label')),
          h('p', { id: 'notes-search-hint', class: 'hint' }, t('notes.search.hint')),
          input));
    }

    const searching = () => !inTrash && query.trim() !== '';

    async function load() {
      request?.abort();
      const thisRequest = new AbortController();
      request = thisRequest;
      const path = inTrash ? '/notes?trash=1' : searching() ? `/notes?q=${encodeURIComponent(query.trim())}` : '/notes';
      try {
        const [found] = await Promise.all([
          getJSON(path, { t, signal: thisRequest.signal }),
          household.load(),
        ]);
        if (request !== thisRequest) return;
        notes = Array.isArray(found) ? found : [];
        app.clearProblem();
        show();
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        if (notes === null) listSlot.replaceChildren();
        app.reportProblem(problem);
      }
    }

    function show() {
      listHeading.textContent = inTrash ? t('notes.trash.heading')
        : searching() ? t('notes.search.results', { count: notes.length }) : t('notes.list.heading');
      // Keep the keyboard where it was when the list is redrawn.
      const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
      if (notes.length === 0) {
        const empty = inTrash ? t('notes.trash.empty') : searching() ? t('notes.search.none', { query: query.trim() }) : t('notes.list.empty');
        listSlot.replaceChildren(h('p', { id: 'notes-empty', class: 'empty' }, empty));
      } else {
        listSlot.replaceChildren(h('ul', { id: 'note-list', class: 'note-list' }, notes.map(noteItem)));
      }
      if (focusKey) {
        const again = listSlot.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
        if (again) again.focus();
        else if (listSlot.contains(document.activeElement) || document.activeElement === document.body) listHeading.focus();
      }
    }

    function noteItem(note) {
      const name = noteName(note, t);
      const titleId = `note-title-${note.id}`;
      const mine = note.ownerId === household.current?.personId;
      const owner = mine ? t('notes.owner.you')
        : household.nameOf(note.ownerId) ? t('notes.owner.named', { name: household.nameOf(note.ownerId) }) : t('notes.owner.unknown');
      const visibility = note.visibility === 'shared' ? t('notes.visibility.shared')
        : mine ? t('notes.visibility.private') : t('notes.visibility.privateOther');
      const facts = [owner, visibility];
      if (note.pinned && !inTrash) facts.push(t('notes.pinned'));
      const heading = inTrash
        ? h('h3', { id: titleId }, name)
        : h('h3', { id: titleId }, h('a', { href: pageHref('notes', note.id), class: 'note-link' }, name));
      return h(
        'li',
        { class: 'note-item', 'data-note-id': note.id, 'data-pinned': note.pinned ? 'true' : 'false', 'data-visibility': note.visibility },
        h('article', { 'aria-labelledby': titleId },
          heading,
          h('p', { class: 'note-facts' }, facts.join(' · ')),
          preview(note),
          inTrash && note.purgeAt ? h('p', { class: 'purge-at' }, t('notes.trash.purgeAt', { date: formatDate(note.purgeAt) })) : null,
          h('div', { class: 'note-actions' }, inTrash ? [
            actionButton(note, 'restore', t('notes.actions.restore'), () => change(note, 'POST', `/notes/${note.id}/restore`, undefined, 'restored')),
          ] : [
            actionButton(note, 'pin', note.pinned ? t('notes.actions.unpin') : t('notes.actions.pin'),
              () => change(note, 'PATCH', `/notes/${note.id}`, { pinned: !note.pinned }, note.pinned ? 'unpinned' : 'pinned'),
              { 'aria-pressed': note.pinned ? 'true' : 'false' }),
            mine ? actionButton(note, 'visibility', note.visibility === 'shared' ? t('notes.actions.makePrivate') : t('notes.actions.share'),
              () => change(note, 'PATCH', `/notes/${note.id}`, { visibility: note.visibility === 'shared' ? 'private' : 'shared' },
                note.visibility === 'shared' ? 'madePrivate' : 'shared')) : null,
            actionButton(note, 'trash', t('notes.actions.trash'), () => change(note, 'DELETE', `/notes/${note.id}`, undefined, 'trashed')),
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

    async function change(note, method, path, body, announcement) {
      try {
        await sendJSON(method, path, body, { t });
        app.clearProblem();
        announce(t(`notes.announce.${announcement}`, { title: noteName(note, t) }));
        await load();
      } catch (problem) {
        app.reportProblem(problem);
      }
    }

    function formatDate(iso) {
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return iso;
      return new Intl.DateTimeFormat(app.language === 'pl' ? 'pl-PL' : 'en-GB', { dateStyle: 'long' }).format(date);
    }

    // A person renamed: their name is read again with the list.
    const stopPeople = live.onChange((change) => { if (change.entity === 'person') household.forget(); });
    const reloads = reloadOnLiveChanges(live, load, (change) => change.entity === 'note' || change.entity === 'person');

    listSlot.replaceChildren(h('p', { class: 'loading' }, t('notes.loading')));
    listHeading.textContent = inTrash ? t('notes.trash.heading') : t('notes.list.heading');
    load();

    return function leaveNotes() {
      stopPeople();
      reloads.stop();
      request?.abort();
      clearTimeout(searchTimer);
    };
  }
}
