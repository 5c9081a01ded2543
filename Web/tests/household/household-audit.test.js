import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { AUDIT_LIMIT, auditActor, auditEntries, auditSentence } from '../../household/audit.js';

const dictionary = async (language) => JSON.parse(await readFile(new URL(`../../i18n/${language}.json`, import.meta.url), 'utf8'));
const en = createTranslator(await dictionary('en'));
const pl = createTranslator(await dictionary('pl'), await dictionary('en'));

const entry = (entity, op, summary, actorName = 'Tomek') => ({ seq: 1, time: '2026-11-20T10:00:00Z', actorName, entity, op, entityId: 'x', summary });

test('people: added, changed, archived, restored, removed — in English and Polish', () => {
  assert.equal(auditSentence(en, entry('person', 'create', { name: 'Zosia', role: 'senior' })), 'Tomek added Zosia to the household (Cared for).');
  assert.equal(auditSentence(pl, entry('person', 'create', { name: 'Zosia', role: 'senior' })), 'Tomek: dodano osobę Zosia (rola: Pod opieką).');
  assert.equal(auditSentence(en, entry('person', 'update', { name: 'Ania', role: 'caregiver', phone: '+48 601 234 567' })),
    'Tomek changed the details of Ania: Caregiver, phone +48 601 234 567.');
  assert.equal(auditSentence(pl, entry('person', 'update', { name: 'Ania', role: 'caregiver' })),
    'Tomek: zmieniono dane osoby Ania: Opiekun(ka), bez numeru telefonu.');
  assert.equal(auditSentence(en, entry('person', 'update', { name: 'Ola', role: 'caregiver', archived: true })),
    'Tomek archived Ola; their devices no longer work.');
  assert.equal(auditSentence(pl, entry('person', 'update', { name: 'Ola', role: 'caregiver', restored: true })), 'Tomek: przywrócono osobę Ola.');
  assert.equal(auditSentence(en, entry('person', 'delete', { name: 'Ola', role: 'caregiver' })), 'Tomek removed Ola from the household.');
});

test('care links, devices and the household\'s settings', () => {
  const link = { caregiverName: 'Ania', seniorName: 'Zosia' };
  assert.equal(auditSentence(en, entry('careLink', 'create', { ...link, linked: true })), 'Tomek linked Ania to look after Zosia.');
  assert.equal(auditSentence(pl, entry('careLink', 'delete', { ...link, linked: false })), 'Tomek: Ania już nie opiekuje się: Zosia.');
  assert.equal(auditSentence(en, entry('careLink', 'delete', link)), 'Tomek unlinked Ania, who no longer looks after Zosia.',
    'without "linked", the operation says it');
  assert.equal(auditSentence(en, entry('device', 'create', { name: 'Zosia’s tablet', personName: 'Zosia' })),
    'Tomek paired the device “Zosia’s tablet” for Zosia.');
  assert.equal(auditSentence(pl, entry('device', 'update', { name: 'Telefon', personName: 'Ania', revoked: true })),
    'Tomek: usunięto urządzenie „Telefon” (należało do: Ania).');
  assert.equal(auditSentence(en, entry('household', 'update', { name: 'Dom Nowaków', language: 'pl' })),
    'Tomek named the household “Dom Nowaków”. Tomek set the hub’s language to Polish.');
  assert.equal(auditSentence(pl, entry('household', 'update', { timeZone: 'Europe/Warsaw' })), 'Tomek: ustawiono strefę czasową Europe/Warsaw.');
});

test('who did it: a name, the hub\'s terminal in the page\'s language, or someone', () => {
  assert.equal(auditActor(pl, { actorName: null, viaTerminal: true }), 'Terminal centrali');
  assert.equal(auditActor(en, { actorName: null, viaTerminal: true }), 'The hub’s terminal');
  assert.equal(auditActor(en, { actorName: 'Tomek', viaTerminal: false }), 'Tomek');
  assert.equal(auditActor(en, { actorName: null, viaTerminal: false }), 'Someone');
  assert.equal(auditActor(pl, { actorName: '  ' }), 'Ktoś');
  assert.equal(auditSentence(pl, entry('careLink', 'create', { caregiverName: 'Ania', seniorName: 'Zosia', linked: true }, null)),
    'Ktoś: Ania opiekuje się teraz: Zosia.');
});

test('a shape this page does not know still reads as a sentence', () => {
  assert.equal(auditSentence(en, entry('alertApp', 'create', { name: 'Ania’s phone' })), 'Tomek changed alerts on a phone.');
  assert.equal(auditSentence(pl, entry('pairingCode', 'create', {})), 'Tomek: zmieniono kod parowania.');
  assert.equal(auditSentence(en, entry('pairingCode', 'create', { personName: 'Ania', role: 'caregiver' })),
    'Tomek made a pairing code for Ania.');
  assert.equal(auditSentence(en, entry('person', 'update', { name: 'Zofia', formerName: 'Zosia', role: 'senior', phone: null })),
    'Tomek renamed Zosia to Zofia.');
  assert.equal(auditSentence(en, entry('person', 'update', { role: 'admin' })), 'Tomek changed a person.', 'a person without a name');
  assert.equal(auditSentence(en, entry('garden', 'update', null)), 'Tomek changed something.');
  assert.equal(auditSentence(en, entry('household', 'update', ['x'])), 'Tomek changed the household’s settings.');
  assert.equal(auditSentence(en, null), 'Someone changed something.');
});

test('newest first, at most the limit', () => {
  const many = Array.from({ length: 70 }, (_, index) => ({ seq: index + 1, entity: 'person' }));
  const shown = auditEntries([...many].reverse().concat([null]).sort(() => 0));
  assert.equal(shown.length, AUDIT_LIMIT);
  assert.equal(shown[0].seq, 70);
  assert.equal(shown.at(-1).seq, 21);
  assert.deepEqual(auditEntries([{ seq: 2 }, { seq: 9 }, { seq: 5 }], 2).map((e) => e.seq), [9, 5]);
  assert.deepEqual(auditEntries('nope'), []);
});
