import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  emptyScheduleForm, formToSchedule, readNumber, sameSchedule, scheduleChanges, scheduleToForm,
} from '../../medications/schedule-form.js';

test('a new schedule starts as one tablet at 08:00 every day and can be sent as is', () => {
  const { body, errors } = formToSchedule(emptyScheduleForm());
  assert.deepEqual(errors, {});
  assert.deepEqual(body, { kind: 'weekly', amount: 1, times: ['08:00'], weekdays: [1, 2, 3, 4, 5, 6, 7] });
});

test('half a tablet may be typed with a comma or a dot', () => {
  assert.equal(readNumber('0,5'), 0.5);
  assert.equal(readNumber(' 1.5 '), 1.5);
  assert.equal(readNumber(''), null);
  assert.ok(Number.isNaN(readNumber('two')));
  assert.equal(formToSchedule({ ...emptyScheduleForm(), amount: '0,5' }).body.amount, 0.5);
});

test('every mistake is named at once, as the hub would', () => {
  const { errors } = formToSchedule({ ...emptyScheduleForm(), amount: '0', times: ['08:00', '08:00'], weekdays: [] });
  assert.deepEqual(errors, {
    amount: 'medications.errors.amount',
    times: 'medications.errors.timesTwice',
    weekdays: 'medications.errors.weekdays',
  });
  assert.deepEqual(formToSchedule({ ...emptyScheduleForm(), times: ['', ' '] }).errors, { times: 'medications.errors.timesMissing' });
  assert.deepEqual(formToSchedule({ ...emptyScheduleForm(), times: ['25:00'] }).errors, { times: 'medications.errors.timesInvalid' });
  assert.deepEqual(formToSchedule({ ...emptyScheduleForm(), kind: 'everyNHours', everyHours: '24', from: '20:00', until: '08:00' }).errors,
    { everyHours: 'medications.errors.hours', until: 'medications.errors.untilBeforeFrom' });
  assert.deepEqual(formToSchedule({ ...emptyScheduleForm(), startDate: '2026-12-10', endDate: '2026-12-01' }).errors,
    { endDate: 'medications.errors.endBeforeStart' });
});

test('each kind sends only its own fields', () => {
  const form = { ...emptyScheduleForm(), times: ['20:00', '08:00'] };
  assert.deepEqual(formToSchedule({ ...form, kind: 'everyNDays', everyDays: '2' }).body,
    { kind: 'everyNDays', amount: 1, times: ['08:00', '20:00'], interval: 2 });
  assert.deepEqual(formToSchedule({ ...form, kind: 'cyclic', daysOn: '21', daysOff: '7' }).body,
    { kind: 'cyclic', amount: 1, times: ['08:00', '20:00'], daysOn: 21, daysOff: 7 });
  assert.deepEqual(formToSchedule({ ...form, kind: 'everyNHours', everyHours: '6', from: '06:00', until: '24:00' }).errors,
    { until: 'medications.errors.time' });
  assert.deepEqual(formToSchedule({ ...form, kind: 'asNeeded', minimumIntervalHours: '4', dailyMaximum: '3' }).body,
    { kind: 'asNeeded', amount: 1, minimumIntervalMinutes: 240, dailyMaximum: 3 });
  assert.deepEqual(formToSchedule({ ...form, kind: 'asNeeded', minimumIntervalHours: '1,5' }).body,
    { kind: 'asNeeded', amount: 1, minimumIntervalMinutes: 90 });
});

test('a schedule from the hub fills the form and comes back unchanged', () => {
  const fromHub = [
    { id: 's1', kind: 'weekly', times: ['08:00', '20:00'], weekdays: [1, 4], amount: 2, startDate: '2026-11-01', endDate: null },
    { id: 's2', kind: 'everyNDays', interval: 3, times: ['09:00'], amount: 1, startDate: '2026-11-01', endDate: '2026-12-31' },
    { id: 's3', kind: 'everyNHours', interval: 8, from: '06:00', until: '22:00', amount: 1, startDate: '2026-11-01', endDate: null },
    { id: 's4', kind: 'asNeeded', minimumIntervalMinutes: 240, dailyMaximum: 4, amount: 1, startDate: '2026-11-01', endDate: null },
    { id: 's5', kind: 'cyclic', daysOn: 21, daysOff: 7, times: ['08:00'], amount: 1, startDate: '2026-11-01', endDate: null },
  ];
  for (const schedule of fromHub) {
    const form = scheduleToForm(schedule);
    assert.equal(form.id, schedule.id);
    const { body, errors } = formToSchedule(form);
    assert.deepEqual(errors, {}, schedule.kind);
    assert.ok(sameSchedule(schedule, body), `${schedule.kind} round trip: ${JSON.stringify(body)}`);
  }
});

test('saving sends only what changed: new schedules, edited ones, removed ones', () => {
  const current = [
    { id: 's1', kind: 'weekly', times: ['08:00'], weekdays: [1, 2, 3, 4, 5, 6, 7], amount: 1, startDate: '2026-11-01' },
    { id: 's2', kind: 'weekly', times: ['20:00'], weekdays: [1, 2, 3, 4, 5, 6, 7], amount: 1, startDate: '2026-11-01' },
    { id: 's3', kind: 'asNeeded', amount: 1, startDate: '2026-11-01' },
  ];
  const edited = [
    { id: 's1', body: formToSchedule(scheduleToForm(current[0])).body },
    { id: 's2', body: { ...formToSchedule(scheduleToForm(current[1])).body, amount: 2 } },
    { id: null, body: { kind: 'everyNDays', interval: 2, times: ['09:00'], amount: 1 } },
  ];
  const changes = scheduleChanges(current, edited);
  assert.deepEqual(changes.create, [edited[2].body]);
  assert.deepEqual(changes.replace.map((r) => r.id), ['s2']);
  assert.deepEqual(changes.remove, ['s3']);
});
