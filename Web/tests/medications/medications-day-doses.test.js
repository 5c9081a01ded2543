import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doseChangeAllowed, doseChangeRequest, dosesOfDay } from '../../medications/day-doses.js';

const SENIOR = 'p-senior';
const CARER = 'p-carer';
const senior = { personId: SENIOR, role: 'senior' };
const carer = { personId: CARER, role: 'caregiver' };

const planned = (fields) => ({
  id: `d-${fields.plannedTime}`, key: `s1/2026-11-24T${fields.plannedTime}`, medicationId: 'm1', personId: SENIOR,
  plannedDate: '2026-11-24', dueAt: `2026-11-24T${fields.plannedTime}:00Z`, ...fields,
});

test("a day lists that medicine's answered and missed doses in the order of the day", () => {
  const doses = [
    planned({ plannedTime: '20:00', status: 'missed' }),
    planned({ plannedTime: '08:00', status: 'taken', takenAt: '2026-11-24T07:10:00Z' }),
    planned({ plannedTime: '14:00', status: 'due' }),
    { ...planned({ plannedTime: '08:00', status: 'taken' }), id: 'other', medicationId: 'm2' },
    { ...planned({ plannedTime: '08:00', status: 'skipped' }), id: 'tomorrow', plannedDate: '2026-11-25' },
    { id: 'prn', key: null, medicationId: 'm1', personId: SENIOR, status: 'taken', takenAt: '2026-11-24T10:00:00Z' },
  ];
  const day = dosesOfDay(doses, 'm1', '2026-11-24', (iso) => iso.slice(0, 10));
  assert.deepEqual(day.map((dose) => dose.id), ['d-08:00', 'prn', 'd-20:00']);
});

test('the senior puts right only what she recorded; her caregivers any answer', () => {
  const hers = planned({ plannedTime: '08:00', status: 'taken', recordedBy: SENIOR });
  const given = planned({ plannedTime: '08:00', status: 'skipped', recordedBy: CARER });
  assert.deepEqual(doseChangeAllowed(hers, senior), { kind: 'correct', withdraw: true });
  assert.equal(doseChangeAllowed(given, senior), null, 'the hub refuses her (403)');
  assert.deepEqual(doseChangeAllowed(given, carer), { kind: 'correct', withdraw: true });
  assert.equal(doseChangeAllowed(hers, null), null);
});

test('a missed dose is answered with its key and has no answer to take back', () => {
  const missed = planned({ plannedTime: '08:00', status: 'missed' });
  assert.deepEqual(doseChangeAllowed(missed, senior), { kind: 'answer', withdraw: false });
  assert.deepEqual(doseChangeAllowed(missed, carer), { kind: 'answer', withdraw: false });
  assert.equal(doseChangeAllowed({ ...missed, personId: 'someone-else' }, senior), null);
});

test('an as-needed dose is changed but never taken back', () => {
  const prn = { id: 'prn', key: null, personId: SENIOR, status: 'taken', recordedBy: SENIOR };
  assert.deepEqual(doseChangeAllowed(prn, senior), { kind: 'correct', withdraw: false });
  assert.equal(doseChangeAllowed({ ...prn, status: 'due' }, carer), null);
});

test('each choice becomes the write Today makes', () => {
  const instant = (day, time) => `${day}T${time}:00Z`;
  const taken = planned({ plannedTime: '08:00', status: 'taken' });
  assert.deepEqual(doseChangeRequest(taken, { status: 'taken', time: '07:40' }, 'correct', '2026-11-24', instant),
    { method: 'PATCH', path: '/doses/d-08%3A00', body: { status: 'taken', takenAt: '2026-11-24T07:40:00Z' } });
  assert.deepEqual(doseChangeRequest(taken, { status: 'skipped' }, 'correct', '2026-11-24', instant),
    { method: 'PATCH', path: '/doses/d-08%3A00', body: { status: 'skipped' } });
  assert.deepEqual(doseChangeRequest(taken, { withdraw: true }, 'correct', '2026-11-24', instant),
    { method: 'PATCH', path: '/doses/d-08%3A00', body: { withdraw: true } });
  const missed = planned({ plannedTime: '20:00', status: 'missed' });
  assert.deepEqual(doseChangeRequest(missed, { status: 'taken', time: '20:05' }, 'answer', '2026-11-24', instant),
    { method: 'POST', path: '/doses', body: { key: 's1/2026-11-24T20:00', status: 'taken', takenAt: '2026-11-24T20:05:00Z' } });
  // An as-needed dose has no planned day: the day shown is the one it was taken.
  const prn = { id: 'prn', key: null, status: 'taken', takenAt: '2026-11-23T23:30:00Z' };
  assert.deepEqual(doseChangeRequest(prn, { status: 'taken', time: '00:10' }, 'correct', '2026-11-24', instant).body,
    { status: 'taken', takenAt: '2026-11-24T00:10:00Z' });
});
