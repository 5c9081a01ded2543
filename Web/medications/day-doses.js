// One day of one medicine on the History page, without the page: the doses
// recorded that day in the order they were planned, and how this person may
// put each right. Pure, for the Node tests.
import { doseDay } from './adherence.js';
import { paths } from '../api-paths.js';

/** The taken, skipped and missed doses of `medicationId` on `day`, in the order of the day (a planned one at its time, an as-needed one when taken). */
export function dosesOfDay(doses, medicationId, day, localDate) {
  const when = (dose) => Date.parse(dose.dueAt ?? dose.takenAt ?? dose.createdAt ?? '') || 0;
  return (doses ?? [])
    .filter((dose) => dose.medicationId === medicationId && ['taken', 'skipped', 'missed'].includes(dose.status))
    .filter((dose) => doseDay(dose, localDate) === day)
    .sort((a, b) => when(a) - when(b));
}

/**
 * How `me` ({ personId, role }) may put a dose right, as the hub allows it:
 * - 'answer': a missed planned dose, answered as Today's "I took it" is
 *   (POST with its key) by the senior or her caregivers;
 * - 'correct': a taken or skipped dose, changed or taken back (PATCH) by
 *   her caregivers, or by the senior when she recorded it herself;
 * - null: nothing to offer (the hub would refuse).
 * `withdraw` says whether "Not answered after all" applies: only a planned
 * dose's answer can be taken back; an as-needed one is changed to skipped.
 */
export function doseChangeAllowed(dose, me) {
  if (!me?.personId || !dose) return null;
  const caregiver = me.role !== 'senior';
  if (dose.status === 'missed') {
    return dose.key && (caregiver || dose.personId === me.personId) ? { kind: 'answer', withdraw: false } : null;
  }
  if (dose.status !== 'taken' && dose.status !== 'skipped') return null;
  if (!caregiver && dose.recordedBy !== me.personId) return null;
  return { kind: 'correct', withdraw: Boolean(dose.key) };
}

/**
 * The request that records a choice of the change dialog ({ status, time }
 * or { withdraw: true }) for `dose`, shown on `day`: { method, path, body }.
 * `instant(day, time)` turns the household's YYYY-MM-DD and HH:MM into an
 * ISO instant (null when it cannot).
 */
export function doseChangeRequest(dose, choice, kind, day, instant) {
  // A planned dose is taken on its own day; an as-needed one on the day shown.
  const takenAt = choice.status === 'taken' ? instant(dose.plannedDate ?? day, choice.time) : null;
  if (kind === 'answer') {
    const body = { key: dose.key, status: choice.status };
    if (takenAt) body.takenAt = takenAt;
    return { method: 'POST', path: paths.doses(), body };
  }
  const path = paths.dose(dose.id);
  if (choice.withdraw) return { method: 'PATCH', path, body: { withdraw: true } };
  const body = { status: choice.status };
  if (takenAt) body.takenAt = takenAt;
  return { method: 'PATCH', path, body };
}
