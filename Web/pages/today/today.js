// Today. For a senior: their doses in large type by part of the day with
// "Taken", "Skip" (which first asks why) and "Later", "Take all",
// as-needed medications, other open alerts and pinned notes (SOS is at
// the bottom of every page of hers: sos-dock.js). For a caregiver (or an
// admin linked to seniors): each senior's day at a glance — counts, every dose's state — and their open alerts.
// Always: the household's name and whether live updates reach this
// screen. A dose recorded anywhere shows here at once: the live change is
// applied to the day on screen, then the day is fetched again.
// This file loads the day, follows the live stream and redraws; the top of
// the page is today-header.js, what the buttons do today-actions.js, the
// sections today-sections.js and one person's doses today-doses.js.
import { focusInPlace, h, pageHeading } from '../../dom.js';
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { localDay } from '../../care/format.js';
import { applyDoseToDay } from '../../care/today-model.js';
import { createAnnouncer, createBusyKeys, createNewestLoader, redrawAfterTaps, reloadOnLiveChanges } from '../page-tools.js';
import { createTodayHeader } from './today-header.js';
import { createDoseActions } from './today-actions.js';
import { drawDays } from './today-sections.js';
import { myCarers } from './today-carers.js';
import { hubDate, hubNow } from '../../hub-clock.js';

const REFRESH_EVERY_MS = 5 * 60 * 1000;
const REFUSAL_SHOWN_MS = 5 * 60 * 1000;
/** What a change to these can move on Today: a dose, its medicine, who looks after whom. */
const DAY_CHANGES = new Set(['dose', 'medication', 'schedule', 'note', 'person', 'careLink']);

export function createTodayPage(app) {
  // Remembered across renders so a language switch doesn't blank the page.
  const remembered = { householdName: null, day: null, medications: [], notes: [] };
  // As-needed doses the hub refused, by medication: { refusal, at }, where
  // refusal is the hub's problem body. The sentence stays (in the new
  // language) when the language is switched, and goes after a while, as
  // "too soon" is about the moment it was said.
  const refusals = new Map();
  return (outlet) => renderToday(app, { remembered, refusals }, outlet);
}

/** Draws Today into `outlet`; returns what to call when the page is left. */
function renderToday(app, { remembered, refusals }, outlet) {
  let openSnooze = null;
  let left = false;

  const header = createTodayHeader(app, remembered);
  const { element: announcer, announce } = createAnnouncer('today-announcer');
  const before = h('div', { id: 'today-content', class: 'today-content' });
  const after = h('div', { class: 'today-after' });
  outlet.append(pageHeading(app.t('pages.today')), ...header.elements, announcer, before, after);
  // A live change, the day read again or a request ending redraws the doses;
  // never under her finger (a tap begun on a button redrawn meanwhile is lost).
  const taps = redrawAfterTaps(outlet, draw);
  const render = taps.redraw;

  const busy = createBusyKeys(app, { redraw: () => { if (!left) render(); } });
  const loadDay = createDayLoader(app, remembered, { shown: render, failed: () => { if (remembered.day === null) before.replaceChildren(); } });
  const actions = createDoseActions(app, {
    outlet, busy, refusals, announce, loadDay: loadDay.load,
    day: () => remembered.day,
    applyDoses: (doses) => { for (const dose of doses) remembered.day = applyDoseToDay(remembered.day, dose); },
    snooze: {
      toggle: (key) => { openSnooze = openSnooze === key ? null : key; render(); },
      close: () => { openSnooze = null; },
    },
    left: () => left,
  });

  // Redrawn only when something shown changed: a screen reader's place,
  // and a finger on a button, are not lost to a reload that brought nothing new.
  let shownSignature = null;
  let broughtIntoView = false; // once, as the page opens: never while she reads or scrolls
  function draw() {
    const { day, medications, notes } = remembered;
    if (left || !day) return;
    for (const [id, refusal] of refusals) if (Date.now() - refusal.at > REFUSAL_SHOWN_MS) refusals.delete(id);
    const me = app.me.current;
    // The aliases: what this person calls a senior ("Mama") heads her day.
    const aliases = (me?.people ?? []).map((person) => person.alias ?? null);
    const signature = JSON.stringify([app.language, me?.personId, me?.role, aliases, myCarers(app), day, medications, notes, app.alerts.open,
      busy.keys(), [...refusals], openSnooze, Math.floor(hubNow() / REFRESH_EVERY_MS)]);
    if (signature === shownSignature) return;
    shownSignature = signature;
    const timeZone = day.timeZone ?? me?.timeZone ?? null;
    const people = Array.isArray(day.people) ? day.people : [];
    const isSenior = me?.role === 'senior';
    const view = { app, timeZone, busy, refusals, openSnooze, actions, now: hubNow(), isSenior, meId: me?.personId, date: day.date };
    header.showDate(day.date);

    const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
    const hadFocus = before.contains(document.activeElement) || after.contains(document.activeElement);
    drawDays(view, { before, after }, { people, medications, notes });
    if (focusKey && hadFocus) focusAgain(outlet, focusKey);
    if (!broughtIntoView && isSenior) broughtIntoView = bringFirstToAnswerIntoView(before);
  }

  const stopLive = followLive(app, {
    header, reloads: reloadOnLiveChanges(app.live, loadDay.load, (change) => DAY_CHANGES.has(change.entity)),
    // Shown at once; the fetch after it brings the counts and alerts in line.
    doseShown: (dose) => { if (remembered.day && dose) { remembered.day = applyDoseToDay(remembered.day, dose); render(); } },
  });
  const stopAlertWatch = app.alerts.subscribe(() => render());
  const refreshTimer = setInterval(() => refreshIfDue(remembered, loadDay.load), REFRESH_EVERY_MS);

  header.showLiveState(app.live.state);
  if (remembered.day) render();
  else before.replaceChildren(h('p', { class: 'loading' }, app.t('today.loading')));
  header.loadHousehold();
  loadDay.load();

  return function leaveToday() {
    left = true;
    taps.stop();
    stopLive();
    stopAlertWatch();
    clearInterval(refreshTimer);
    header.stop();
    loadDay.stop();
    document.getElementById('skip-dialog')?.close(); // a question about a page no longer shown
  };
}

/** Doses become due with time, and the day changes at midnight: read again when shown, or a new day. */
function refreshIfDue(remembered, load) {
  const { day } = remembered;
  const today = day ? localDay(hubDate().toISOString(), day.timeZone) : null;
  if (!day || today !== day.date || document.visibilityState === 'visible') load();
}

/**
 * Reads the day, the medications and the pinned notes into `remembered`;
 * only the newest answer is shown (`shown()`), a failure reported.
 */
function createDayLoader(app, remembered, { shown, failed }) {
  const { t } = app;
  return createNewestLoader(app, {
    async read(signal) {
      await app.me.load();
      return Promise.all([
        getJSON(paths.today(), { t, signal }),
        getJSON(paths.medications(), { t, signal }),
        getJSON(paths.notes(), { t, signal }).catch((problem) => {
          if (problem?.name === 'AbortError') throw problem;
          return []; // notes are a nicety here; the doses matter
        }),
      ]);
    },
    shown([today, list, pinned]) {
      remembered.day = today;
      remembered.medications = Array.isArray(list) ? list : [];
      remembered.notes = (Array.isArray(pinned) ? pinned : []).filter((note) => note.pinned);
      shown();
    },
    failed,
  });
}

/**
 * A senior's day whose morning is done opens at the first dose still to
 * answer, not at the morning's: on a tablet it would be below the SOS bar.
 * Its part of the day comes to the top; nothing moves when it is in view
 * already. Returns whether there was a day to look at.
 */
function bringFirstToAnswerIntoView(before) {
  const doses = [...before.querySelectorAll('li.dose-item')];
  if (doses.length === 0) return false;
  const first = doses.find((item) => !['taken', 'skipped'].includes(item.dataset.status));
  if (!first) return true;
  const dock = document.getElementById('sos-dock');
  const fold = globalThis.innerHeight - (dock && !dock.hidden ? dock.getBoundingClientRect().height : 0);
  if (first.getBoundingClientRect().bottom > fold) (first.closest('.next-dose, .slot') ?? first).scrollIntoView({ block: 'start' });
  return true;
}

/**
 * What Today does with the live stream besides reading the day again
 * (`reloads`): the live state shown, the household's name read again, a
 * dose shown at once, and who is who forgotten when people change.
 * Returns a function that stops it all.
 */
function followLive(app, { header, reloads, doseShown }) {
  const { live } = app;
  const stops = [
    live.onState((state) => {
      header.showLiveState(state);
      if (state === 'connected') header.loadHousehold();
    }),
    live.onChange((change) => {
      if (change.entity === 'household') header.loadHousehold();
      if (change.entity === 'dose') doseShown(change.payload);
      if (change.entity === 'person' || change.entity === 'careLink') app.me.forget();
    }),
    live.onReset(() => header.loadHousehold()),
  ];
  return () => {
    reloads.stop();
    for (const stop of stops) stop();
  };
}

/** The same button after a redraw, else what it belonged to ("dose|taken" → the dose), else the heading. */
function focusAgain(outlet, focusKey) {
  const parts = focusKey.split('|');
  let target = null;
  while (parts.length > 0 && !target) {
    target = outlet.querySelector(`[data-focus-key="${CSS.escape(parts.join('|'))}"]`);
    parts.pop();
  }
  if (target) focusInPlace(target);
  else outlet.querySelector('h1')?.focus();
}
