// The Today page's data, without the page: doses grouped into the four
// parts of the day, what can still be answered, and a dose arriving on the
// live stream applied to the day already on screen (so a "Taken" on the
// senior's tablet shows on a caregiver's phone at once, before the page has
// fetched the day again). Pure, for the Node tests.
import { isTakenEarly } from './early-dose.js';
import { hubNow } from '../hub-clock.js';

export const SLOTS = Object.freeze(['morning', 'midday', 'evening', 'night']);

/** The hub answers a dose at most this long before it is due. */
export const EARLIEST_ANSWER_MS = 12 * 60 * 60 * 1000;
export const SNOOZE_CHOICES = Object.freeze([10, 30, 60]);

const ANSWERED = new Set(['taken', 'skipped']);

/** The part of the day a time "HH:MM" falls in, as the hub decides it. */
export function slotOfTime(time) {
  const hour = Number(String(time ?? '').split(':')[0]);
  if (hour >= 5 && hour < 11) return 'morning';
  if (hour >= 11 && hour < 15) return 'midday';
  if (hour >= 15 && hour < 21) return 'evening';
  return 'night';
}

function doseOrder(a, b) {
  const byDue = String(a.dueAt ?? '').localeCompare(String(b.dueAt ?? ''));
  if (byDue !== 0) return byDue;
  return String(a.medicationName ?? '').localeCompare(String(b.medicationName ?? ''));
}

/**
 * [{ slot, doses }] for each part of the day that has doses, in the order of
 * the day; doses in time order. An unknown slot is worked out from the time.
 */
export function groupBySlot(doses) {
  const groups = new Map(SLOTS.map((slot) => [slot, []]));
  for (const dose of doses ?? []) {
    const slot = SLOTS.includes(dose.slot) ? dose.slot : slotOfTime(dose.time);
    groups.get(slot).push(dose);
  }
  return SLOTS.filter((slot) => groups.get(slot).length > 0)
    .map((slot) => ({ slot, doses: groups.get(slot).sort(doseOrder) }));
}

export function isAnswered(dose) {
  return ANSWERED.has(dose?.status);
}

/** "Taken" and "Skip" are offered until it is answered, from 12 hours before it is due. */
export function canAnswer(dose, now = hubNow()) {
  if (isAnswered(dose)) return false;
  const due = Date.parse(dose?.dueAt ?? '');
  return Number.isNaN(due) || due - now <= EARLIEST_ANSWER_MS;
}

/** "Later" only for a dose whose time has come (a missed one must be taken or skipped). */
export function canSnooze(dose) {
  return dose?.status === 'due' || dose?.status === 'snoozed';
}

/** Whether nothing of the day is still to be taken: no dose planned, due or put off. */
export function nothingLeft(doses) {
  return !(doses ?? []).some((dose) => ['upcoming', 'due', 'snoozed'].includes(dose.status));
}

/** "YYYY-MM-DD" one day on (calendar arithmetic, no time zone involved). */
export function nextDay(day) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(day ?? ''));
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1));
  return date.toISOString().slice(0, 10);
}

/**
 * The line naming the next dose when nothing is left of `person`'s day
 * (`date`): { key, params } for t(), with `when` as 'tomorrow' or the
 * date for `longDate`; null while something is left, or nothing is planned.
 */
export function nextDoseLine(person, date) {
  const next = person?.next;
  if (!next || !nothingLeft(person.doses)) return null;
  const tomorrow = next.date === nextDay(date);
  return {
    key: tomorrow ? 'today.nextTomorrow' : 'today.nextOn',
    params: { time: next.time, medication: [next.medicationName, next.strength].filter((part) => part && String(part).trim()).join(' ') },
    date: tomorrow ? null : next.date,
  };
}

/** The doses among `doses` that "Taken" at `now` would record early (care/early-dose.js): it asks about them first. */
export function earlyDoses(doses, now = hubNow()) {
  return (doses ?? []).filter((dose) => isTakenEarly(dose?.dueAt, now));
}

/** The doses of one part of the day that "Take all" would record. */
export function takeAllCandidates(doses, now = hubNow()) {
  return (doses ?? []).filter((dose) => canAnswer(dose, now));
}

/** Counts as the hub gives them: a snoozed dose still waits, so it counts as due. */
export function countDoses(doses) {
  const counts = { taken: 0, skipped: 0, missed: 0, due: 0, upcoming: 0 };
  for (const dose of doses ?? []) {
    const status = dose.status === 'snoozed' ? 'due' : dose.status;
    if (Object.hasOwn(counts, status)) counts[status] += 1;
  }
  return counts;
}

/**
 * One person's day with a recorded dose (from the live stream or an API
 * answer) applied: a planned dose by its key, an as-needed one (no key)
 * added to or replaced in the day's as-needed list. Returns the same object
 * when the dose is not this person's, else a new one.
 */
export function applyDose(person, dose) {
  if (!person || !dose || dose.personId !== person.personId) return person;
  if (dose.key) {
    let changed = false;
    const doses = (person.doses ?? []).map((planned) => {
      if (planned.key !== dose.key) return planned;
      changed = true;
      return { ...planned, status: dose.status, dose };
    });
    if (!changed) return person;
    return { ...person, doses, counts: countDoses(doses) };
  }
  const asNeeded = [...(person.asNeeded ?? [])];
  const index = asNeeded.findIndex((taken) => taken.id === dose.id);
  if (index >= 0) asNeeded[index] = dose;
  else asNeeded.push(dose);
  return { ...person, asNeeded };
}

/** The day with `dose` applied to whichever person it belongs to. */
export function applyDoseToDay(day, dose) {
  if (!day?.people) return day;
  const people = day.people.map((person) => applyDose(person, dose));
  return people.every((person, i) => person === day.people[i]) ? day : { ...day, people };
}

/**
 * The senior's as-needed medications: active ones with a current as-needed
 * schedule, each with that schedule and how often it was taken today.
 */
export function asNeededMedications(medications, takenToday = []) {
  return (medications ?? [])
    .filter((medication) => medication.active !== false)
    .map((medication) => ({
      medication,
      schedule: (medication.schedules ?? []).find((schedule) => schedule.kind === 'asNeeded') ?? null,
    }))
    .filter((entry) => entry.schedule)
    .map((entry) => ({
      ...entry,
      taken: takenToday.filter((dose) => dose.medicationId === entry.medication.id && dose.status === 'taken'),
    }))
    .sort((a, b) => a.medication.name.localeCompare(b.medication.name));
}
