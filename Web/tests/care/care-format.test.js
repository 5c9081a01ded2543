import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeAgo } from '../../care/format.js';

const now = Date.parse('2026-11-22T12:00:00.000Z');
const ago = (iso, language = 'en') => timeAgo(iso, { language, now, timeZone: 'Europe/Warsaw' });

test('when a device was last used reads as a person would say it', () => {
  assert.equal(ago('2026-11-22T11:59:30.000Z'), 'now');
  assert.equal(ago('2026-11-22T11:55:00.000Z'), '5 minutes ago');
  assert.equal(ago('2026-11-22T09:00:00.000Z'), '3 hours ago');
  assert.equal(ago('2026-11-21T09:00:00.000Z'), 'yesterday');
  assert.equal(ago('2026-11-22T12:00:40.000Z'), 'now', 'a clock a little ahead is not "in 1 minute"');
});

test('and in Polish, with its plural forms', () => {
  assert.equal(ago('2026-11-22T11:59:00.000Z', 'pl'), '1 minutę temu');
  assert.equal(ago('2026-11-22T11:57:00.000Z', 'pl'), '3 minuty temu');
  assert.equal(ago('2026-11-22T11:55:00.000Z', 'pl'), '5 minut temu');
  assert.equal(ago('2026-11-21T09:00:00.000Z', 'pl'), 'wczoraj');
});

test('after a week, the date and time in the household’s zone; nothing for never', () => {
  assert.equal(ago('2026-11-01T09:00:00.000Z'), '1 Nov 2026, 10:00');
  assert.equal(ago(null), '');
  assert.equal(ago('garbage'), '');
});

test('a wall-clock time on a household day is the right instant, on the days the clocks change too', async () => {
  const { wallClockInstant } = await import('../../care/format.js');
  assert.equal(wallClockInstant('2026-11-25', '08:10', 'Europe/Warsaw'), '2026-11-25T07:10:00.000Z');
  assert.equal(wallClockInstant('2026-07-01', '08:10', 'Europe/Warsaw'), '2026-07-01T06:10:00.000Z');
  assert.equal(wallClockInstant('2026-03-29', '03:30', 'Europe/Warsaw'), '2026-03-29T01:30:00.000Z', 'the morning clocks go forward');
  assert.equal(wallClockInstant('2026-07-01', '00:05', 'America/New_York'), '2026-07-01T04:05:00.000Z');
  assert.equal(wallClockInstant('2026-11-25', '8:10', 'Europe/Warsaw'), null);
  assert.equal(wallClockInstant('yesterday', '08:10', 'Europe/Warsaw'), null);
});
