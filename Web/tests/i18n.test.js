import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  createTranslator,
  flattenKeys,
  languageOf,
  loadTranslator,
  localeOf,
  lookup,
  pickLanguage,
} from '../i18n.js';

const readDictionary = async (lang) =>
  JSON.parse(await readFile(new URL(`../i18n/${lang}.json`, import.meta.url), 'utf8'));

const english = {
  pages: { today: 'Today', notes: 'Notes' },
  live: { connected: 'Live: connected' },
  greeting: 'Hello, {name}! You have {count} doses.',
};
const polish = { pages: { today: 'Dzisiaj' }, greeting: 'Dzień dobry, {name}!' };

test('t() finds dotted keys in the chosen language', () => {
  const t = createTranslator(polish, english);
  assert.equal(t('pages.today'), 'Dzisiaj');
});

test('a string missing in Polish shows the English one', () => {
  const t = createTranslator(polish, english);
  assert.equal(t('pages.notes'), 'Notes');
  assert.equal(t('live.connected'), 'Live: connected');
});

test('a string missing everywhere shows its key, not "undefined"', () => {
  const t = createTranslator(polish, english);
  assert.equal(t('pages.garden'), 'pages.garden');
  assert.equal(t('pages'), 'pages', 'a group of strings is not a string');
  assert.equal(t('toString'), 'toString', 'object built-ins are not strings');
  assert.equal(lookup(english, 'pages.today.x'), undefined);
});

test('placeholders are filled from params', () => {
  const t = createTranslator(english);
  assert.equal(t('greeting', { name: 'Babcia Ela', count: 2 }), 'Hello, Babcia Ela! You have 2 doses.');
  assert.equal(t('greeting', { name: 'Ela' }), 'Hello, Ela! You have {count} doses.');
  assert.equal(t('greeting', { name: '{count}', count: 1 }), 'Hello, {count}! You have 1 doses.',
    'a name that looks like a placeholder is shown as typed');
});

test('the saved language wins, then the browser language, then English', () => {
  assert.equal(pickLanguage('pl', ['en-US']), 'pl');
  assert.equal(pickLanguage('en', ['pl-PL']), 'en');
  assert.equal(pickLanguage(null, ['pl-PL', 'en']), 'pl');
  assert.equal(pickLanguage(null, ['de-DE', 'PL']), 'pl');
  assert.equal(pickLanguage('fr', ['fr-FR', 'en-GB']), 'en');
  assert.equal(pickLanguage(null, ['de', 'fr']), 'en');
  assert.equal(pickLanguage(undefined, undefined), 'en');
});

test('one check says which words and which locale a language gets', () => {
  assert.equal(languageOf('pl'), 'pl');
  assert.equal(languageOf('pl-PL'), 'pl');
  assert.equal(languageOf('en'), 'en');
  for (const other of ['de', '', null, undefined]) assert.equal(languageOf(other), 'en');
  assert.equal(localeOf('pl'), 'pl-PL');
  assert.equal(localeOf('en'), 'en-GB');
  assert.equal(localeOf('fr'), 'en-GB');
  // The British locale writes the day first and a 24-hour clock, as the household reads it.
  const noon = new Date(Date.UTC(2026, 10, 3, 13, 5));
  assert.equal(new Intl.DateTimeFormat(localeOf('en'), { timeZone: 'UTC', dateStyle: 'short', timeStyle: 'short' }).format(noon), '03/11/2026, 13:05');
});

test('English and Polish have exactly the same strings', async () => {
  const [en, pl] = await Promise.all([readDictionary('en'), readDictionary('pl')]);
  assert.deepEqual(flattenKeys(pl), flattenKeys(en));
  for (const key of flattenKeys(en)) {
    const placeholders = (text) => (text.match(/\{\w+\}/g) ?? []).sort();
    assert.deepEqual(placeholders(lookup(pl, key)), placeholders(lookup(en, key)), `placeholders of ${key}`);
    assert.ok(lookup(pl, key).trim() !== '', `${key} is empty in Polish`);
  }
});

test('the Polish navigation reads in Polish', async () => {
  const t = createTranslator(await readDictionary('pl'), await readDictionary('en'));
  assert.deepEqual(
    ['today', 'notes', 'medications', 'alerts', 'household', 'settings'].map((p) => t(`pages.${p}`)),
    ['Dzisiaj', 'Notatki', 'Leki', 'Alerty', 'Dom', 'Ustawienia'],
  );
  assert.equal(t('live.connected'), 'Na żywo: połączono');
});

test('if Polish cannot be fetched the page still works in English', async () => {
  const en = await readDictionary('en');
  const fetchImpl = async (url) =>
    url === '/i18n/en.json' ? { ok: true, json: async () => en } : { ok: false, status: 404 };
  const { language, t } = await loadTranslator('pl', fetchImpl);
  assert.equal(language, 'en');
  assert.equal(t('pages.today'), 'Today');
});

/** Every sentence of a dictionary with its key, flattened. */
function sentences(dictionary, prefix = '') {
  return Object.entries(dictionary).flatMap(([key, value]) => (typeof value === 'object' && value !== null
    ? sentences(value, `${prefix}${key}.`) : [[`${prefix}${key}`, String(value)]]));
}

test('no sentence sends a person to SSH for what the browser does, and a Polish Call needs no declension', async () => {
  for (const lang of ['en', 'pl']) {
    const all = sentences(await readDictionary(lang));
    // Linking is on the Household page; only the very first device needs `hearth pair` on the hub.
    assert.deepEqual(all.filter(([, text]) => text.includes('hearth people link')), [], lang);
    const pairOnHub = all.filter(([, text]) => text.includes('sudo hearth pair')).map(([key]) => key);
    assert.deepEqual(pairOnHub, ['pair.whereIsTheCode'], `${lang}: only where the first device is paired`);
  }
  const polish = sentences(await readDictionary('pl'));
  const calls = polish.filter(([key]) => key.endsWith('.call')).map(([, text]) => text);
  assert.ok(calls.length >= 2);
  // "Zadzwoń do Ania" would need "do Ani": a colon takes any name as it is.
  for (const text of calls) assert.equal(text, 'Zadzwoń: {name}');
});
