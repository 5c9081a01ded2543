// The Listen controls on alerts, pressed: what they read, in which language,
// and that a control drawn again while it reads still offers "Stop". Drawn
// with the fake DOM and a fake speechSynthesis.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../i18n.js';
import { installFakeDocument } from './fake-dom.js';

const read = async (lang) => JSON.parse(await readFile(new URL(`../i18n/${lang}.json`, import.meta.url), 'utf8'));
const enDict = await read('en');
const translators = { en: createTranslator(enDict), pl: createTranslator(await read('pl'), enDict) };

const spoken = [];
let removeDocument;
let alertListenButton;
let listenButton;
before(async () => {
  removeDocument = installFakeDocument();
  globalThis.speechSynthesis = {
    getVoices: () => [{ lang: 'en-GB' }, { lang: 'pl-PL' }],
    cancel: () => {},
    speak: (utterance) => spoken.push(utterance),
  };
  globalThis.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
  ({ alertListenButton } = await import('../care/alert-banner.js'));
  ({ listenButton } = await import('../pages/listen-button.js'));
});
after(() => {
  removeDocument();
  delete globalThis.speechSynthesis;
  delete globalThis.SpeechSynthesisUtterance;
});

const appIn = (language) => ({
  language, t: translators[language],
  me: { nameOf: () => 'Zosia', aliasOf: () => null },
});
const press = (button) => button.listeners.click.forEach((listener) => listener());
const zosia = { personId: 'p-zosia', role: 'senior', timeZone: 'Europe/Warsaw' };
const due = {
  id: 'a1', kind: 'dose-due', audience: 'senior', personId: 'p-zosia', open: true,
  details: { medicationName: 'Metformin', strength: '500 mg', amount: 1, unit: 'tablets', plannedTime: '08:00' },
};

test('a due dose\'s Listen in the banner reads "It is time for Metformin, one tablet."', () => {
  const button = alertListenButton(appIn('en'), due, zosia, { id: 'alert-a1-listen', focusKey: 'a1:listen', describedBy: 'banner-a1-text' });
  assert.equal(button.getAttribute('id'), 'alert-a1-listen');
  assert.equal(button.getAttribute('aria-label'), 'Listen: Medicine due, Metformin 500 mg');
  assert.equal(button.getAttribute('aria-describedby'), 'banner-a1-text');
  assert.equal(button.getAttribute('data-focus-key'), 'a1:listen');
  press(button);
  assert.equal(spoken.at(-1).text, 'It is time for Metformin, one tablet.');
  assert.equal(spoken.at(-1).lang, 'en-GB');
  assert.equal(button.textContent.includes('Stop'), true);
  press(button); // Stop
  assert.equal(button.textContent.includes('Listen'), true);
});

test('and in Polish, with a Polish voice', () => {
  const polish = { ...due, details: { ...due.details, medicationName: 'Metformina', amount: 2 } };
  const button = alertListenButton(appIn('pl'), polish, zosia, { id: 'alert-item-a1-listen', focusKey: 'a1:item-listen', describedBy: 'x' });
  assert.equal(button.getAttribute('aria-label'), 'Posłuchaj: Pora na lek, Metformina 500 mg');
  press(button);
  assert.equal(spoken.at(-1).text, 'Czas na lek Metformina, dwie tabletki.');
  assert.equal(spoken.at(-1).lang, 'pl-PL');
  press(button);
});

test('a control drawn again while it reads says Stop, and stops', () => {
  const app = appIn('en');
  const first = listenButton(app, { id: 'note-n1-listen', text: () => 'Shopping list.', label: 'Shopping list' });
  press(first);
  const again = listenButton(app, { id: 'note-n1-listen', text: () => 'Shopping list.', label: 'Shopping list' });
  assert.equal(again.getAttribute('data-reading'), 'true');
  assert.equal(again.textContent.includes('Stop'), true);
  assert.equal(again.getAttribute('aria-label'), null, 'while it reads, it is called Stop');
  press(again);
  assert.equal(again.getAttribute('data-reading'), 'false');
  assert.equal(again.getAttribute('aria-label'), 'Listen: Shopping list');
  const other = listenButton(app, { id: 'note-n2-listen', text: () => 'x' });
  assert.equal(other.getAttribute('data-reading'), 'false', 'another control is not the one reading');
});
