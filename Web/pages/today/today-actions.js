// What Today's buttons do: "Taken" (asking first when it is early), "Skip"
// (asking why), "Later", "Take all", an as-needed "Take now" (and a
// refusal kept when the hub says it is too soon), and "Change" on an answer
// already recorded. Apart from today.js, which draws; each answer is
// applied to the day on screen and announced.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { clockTime, wallClockInstant } from '../../care/format.js';
import { earlyDoses, slotOfTime, takeAllCandidates } from '../../care/today-model.js';
import { limitRefusalText } from '../../care/limit-refusal.js';
import { medicationTitle } from './today-doses.js';
import { askSkipReason } from './skip-reason-dialog.js';
import { confirmEarlyDose, confirmTakenNow } from './early-dose-dialog.js';
import { askDoseChange } from './dose-change-dialog.js';
import { hubDate } from '../../hub-clock.js';

/**
 * `page` is what the actions need of Today: { outlet, busy (page-tools'
 * createBusyKeys), refusals, announce, day(), applyDoses(doses), loadDay(),
 * snooze: { toggle(key), close() }, left() }.
 */
export function createDoseActions(app, page) {
  const { t } = app;
  const { outlet, busy, announce } = page;

  const focusBack = (key, doseKey) => returnFocus(outlet, key, doseKey);

  const actions = {
    run: (key, action) => busy.run(key, action),
    toggleSnooze: (key) => page.snooze.toggle(key),
    /** Records "Taken", "Skip" or "Later"; `extra` is { snoozeMinutes }, { reason } or { takenAt }. */
    async answer(dose, status, extra = {}) {
      const body = { key: dose.key, status };
      if (status === 'snoozed') body.snoozeMinutes = extra.snoozeMinutes;
      if (status === 'skipped' && extra.reason) body.reason = extra.reason;
      if (status === 'taken' && extra.takenAt) body.takenAt = extra.takenAt;
      const recorded = await sendJSON('POST', paths.doses(), body, { t });
      page.snooze.close();
      page.applyDoses([recorded]);
      announce(t(`today.announce.${status}`, { medication: medicationTitle(dose) }));
    },
    /** "Taken": more than an hour before its time, asks once first ("Not yet" records nothing). */
    async taken(dose, key) {
      const sure = await confirmTakenNow(app, {
        dueAt: dose.dueAt, time: dose.time, medication: medicationTitle(dose), returnFocus: focusBack(key, dose.key),
      });
      if (!sure || page.left()) return;
      await actions.answer(dose, 'taken');
    },
    /** "Change": taken ↔ skipped, the time taken, or the answer taken back. */
    async askChange(dose, key) {
      if (busy.has(key) || document.getElementById('dose-change-dialog')) return;
      const day = page.day();
      const recorded = dose.dose;
      // HH:MM as a time field takes it: when it was taken, else now.
      const shownTime = clockTime(recorded?.takenAt ?? hubDate().toISOString(), { language: 'en', timeZone: day.timeZone });
      const choice = await askDoseChange(app, {
        medication: medicationTitle(dose), status: dose.status, time: shownTime, returnFocus: focusBack(key, dose.key),
      });
      if (choice === null || page.left()) return;
      await busy.run(key, () => change(app, page, dose, choice));
    },
    /** "Skip": asks why first; Cancel or Escape records nothing. */
    async askSkip(dose, key) {
      if (busy.has(key) || document.getElementById('skip-dialog')) return;
      const choice = await askSkipReason(app, { medication: medicationTitle(dose), returnFocus: focusBack(key, dose.key) });
      if (choice === null || page.left()) return;
      await busy.run(key, () => actions.answer(dose, 'skipped', { reason: choice.reason }));
    },
    takeAll: (person, slot) => takeAll(app, page, person, slot),
    takeAsNeeded: (person, medication, override) => takeAsNeeded(app, page, medication, override),
  };
  return actions;
}

/** The button as it is now (the page may have been redrawn meanwhile), else its dose. */
function returnFocus(outlet, key, doseKey) {
  return () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
    ?? (doseKey ? outlet.querySelector(`[data-focus-key="${CSS.escape(doseKey)}"]`) : null);
}

/** The answer changed as `choice` says ({ withdraw } or { status, time }). */
async function change(app, page, dose, choice) {
  const { t } = app;
  const day = page.day();
  const recorded = dose.dose;
  const body = choice.withdraw ? { withdraw: true } : { status: choice.status };
  if (choice.status === 'taken') {
    const at = wallClockInstant(recorded?.plannedDate ?? day.date, choice.time, day.timeZone);
    if (at) body.takenAt = at;
  }
  const changed = await sendJSON('PATCH', paths.dose(recorded.id), body, { t });
  // Still ahead and taken back, no record is left: the day as the hub plans it now.
  if (changed?.status === 'withdrawn') await page.loadDay();
  else page.applyDoses([changed]);
  page.announce(t('today.change.announce', { medication: medicationTitle(dose) }));
}

/** "Take all" of a part of the day, asking first when some are early. */
async function takeAll(app, page, person, slot) {
  const { t } = app;
  const waiting = earlyDoses(takeAllCandidates(person.doses.filter((dose) => (dose.slot ?? slotOfTime(dose.time)) === slot)));
  if (waiting.length > 0) {
    const key = `${person.personId}|${slot}|take-all`;
    const sure = await confirmEarlyDose(app, {
      medication: t('today.early.several', { count: waiting.length }), time: waiting[0].time, returnFocus: returnFocus(page.outlet, key),
    });
    if (!sure || page.left()) return;
  }
  const recorded = await sendJSON('POST', paths.takeAll(), { personId: person.personId, date: page.day().date, slot }, { t });
  page.applyDoses(Array.isArray(recorded) ? recorded : []);
  page.announce(t('today.announce.takeAll', { count: Array.isArray(recorded) ? recorded.length : 0, slot: t(`today.slots.${slot}`) }));
}

/** "Take now" (or "Give anyway") of an as-needed medication; a refusal is kept to show. */
async function takeAsNeeded(app, page, medication, override) {
  const { t } = app;
  const body = { medicationId: medication.id, status: 'taken' };
  if (override) body.override = true;
  try {
    const recorded = await sendJSON('POST', paths.doses(), body, { t });
    page.refusals.delete(medication.id);
    page.applyDoses([recorded]);
    page.announce(t('today.announce.taken', { medication: medicationTitle(medication) }));
  } catch (problem) {
    if (problem?.status === 409 && String(problem.type ?? '').endsWith('limit-reached')) {
      // The problem's fields say which rule and when the next dose is allowed.
      const refusal = { ...(problem.body ?? {}), detail: problem.message };
      page.refusals.set(medication.id, { refusal, at: Date.now() });
      page.announce(limitRefusalText(t, refusal));
      return;
    }
    throw problem;
  }
}
