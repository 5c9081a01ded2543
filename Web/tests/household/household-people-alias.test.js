// The Household page's people as a caregiver who calls her senior "Mama"
// sees them, drawn with the fake DOM: the real name first, "You call her:
// Mama" under it, and "Change…" on the senior she looks after (for her own
// name for her) though she may not change the senior's name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { installFakeDocument } from '../fake-dom.js';

const load = async (lang) => JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const en = await load('en');
const pl = await load('pl');
let removeDocument;
let peopleList;
before(async () => {
  removeDocument = installFakeDocument();
  ({ peopleList } = await import('../../pages/household/household-lists.js'));
});
after(() => removeDocument());

const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior', caresFor: [], alias: 'Mama' };
const edek = { id: 'p-edek', name: 'Edek', role: 'senior', caresFor: [] };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver', caresFor: ['p-zosia'] };

function walk(element, found = []) {
  if (element && element.tagName) {
    found.push(element);
    for (const child of element.children) walk(child, found);
  }
  return found;
}
const byId = (roots, id) => roots.flatMap((root) => walk(root)).find((element) => element.getAttribute('id') === id) ?? null;

function draw(t, language = 'en') {
  const data = {
    me: { personId: 'p-ania', role: 'caregiver', looksAfter: ['p-zosia'] },
    people: [zosia, edek, ania],
    links: [{ caregiverId: 'p-ania', seniorId: 'p-zosia' }],
  };
  return peopleList({ t, language }, data, { busy: { has: () => false }, actions: { change() {}, archive() {} } });
}

test('her real name heads her entry, and "You call her: Mama" follows', () => {
  const drawn = draw(createTranslator(en));
  assert.equal(byId(drawn, 'person-p-zosia-name').textContent, 'Babcia Zosia');
  assert.equal(byId(drawn, 'person-p-zosia-alias').textContent, 'You call her: Mama');
  assert.equal(byId(drawn, 'person-p-zosia-alias').getAttribute('class'), 'person-alias');
  assert.equal(byId(drawn, 'person-p-edek-alias'), null, 'no alias, no line');
  assert.equal(byId(drawn, 'person-p-zosia-change').textContent, 'Change…', 'she may give the senior she looks after a name of her own');
  assert.equal(byId(drawn, 'person-p-edek-change'), null, 'not a senior she does not look after');
  assert.equal(byId(drawn, 'person-p-zosia-archive'), null);
  assert.equal(byId(draw(createTranslator(pl, en), 'pl'), 'person-p-zosia-alias').textContent, 'Nazywasz ją: Mama');
});
