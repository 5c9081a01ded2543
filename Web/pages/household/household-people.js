// What the Household page does to a person: "Change…" (name, phone and,
// for an admin, role; for a senior one looks after, one's own name for
// her; in person-dialog.js), "Archive" (asked first in
// archive-person-dialog.js) and, in "Archived people", "Restore". The
// lists themselves are drawn in household-lists.js and here (the archived
// people); household.js loads and follows the live stream. What the hub
// answers is shown at once and the page read again; what it refuses is
// said (in the dialog, or in the page's problem area).
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { dateTime } from '../../care/format.js';
import { archivedPeople } from '../../household/people.js';
import { roleName } from '../../household/model.js';
import { aliasOf } from '../../care/me.js';
import { changePersonDetails } from './person-dialog.js';
import { confirmArchivePerson } from './archive-person-dialog.js';

/**
 * `page` is { outlet, busy, announce, remembered, left(), reloadSoon(), show() }
 * from household.js. Returns { change, archive, restore }, each (person, key)
 * where key is the button's data-focus-key.
 */
export function createPeopleActions(app, page) {
  const { t } = app;
  const { outlet, busy, announce, remembered, left, reloadSoon, show } = page;
  const button = (key, heading) => () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
    ?? document.getElementById(heading);
  const keep = (change) => {
    const { data } = remembered;
    if (data) remembered.data = change(data);
    show();
  };

  async function change(person, key) {
    const { data } = remembered;
    if (!data || document.getElementById('person-dialog')) return;
    const answer = await changePersonDetails(app, person, {
      me: data.me, people: data.people, returnFocus: button(key, 'household-people-heading'),
    });
    if (!answer || left()) return;
    announce(savedSentence(t, person, answer));
    // A name or role shown on every page (the banner, Today) is read again.
    app.me.forget();
    keep((current) => ({ ...current, people: current.people.map((p) => (p.id === person.id ? { ...p, ...answer } : p)) }));
    reloadSoon();
  }

  async function archive(person, key) {
    if (busy.has(key) || document.getElementById('archive-person-dialog')) return;
    const confirmed = await confirmArchivePerson(app, person, { returnFocus: button(key, 'household-people-heading') });
    if (!confirmed || left()) return;
    const done = await busy.run(key, async () => {
      await sendJSON('POST', paths.personArchive(person.id), undefined, { t });
      return true;
    });
    if (done && !left()) {
      announce(t('household.people.archived', { name: person.name }));
      app.me.forget();
      keep((current) => ({ ...current, people: current.people.filter((p) => p.id !== person.id) }));
    }
    reloadSoon();
  }

  async function restore(person, key) {
    if (busy.has(key)) return;
    const done = await busy.run(key, async () => {
      await sendJSON('POST', paths.personRestore(person.id), undefined, { t });
      return true;
    });
    if (done && !left()) {
      announce(t('household.archived.restored', { name: person.name }));
      app.me.forget();
      keep((current) => ({ ...current, archived: (current.archived ?? []).filter((p) => p.id !== person.id) }));
    }
    reloadSoon();
  }

  return { change, archive, restore };
}

/** What "Change…" saved, said: one's own name for her when only that changed, else the details. */
function savedSentence(t, person, answer) {
  const name = answer.name ?? person.name;
  const [before, after] = [aliasOf(person), Object.hasOwn(answer, 'alias') ? aliasOf(answer) : aliasOf(person)];
  const othersSame = ['name', 'phone', 'role', 'managesOwnMedications']
    .every((field) => !Object.hasOwn(answer, field) || (answer[field] ?? null) === (person[field] ?? null));
  if (before === after || !othersSame) return t('household.people.saved', { name });
  return after === null ? t('household.people.aliasRemoved', { name }) : t('household.people.aliasSaved', { name, alias: after });
}

/** "Archived people", for an admin: each with when, and "Restore". */
export function archivedList(app, data, { busy, restore }) {
  const { t, language } = app;
  const timeZone = data.household?.timeZone ?? data.me?.timeZone ?? null;
  const people = archivedPeople(data.archived);
  if (people.length === 0) return [h('p', { class: 'empty' }, t('household.archived.none'))];
  return [
    h('ul', { id: 'archived-people-list', class: 'people-list archived-list' }, people.map((person) => {
      const nameId = `archived-${person.id}-name`;
      const key = `${person.id}:restore`;
      const working = busy.has(key);
      return h('li', { class: 'person-item archived-person', 'data-person-id': person.id, 'data-role': person.role },
        h('article', { 'aria-labelledby': nameId },
          h('h3', { id: nameId }, person.name),
          roleName(t, person.role) === null ? null : h('p', { class: 'person-role' }, roleName(t, person.role)),
          h('p', { class: 'archived-when' }, t('household.archived.when', { date: dateTime(person.archivedAt, { language, timeZone }) })),
          h('div', { class: 'device-actions' },
            h('button', {
              type: 'button', id: `person-${person.id}-restore`, class: 'secondary-button person-restore',
              'data-action': 'restore', 'data-focus-key': key, 'aria-describedby': nameId, 'aria-disabled': working ? 'true' : null,
              onclick: () => restore(person, key),
            }, working ? t('household.archived.restoring') : t('household.archived.restore')))));
    })),
  ];
}
