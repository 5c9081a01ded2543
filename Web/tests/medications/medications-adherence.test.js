import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  adherenceLine, adherencePercent, csvCell, dayState, doseRows, historyState, latePercent, monthRange, monthWeeks, parseMonth, shiftMonth,
  summariseDays, toCSV,
} from '../../medications/adherence.js';

test('a month is laid out in weeks starting on Monday', () => {
  const november = { year: 2026, month: 11 }; // 1 November 2026 is a Sunday
  const weeks = monthWeeks(november);
  assert.equal(weeks[0].filter(Boolean).length, 1);
  assert.deepEqual(weeks[0].slice(5), [null, '2026-11-01']);
  assert.equal(weeks.at(-1).filter(Boolean).at(-1), '2026-11-30');
  assert.ok(weeks.every((week) => week.length === 7));
  assert.equal(weeks.flat().filter(Boolean).length, 30);
  assert.deepEqual(monthWeeks({ year: 2027, month: 2 })[0][0], '2027-02-01', 'a month starting on Monday');
  assert.deepEqual(monthRange({ year: 2028, month: 2 }), { from: '2028-02-01', to: '2028-02-29' });
});

test('months are read from links and stepped across years', () => {
  assert.deepEqual(parseMonth('2026-11'), { year: 2026, month: 11 });
  assert.equal(parseMonth('2026-13'), null);
  assert.equal(parseMonth('soon'), null);
  assert.deepEqual(shiftMonth({ year: 2026, month: 1 }, -1), { year: 2025, month: 12 });
  assert.deepEqual(shiftMonth({ year: 2026, month: 12 }, 1), { year: 2027, month: 1 });
});

const doses = [
  { medicationId: 'a', plannedDate: '2026-11-02', plannedTime: '08:00', status: 'taken' },
  { medicationId: 'a', plannedDate: '2026-11-02', plannedTime: '20:00', status: 'missed' },
  { medicationId: 'a', plannedDate: '2026-11-03', plannedTime: '08:00', status: 'taken' },
  { medicationId: 'a', plannedDate: '2026-11-04', plannedTime: '08:00', status: 'skipped', reason: 'nausea, "bad"' },
  { medicationId: 'a', plannedDate: '2026-11-05', plannedTime: '08:00', status: 'snoozed' },
  { medicationId: 'b', plannedDate: '2026-11-03', plannedTime: '08:00', status: 'missed' },
  { medicationId: 'b', plannedDate: null, takenAt: '2026-11-06T23:30:00Z', status: 'taken' },
];

test("each day of one medication is summed up, and coloured by its worst dose", () => {
  const days = summariseDays(doses, 'a');
  assert.deepEqual(days.get('2026-11-02'), { taken: 1, skipped: 0, missed: 1 });
  assert.equal(dayState(days.get('2026-11-02')), 'missed');
  assert.equal(dayState(days.get('2026-11-03')), 'taken');
  assert.equal(dayState(days.get('2026-11-04')), 'skipped');
  assert.equal(days.has('2026-11-05'), false, 'a dose still waiting is not history yet');
  assert.equal(dayState(undefined), 'none');
  assert.equal(adherencePercent(days), 50);
  assert.equal(adherencePercent(new Map()), null);
});

test("an as-needed dose counts on the household's day it was taken", () => {
  const warsaw = (iso) => new Date(Date.parse(iso) + 3600_000).toISOString().slice(0, 10);
  assert.deepEqual([...summariseDays(doses, 'b', warsaw).keys()].sort(), ['2026-11-03', '2026-11-07']);
});

test('CSV cells are quoted when needed and formulas are defused', () => {
  assert.equal(csvCell('Aspirin'), 'Aspirin');
  assert.equal(csvCell('nausea, "bad"'), '"nausea, ""bad"""');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('-5'), "'-5");
  assert.equal(csvCell('a;b', ';'), '"a;b"');
  assert.equal(csvCell(null), '');
  assert.equal(toCSV([['a', 'b'], ['c', 'd']]), 'a,b\r\nc,d\r\n');
});

test('the doses export has a header and one row per dose, oldest first', () => {
  const header = ['Date', 'Time', 'Person', 'Medication', 'Strength', 'Amount', 'Unit', 'Status', 'Taken at', 'Reason'];
  const rows = doseRows(doses.slice(0, 4).reverse(), header, (dose) => ({
    person: 'Ela', medication: 'Aspirin', strength: '75 mg', amount: '1', unit: 'tablet', status: dose.status, takenAt: '',
  }));
  assert.deepEqual(rows[0], header);
  assert.deepEqual(rows.slice(1).map((r) => `${r[0]} ${r[1]}`), ['2026-11-02 08:00', '2026-11-02 20:00', '2026-11-03 08:00', '2026-11-04 08:00']);
  assert.equal(rows[4][9], 'nausea, "bad"');
  assert.ok(toCSV(rows, ';').includes(';"nausea, ""bad"""\r\n'), 'a reason with quotes survives a semicolon CSV');
});

test('a dose taken as needed takes its place in the day by the local time it was taken', () => {
  const day = [
    { medicationId: 'a', plannedDate: '2026-11-25', plannedTime: '21:04', status: 'taken', takenAt: '2026-11-25T20:02:00Z' },
    { medicationId: 'b', plannedDate: null, plannedTime: null, status: 'taken', takenAt: '2026-11-25T06:30:00Z' },
    { medicationId: 'a', plannedDate: '2026-11-25', plannedTime: '08:00', status: 'taken', takenAt: '2026-11-25T07:00:00Z' },
  ];
  const local = { '2026-11-25T20:02:00Z': '2026-11-25 21:02', '2026-11-25T06:30:00Z': '2026-11-25 07:30', '2026-11-25T07:00:00Z': '2026-11-25 08:00' };
  const rows = doseRows(day, ['h'], (dose) => ({ medication: dose.medicationId, takenAt: local[dose.takenAt] }),
    (iso) => local[iso].slice(0, 10));
  assert.deepEqual(rows.slice(1).map((r) => `${r[1] || '-'} ${r[3]} ${r[8]}`),
    ['- b 2026-11-25 07:30', '08:00 a 2026-11-25 08:00', '21:04 a 2026-11-25 21:02']);
});

test('a medicine taken only as needed says how often it was taken, never a share of doses due', () => {
  const asNeeded = { id: 'm1', schedules: [{ kind: 'asNeeded', amount: 1 }] };
  const planned = { id: 'm2', schedules: [{ kind: 'weekly', times: ['08:00'] }] };
  const days = summariseDays([
    { medicationId: 'm1', status: 'taken', takenAt: '2026-11-03T09:00:00Z' },
    { medicationId: 'm1', status: 'taken', takenAt: '2026-11-04T21:00:00Z' },
  ], 'm1');
  assert.deepEqual(adherenceLine(asNeeded, days), { key: 'medications.history.asNeededTaken', params: { count: 2 } });
  assert.deepEqual(adherenceLine(asNeeded, new Map()), { key: 'medications.history.nothing', params: {} });
  assert.deepEqual(adherenceLine(planned, days), { key: 'medications.history.percent', params: { percent: 100 } });
  assert.deepEqual(adherenceLine(planned, new Map()), { key: 'medications.history.nothing', params: {} });
});

test('a dose taken late counts as taken late, not on time, in the month, the day and the spreadsheet', () => {
  const month = [
    { medicationId: 'a', plannedDate: '2026-11-02', plannedTime: '08:00', status: 'taken', takenLate: false },
    { medicationId: 'a', plannedDate: '2026-11-02', plannedTime: '20:00', status: 'taken', takenLate: true },
    { medicationId: 'a', plannedDate: '2026-11-03', plannedTime: '08:00', status: 'taken' },
    { medicationId: 'a', plannedDate: '2026-11-03', plannedTime: '20:00', status: 'taken', takenLate: false },
  ];
  const planned = { id: 'a', schedules: [{ kind: 'weekly', times: ['08:00', '20:00'] }] };
  const days = summariseDays(month, 'a');
  assert.deepEqual(days.get('2026-11-02'), { taken: 1, late: 1, skipped: 0, missed: 0 });
  assert.equal(dayState(days.get('2026-11-02')), 'late');
  assert.equal(dayState(days.get('2026-11-03')), 'taken');
  assert.equal(adherencePercent(days), 75, 'on time');
  assert.equal(latePercent(days), 25);
  assert.deepEqual(adherenceLine(planned, days), { key: 'medications.history.percentLate', params: { percent: 75, late: 25 } });
  assert.equal(dayState({ taken: 0, late: 1, skipped: 1, missed: 0 }), 'skipped', 'a skipped dose still colours the day');
  assert.equal(historyState(month[1]), 'late');
  assert.equal(historyState(month[0]), 'taken');
  assert.equal(historyState({ status: 'skipped', takenLate: true }), 'skipped', 'only a taken dose is late');
  // One late dose alone: 0 % on time, never "Taken: 100%"
  const alone = summariseDays([month[1]], 'a');
  assert.deepEqual(adherenceLine(planned, alone), { key: 'medications.history.percentLate', params: { percent: 0, late: 100 } });
  assert.equal(latePercent(summariseDays(month.slice(2), 'a')), null, 'nothing late, nothing said of it');
});
