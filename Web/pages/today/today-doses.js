// What the Today page draws for one person's day: the next dose to answer
// first, as a card of its own, then the doses in parts of the day (the
// timeline) with "Taken", "Skip" and "Later", "Take all" for a part of the
// day, and as-needed medications with "Take now". Each button is named with
// its dose ("Taken, Aspirin 75 mg") for screen readers, and carries a
// data-focus-key so the keyboard stays on it when the day is redrawn (or,
// once the button is gone — "Taken" on an answered dose — on its dose).
// "Skip" first asks why (skip-reason-dialog.js, through view.actions.askSkip).
// A senior's dose that is due, or still to come today, has "Listen": "It is
// time for Metformin, one tablet, at 8:00".
import { h } from '../../dom.js';
import { clockTime, longDate } from '../../care/format.js';
import { limitRefusalText } from '../../care/limit-refusal.js';
import { skipReasonText } from '../../care/skip-reasons.js';
import { spokenDose } from '../../care/spoken.js';
import { amountText } from '../../care/words.js';
import {
  SNOOZE_CHOICES, canAnswer, canSnooze, groupBySlot, isAnswered, nextDoseLine, takeAllCandidates,
} from '../../care/today-model.js';
import { scheduleSentence } from '../../medications/schedule-sentence.js';
import { listenButton } from '../listen-button.js';
import { hubNow } from '../../hub-clock.js';

const STATUS_ICONS = { taken: '✓', skipped: '–', missed: '✗', due: '●', snoozed: '◔', upcoming: '○', unrecorded: '?' };

let idCounter = 0;
const nextId = (prefix) => `${prefix}-${++idCounter}`;

/** "Aspirin 75 mg": the name with its strength. */
export function medicationTitle(item) {
  return [item.medicationName ?? item.name, item.strength].filter((part) => part && String(part).trim() !== '').join(' ');
}

/** The dose's state in words: "Taken at 08:03", "Skipped: Ran out", "Missed (08:00)" … */
export function doseStatusText(view, dose) {
  const { t } = view.app;
  const time = (iso) => clockTime(iso, { language: view.app.language, timeZone: view.timeZone });
  switch (dose.status) {
    case 'taken':
      return dose.dose?.takenAt ? t('today.status.takenAt', { time: time(dose.dose.takenAt) }) : t('today.status.taken');
    case 'skipped': {
      const reason = skipReasonText(view.app.language, dose.dose?.reason);
      return reason ? t('today.status.skippedBecause', { reason }) : t('today.status.skipped');
    }
    case 'missed':
      return t('today.status.missed', { time: dose.time });
    case 'unrecorded':
      return t('today.status.unrecorded', { time: dose.time });
    case 'snoozed':
      return dose.dose?.snoozedUntil ? t('today.status.snoozedUntil', { time: time(dose.dose.snoozedUntil) }) : t('today.status.due');
    case 'due':
      return t('today.status.due');
    default:
      return t('today.status.upcoming', { time: dose.time });
  }
}

/**
 * The doses of one person's day, by part of the day. `view` carries the
 * app, the person, the household's time zone, which requests are running
 * (`busy`), which dose has its "Later" choices open, and the actions.
 */
export function doseSlots(view, person, headingLevel) {
  const { t } = view.app;
  const groups = groupBySlot(person.doses);
  const next = nextDose(view, person);
  const firstToAnswer = firstToAnswerOf(person.doses, view.now);
  if (groups.length === 0) return [h('p', { class: 'empty today-empty' }, t('today.noDoses')), next].filter(Boolean);
  const first = (person.doses ?? []).find((dose) => dose.key === firstToAnswer);
  return [first ? nextDoseCard(view, first, headingLevel) : null, ...groups.map(({ slot, doses }) => {
    const headingId = nextId('slot');
    const candidates = takeAllCandidates(doses, view.now);
    const takeAllKey = `${person.personId}|${slot}|take-all`;
    return h('section', { class: 'slot', 'data-slot': slot, 'aria-labelledby': headingId, tabindex: '-1', 'data-focus-key': `${person.personId}|${slot}` },
      h('div', { class: 'slot-header' },
        h(`h${headingLevel}`, { id: headingId, class: 'slot-heading' }, t(`today.slots.${slot}`)),
        candidates.length >= 2
          ? actionButton(view, {
            key: takeAllKey, action: 'take-all', className: 'secondary-button take-all', describedBy: headingId,
            label: t('today.takeAll', { count: candidates.length }),
            run: () => view.actions.takeAll(person, slot),
          })
          : null),
      h('ul', { class: 'dose-list' }, doses.map((dose) => (dose.key === firstToAnswer ? shownAbove(view, dose) : doseItem(view, dose, headingLevel + 1)))));
  }), next].filter(Boolean);
}

/**
 * The dose to answer first as the day's first thing, with its buttons; its
 * place in the timeline says only that it is above, so no dose has two
 * sets of buttons (or two focus keys).
 */
function nextDoseCard(view, dose, headingLevel) {
  const headingId = nextId('next-dose');
  return h('section', { class: 'next-dose', 'aria-labelledby': headingId },
    h(`h${headingLevel}`, { id: headingId, class: 'next-dose-heading' }, view.app.t('today.nextCard.heading')),
    h('ul', { class: 'dose-list' }, doseItem(view, dose, headingLevel + 1, true)));
}

/** "Aspirin 75 mg, 1 tablet at 08:00: the next dose, above." */
function shownAbove(view, dose) {
  const { t } = view.app;
  const amount = amountText(view.app.language, dose.amount ?? 1, dose.unit);
  return h('li', { class: 'dose-shown-above', 'data-above-key': dose.key },
    h('p', {}, t('today.nextCard.above', { name: medicationTitle(dose), amountAt: t('today.amountAt', { amount, time: dose.time }) })));
}

/**
 * The dose to answer first, drawn as the day's first thing: the earliest
 * due, put off or missed one that can still be answered, else the next one
 * to come. Its key, or null when nothing is left to answer.
 */
function firstToAnswerOf(doses = [], now) {
  const open = doses.filter((dose) => canAnswer(dose, now));
  const waiting = open.find((dose) => ['due', 'snoozed', 'missed', 'unrecorded'].includes(dose.status));
  return (waiting ?? open.find((dose) => dose.status === 'upcoming'))?.key ?? null;
}

/** "Next: tomorrow at 08:00, Metformin 500 mg", once nothing is left of the day. */
function nextDose(view, person) {
  const line = nextDoseLine(person, view.date);
  if (!line) return null;
  const { t, language } = view.app;
  return h('p', { class: 'today-next', 'data-next-key': person.next.key },
    t(line.key, { ...line.params, date: line.date ? longDate(line.date, { language }) : '' }));
}

function doseItem(view, dose, headingLevel, first = false) {
  const { t } = view.app;
  const nameId = nextId('dose');
  const amount = amountText(view.app.language, dose.amount ?? 1, dose.unit);
  const answerable = canAnswer(dose, view.now);
  const snoozeOpen = view.openSnooze === dose.key;
  const snoozeId = nextId('snooze');
  const buttons = [];
  // A dose counted missed may still have been taken: "I took it" asks when
  // (as planned, or just now), so the record and the caregivers' alert say
  // what happened. So does one planned before its medicine was added.
  const missed = dose.status === 'missed' || dose.status === 'unrecorded';
  const tookKey = `${dose.key}|took`;
  const tookOpen = view.openSnooze === tookKey;
  const tookId = nextId('took');
  if (answerable && missed) {
    buttons.push(h('button', {
      type: 'button', class: 'primary-button dose-took-it', 'data-action': 'took-it', 'data-focus-key': `${dose.key}|took-it`,
      'aria-expanded': tookOpen ? 'true' : 'false', 'aria-controls': tookId, 'aria-describedby': nameId,
      onclick: () => view.actions.toggleSnooze(tookKey),
    }, t('today.tookIt')));
  } else if (answerable) {
    buttons.push(actionButton(view, {
      key: `${dose.key}|taken`, action: 'taken', className: 'primary-button dose-taken', describedBy: nameId,
      label: t('today.taken'), run: () => view.actions.taken(dose, `${dose.key}|taken`),
    }));
  }
  if (answerable) {
    const skipKey = `${dose.key}|skip`;
    buttons.push(h('button', {
      type: 'button', class: 'secondary-button dose-skip', 'data-action': 'skip', 'data-focus-key': skipKey, 'aria-describedby': nameId,
      'aria-haspopup': 'dialog', 'aria-disabled': view.busy.has(skipKey) ? 'true' : null,
      onclick: () => view.actions.askSkip(dose, skipKey),
    }, t('today.skip')));
  }
  // Putting an answer right: a caregiver any of the day's, a senior what she recorded.
  if (isAnswered(dose) && dose.dose?.id && (!view.isSenior || dose.dose.recordedBy === view.meId)) {
    const changeKey = `${dose.key}|change`;
    buttons.push(h('button', {
      type: 'button', class: 'secondary-button dose-change', 'data-action': 'change', 'data-focus-key': changeKey,
      'aria-haspopup': 'dialog', 'aria-describedby': nameId, 'aria-disabled': view.busy.has(changeKey) ? 'true' : null,
      onclick: () => view.actions.askChange(dose, changeKey),
    }, t('today.change.button')));
  }
  if (answerable && canSnooze(dose)) {
    buttons.push(h('button', {
      type: 'button', class: 'secondary-button dose-later', 'data-action': 'later', 'data-focus-key': `${dose.key}|later`,
      'aria-expanded': snoozeOpen ? 'true' : 'false', 'aria-controls': snoozeId, 'aria-describedby': nameId,
      onclick: () => view.actions.toggleSnooze(dose.key),
    }, t('today.later')));
  }
  return h('li', {
    class: 'dose-item', 'data-key': dose.key, 'data-status': dose.status, 'data-medication-id': dose.medicationId, tabindex: '-1',
    'data-focus-key': dose.key, 'data-first': first ? 'true' : null,
  },
    h('article', { 'aria-labelledby': nameId },
      h(`h${headingLevel}`, { id: nameId, class: 'dose-name' }, medicationTitle(dose)),
      h('p', { class: 'dose-amount' }, t('today.amountAt', { amount, time: dose.time })),
      dose.appearance ? h('p', { class: 'dose-appearance' }, t('today.looksLike', { appearance: dose.appearance })) : null,
      dose.instructions ? h('p', { class: 'dose-instructions' }, dose.instructions) : null,
      h('p', { class: 'dose-status', 'data-status': dose.status },
        h('span', { class: 'status-icon', 'aria-hidden': 'true' }, STATUS_ICONS[dose.status] ?? '○'),
        doseStatusText(view, dose)),
      dose.dose?.correctedAt
        ? h('p', { class: 'dose-changed' }, t('today.change.changedBy', {
          name: view.app.me.nameOf(dose.dose.correctedBy) ?? t('alerts.someone'),
          time: clockTime(dose.dose.correctedAt, { language: view.app.language, timeZone: view.timeZone }),
        }))
        : null,
      doseListen(view, dose),
      buttons.length > 0 ? h('div', { class: 'dose-actions' }, buttons) : null,
      answerable && missed ? tookChoices(view, dose, { id: tookId, open: tookOpen, nameId }) : null,
      answerable && canSnooze(dose) ? snoozeChoices(view, dose, { id: snoozeId, open: snoozeOpen, nameId }) : null));
}

/**
 * "Listen" on a senior's own dose that is due or later today (null on any
 * other): its sentence is made when pressed, at the time then (a dose put
 * off until a time now past is said to be due again). The id comes from
 * the dose's key ("<schedule>/2026-11-22T08:00"), unique in the day, with
 * what an id should not hold made hyphens.
 */
function doseListen(view, dose) {
  const { app } = view;
  const clock = (iso) => clockTime(iso, { language: app.language, timeZone: view.timeZone });
  if (!view.isSenior || spokenDose(app.t, app.language, dose, { now: view.now, clock }) === null) return null;
  const idPart = String(dose.key ?? dose.dose?.id ?? `${dose.medicationId}-${dose.time}`).replace(/[^A-Za-z0-9_-]/g, '-');
  return h('div', { class: 'listen-row' }, listenButton(app, {
    id: `dose-${idPart}-listen`, label: medicationTitle(dose),
    text: () => spokenDose(app.t, app.language, dose, { now: hubNow(), clock }),
    attributes: { 'data-focus-key': `${dose.key}|listen` },
  }));
}

/** What "I took it" unfolds: taken at its planned time, or just now. */
function tookChoices(view, dose, { id, open, nameId }) {
  const { t } = view.app;
  return h('div', { id, class: 'snooze-choices took-choices', role: 'group', 'aria-label': t('today.tookItWhen'), hidden: !open },
    actionButton(view, {
      key: `${dose.key}|took-planned`, action: 'took-planned', className: 'secondary-button', describedBy: nameId,
      label: t('today.tookAtPlanned', { time: dose.time }), run: () => view.actions.answer(dose, 'taken', { takenAt: dose.dueAt }),
    }),
    actionButton(view, {
      key: `${dose.key}|took-now`, action: 'took-now', className: 'secondary-button', describedBy: nameId,
      label: t('today.tookJustNow'), run: () => view.actions.answer(dose, 'taken'),
    }));
}

/** What "Later" unfolds: how much later. */
function snoozeChoices(view, dose, { id, open, nameId }) {
  const { t } = view.app;
  return h('div', { id, class: 'snooze-choices', role: 'group', 'aria-label': t('today.laterChoices'), hidden: !open },
    SNOOZE_CHOICES.map((minutes) => actionButton(view, {
      key: `${dose.key}|snooze-${minutes}`, action: `snooze-${minutes}`, className: 'secondary-button', describedBy: nameId,
      label: t(`today.snooze.${minutes}`), run: () => view.actions.answer(dose, 'snoozed', { snoozeMinutes: minutes }),
    })));
}

/** As-needed medications of one person with "Take now" (and "Give anyway" for a caregiver after a refusal). */
export function asNeededList(view, person, entries, headingLevel) {
  const { t, language } = view.app;
  return h('ul', { class: 'prn-list' }, entries.map(({ medication, schedule, taken }) => {
    const nameId = nextId('prn');
    // Kept as the hub sent it and put in words here, so a language switch follows.
    const refused = view.refusals.get(medication.id)?.refusal;
    const refusal = refused ? limitRefusalText(t, refused) : null;
    const times = taken.map((dose) => clockTime(dose.takenAt, { language, timeZone: view.timeZone })).filter(Boolean);
    return h('li', { class: 'prn-item', 'data-medication-id': medication.id },
      h('article', { 'aria-labelledby': nameId },
        h(`h${headingLevel}`, { id: nameId, class: 'dose-name' }, medicationTitle(medication)),
        h('p', { class: 'prn-rule' }, scheduleSentence(schedule, { language, unit: medication.unit })),
        medication.appearance ? h('p', { class: 'dose-appearance' }, t('today.looksLike', { appearance: medication.appearance })) : null,
        h('p', { class: 'prn-taken' }, times.length === 0 ? t('today.prnNotTaken') : t('today.prnTaken', { count: times.length, times: times.join(', ') })),
        h('div', { class: 'dose-actions' },
          actionButton(view, {
            key: `${medication.id}|take-now`, action: 'take-now', className: 'primary-button prn-take', describedBy: nameId,
            label: view.isSenior ? t('today.takeNow') : t('today.giveNow'),
            run: () => view.actions.takeAsNeeded(person, medication, false),
          }),
          refusal && !view.isSenior
            ? actionButton(view, {
              key: `${medication.id}|override`, action: 'override', className: 'secondary-button prn-override', describedBy: `${nameId} ${nameId}-refusal`,
              label: t('today.giveAnyway'), run: () => view.actions.takeAsNeeded(person, medication, true),
            })
            : null),
        refusal ? h('p', { id: `${nameId}-refusal`, class: 'prn-refusal' }, refusal) : null));
  }));
}

function actionButton(view, { key, action, className, describedBy, label, run }) {
  const busy = view.busy.has(key);
  return h('button', {
    type: 'button', class: className, 'data-action': action, 'data-focus-key': key, 'aria-describedby': describedBy,
    'aria-disabled': busy ? 'true' : null,
    onclick: () => view.actions.run(key, run),
  }, label);
}
