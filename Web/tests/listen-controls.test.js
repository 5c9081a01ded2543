// The Listen controls on alerts and a senior's doses, pressed: what they read,
// in which language, and that a control drawn again while it reads still
// offers "Stop". Drawn with the fake DOM and a fake speechSynthesis.
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
let doseSlots;
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
  ({ doseSlots } = await import('../pages/today/today-doses.js'));
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

function walk(element, found = []) {
  if (element && element.tagName) {
    found.push(element);
    for (const child of element.children) walk(child, found);
  }
  return found;
}
const listenIn = (elements) => elements.flatMap((element) => walk(element)).filter((e) => e.getAttribute('class') === 'listen-button');

const day = {
  personId: 'p-zosia',
  doses: [
    { key: 's1/2026-11-22T08:00', medicationId: 'm1', medicationName: 'Metformin', strength: '500 mg', amount: 1, unit: 'tablets', time: '08:00', slot: 'morning', status: 'taken', dueAt: '2026-11-22T07:00:00Z' },
    { key: 's2/2026-11-22T09:00', medicationId: 'm2', medicationName: 'Aspirin', amount: 1, unit: 'tablets', time: '09:00', slot: 'morning', status: 'due', dueAt: '2026-11-22T08:00:00Z' },
    { key: 's1/2026-11-22T20:00', medicationId: 'm1', medicationName: 'Metformin', strength: '500 mg', amount: 0.5, unit: 'tablets', time: '20:00', slot: 'evening', status: 'upcoming', dueAt: '2026-11-22T19:00:00Z' },
  ],
};
const todayView = (isSenior, language = 'en') => ({
  app: appIn(language), timeZone: 'Europe/Warsaw', busy: { has: () => false }, refusals: new Map(), openSnooze: null,
  actions: {}, now: Date.parse('2026-11-22T08:10:00Z'), isSenior, meId: 'p-zosia', date: '2026-11-22',
});

test('a senior\'s doses due now or later today have Listen, with ids made from their keys', () => {
  const buttons = listenIn(doseSlots(todayView(true), day, 3));
  assert.deepEqual(buttons.map((b) => b.getAttribute('id')),
    ['dose-s2-2026-11-22T09-00-listen', 'dose-s1-2026-11-22T20-00-listen'], 'not the dose already taken');
  for (const button of buttons) assert.match(button.getAttribute('id'), /^[A-Za-z][\w-]*$/);
  assert.equal(buttons[1].getAttribute('aria-label'), 'Listen: Metformin 500 mg');
  assert.equal(buttons[0].getAttribute('data-focus-key'), 's2/2026-11-22T09:00|listen');
  press(buttons[0]);
  assert.equal(spoken.at(-1).text, 'It is time for Aspirin, one tablet, at 9:00.');
  press(buttons[1]);
  assert.equal(spoken.at(-1).text, 'Later today, at 20:00, it will be time for Metformin, half a tablet.');
  press(buttons[1]);
});

test('in Polish too; a caregiver\'s view of the day has none', () => {
  const [first] = listenIn(doseSlots(todayView(true, 'pl'), day, 3));
  press(first);
  assert.equal(spoken.at(-1).text, 'Czas na lek Aspirin, jedna tabletka, o 9:00.');
  press(first);
  assert.deepEqual(listenIn(doseSlots(todayView(false), day, 3)), []);
});

test('a Listen whose words are fetched first starts speech at the press and reads them once they come', async () => {
  let deliver;
  const words = new Promise((resolve) => { deliver = resolve; });
  const button = listenButton(appIn('en'), { id: 'note-n1-listen', label: 'Shopping', text: () => words });
  const before = spoken.length;
  press(button);
  assert.equal(spoken.length, before + 1, 'something is spoken in the press itself');
  assert.equal(spoken.at(-1).text.trim(), '');
  assert.equal(button.textContent.includes('Stop'), true);
  deliver('Shopping. Bread. Milk. Eggs, and the rest of a long note.');
  await words;
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(spoken.at(-1).text, 'Shopping. Bread. Milk. Eggs, and the rest of a long note.');
});

test('pressing Stop before the words come reads nothing', async () => {
  let deliver;
  const words = new Promise((resolve) => { deliver = resolve; });
  const button = listenButton(appIn('en'), { id: 'note-n2-listen', label: 'Long', text: () => words });
  press(button);
  press(button); // Stop
  const before = spoken.length;
  deliver('Never heard.');
  await words;
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(spoken.length, before);
});
