import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amountText, formatNumber, joinList, pluralCategory, unitId, unitName } from '../care/words.js';
import { formatDay, medicationScheduleSentence, scheduleSentence } from '../medications/schedule-sentence.js';

const en = (schedule, options = {}) => scheduleSentence(schedule, { language: 'en', ...options });
const pl = (schedule, options = {}) => scheduleSentence(schedule, { language: 'pl', ...options });

test('Polish counts tablets in three forms, and fractions in a fourth', () => {
  const tablets = (n) => amountText('pl', n, 'tablets');
  assert.equal(tablets(1), '1 tabletka');
  assert.equal(tablets(2), '2 tabletki');
  assert.equal(tablets(4), '4 tabletki');
  assert.equal(tablets(5), '5 tabletek');
  assert.equal(tablets(11), '11 tabletek');
  assert.equal(tablets(12), '12 tabletek', '12–14 are not "few" in Polish');
  assert.equal(tablets(14), '14 tabletek');
  assert.equal(tablets(21), '21 tabletek');
  assert.equal(tablets(22), '22 tabletki');
  assert.equal(tablets(112), '112 tabletek');
  assert.equal(tablets(0), '0 tabletek');
  assert.equal(tablets(0.5), '½ tabletki');
  assert.equal(tablets(1.5), '1,5 tabletki');
});

test('English says tablet for one and tablets otherwise', () => {
  assert.equal(amountText('en', 1, 'tablets'), '1 tablet');
  assert.equal(amountText('en', 2, 'tablets'), '2 tablets');
  assert.equal(amountText('en', 0.5, 'tablets'), '½ tablet', 'as a label says it');
  assert.equal(amountText('en', 1.5, 'capsules'), '1.5 capsules');
  assert.equal(amountText('en', 10, 'ml'), '10 ml');
});

test('the plural categories follow CLDR for English and Polish', () => {
  assert.deepEqual([1, 2, 5, 0.5].map((n) => pluralCategory('en', n)), ['one', 'other', 'other', 'other']);
  assert.deepEqual([1, 2, 3, 4, 5, 12, 13, 22, 25, 102, 0.5].map((n) => pluralCategory('pl', n)),
    ['one', 'few', 'few', 'few', 'many', 'many', 'many', 'few', 'many', 'few', 'other']);
});

test('a unit typed in either language or case is recognised; anything else is kept as typed', () => {
  assert.equal(unitId('tablets'), 'tablets');
  assert.equal(unitId('Tablet'), 'tablets');
  assert.equal(unitId('tabletki'), 'tablets');
  assert.equal(unitId(''), 'tablets', "the hub's default");
  assert.equal(unitId('krople'), 'drops');
  assert.equal(unitId('scoops'), null);
  assert.equal(amountText('pl', 2, 'scoops'), '2 scoops');
  assert.equal(unitName('pl', 'capsules'), 'kapsułki');
  assert.equal(unitName('en', 'capsules'), 'capsules');
  assert.equal(amountText('pl', 5, 'drops'), '5 kropli');
  assert.equal(amountText('pl', 3, 'drops'), '3 krople');
});

test('numbers and lists read naturally', () => {
  assert.equal(formatNumber('en', 2.25), '2.25');
  assert.equal(formatNumber('pl', 2.25), '2,25');
  assert.equal(formatNumber('en', 0.333333), '0.33');
  assert.equal(joinList('en', ['a']), 'a');
  assert.equal(joinList('en', ['a', 'b', 'c']), 'a, b and c');
  assert.equal(joinList('pl', ['a', 'b']), 'a i b');
});

test('a daily schedule reads like the leaflet', () => {
  const twiceDaily = { kind: 'weekly', times: ['20:00', '08:00'], weekdays: [1, 2, 3, 4, 5, 6, 7], amount: 1 };
  assert.equal(en(twiceDaily), '1 tablet at 08:00 and 20:00 every day');
  assert.equal(pl(twiceDaily), '1 tabletka o 08:00 i 20:00 codziennie');
  assert.equal(pl({ ...twiceDaily, amount: 2 }), '2 tabletki o 08:00 i 20:00 codziennie');
  assert.equal(pl({ ...twiceDaily, amount: 5 }), '5 tabletek o 08:00 i 20:00 codziennie');
  assert.equal(en({ ...twiceDaily, times: ['08:00', '14:00', '20:00'], amount: 2 }),
    '2 tablets at 08:00, 14:00 and 20:00 every day');
});

test('chosen weekdays are named, weekdays and weekends in one word', () => {
  const on = (weekdays) => ({ kind: 'weekly', times: ['08:00'], weekdays, amount: 1 });
  assert.equal(en(on([1, 4])), '1 tablet at 08:00 on Mondays and Thursdays');
  assert.equal(pl(on([1, 4])), '1 tabletka o 08:00 w poniedziałki i czwartki');
  assert.equal(pl(on([2, 4])), '1 tabletka o 08:00 we wtorki i czwartki', '"we" before "wtorki"');
  assert.equal(pl(on([1, 3, 5])), '1 tabletka o 08:00 w poniedziałki, środy i piątki');
  assert.equal(en(on([1, 2, 3, 4, 5])), '1 tablet at 08:00 on weekdays');
  assert.equal(pl(on([6, 7])), '1 tabletka o 08:00 w weekendy');
  assert.equal(en(on([7])), '1 tablet at 08:00 on Sundays');
});

test('every N days, in cycles and every N hours', () => {
  const everyOther = { kind: 'everyNDays', interval: 2, times: ['09:00'], amount: 1 };
  assert.equal(en(everyOther), '1 tablet every 2 days at 09:00');
  assert.equal(pl(everyOther), '1 tabletka co 2 dni o 09:00');
  assert.equal(pl({ ...everyOther, interval: 5, amount: 3 }), '3 tabletki co 5 dni o 09:00');
  assert.equal(en({ ...everyOther, interval: 1 }), '1 tablet every day at 09:00');

  const cycle = { kind: 'cyclic', daysOn: 21, daysOff: 7, times: ['08:00'], amount: 1 };
  assert.equal(en(cycle), '1 tablet at 08:00 every day for 21 days, then 7 days off');
  assert.equal(pl(cycle), '1 tabletka o 08:00 codziennie przez 21 dni, potem 7 dni przerwy');
  assert.equal(pl({ ...cycle, daysOn: 1, daysOff: 1 }), '1 tabletka o 08:00 codziennie przez 1 dzień, potem 1 dzień przerwy');

  const hourly = { kind: 'everyNHours', interval: 8, from: '06:00', until: '22:00', amount: 2 };
  assert.equal(en(hourly), '2 tablets every 8 hours from 06:00 to 22:00');
  assert.equal(pl(hourly), '2 tabletki co 8 godzin od 06:00 do 22:00');
  assert.equal(pl({ ...hourly, interval: 4 }), '2 tabletki co 4 godziny od 06:00 do 22:00');
  assert.equal(pl({ ...hourly, interval: 1 }), '2 tabletki co godzinę od 06:00 do 22:00');
  assert.equal(en({ ...hourly, interval: 1 }), '2 tablets every hour from 06:00 to 22:00');
});

test('as needed, with its limits', () => {
  const prn = { kind: 'asNeeded', minimumIntervalMinutes: 240, dailyMaximum: 3, amount: 1 };
  assert.equal(en(prn), '1 tablet when needed, at least 4 hours apart, at most 3 times a day');
  assert.equal(pl(prn), '1 tabletka w razie potrzeby, nie częściej niż co 4 godziny, najwyżej 3 razy dziennie');
  assert.equal(pl({ ...prn, minimumIntervalMinutes: 300, dailyMaximum: 1 }),
    '1 tabletka w razie potrzeby, nie częściej niż co 5 godzin, najwyżej raz dziennie');
  assert.equal(pl({ ...prn, minimumIntervalMinutes: 60, dailyMaximum: null }), '1 tabletka w razie potrzeby, nie częściej niż co godzinę');
  assert.equal(en({ ...prn, minimumIntervalMinutes: 90, dailyMaximum: 2 }),
    '1 tablet when needed, at least 90 minutes apart, at most twice a day');
  assert.equal(en({ kind: 'asNeeded', amount: 10 }, { unit: 'ml' }), '10 ml when needed');
});

test('start and end dates are added in words', () => {
  const course = { kind: 'weekly', times: ['08:00'], weekdays: [1, 2, 3, 4, 5, 6, 7], amount: 1,
    startDate: '2026-12-01', endDate: '2026-12-10' };
  assert.equal(en(course, { today: '2026-11-22' }), '1 tablet at 08:00 every day, from 1 December 2026, until 10 December 2026');
  assert.equal(pl(course, { today: '2026-11-22' }), '1 tabletka o 08:00 codziennie, od 1 grudnia 2026, do 10 grudnia 2026');
  assert.equal(en(course, { today: '2026-12-05' }), '1 tablet at 08:00 every day, until 10 December 2026', 'a start in the past is not news');
  assert.equal(formatDay('pl', '2027-03-05'), '5 marca 2027');
});

test("a medication's schedules use its unit and are joined", () => {
  const medication = { unit: 'drops', schedules: [
    { kind: 'weekly', times: ['08:00'], weekdays: [1, 2, 3, 4, 5, 6, 7], amount: 5 },
    { kind: 'asNeeded', amount: 2 },
  ] };
  assert.equal(medicationScheduleSentence(medication, { language: 'pl' }),
    '5 kropli o 08:00 codziennie; 2 krople w razie potrzeby');
  assert.equal(medicationScheduleSentence({ unit: 'tablets', schedules: [] }, { language: 'en' }), '');
  const eveningFirst = { unit: 'tablets', schedules: [
    { kind: 'weekly', times: ['21:30'], amount: 1 }, { kind: 'weekly', times: ['08:00'], amount: 1 },
  ] };
  assert.equal(medicationScheduleSentence(eveningFirst, { language: 'en' }),
    '1 tablet at 08:00 every day; 1 tablet at 21:30 every day', 'the earlier schedule is read first');
});

test('days are counted in words for the stock forecast', async () => {
  const { daysText } = await import('../care/words.js');
  assert.deepEqual([1, 2, 5, 22].map((n) => daysText('pl', n)), ['1 dzień', '2 dni', '5 dni', '22 dni']);
  assert.deepEqual([1, 12].map((n) => daysText('en', n)), ['1 day', '12 days']);
});
