import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyDose, applyDoseToDay, asNeededMedications, canAnswer, canSnooze, countDoses, earlyDoses, groupBySlot, nextDay, nextDoseLine, nothingLeft, slotOfTime, takeAllCandidates,
} from '../../care/today-model.js';

const dose = (key, time, status = 'upcoming', extra = {}) => ({
  key, medicationId: `m-${key}`, medicationName: `Med ${key}`, time, slot: slotOfTime(time),
  dueAt: `2026-11-22T${time}:00.000Z`, status, dose: null, ...extra,
});

test('doses fall into morning, midday, evening and night as the hub decides', () => {
  assert.deepEqual(['05:00', '10:59', '11:00', '14:59', '15:00', '20:59', '21:00', '23:30', '02:00', '04:59'].map(slotOfTime),
    ['morning', 'morning', 'midday', 'midday', 'evening', 'evening', 'night', 'night', 'night', 'night']);
});

test('the day is grouped in the order of the day, each part in time order, empty parts left out', () => {
  const groups = groupBySlot([
    dose('c', '20:00'), dose('a', '08:00'), dose('b', '07:30'), dose('d', '22:00'),
    { ...dose('e', '13:00'), slot: 'nonsense' },
  ]);
  assert.deepEqual(groups.map((g) => g.slot), ['morning', 'midday', 'evening', 'night']);
  assert.deepEqual(groups[0].doses.map((d) => d.key), ['b', 'a']);
  assert.deepEqual(groups[1].doses.map((d) => d.key), ['e'], 'an unknown slot is worked out from the time');
  assert.deepEqual(groupBySlot([dose('x', '21:30')]).map((g) => g.slot), ['night']);
  assert.deepEqual(groupBySlot([]), []);
});

test('Taken and Skip are offered until answered, and not more than 12 hours ahead', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');
  assert.equal(canAnswer(dose('a', '08:00', 'due'), now), true);
  assert.equal(canAnswer(dose('a', '19:59', 'upcoming'), now), true);
  assert.equal(canAnswer({ ...dose('a', '08:00'), dueAt: '2026-11-22T20:01:00Z' }, now), false);
  assert.equal(canAnswer(dose('a', '07:00', 'missed'), now), true, 'a missed dose may still be taken late');
  assert.equal(canAnswer(dose('a', '07:00', 'taken'), now), false);
  assert.equal(canAnswer(dose('a', '07:00', 'skipped'), now), false);
  assert.equal(canSnooze(dose('a', '07:00', 'due')), true);
  assert.equal(canSnooze(dose('a', '07:00', 'snoozed')), true);
  assert.equal(canSnooze(dose('a', '07:00', 'missed')), false, 'the hub refuses to snooze a missed dose');
  assert.equal(canSnooze(dose('a', '09:00', 'upcoming')), false);
  const slot = [dose('a', '07:00', 'taken'), dose('b', '08:00', 'due'), dose('c', '09:00', 'upcoming')];
  assert.deepEqual(takeAllCandidates(slot, now).map((d) => d.key), ['b', 'c']);
});

test('counts are kept as the hub counts them: a snoozed dose is still due', () => {
  assert.deepEqual(countDoses([dose('a', '07:00', 'taken'), dose('b', '08:00', 'snoozed'), dose('c', '09:00', 'due'),
    dose('d', '09:00', 'missed'), dose('e', '20:00')]), { taken: 1, skipped: 0, missed: 1, due: 2, upcoming: 1 });
});

test("a dose taken on the senior's tablet is applied to the caregiver's open day", () => {
  const ela = { personId: 'ela', name: 'Ela', doses: [dose('k1', '08:00', 'due'), dose('k2', '20:00')],
    asNeeded: [], counts: { taken: 0, skipped: 0, missed: 0, due: 1, upcoming: 1 } };
  const jan = { personId: 'jan', name: 'Jan', doses: [dose('k3', '08:00', 'due')], asNeeded: [], counts: {} };
  const day = { date: '2026-11-22', people: [ela, jan] };
  const recorded = { id: 'd1', key: 'k1', personId: 'ela', medicationId: 'm-k1', status: 'taken', takenAt: '2026-11-22T08:01:00Z' };

  const after = applyDoseToDay(day, recorded);
  assert.equal(after.people[0].doses[0].status, 'taken');
  assert.equal(after.people[0].doses[0].dose, recorded);
  assert.deepEqual(after.people[0].counts, { taken: 1, skipped: 0, missed: 0, due: 0, upcoming: 1 });
  assert.equal(after.people[1], jan, "another senior's day is untouched");
  assert.equal(day.people[0].doses[0].status, 'due', 'the old day is not changed in place');

  assert.equal(applyDoseToDay(day, { ...recorded, personId: 'someone' }), day, 'not one of ours: nothing changes');
  assert.equal(applyDose(ela, { ...recorded, key: 'other-day' }), ela);
});

test('an as-needed dose is added to the day once, and replaced when corrected', () => {
  const ela = { personId: 'ela', doses: [], asNeeded: [] };
  const prn = { id: 'p1', key: null, personId: 'ela', medicationId: 'para', status: 'taken' };
  const once = applyDose(ela, prn);
  const again = applyDose(once, { ...prn, reason: 'headache' });
  assert.equal(again.asNeeded.length, 1);
  assert.equal(again.asNeeded[0].reason, 'headache');
});

test('as-needed medications are the active ones with an as-needed schedule, with what was taken today', () => {
  const medications = [
    { id: 'para', name: 'Paracetamol', active: true, schedules: [{ kind: 'asNeeded', amount: 1, minimumIntervalMinutes: 240 }] },
    { id: 'ato', name: 'Atorvastatin', active: true, schedules: [{ kind: 'weekly', times: ['20:00'] }] },
    { id: 'old', name: 'Aspirin', active: false, schedules: [{ kind: 'asNeeded', amount: 1 }] },
    { id: 'ibu', name: 'Ibuprofen', active: true, schedules: [{ kind: 'asNeeded', amount: 1 }] },
  ];
  const taken = [{ medicationId: 'para', status: 'taken' }, { medicationId: 'para', status: 'taken' }];
  const list = asNeededMedications(medications, taken);
  assert.deepEqual(list.map((e) => e.medication.id), ['ibu', 'para']);
  assert.equal(list[1].taken.length, 2);
  assert.equal(list[1].schedule.minimumIntervalMinutes, 240);
});

test('with nothing left of the day, Today names the next dose: tomorrow, or the day it falls on', () => {
  const next = { key: 's/2026-11-26T08:00', medicationName: 'Metformina', strength: '500 mg', date: '2026-11-26', time: '08:00' };
  const done = [{ status: 'taken' }, { status: 'missed' }, { status: 'skipped' }];
  assert.deepEqual(nextDoseLine({ doses: done, next }, '2026-11-25'),
    { key: 'today.nextTomorrow', params: { time: '08:00', medication: 'Metformina 500 mg' }, date: null });
  assert.deepEqual(nextDoseLine({ doses: [], next: { ...next, date: '2026-11-30', strength: '' } }, '2026-11-25'),
    { key: 'today.nextOn', params: { time: '08:00', medication: 'Metformina' }, date: '2026-11-30' }, 'nothing planned today');
  for (const status of ['upcoming', 'due', 'snoozed']) {
    assert.equal(nextDoseLine({ doses: [...done, { status }], next }, '2026-11-25'), null, `a dose still ${status}`);
  }
  assert.equal(nextDoseLine({ doses: [], next: null }, '2026-11-25'), null, 'nothing planned at all');
  assert.equal(nothingLeft(undefined), true);
  assert.equal(nextDay('2026-12-31'), '2027-01-01');
  assert.equal(nextDay('2028-02-28'), '2028-02-29');
  assert.equal(nextDay('nonsense'), null);
});

test('Taken more than an hour before the planned time asks first; within the hour it does not', () => {
  const now = Date.parse('2026-11-25T08:00:00Z');
  const at = (minutes) => ({ key: `k${minutes}`, dueAt: new Date(now + minutes * 60000).toISOString() });
  assert.deepEqual(earlyDoses([at(-30), at(0), at(60), at(61), at(720)], now).map((d) => d.key), ['k61', 'k720']);
  assert.deepEqual(earlyDoses([{ key: 'prn' }], now), [], 'nothing planned, nothing to ask');
});
