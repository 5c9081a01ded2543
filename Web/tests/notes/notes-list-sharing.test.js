// One note of the Notes list as each person sees it: who sees it in words
// (.note-sharing), "read only" for whom the owner lets only read it, and
// only the buttons they may use. Drawn with the fake DOM.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { installFakeDocument } from '../fake-dom.js';

const en = JSON.parse(await readFile(new URL('../../i18n/en.json', import.meta.url), 'utf8'));
const t = createTranslator(en);
let removeDocument;
let noteItem;
before(async () => {
  removeDocument = installFakeDocument();
  ({ noteItem } = await import('../../pages/notes/notes-list.js'));
});
after(() => removeDocument());

const people = [
  { id: 'p-zofia', name: 'Zofia', role: 'senior' },
  { id: 'p-anna', name: 'Anna', role: 'caregiver', caresFor: ['p-zofia'] },
];
const household = (personId) => ({
  current: { personId, people },
  nameOf: (id) => people.find((p) => p.id === id)?.name ?? null,
});

function walk(element, found = []) {
  if (element && element.tagName) {
    found.push(element);
    for (const child of element.children) walk(child, found);
  }
  return found;
}
const withClass = (item, name) => walk(item).filter((e) => (e.getAttribute('class') ?? '').split(' ').includes(name));
// The buttons that change a note; "Listen" is everyone's and is checked on its own.
const actions = (item) => walk(item).filter((e) => e.tagName === 'BUTTON' && e.getAttribute('data-action')).map((b) => b.getAttribute('data-action'));

function draw(personId, note) {
  const list = { app: { t, language: 'en' }, household: household(personId), inTrash: false, change: () => {}, share: () => {} };
  return noteItem(list, { id: 'n1', displayTitle: 'Leki', pinned: false, ...note });
}

test('a circle note the owner made read-only: said in words, marked, and without the buttons a reader may not use', () => {
  const note = { ownerId: 'p-zofia', visibility: 'circle', readOnly: true, canEdit: false };
  const item = draw('p-anna', note);
  assert.equal(withClass(item, 'note-sharing')[0].textContent,
    'Shared with the people who look after Zofia: you. Only Zofia can change it');
  assert.equal(withClass(item, 'note-read-only').length, 1);
  assert.equal(item.getAttribute('data-can-edit'), 'false');
  assert.deepEqual(actions(item), []);
});

test('its owner sees the same note with every button, "Who can see it…" among them', () => {
  const item = draw('p-zofia', { ownerId: 'p-zofia', visibility: 'circle', readOnly: true, canEdit: true });
  assert.equal(withClass(item, 'note-sharing')[0].textContent,
    'Shared with the people who look after you: Anna. Only you can change it');
  assert.equal(withClass(item, 'note-read-only').length, 0);
  assert.deepEqual(actions(item), ['pin', 'visibility', 'trash']);
});

test('a shared note others may change keeps pin and Trash for them, but sharing stays the owner\'s', () => {
  const item = draw('p-anna', { ownerId: 'p-zofia', visibility: 'shared', readOnly: false, canEdit: true });
  assert.equal(withClass(item, 'note-sharing')[0].textContent, 'Shared with the household');
  assert.deepEqual(actions(item), ['pin', 'trash']);
});

test('everyone who sees a note has "Listen", named with the note, its id from the note\'s', () => {
  for (const personId of ['p-zofia', 'p-anna']) {
    const item = draw(personId, { ownerId: 'p-zofia', visibility: 'circle', readOnly: true, canEdit: personId === 'p-zofia' });
    const [listen] = withClass(item, 'listen-button');
    assert.equal(listen.getAttribute('id'), 'note-n1-listen');
    assert.equal(listen.getAttribute('type'), 'button');
    assert.equal(listen.getAttribute('data-focus-key'), 'n1:listen', 'the keyboard stays on it when the list is drawn again');
    // Node has no voices: the control says so rather than offering to read.
    assert.equal(listen.getAttribute('aria-disabled'), 'true');
    assert.equal(listen.textContent.includes('This device cannot read aloud'), true);
  }
});

test('with a voice, its name says which note it reads', async () => {
  const had = { speech: globalThis.speechSynthesis, Utterance: globalThis.SpeechSynthesisUtterance };
  globalThis.speechSynthesis = { getVoices: () => [{ lang: 'en-GB' }] };
  globalThis.SpeechSynthesisUtterance = class {};
  try {
    const item = draw('p-zofia', { ownerId: 'p-zofia', visibility: 'private', readOnly: false, canEdit: true, displayTitle: 'Shopping list' });
    const [listen] = withClass(item, 'listen-button');
    assert.equal(listen.getAttribute('aria-label'), 'Listen: Shopping list');
    assert.equal(listen.getAttribute('aria-disabled'), null);
    assert.equal(listen.textContent.includes('Listen'), true);
  } finally {
    for (const [name, value] of [['speechSynthesis', had.speech], ['SpeechSynthesisUtterance', had.Utterance]]) {
      if (value === undefined) delete globalThis[name];
      else globalThis[name] = value;
    }
  }
});
