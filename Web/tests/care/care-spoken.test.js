// What the Listen controls say, in English and Polish: a dose's amount in
// words that agree with the noun, a due dose, a later one, an alert and a
// note from the list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import {
  endSentence, isCutExcerpt, numberWords, spokenAlert, spokenAmount, spokenDose, spokenNote, spokenTime,
} from '../../care/spoken.js';

const read = async (lang) => JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const enDict = await read('en');
const en = createTranslator(enDict);
const pl = createTranslator(await read('pl'), enDict);

test('numbers in words, the Polish ones agreeing with a feminine noun', () => {
  assert.equal(numberWords('en', 1), 'one');
  assert.equal(numberWords('en', 21), 'twenty-one');
  assert.equal(numberWords('en', 105), 'one hundred and five');
  assert.equal(numberWords('pl', 1), 'jeden');
  assert.equal(numberWords('pl', 1, { feminine: true }), 'jedna');
  assert.equal(numberWords('pl', 2, { feminine: true }), 'dwie');
  assert.equal(numberWords('pl', 12, { feminine: true }), 'dwanaście');
  assert.equal(numberWords('pl', 22, { feminine: true }), 'dwadzieścia dwie');
  assert.equal(numberWords('pl', 21, { feminine: true }), 'dwadzieścia jeden', 'a compound keeps "jeden"');
  assert.equal(numberWords('pl', 250), 'dwieście pięćdziesiąt');
  assert.equal(numberWords('pl', 1000), null);
  assert.equal(numberWords('en', 1.5), null);
});

test('English amounts in words', () => {
  assert.equal(spokenAmount('en', 1, 'tablets'), 'one tablet');
  assert.equal(spokenAmount('en', 2, 'tablets'), 'two tablets');
  assert.equal(spokenAmount('en', 0.5, 'tablets'), 'half a tablet');
  assert.equal(spokenAmount('en', 0.25, 'injections'), 'a quarter of an injection');
  assert.equal(spokenAmount('en', 1.5, 'tablets'), 'one and a half tablets');
  assert.equal(spokenAmount('en', 10, 'ml'), 'ten millilitres', '"ml" is said in full');
  assert.equal(spokenAmount('en', 1, ''), 'one tablet', 'tablets unless said otherwise');
  assert.equal(spokenAmount('en', 1.2, 'tablets'), '1.2 tablets', 'not in quarters: as written');
  assert.equal(spokenAmount('en', 2, 'spoonfuls'), '2 spoonfuls', 'a unit a caregiver typed: as written');
});

test('Polish amounts in words, with the number agreeing with the noun', () => {
  assert.equal(spokenAmount('pl', 1, 'tablets'), 'jedna tabletka');
  assert.equal(spokenAmount('pl', 2, 'tablets'), 'dwie tabletki');
  assert.equal(spokenAmount('pl', 5, 'tablets'), 'pięć tabletek');
  assert.equal(spokenAmount('pl', 22, 'units'), 'dwadzieścia dwie jednostki');
  assert.equal(spokenAmount('pl', 1, 'patches'), 'jeden plaster');
  assert.equal(spokenAmount('pl', 2, 'puffs'), 'dwa wdechy');
  assert.equal(spokenAmount('pl', 0.5, 'tablets'), 'pół tabletki');
  assert.equal(spokenAmount('pl', 0.75, 'tablets'), 'trzy czwarte tabletki');
  assert.equal(spokenAmount('pl', 1.5, 'tablets'), 'półtorej tabletki');
  assert.equal(spokenAmount('pl', 1.5, 'patches'), 'półtora plastra');
  assert.equal(spokenAmount('pl', 2.5, 'tablets'), 'dwie i pół tabletki');
  assert.equal(spokenAmount('pl', 5, 'ml'), 'pięć mililitrów');
  assert.equal(spokenAmount('pl', 2, 'kapsułki'), 'dwie kapsułki', 'a unit stored in Polish is known too');
  assert.equal(spokenAmount('pl', 1.2, 'tablets'), '1,2 tabletki');
});

test('a clock time without its leading zero, and a full stop where a voice should pause', () => {
  assert.equal(spokenTime('08:00'), '8:00');
  assert.equal(spokenTime('13:30'), '13:30');
  assert.equal(spokenTime('soon'), 'soon');
  assert.equal(endSentence('Shopping list'), 'Shopping list.');
  assert.equal(endSentence('Call the doctor!'), 'Call the doctor!');
  assert.equal(endSentence('  '), '');
});

const metformin = { medicationName: 'Metformin', strength: '500 mg', amount: 1, unit: 'tablets', time: '08:00' };
const now = Date.parse('2026-11-22T07:10:00Z');
const clock = (iso) => ({ '2026-11-22T07:30:00Z': '08:30', '2026-11-22T07:00:00Z': '08:00' })[iso] ?? '??';

test('a dose due now, and one later today, in English', () => {
  assert.equal(spokenDose(en, 'en', { ...metformin, status: 'due' }, { now, clock }), 'It is time for Metformin, one tablet, at 8:00.');
  assert.equal(spokenDose(en, 'en', { ...metformin, status: 'upcoming', time: '13:00', amount: 2 }, { now, clock }),
    'Later today, at 13:00, it will be time for Metformin, two tablets.');
  assert.equal(spokenDose(en, 'en', { ...metformin, status: 'snoozed', dose: { snoozedUntil: '2026-11-22T07:30:00Z' } }, { now, clock }),
    'Later today, at 8:30, it will be time for Metformin, one tablet.', 'put off: the time it was put off until');
  assert.equal(spokenDose(en, 'en', { ...metformin, status: 'snoozed', dose: { snoozedUntil: '2026-11-22T07:00:00Z' } }, { now, clock }),
    'It is time for Metformin, one tablet.', 'put off until a time now past: due again');
});

test('and in Polish', () => {
  assert.equal(spokenDose(pl, 'pl', { ...metformin, medicationName: 'Metformina', status: 'due' }, { now, clock }),
    'Czas na lek Metformina, jedna tabletka, o 8:00.');
  assert.equal(spokenDose(pl, 'pl', { ...metformin, medicationName: 'Metformina', status: 'upcoming', time: '13:00', amount: 0.5 }, { now, clock }),
    'Dziś o 13:00 będzie czas na lek Metformina, pół tabletki.');
});

test('what it looks like and how to take it follow; an answered or missed dose says nothing', () => {
  const dose = { ...metformin, status: 'due', appearance: 'small white tablet', instructions: 'With food' };
  assert.equal(spokenDose(en, 'en', dose, { now, clock }),
    'It is time for Metformin, one tablet, at 8:00. What it looks like: small white tablet. With food.');
  assert.equal(spokenDose(pl, 'pl', { ...dose, appearance: 'mała biała tabletka', instructions: 'Po jedzeniu.' }, { now, clock }),
    'Czas na lek Metformin, jedna tabletka, o 8:00. Jak wygląda: mała biała tabletka. Po jedzeniu.');
  for (const status of ['taken', 'skipped', 'missed', 'unrecorded']) {
    assert.equal(spokenDose(en, 'en', { ...metformin, status }, { now, clock }), null, status);
  }
});

const zosia = { personId: 'p-zosia', role: 'senior', timeZone: 'Europe/Warsaw' };
const anna = { personId: 'p-anna', role: 'caregiver' };
const due = {
  id: 'a1', kind: 'dose-due', audience: 'senior', personId: 'p-zosia', open: true,
  details: { medicationName: 'Metformin', amount: 1, unit: 'tablets', plannedTime: '08:00', personName: 'Zosia' },
};

test('a due dose in the banner: to the senior herself, and to a caregiver', () => {
  assert.equal(spokenAlert(en, 'en', due, zosia), 'It is time for Metformin, one tablet.');
  assert.equal(spokenAlert(pl, 'pl', { ...due, details: { ...due.details, medicationName: 'Metformina' } }, zosia),
    'Czas na lek Metformina, jedna tabletka.');
  assert.equal(spokenAlert(en, 'en', { ...due, details: { ...due.details, amount: 2 } }, anna), 'Zosia: it is time for Metformin, two tablets, at 8:00.');
  assert.equal(spokenAlert(pl, 'pl', { ...due, details: { ...due.details, amount: 2 } }, anna), 'Zosia: czas na lek Metformin, dwie tabletki, o 8:00.');
  assert.equal(spokenAlert(en, 'en', due, anna, { aliasOf: () => 'Mum' }), 'Mum: it is time for Metformin, one tablet, at 8:00.',
    'what this caregiver calls her');
});

test('a missed dose says the amount in words; other alerts are read as the banner words them', () => {
  const missed = { ...due, kind: 'dose-missed', audience: 'caregivers', details: { ...due.details, amount: 0.5 } };
  assert.equal(spokenAlert(en, 'en', missed, anna), 'Zosia has not taken Metformin, half a tablet, planned for 8:00.');
  assert.equal(spokenAlert(pl, 'pl', missed, anna), 'Zosia: lek Metformin, pół tabletki, zaplanowany na 8:00, nie został przyjęty.');
  const low = { id: 'a2', kind: 'low-stock', personId: 'p-zosia', details: { medicationName: 'Aspirin', personName: 'Zosia', daysRemaining: 2 } };
  assert.equal(spokenAlert(en, 'en', low, anna), 'Aspirin for Zosia is running low. Days left: 2');
  assert.equal(spokenAlert(pl, 'pl', { id: 'a3', kind: 'clock' }, anna), 'Zegar centrali wskazuje złą godzinę. Sprawdź ustawienia czasu.');
});

test('a note is read as its title, then its text', () => {
  assert.equal(spokenNote(en, { title: 'Doctor', excerpt: 'Ask about the cough' }), 'Doctor.\nAsk about the cough');
  assert.equal(spokenNote(en, { title: '', displayTitle: 'Ask about the cough', excerpt: 'Ask about the cough\nand the knee' }),
    'Ask about the cough\nand the knee', 'no title: its first line is not said twice');
  assert.equal(spokenNote(en, { title: 'Doctor', excerpt: 'short', text: 'The whole text' }), 'Doctor.\nThe whole text', 'the whole text when the note has it');
  assert.equal(spokenNote(en, { title: 'Empty', excerpt: '' }), 'Empty.\nThe note is empty.');
  assert.equal(spokenNote(pl, { title: '', excerpt: '' }), 'Notatka bez tytułu.\nNotatka jest pusta.');
});

test('a checklist is read as its items, the ticked ones said to be ticked', () => {
  const note = { title: 'Shopping list', excerpt: '[x] Bread\n[ ] Milk\n\n[ ] Eggs' };
  assert.equal(spokenNote(en, note), 'Shopping list.\nBread, ticked off.\nMilk.\nEggs.');
  assert.equal(spokenNote(pl, { title: 'Zakupy', excerpt: '[x] Chleb\n[ ] Mleko' }), 'Zakupy.\nChleb, odhaczone.\nMleko.');
});

test('an excerpt the hub cut short stops at a whole word and says there is more', () => {
  const text = `${'word '.repeat(31)}brok`; // 159 characters
  const excerpt = `${text}e…`;
  assert.equal(isCutExcerpt(excerpt), true);
  assert.equal(isCutExcerpt('Short, and ends with…'), false, 'a short text of its own ending in "…"');
  assert.equal(spokenNote(en, { title: 'Long', excerpt }),
    `Long.\n${'word '.repeat(30)}word\nThat is only the start of the note. Open it to hear all of it.`);
  assert.equal(spokenNote(pl, { title: 'Długa', excerpt }).split('\n').at(-1), 'To tylko początek notatki. Otwórz ją, aby usłyszeć całość.');
});
