// The sections Today draws around the doses: a senior's own day, each
// senior's card for a caregiver (with its counts), the open alerts about
// them, a senior's "The people who look after me" (today-carers.js), and
// the pinned notes. Drawn from what the page holds, so the page
// itself (today.js) keeps to loading, the live stream and redrawing.
import { h } from '../../dom.js';
import { pageHref } from '../../router.js';
import { bannerAlerts, sentenceSaysTime } from '../../care/alerts.js';
import { clockTime } from '../../care/format.js';
import { asNeededMedications } from '../../care/today-model.js';
import { alertKindName, describeAlert } from '../../care/alert-banner.js';
import { noteName } from '../notes/notes-list.js';
import { asNeededList, doseSlots } from './today-doses.js';
import { carersSection } from './today-carers.js';

/**
 * Fills Today's two places: above the SOS slider the doses (a senior's own,
 * or each senior's card), below it the other open alerts, a senior's
 * carers and the pinned notes.
 */
export function drawDays(view, { before, after }, { people, medications, notes }) {
  if (view.isSenior) {
    const mine = people.find((person) => person.personId === view.meId) ?? { personId: view.meId, doses: [], asNeeded: [] };
    before.replaceChildren(...seniorDay(view, mine, medications));
    after.replaceChildren(...[otherAlerts(view, [mine], 2, { besidesBanner: true }), carersSection(view.app), pinnedNotes(view, notes)]
      .filter(Boolean));
  } else {
    before.replaceChildren(...caregiverDays(view, people, medications));
    after.replaceChildren(...[pinnedNotes(view, notes)].filter(Boolean));
  }
}

/** The as-needed medications of one person, with what they took today. */
function asNeededOf(person, medications) {
  return asNeededMedications(medications.filter((m) => m.personId === person.personId), person.asNeeded ?? []);
}

/** A senior's own day: their doses in large type, then their as-needed medications. */
function seniorDay(view, person, medications) {
  const { t } = view.app;
  const entries = asNeededOf(person, medications);
  return [
    h('section', { id: 'today-doses', class: 'today-doses senior-day', 'data-person-id': person.personId, 'aria-labelledby': 'today-doses-heading' },
      h('h2', { id: 'today-doses-heading' }, t('today.yourDoses')),
      countsLine(view, person),
      doseSlots(view, person, 3)),
    entries.length > 0
      ? h('section', { id: 'today-as-needed', class: 'today-as-needed', 'aria-labelledby': 'today-as-needed-heading' },
        h('h2', { id: 'today-as-needed-heading' }, t('today.asNeeded')),
        asNeededList(view, person, entries, 3))
      : null,
  ].filter(Boolean);
}

/** A caregiver's Today: each senior's day at a glance, with their open alerts. */
function caregiverDays(view, people, medications) {
  const { t } = view.app;
  if (people.length === 0) {
    return [h('p', { id: 'today-nobody', class: 'empty' }, t('today.nobodyLinked'))];
  }
  return people.map((person) => {
    const headingId = `person-${person.personId}`;
    const entries = asNeededOf(person, medications);
    return h('section', { class: 'person-day', 'data-person-id': person.personId, 'aria-labelledby': headingId },
      h('h2', { id: headingId }, view.app.me.aliasOf(person.personId) ?? person.name),
      countsLine(view, person),
      otherAlerts(view, [person], 3),
      doseSlots(view, person, 3),
      entries.length > 0
        ? h('section', { class: 'today-as-needed', 'aria-labelledby': `${headingId}-prn` },
          h('h3', { id: `${headingId}-prn` }, t('today.asNeeded')),
          asNeededList(view, person, entries, 4))
        : null);
  });
}

function countsLine(view, person) {
  const counts = { taken: 0, skipped: 0, missed: 0, due: 0, upcoming: 0, ...(person.counts ?? {}) };
  const total = (person.doses ?? []).length;
  if (total === 0) return null;
  return h('p', { class: 'today-counts', 'data-taken': counts.taken, 'data-due': counts.due, 'data-missed': counts.missed },
    view.app.t('today.counts', counts));
}

/**
 * Open alerts about these people, as text: on a caregiver's card all of
 * them (the state at a glance); on a senior's page those the banner
 * above does not already show in large type.
 */
function otherAlerts(view, people, level, { besidesBanner = false } = {}) {
  const { app } = view;
  const { t } = app;
  const me = app.me.current;
  const ids = new Set(people.map((person) => person.personId));
  const inBanner = new Set(besidesBanner ? bannerAlerts(app.alerts.open, me).map((alert) => alert.id) : []);
  const open = app.alerts.open.filter((alert) => ids.has(alert.personId) && !inBanner.has(alert.id));
  if (open.length === 0) return null;
  const headingId = `alerts-${people.map((p) => p.personId).join('-')}`;
  return h('section', { class: 'today-alerts', 'aria-labelledby': headingId },
    h(`h${level}`, { id: headingId }, besidesBanner ? t('today.otherAlerts') : t('today.openAlerts')),
    h('ul', { class: 'today-alert-list' }, open.map((alert) => h('li', { 'data-alert-id': alert.id, 'data-kind': alert.kind },
      h('strong', {}, `${alertKindName(app, alert.kind)}: `), describeAlert(app, alert, me),
      // When, unless the sentence says it ("SOS at 20:54").
      sentenceSaysTime(alert, me) ? '' : ` (${clockTime(alert.raisedAt, { language: app.language, timeZone: view.timeZone })})`))));
}

/** The household's pinned notes, each a link to the note. */
function pinnedNotes(view, notes) {
  const { t } = view.app;
  if (notes.length === 0) return null;
  return h('section', { id: 'today-notes', class: 'today-notes', 'aria-labelledby': 'today-notes-heading' },
    h('h2', { id: 'today-notes-heading' }, t('today.pinnedNotes')),
    h('ul', { class: 'today-note-list' }, notes.map((note) => h('li', { 'data-note-id': note.id },
      h('a', { href: pageHref('notes', note.id), class: 'note-link' }, noteName(note, t)),
      note.excerpt ? h('p', { class: 'note-excerpt' }, note.excerpt) : null))));
}
