// Today. For a senior: their doses in large type by part of the day with
// "Taken", "Skip" (which first asks why) and "Later", "Take all",
// as-needed medications, the SOS slider, other open alerts and pinned
// notes. For a caregiver (or an admin linked to seniors): each senior's
// day at a glance — counts, every dose's state — and their open alerts.
// Always: the household's name and whether live updates reach this
// screen. A dose recorded anywhere shows here at once: the live change is
// applied to the day on screen, then the day is fetched again.
import { h, pageHeading } from '../dom.js';
import { getJSON, sendJSON } from '../api.js';
import { pageHref } from '../router.js';
import { bannerAlerts, sentenceSaysTime } from '../care/alerts.js';
import { clockTime, localDay, longDate, wallClockInstant } from '../care/format.js';
import {
  applyDoseToDay, asNeededMedications, earlyDoses, slotOfTime, takeAllCandidates,
} from '../care/today-model.js';
import { alertKindName, describeAlert } from '../care/alert-banner.js';
import { noteName } from './notes.js';
import { limitRefusalText } from '../care/limit-refusal.js';
import { asNeededList, doseSlots, medicationTitle } from './today-doses.js';
import { askSkipReason } from './skip-reason-dialog.js';
import { confirmEarlyDose } from './early-dose-dialog.js';
import { askDoseChange } from './dose-change-dialog.js';
import { createSOSControl } from './sos-control.js';
import { createAnnouncer } from './page-tools.js';

const RELOAD_DELAY_MS = 150;
const REFRESH_EVERY_MS = 5 * 60 * 1000;
const REFUSAL_SHOWN_MS = 5 * 60 * 1000;

export function createTodayPage(app) {
  // Remembered across renders so a language switch doesn't blank the page.
  let householdName = null;
  let day = null;
  let medications = [];
  let notes = [];
  // As-needed doses the hub refused, by medication: { refusal, at }, where
  // refusal is the hub's problem body. The sentence stays (in the new
  // language) when the language is switched, and goes after a while, as
  // "too soon" is about the moment it was said.
  const refusals = new Map();

  return function renderToday(outlet) {
    const { t, live } = app;
    const busy = new Set();
    let openSnooze = null;
    let sos = null;
    let left = false;

    const nameSlot = h('div', { class: 'household' });
    const indicator = h('p', { id: 'live-indicator', class: 'live-indicator', role: 'status', 'aria-live': 'polite' });
    const dateLine = h('p', { id: 'today-date', class: 'today-date' });
    const { element: announcer, announce } = createAnnouncer('today-announcer');
    const before = h('div', { id: 'today-content', class: 'today-content' });
    const sosSlot = h('div', { class: 'sos-slot' });
    const after = h('div', { class: 'today-after' });
    outlet.append(pageHeading(t('pages.today')), dateLine, nameSlot, indicator, announcer, before, sosSlot, after);

    function showName() {
      if (householdName === null) {
        nameSlot.replaceChildren(h('p', { class: 'loading' }, t('today.loadingHousehold')));
      } else {
        // #household-name holds only the name: end-to-end tests read it.
        nameSlot.replaceChildren(h('h2', { id: 'household-name' }, householdName));
      }
    }

    // Text says the state; the dot's colour only repeats it.
    function showLiveState(state) {
      indicator.setAttribute('data-state', state);
      indicator.replaceChildren(h('span', { class: 'live-dot', 'aria-hidden': 'true' }), t(`live.${state}`));
    }

    // --- Loading ---

    let householdRequest = null;
    async function loadHousehold() {
      householdRequest?.abort(); // only the newest answer may update the name
      const thisRequest = new AbortController();
      householdRequest = thisRequest;
      try {
        const household = await getJSON('/household', { t, signal: thisRequest.signal });
        if (typeof household?.name === 'string') {
          householdName = household.name;
          showName();
        }
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        // "Loading…" would never end; the problem or "not paired" message says why.
        if (householdName === null) nameSlot.replaceChildren();
        app.reportProblem(problem);
      }
    }

    let dayRequest = null;
    async function loadDay() {
      dayRequest?.abort();
      const thisRequest = new AbortController();
      dayRequest = thisRequest;
      const signal = thisRequest.signal;
      try {
        await app.me.load();
        const [today, list, pinned] = await Promise.all([
          getJSON('/today', { t, signal }),
          getJSON('/medications', { t, signal }),
          getJSON('/notes', { t, signal }).catch((problem) => {
            if (problem?.name === 'AbortError') throw problem;
            return []; // notes are a nicety here; the doses matter
          }),
        ]);
        if (dayRequest !== thisRequest) return;
        day = today;
        medications = Array.isArray(list) ? list : [];
        notes = (Array.isArray(pinned) ? pinned : []).filter((note) => note.pinned);
        render();
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        if (day === null) before.replaceChildren();
        app.reportProblem(problem);
      }
    }

    let reloadTimer = null;
    function reloadSoon() {
      clearTimeout(reloadTimer);
      reloadTimer = setTimeout(loadDay, RELOAD_DELAY_MS);
    }

    // --- Actions ---

    async function run(key, action) {
      if (busy.has(key)) return; // a double tap records once
      busy.add(key);
      render();
      try {
        await action();
        app.clearProblem();
      } catch (problem) {
        app.reportProblem(problem);
      } finally {
        busy.delete(key);
        if (!left) render();
      }
    }

    function applyDoses(doses) {
      for (const dose of doses) day = applyDoseToDay(day, dose);
    }

    const actions = {
      run,
      toggleSnooze(key) {
        openSnooze = openSnooze === key ? null : key;
        render();
      },
      /** Records "Taken", "Skip" or "Later"; `extra` is { snoozeMinutes }, { reason } or { takenAt }. */
      async answer(dose, status, extra = {}) {
        const body = { key: dose.key, status };
        if (status === 'snoozed') body.snoozeMinutes = extra.snoozeMinutes;
        if (status === 'skipped' && extra.reason) body.reason = extra.reason;
        if (status === 'taken' && extra.takenAt) body.takenAt = extra.takenAt;
        const recorded = await sendJSON('POST', '/doses', body, { t });
        openSnooze = null;
        applyDoses([recorded]);
        announce(t(`today.announce.${status}`, { medication: medicationTitle(dose) }));
      },
      /** "Taken": more than an hour before its time, asks once first ("Not yet" records nothing). */
      async taken(dose, key) {
        if (earlyDoses([dose]).length > 0) {
          const sure = await confirmEarlyDose(app, {
            medication: medicationTitle(dose), time: dose.time,
            returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
              ?? outlet.querySelector(`[data-focus-key="${CSS.escape(dose.key)}"]`),
          });
          if (!sure || left) return;
        }
        await actions.answer(dose, 'taken');
      },
      /** "Change": taken ↔ skipped, the time taken, or the answer taken back. */
      async askChange(dose, key) {
        if (busy.has(key) || document.getElementById('dose-change-dialog')) return;
        const recorded = dose.dose;
        // HH:MM as a time field takes it: when it was taken, else now.
        const shownTime = clockTime(recorded?.takenAt ?? new Date().toISOString(), { language: 'en', timeZone: day.timeZone });
        const choice = await askDoseChange(app, {
          medication: medicationTitle(dose), status: dose.status, time: shownTime,
          returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
            ?? outlet.querySelector(`[data-focus-key="${CSS.escape(dose.key)}"]`),
        });
        if (choice === null || left) return;
        await run(key, async () => {
          const body = choice.withdraw ? { withdraw: true } : { status: choice.status };
          if (choice.status === 'taken') {
            const at = wallClockInstant(recorded?.plannedDate ?? day.date, choice.time, day.timeZone);
            if (at) body.takenAt = at;
          }
          const changed = await sendJSON('PATCH', `/doses/${encodeURIComponent(recorded.id)}`, body, { t });
          // Still ahead and taken back, no record is left: the day as the hub plans it now.
          if (changed?.status === 'withdrawn') await loadDay();
          else applyDoses([changed]);
          announce(t('today.change.announce', { medication: medicationTitle(dose) }));
        });
      },
      /** "Skip": asks why first; Cancel or Escape records nothing. */
      async askSkip(dose, key) {
        if (busy.has(key) || document.getElementById('skip-dialog')) return;
        const choice = await askSkipReason(app, {
          medication: medicationTitle(dose),
          // The page may have been redrawn meanwhile: the Skip button as it is now, else its dose.
          returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
            ?? outlet.querySelector(`[data-focus-key="${CSS.escape(dose.key)}"]`),
        });
        if (choice === null || left) return;
        await run(key, () => actions.answer(dose, 'skipped', { reason: choice.reason }));
      },
      async takeAll(person, slot) {
        const waiting = earlyDoses(takeAllCandidates(person.doses.filter((dose) => (dose.slot ?? slotOfTime(dose.time)) === slot)));
        if (waiting.length > 0) {
          const key = `${person.personId}|${slot}|take-all`;
          const sure = await confirmEarlyDose(app, {
            medication: t('today.early.several', { count: waiting.length }), time: waiting[0].time,
            returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`),
          });
          if (!sure || left) return;
        }
        const recorded = await sendJSON('POST', '/today/take-all', { personId: person.personId, date: day.date, slot }, { t });
        applyDoses(Array.isArray(recorded) ? recorded : []);
        announce(t('today.announce.takeAll', { count: Array.isArray(recorded) ? recorded.length : 0, slot: t(`today.slots.${slot}`) }));
      },
      async takeAsNeeded(person, medication, override) {
        const body = { medicationId: medication.id, status: 'taken' };
        if (override) body.override = true;
        try {
          const recorded = await sendJSON('POST', '/doses', body, { t });
          refusals.delete(medication.id);
          applyDoses([recorded]);
          announce(t('today.announce.taken', { medication: medicationTitle(medication) }));
        } catch (problem) {
          if (problem?.status === 409 && String(problem.type ?? '').endsWith('limit-reached')) {
            // The problem's fields say which rule and when the next dose is allowed.
            const refusal = { ...(problem.body ?? {}), detail: problem.message };
            refusals.set(medication.id, { refusal, at: Date.now() });
            announce(limitRefusalText(t, refusal));
            return;
          }
          throw problem;
        }
      },
    };

    // --- Drawing ---

    // Redrawn only when something shown changed: a screen reader's place,
    // and a finger on a button, are not lost to a reload that brought nothing new.
    let shownSignature = null;
    function render() {
      if (left || !day) return;
      for (const [id, refusal] of refusals) if (Date.now() - refusal.at > REFUSAL_SHOWN_MS) refusals.delete(id);
      const me = app.me.current;
      const signature = JSON.stringify([app.language, me?.personId, me?.role, day, medications, notes, app.alerts.open,
        [...busy], [...refusals], openSnooze, Math.floor(Date.now() / REFRESH_EVERY_MS)]);
      if (signature === shownSignature) return;
      shownSignature = signature;
      const timeZone = day.timeZone ?? me?.timeZone ?? null;
      const people = Array.isArray(day.people) ? day.people : [];
      const isSenior = me?.role === 'senior';
      const view = { app, timeZone, busy, refusals, openSnooze, actions, now: Date.now(), isSenior, meId: me?.personId, date: day.date };
      dateLine.textContent = longDate(day.date, { language: app.language });

      const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
      const hadFocus = before.contains(document.activeElement) || after.contains(document.activeElement);

      if (isSenior) {
        const mine = people.find((person) => person.personId === me.personId) ?? { personId: me.personId, doses: [], asNeeded: [] };
        before.replaceChildren(...seniorDay(view, mine));
        if (!sos) {
          sos = createSOSControl(app);
          sosSlot.replaceChildren(sos.element);
        }
        after.replaceChildren(...[otherAlerts(view, [mine], 2, { besidesBanner: true }), pinnedNotes()].filter(Boolean));
      } else {
        before.replaceChildren(...caregiverDays(view, people));
        after.replaceChildren(...[pinnedNotes()].filter(Boolean));
      }

      if (focusKey && hadFocus) {
        // The same button, else what it belonged to ("dose|taken" → the dose).
        const parts = focusKey.split('|');
        let target = null;
        while (parts.length > 0 && !target) {
          target = outlet.querySelector(`[data-focus-key="${CSS.escape(parts.join('|'))}"]`);
          parts.pop();
        }
        (target ?? outlet.querySelector('h1'))?.focus();
      }
    }

    function seniorDay(view, person) {
      const entries = asNeededMedications(medications.filter((m) => m.personId === person.personId), person.asNeeded ?? []);
      return [
        h('section', { id: 'today-doses', class: 'today-doses senior-day', 'data-person-id': person.personId, 'aria-labelledby': 'today-doses-heading' },
          h('h2', { id: 'today-doses-heading' }, t('today.yourDoses')),
          countsLine(person),
          doseSlots(view, person, 3)),
        entries.length > 0
          ? h('section', { id: 'today-as-needed', class: 'today-as-needed', 'aria-labelledby': 'today-as-needed-heading' },
            h('h2', { id: 'today-as-needed-heading' }, t('today.asNeeded')),
            asNeededList(view, person, entries, 3))
          : null,
      ].filter(Boolean);
    }

    function caregiverDays(view, people) {
      if (people.length === 0) {
        return [h('p', { id: 'today-nobody', class: 'empty' }, t('today.nobodyLinked'))];
      }
      return people.map((person) => {
        const headingId = `person-${person.personId}`;
        const entries = asNeededMedications(medications.filter((m) => m.personId === person.personId), person.asNeeded ?? []);
        return h('section', { class: 'person-day', 'data-person-id': person.personId, 'aria-labelledby': headingId },
          h('h2', { id: headingId }, person.name),
          countsLine(person),
          otherAlerts(view, [person], 3),
          doseSlots(view, person, 3),
          entries.length > 0
            ? h('section', { class: 'today-as-needed', 'aria-labelledby': `${headingId}-prn` },
              h('h3', { id: `${headingId}-prn` }, t('today.asNeeded')),
              asNeededList(view, person, entries, 4))
            : null);
      });
    }

    function countsLine(person) {
      const counts = { taken: 0, skipped: 0, missed: 0, due: 0, upcoming: 0, ...(person.counts ?? {}) };
      const total = (person.doses ?? []).length;
      if (total === 0) return null;
      return h('p', { class: 'today-counts', 'data-taken': counts.taken, 'data-due': counts.due, 'data-missed': counts.missed },
        t('today.counts', counts));
    }

    /**
     * Open alerts about these people, as text: on a caregiver's card all of
     * them (the state at a glance); on a senior's page those the banner
     * above does not already show in large type.
     */
    function otherAlerts(view, people, level, { besidesBanner = false } = {}) {
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

    function pinnedNotes() {
      if (notes.length === 0) return null;
      return h('section', { id: 'today-notes', class: 'today-notes', 'aria-labelledby': 'today-notes-heading' },
        h('h2', { id: 'today-notes-heading' }, t('today.pinnedNotes')),
        h('ul', { class: 'today-note-list' }, notes.map((note) => h('li', { 'data-note-id': note.id },
          h('a', { href: pageHref('notes', note.id), class: 'note-link' }, noteName(note, t)),
          note.excerpt ? h('p', { class: 'note-excerpt' }, note.excerpt) : null))));
    }

    // --- Live ---

    // The first fetch may race the live connection's start; once the hub says
    // hello we are subscribed, so one more fetch closes that gap.
    let needsFetchOnConnect = live.state !== 'connected';
    const stopStateWatch = live.onState((state) => {
      showLiveState(state);
      if (state === 'connected' && needsFetchOnConnect) {
        needsFetchOnConnect = false;
        loadHousehold();
        reloadSoon();
      }
      if (state !== 'connected') needsFetchOnConnect = true;
    });
    const stopChangeWatch = live.onChange((change) => {
      switch (change.entity) {
        case 'household':
          loadHousehold();
          break;
        case 'dose':
          // Shown at once; the fetch after it brings the counts and alerts in line.
          if (day && change.payload) {
            day = applyDoseToDay(day, change.payload);
            render();
          }
          reloadSoon();
          break;
        case 'medication':
        case 'schedule':
        case 'note':
          reloadSoon();
          break;
        case 'person':
        case 'careLink':
          app.me.forget();
          reloadSoon();
          break;
        default:
          break;
      }
    });
    const stopResetWatch = live.onReset(() => {
      loadHousehold();
      reloadSoon();
    });
    const stopAlertWatch = app.alerts.subscribe(() => render());
    // Doses become due with time, and the day changes at midnight.
    const refreshTimer = setInterval(() => {
      const today = day ? localDay(new Date().toISOString(), day.timeZone) : null;
      if (!day || today !== day.date || document.visibilityState === 'visible') loadDay();
    }, REFRESH_EVERY_MS);

    showName();
    showLiveState(live.state);
    if (day) render();
    else before.replaceChildren(h('p', { class: 'loading' }, t('today.loading')));
    loadHousehold();
    loadDay();

    return function leaveToday() {
      left = true;
      stopStateWatch();
      stopChangeWatch();
      stopResetWatch();
      stopAlertWatch();
      clearInterval(refreshTimer);
      clearTimeout(reloadTimer);
      householdRequest?.abort();
      dayRequest?.abort();
      sos?.stop();
      document.getElementById('skip-dialog')?.close(); // a question about a page no longer shown
    };
  };
}
