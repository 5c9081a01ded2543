// One note of the Notes list as each person sees it: who sees it in words
// (.note-sharing), "read only" for whom the owner lets only read it, and
// only the buttons they may use. Drawn with the fake DOM.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../i18n.js';
import { installFakeDocument } from './fake-dom.js';

const en = JSON.parse(await readFile(new URL('../i18n/en.json', import.meta.url), 'utf8'));
const t = createTranslator(en);
let removeDocument;
let noteItem;
before(async () => {
  removeDocument = installFakeDocument();
  ({ noteItem } = await import('../pages/notes-list.js'));
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
const actions = (item) => walk(item).filter((e) => e.tagName === 'BUTTON').map((b) => b.getAttribute('data-action'));

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
