import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import {
  canEditNote, mayEdit, newNoteSharing, readOnlyNotice, sharingPatch, sharingSentence,
} from '../../notes/sharing.js';
import { circleMembers } from '../../notes/circle.js';

const dictionary = async (lang) => JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const en = await dictionary('en');
const pl = await dictionary('pl');
const tEn = createTranslator(en);
const tPl = createTranslator(pl, en);

const zofia = { id: 'p-zofia', name: 'Zofia', role: 'senior' };
const edek = { id: 'p-edek', name: 'Edek', role: 'senior' };
const jan = { id: 'p-jan', name: 'Jan', role: 'caregiver', caresFor: ['p-zofia'] };
const anna = { id: 'p-anna', name: 'Anna', role: 'caregiver', caresFor: ['p-zofia', 'p-edek'] };
const lukasz = { id: 'p-lukasz', name: 'Łukasz', role: 'admin', caresFor: [] };
const people = [zofia, edek, jan, anna, lukasz];
const as = (person) => ({ personId: person.id, people });

test('the owner may always change her note; the others unless it is read-only', () => {
  const note = { ownerId: zofia.id, visibility: 'shared', readOnly: true };
  assert.equal(canEditNote(note, zofia.id), true);
  assert.equal(canEditNote(note, anna.id), false);
  assert.equal(canEditNote({ ...note, readOnly: false }, anna.id), true);
  assert.equal(canEditNote({ ownerId: zofia.id, visibility: 'shared' }, anna.id), true, 'a hub that does not send readOnly yet');
  assert.equal(canEditNote(note, null), false, 'before we know who is using the browser, a read-only note is not editable');
  assert.equal(canEditNote({ ownerId: null, readOnly: true }, null), false, 'no owner is not "me" when I am unknown');
  assert.equal(canEditNote(null, zofia.id), false);
});

test('the hub\'s canEdit wins when the note carries it (a REST answer); a live payload has none', () => {
  assert.equal(mayEdit({ ownerId: zofia.id, readOnly: false, canEdit: false }, anna.id), false);
  assert.equal(mayEdit({ ownerId: zofia.id, readOnly: true, canEdit: true }, anna.id), true);
  assert.equal(mayEdit({ ownerId: zofia.id, readOnly: true }, anna.id), false);
});

test('a senior\'s circle is who looks after her; a caregiver\'s, whom she looks after', () => {
  assert.deepEqual(circleMembers(zofia, people).map((p) => p.name), ['Anna', 'Jan']);
  assert.deepEqual(circleMembers(edek, people).map((p) => p.name), ['Anna']);
  assert.deepEqual(circleMembers(anna, people).map((p) => p.name), ['Edek', 'Zofia']);
  assert.deepEqual(circleMembers(lukasz, people), []);
  assert.deepEqual(circleMembers(null, people), []);
});

test('a circle note names whom it reaches, from where the reader stands (English)', () => {
  const byZofia = { ownerId: zofia.id, visibility: 'circle', readOnly: false };
  assert.equal(sharingSentence(byZofia, as(edek), tEn), 'Shared with the people who look after Zofia: Anna, Jan');
  assert.equal(sharingSentence(byZofia, as(zofia), tEn), 'Shared with the people who look after you: Anna, Jan');
  assert.equal(sharingSentence(byZofia, as(jan), tEn), 'Shared with the people who look after Zofia: Anna, you');
  const byAnna = { ownerId: anna.id, visibility: 'circle', readOnly: true };
  assert.equal(sharingSentence(byAnna, as(zofia), tEn), 'Shared with the people Anna looks after: Edek, you. Only Anna can change it');
  assert.equal(sharingSentence(byAnna, as(anna), tEn), 'Shared with the people you look after: Edek, Zofia. Only you can change it');
  const byLukasz = { ownerId: lukasz.id, visibility: 'circle' };
  assert.equal(sharingSentence(byLukasz, as(lukasz), tEn), 'Shared with the people you look after: nobody yet');
  assert.equal(sharingSentence({ ownerId: 'p-gone', visibility: 'circle' }, as(jan), tEn), 'Shared with its owner’s care circle');
});

test('the same in Polish, with every name as written', () => {
  const byZofia = { ownerId: zofia.id, visibility: 'circle', readOnly: true };
  assert.equal(sharingSentence(byZofia, as(jan), tPl, 'pl'), 'Zofia udostępnia ją swoim opiekunom: Anna, Ty. Tylko Zofia może ją zmieniać');
  assert.equal(sharingSentence(byZofia, as(zofia), tPl, 'pl'), 'Udostępniona osobom, które się tobą opiekują: Anna, Jan. Tylko ty możesz ją zmieniać');
  const byAnna = { ownerId: anna.id, visibility: 'circle' };
  assert.equal(sharingSentence(byAnna, as(zofia), tPl, 'pl'), 'Anna udostępnia ją osobom, którymi się opiekuje: Edek, Ty');
  assert.equal(sharingSentence({ ownerId: lukasz.id, visibility: 'circle' }, as(lukasz), tPl, 'pl'),
    'Udostępniona osobom, którymi się opiekujesz: na razie nikt');
});

test('private and shared notes; "read only" is not said of a private note', () => {
  assert.equal(sharingSentence({ ownerId: zofia.id, visibility: 'private', readOnly: true }, as(zofia), tEn), 'Private: only you can see it');
  assert.equal(sharingSentence({ ownerId: zofia.id, visibility: 'private' }, as(anna), tEn), 'Private');
  assert.equal(sharingSentence({ ownerId: zofia.id, visibility: 'shared' }, as(anna), tEn), 'Shared with the household');
  assert.equal(sharingSentence({ ownerId: zofia.id, visibility: 'shared', readOnly: true }, as(anna), tPl, 'pl'),
    'Udostępniona domownikom. Tylko Zofia może ją zmieniać');
  assert.equal(sharingSentence({ ownerId: 'p-gone', visibility: 'shared', readOnly: true }, as(anna), tEn),
    'Shared with the household. Only its owner can change it');
});

test('the editor tells a reader whose note it is', () => {
  assert.equal(readOnlyNotice({ ownerId: zofia.id }, people, tEn), 'Only Zofia can change this note. You can read it.');
  assert.equal(readOnlyNotice({ ownerId: zofia.id }, people, tPl), 'Tylko Zofia może zmieniać tę notatkę. Możesz ją czytać.');
  assert.equal(readOnlyNotice({ ownerId: 'p-gone' }, people, tEn), 'Only its owner can change this note. You can read it.');
});

test('a caregiver\'s note in a senior\'s circle is named from the senior\'s side, in English and Polish', () => {
  const inZofias = { ownerId: anna.id, visibility: 'circle', circleOf: zofia.id, readOnly: false };
  assert.equal(sharingSentence(inZofias, as(anna), tEn), 'Shared with Zofia and the people who look after them: Jan, Zofia');
  assert.equal(sharingSentence(inZofias, as(jan), tEn), 'Shared with Zofia and the people who look after them: you, Zofia');
  assert.equal(sharingSentence(inZofias, as(zofia), tEn), 'Shared with you and the people who look after you: Jan');
  assert.equal(sharingSentence({ ...inZofias, readOnly: true }, as(jan), tPl, 'pl'),
    'Udostępniona: Zofia wraz z opiekunami — Ty, Zofia. Tylko Anna może ją zmieniać');
  assert.equal(sharingSentence(inZofias, as(zofia), tPl, 'pl'), 'Udostępniona tobie i osobom, które się tobą opiekują: Jan');
  // Unlinked since, Łukasz's note stays in Zofia's circle as it is now.
  const byLukasz = { ownerId: lukasz.id, visibility: 'circle', circleOf: zofia.id };
  assert.equal(sharingSentence(byLukasz, as(lukasz), tEn), 'Shared with Zofia and the people who look after them: Anna, Jan, Zofia');
  // A caregiver's alias for her senior names her.
  const mama = [{ ...zofia, alias: 'Mama' }, edek, jan, anna, lukasz];
  assert.equal(sharingSentence(inZofias, { personId: jan.id, people: mama }, tEn),
    'Shared with Mama and the people who look after them: you, Mama');
});

test('the owner\'s choice sends only what changed, and no "read only" for a private note', () => {
  const note = { visibility: 'shared', readOnly: false };
  assert.deepEqual(sharingPatch(note, { visibility: 'circle', readOnly: false }), { visibility: 'circle' });
  assert.deepEqual(sharingPatch(note, { visibility: 'shared', readOnly: true }), { readOnly: true });
  assert.deepEqual(sharingPatch(note, { visibility: 'private', readOnly: true }), { visibility: 'private' });
  assert.equal(sharingPatch(note, { visibility: 'shared', readOnly: false }), null);
  assert.equal(sharingPatch({ visibility: 'private', readOnly: true }, { visibility: 'private', readOnly: false }), null);
  assert.deepEqual(sharingPatch({ visibility: 'private', readOnly: true }, { visibility: 'circle', readOnly: false }),
    { visibility: 'circle', readOnly: false });
  assert.equal(sharingPatch(note, null), null, 'cancelled');
  assert.deepEqual(sharingPatch(note, { visibility: 'circle', circleOf: zofia.id, readOnly: false }),
    { visibility: 'circle', circleOf: zofia.id });
  const inZofias = { visibility: 'circle', circleOf: zofia.id, readOnly: false };
  assert.deepEqual(sharingPatch(inZofias, { visibility: 'circle', circleOf: edek.id, readOnly: false }), { circleOf: edek.id });
  assert.equal(sharingPatch(inZofias, { visibility: 'circle', circleOf: zofia.id, readOnly: false }), null);
  assert.equal(sharingPatch({ visibility: 'circle', readOnly: false }, { visibility: 'circle', circleOf: null, readOnly: false }), null,
    'a note from before circles named a senior, saved as it was');
  assert.equal(sharingPatch(note, { visibility: 'everyone' }), null);
});

test('a new note is created with its sharing', () => {
  assert.deepEqual(newNoteSharing({ visibility: 'private', readOnly: true }), { visibility: 'private' });
  assert.deepEqual(newNoteSharing({ visibility: 'circle', readOnly: true }), { visibility: 'circle', readOnly: true });
  assert.deepEqual(newNoteSharing({ visibility: 'circle', circleOf: zofia.id, readOnly: false }),
    { visibility: 'circle', circleOf: zofia.id, readOnly: false });
  assert.deepEqual(newNoteSharing({ visibility: 'shared', readOnly: false }), { visibility: 'shared', readOnly: false });
  assert.deepEqual(newNoteSharing(undefined), { visibility: 'private' });
});
