// Whose care circle a note reaches, and the owner's choices of it
// (notes/circle.js): a caregiver chooses among the seniors she looks after,
// each named, and the circle a note is in now stays a choice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { chosenKey, circleMembers, hasCircle, seniorsCircle, sharingChoices } from '../../notes/circle.js';

const dictionary = async (lang) => JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const tEn = createTranslator(await dictionary('en'));
const tPl = createTranslator(await dictionary('pl'), await dictionary('en'));

const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior' };
const janek = { id: 'p-janek', name: 'Dziadek Janek', role: 'senior' };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver', caresFor: ['p-zosia', 'p-janek'] };
const ela = { id: 'p-ela', name: 'Ela', role: 'caregiver', caresFor: ['p-zosia'] };
const tomek = { id: 'p-tomek', name: 'Tomek', role: 'admin', caresFor: [] };
const people = [zosia, janek, ania, ela, tomek];
const me = (person, list = people) => ({ personId: person.id, role: person.role, people: list });
const words = (choices, t) => choices.map((choice) => t(choice.label, choice.params));

test('a senior\'s circle is her and everyone linked to her as a carer', () => {
  assert.deepEqual(seniorsCircle(zosia.id, people).map((p) => p.name), ['Ania', 'Babcia Zosia', 'Ela']);
  assert.deepEqual(circleMembers(ania, people, 'en', zosia.id).map((p) => p.name), ['Babcia Zosia', 'Ela'], 'not its owner');
  assert.deepEqual(circleMembers(ela, people, 'en', janek.id).map((p) => p.name), ['Ania', 'Dziadek Janek'],
    'a circle she no longer looks after stays the senior\'s');
});

test('a caregiver chooses each senior she looks after by name, in English and Polish', () => {
  const choices = sharingChoices(me(ania));
  assert.deepEqual(choices.map((c) => c.key), ['private', 'circle-p-zosia', 'circle-p-janek', 'shared']);
  assert.deepEqual(words(choices, tEn), ['Only me', 'Babcia Zosia and the people who look after them',
    'Dziadek Janek and the people who look after them', 'Everyone in the household']);
  assert.deepEqual(words(choices, tPl), ['Tylko ja', 'Babcia Zosia wraz z opiekunami', 'Dziadek Janek wraz z opiekunami', 'Cały dom']);
  assert.deepEqual(choices.map((c) => c.circleOf), [null, zosia.id, janek.id, null]);
  // With one senior, hers is the one circle there is.
  assert.deepEqual(sharingChoices(me(ela)).map((c) => c.key), ['private', 'circle-p-zosia', 'shared']);
  // Her own name for her senior names the choice.
  const mama = [{ ...zosia, alias: 'Mama' }, janek, ania, ela, tomek];
  assert.equal(words(sharingChoices(me(ela, mama)), tEn)[1], 'Mama and the people who look after them');
});

test('a senior\'s circle is the people who look after her; someone who looks after no one has none', () => {
  assert.deepEqual(words(sharingChoices(me(zosia)), tEn), ['Only me', 'The people who look after me', 'Everyone in the household']);
  assert.deepEqual(sharingChoices(me(zosia)).map((c) => c.key), ['private', 'circle', 'shared']);
  assert.deepEqual(sharingChoices(me(tomek)).map((c) => c.key), ['private', 'shared']);
  assert.equal(hasCircle(me(tomek)), false);
  assert.equal(hasCircle(me(zosia)), true);
  assert.equal(hasCircle(me(ela)), true);
  assert.deepEqual(sharingChoices(null).map((c) => c.key), ['private', 'shared'], 'while who is here is still loading');
});

test('the circle a note is in now is always a choice, and the one chosen', () => {
  // Ela was unlinked from Dziadek after sharing with his circle.
  const inJaneks = { visibility: 'circle', circleOf: janek.id };
  const choices = sharingChoices(me(ela), inJaneks);
  assert.deepEqual(choices.map((c) => c.key), ['private', 'circle-p-zosia', 'circle-p-janek', 'shared']);
  assert.equal(chosenKey(inJaneks, choices), 'circle-p-janek');
  // A caregiver's circle note from before circles named a senior keeps its own choice.
  const before = { visibility: 'circle', circleOf: null };
  const old = sharingChoices(me(ela), before);
  assert.deepEqual(words(old, tEn), ['Only me', 'The people I look after', 'Babcia Zosia and the people who look after them',
    'Everyone in the household']);
  assert.equal(chosenKey(before, old), 'circle');
  assert.equal(chosenKey({ visibility: 'shared' }, old), 'shared');
  assert.equal(chosenKey({ visibility: 'circle', circleOf: zosia.id }, sharingChoices(me(zosia))), 'circle');
  assert.equal(chosenKey(null, old), 'private');
});
