// The History page's day: under a medicine's month, the doses of the day
// chosen in its calendar — when each was planned, what was recorded and by
// whom, who changed it and when — each with "Change" for whoever may put it
// right, through the same dialog and the same writes as Today's.
import { sendJSON } from '../../api.js';
import { h } from '../../dom.js';
import { clockTime, dateTime, longDate, wallClockInstant } from '../../care/format.js';
import { skipReasonText } from '../../care/skip-reasons.js';
import { doseChangeAllowed, doseChangeRequest, dosesOfDay } from '../../medications/day-doses.js';
import { askDoseChange } from '../today/dose-change-dialog.js';
import { medicationTitle } from '../today/today-doses.js';
import { hubDate } from '../../hub-clock.js';

/**
 * The section listing `medication`'s doses on `day`. `view` carries the
 * app, the household's time zone, `toLocalDay`, `announce(text)`, the
 * ids of doses being saved (`busy`) and `changed()`, called once a change
 * was recorded so the month is read again.
 */
export function historyDay(view, medication, day, doses) {
  const { t, language } = view.app;
  const title = medicationTitle(medication);
  const headingId = `history-day-${medication.id}-title`;
  const list = dosesOfDay(doses, medication.id, day, view.toLocalDay);
  return h('section', { class: 'history-day', id: `history-day-${medication.id}`, 'aria-labelledby': headingId, 'data-day': day },
    h('h4', { id: headingId }, t('medications.history.dayTitle', { date: longDate(day, { language }), medication: title })),
    list.length === 0
      ? h('p', { class: 'empty' }, t('medications.history.states.none'))
      : h('ul', { class: 'history-dose-list' }, list.map((dose) => doseItem(view, medication, day, dose))));
}

function doseItem(view, medication, day, dose) {
  const { t, language } = view.app;
  const time = (iso) => clockTime(iso, { language, timeZone: view.timeZone });
  const nameOf = (personId) => view.app.me.nameOf(personId) ?? t('alerts.someone');
  const planId = `history-dose-${dose.id}`;
  const allowed = doseChangeAllowed(dose, view.app.me.current);
  const focusKey = `history-change-${dose.id}`;
  return h('li', { class: 'history-dose', 'data-dose-id': dose.id, 'data-status': dose.status },
    h('p', { class: 'history-dose-plan', id: planId },
      dose.plannedTime ? t('medications.history.plannedFor', { time: dose.plannedTime }) : t('medications.history.asNeeded')),
    h('p', { class: 'dose-status', 'data-status': dose.status }, statusText(view, dose, time)),
    dose.recordedBy && dose.status !== 'missed'
      ? h('p', { class: 'history-dose-by' }, t('medications.history.recordedBy', { name: nameOf(dose.recordedBy) }))
      : null,
    dose.correctedAt
      ? h('p', { class: 'dose-changed' }, t('medications.history.changedBy', {
        name: nameOf(dose.correctedBy),
        when: dateTime(dose.correctedAt, { language, timeZone: view.timeZone }),
      }))
      : null,
    allowed
      ? h('button', {
        type: 'button', class: 'secondary-button', 'data-action': 'change', 'data-focus-key': focusKey,
        'aria-describedby': planId, 'aria-disabled': view.busy.has(dose.id) ? 'true' : null,
        onclick: () => change(view, medication, day, dose, allowed, focusKey),
      }, t('today.change.button'))
      : null);
}

function statusText(view, dose, time) {
  const { t, language } = view.app;
  switch (dose.status) {
    case 'taken':
      // Late as the hub judges it (`takenLate`), the same words as the alert history's.
      if (dose.takenAt && dose.takenLate === true) return t('medications.history.takenLateAt', { time: time(dose.takenAt) });
      return dose.takenAt ? t('today.status.takenAt', { time: time(dose.takenAt) }) : t('today.status.taken');
    case 'skipped': {
      const reason = skipReasonText(language, dose.reason);
      return reason ? t('today.status.skippedBecause', { reason }) : t('today.status.skipped');
    }
    default:
      return t('medications.history.states.missed');
  }
}

async function change(view, medication, day, dose, allowed, focusKey) {
  const { t } = view.app;
  if (view.busy.has(dose.id) || document.getElementById('dose-change-dialog')) return;
  // A missed dose is most often one taken but not recorded: "taken", at its planned time, comes first.
  const status = allowed.kind === 'answer' ? 'taken' : dose.status;
  const shownTime = dose.takenAt
    ? clockTime(dose.takenAt, { language: 'en', timeZone: view.timeZone })
    : dose.plannedTime ?? clockTime(hubDate().toISOString(), { language: 'en', timeZone: view.timeZone });
  const choice = await askDoseChange(view.app, {
    medication: medicationTitle(medication), status, time: shownTime, canWithdraw: allowed.withdraw,
    returnFocus: () => document.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`),
  });
  if (choice === null || view.left()) return;
  const request = doseChangeRequest(dose, choice, allowed.kind, day, (d, at) => wallClockInstant(d, at, view.timeZone));
  await view.busy.run(dose.id, async () => {
    await sendJSON(request.method, request.path, request.body, { t });
    view.announce(t('today.change.announce', { medication: medicationTitle(medication) }));
  });
  view.changed();
}
