import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  archivedPeople, caregiversOf, isLastAdmin, isPhoneNumber, mayChangePerson, mayNameSenior, personPatch, personPermissions, telHref,
} from '../../household/people.js';

const zosia = { id: 'p-zosia', name: 'Zosia', role: 'senior', caresFor: [], phone: '+48 601 234 567' };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver', caresFor: ['p-zosia'], phone: '(22) 123-45-67' };
const lukasz = { id: 'p-lukasz', name: 'Łukasz', role: 'admin', caresFor: ['p-zosia'], phone: null };
const ola = { id: 'p-ola', name: 'Ola', role: 'caregiver', caresFor: ['p-edek'] };
const tomek = { id: 'p-tomek', name: 'Tomek', role: 'admin', caresFor: [] };
const asMe = (person) => ({ personId: person.id, role: person.role, looksAfter: person.caresFor ?? [] });

test('a typed number becomes a tel: link of digits and a leading + only', () => {
  assert.equal(telHref('+48 601 234 567'), 'tel:+48601234567');
  assert.equal(telHref(' (22) 123-45-67 '), 'tel:221234567');
  assert.equal(telHref('112'), 'tel:112');
  assert.equal(telHref('601+234'), null, 'a + only at the start');
  assert.equal(telHref('call me'), null);
  assert.equal(telHref('12'), null, 'too few digits');
  assert.equal(telHref('+1234567890123456'), null, 'more than 15 digits');
  assert.equal(telHref(null), null);
  assert.equal(telHref(''), null);
});

test('phone numbers: an optional +, then digits, spaces, dashes and brackets, 3 to 15 digits', () => {
  for (const good of ['+48 601 234 567', '601-234-567', '(22) 123 45 67', '123', '+123456789012345']) {
    assert.ok(isPhoneNumber(good), good);
  }
  for (const bad of ['', '+', '++48 601', '601.234.567', '601 234 567 ext 2', '12', '1234567890123456', '+48 601 234 567#']) {
    assert.ok(!isPhoneNumber(bad), bad);
  }
});

test('anyone changes their own name and phone; an admin anyone\'s, and only an admin roles and archiving', () => {
  const none = { name: false, phone: false, role: false, archive: false, alias: false };
  assert.deepEqual(personPermissions(asMe(ania), ania), { ...none, name: true, phone: true });
  assert.deepEqual(personPermissions(asMe(ania), zosia), { ...none, alias: true }, 'only her own name for the senior she looks after');
  assert.deepEqual(personPermissions(asMe(zosia), zosia), { ...none, name: true, phone: true });
  assert.deepEqual(personPermissions(asMe(tomek), ania), { name: true, phone: true, role: true, archive: true, alias: false });
  assert.deepEqual(personPermissions(asMe(tomek), tomek), { name: true, phone: true, role: true, archive: false, alias: false },
    'an admin is not offered archiving the device in their own hand');
  assert.deepEqual(personPermissions(asMe(tomek), { ...ania, archivedAt: '2026-11-01T10:00:00Z' }).archive, false);
  assert.deepEqual(personPermissions(null, ania), none);
  assert.deepEqual(personPermissions({ personId: null, role: 'admin' }, ania).name, false, 'no one is not an admin');
});

test('a name of one\'s own ("Mama") only for a senior one looks after, caregiver or admin', () => {
  assert.equal(mayNameSenior(asMe(ania), zosia), true);
  assert.equal(mayNameSenior(asMe(lukasz), zosia), true, 'an admin linked to her');
  assert.equal(mayNameSenior(asMe(tomek), zosia), false, 'an admin not linked to her');
  assert.equal(mayNameSenior(asMe(ola), zosia), false, 'a caregiver of someone else');
  assert.equal(mayNameSenior(asMe(ania), ania), false, 'not oneself');
  assert.equal(mayNameSenior({ ...asMe(ania), looksAfter: ['p-lukasz'] }, lukasz), false, 'only a senior');
  assert.equal(mayNameSenior(asMe(ania), { ...zosia, archivedAt: '2026-11-01T10:00:00Z' }), false, 'not an archived senior');
  assert.equal(mayNameSenior({ personId: 'p-ania', role: 'caregiver' }, zosia), false, 'without knowing whom she looks after');
  assert.equal(mayNameSenior(asMe(zosia), zosia), false);
  assert.equal(mayNameSenior(null, zosia), false);
  assert.equal(personPermissions(asMe(lukasz), zosia).alias, true, 'an admin linked to her may rename her too');
  assert.equal(mayChangePerson(personPermissions(asMe(ania), zosia)), true, 'the dialog opens for the alias alone');
  assert.equal(mayChangePerson(personPermissions(asMe(ola), zosia)), false);
  assert.equal(mayChangePerson(personPermissions(asMe(ania), tomek)), false);
});

test('the alias is trimmed, sent when it changed, null when emptied, and at most 80 characters', () => {
  const aliasOnly = personPermissions(asMe(ania), zosia);
  assert.deepEqual(personPatch(zosia, { alias: ' Mama ' }, aliasOnly), { body: { alias: 'Mama' } });
  assert.deepEqual(personPatch({ ...zosia, alias: 'Mama' }, { alias: 'Mama ' }, aliasOnly), { body: null });
  assert.deepEqual(personPatch({ ...zosia, alias: 'Mama' }, { alias: 'Mamusia' }, aliasOnly), { body: { alias: 'Mamusia' } });
  assert.deepEqual(personPatch({ ...zosia, alias: 'Mama' }, { alias: '  ' }, aliasOnly), { body: { alias: null } });
  assert.deepEqual(personPatch(zosia, { alias: '' }, aliasOnly), { body: null }, 'no alias to remove');
  assert.deepEqual(personPatch(zosia, { alias: 'ż'.repeat(80) }, aliasOnly), { body: { alias: 'ż'.repeat(80) } }, 'characters, not bytes');
  assert.deepEqual(personPatch(zosia, { alias: 'x'.repeat(81) }, aliasOnly), { errors: { alias: 'aliasTooLong' } });
  assert.deepEqual(personPatch(zosia, { name: 'Zofia', phone: '', alias: 'Mama' }, aliasOnly), { body: { alias: 'Mama' } },
    'her name and phone are not hers to change: never sent');
  const linkedAdmin = personPermissions(asMe(lukasz), zosia);
  assert.deepEqual(personPatch(zosia, { name: 'Zofia', phone: '+48 601 234 567', role: 'senior', alias: 'Babcia' }, linkedAdmin),
    { body: { name: 'Zofia', alias: 'Babcia' } });
  assert.deepEqual(personPatch(zosia, { alias: 'Mama' }, personPermissions(asMe(tomek), zosia)).body?.alias, undefined,
    'an admin not linked to her sends no alias');
});

test('the only admin is the last admin; with two, neither is', () => {
  assert.ok(isLastAdmin([zosia, ania, tomek], tomek));
  assert.ok(!isLastAdmin([zosia, ania, tomek, lukasz], tomek));
  assert.ok(!isLastAdmin([zosia, ania, tomek], ania));
  assert.ok(isLastAdmin([tomek, { ...lukasz, archivedAt: '2026-11-01T10:00:00Z' }], tomek), 'an archived admin does not count');
});

test('the PATCH body holds only what changed; an emptied phone removes it', () => {
  const all = { name: true, phone: true, role: true };
  assert.deepEqual(personPatch(ania, { name: ' Ania ', phone: '(22) 123-45-67', role: 'caregiver' }, all), { body: null });
  assert.deepEqual(personPatch(ania, { name: 'Anna', phone: '(22) 123-45-67', role: 'admin' }, all), { body: { name: 'Anna', role: 'admin' } });
  assert.deepEqual(personPatch(ania, { name: 'Ania', phone: '  ', role: 'caregiver' }, all), { body: { phone: null } });
  assert.deepEqual(personPatch(lukasz, { name: 'Łukasz', phone: '', role: 'admin' }, all), { body: null }, 'no number to remove');
  assert.deepEqual(personPatch(lukasz, { name: 'Łukasz', phone: ' +48 500 100 200 ' }, all), { body: { phone: '+48 500 100 200' } });
});

test('what is wrong is said per field, and nothing is sent', () => {
  const all = { name: true, phone: true, role: true };
  assert.deepEqual(personPatch(ania, { name: ' ', phone: 'abc', role: 'boss' }, all),
    { errors: { name: 'nameMissing', phone: 'phoneInvalid', role: 'roleMissing' } });
  assert.deepEqual(personPatch(ania, { name: 'x'.repeat(81), phone: '' }, all), { errors: { name: 'nameTooLong' } });
});

test('a field the person may not change is never sent', () => {
  const own = { name: true, phone: true, role: false };
  assert.deepEqual(personPatch(ania, { name: 'Ania', phone: '(22) 123-45-67', role: 'admin' }, own), { body: null });
  assert.deepEqual(personPatch(ania, { name: 'Anna', phone: 'x', role: 'admin' }, { name: false, phone: false, role: false }), { body: null });
});

test('the people who look after a senior, by name, with a number to call when known', () => {
  const people = [zosia, tomek, ola, lukasz, ania, { ...ania, id: 'p-gone', name: 'Basia', archivedAt: '2026-11-01T10:00:00Z' }];
  const carers = caregiversOf(people, zosia.id, { language: 'pl' });
  assert.deepEqual(carers.map((person) => person.name), ['Ania', 'Łukasz'], 'Ł after A in Polish; archived and unlinked left out');
  assert.deepEqual(carers[0], { id: 'p-ania', name: 'Ania', role: 'caregiver', phone: '(22) 123-45-67', href: 'tel:221234567' });
  assert.equal(carers[1].href, null);
  assert.equal(carers[1].phone, null);
  assert.deepEqual(caregiversOf(people, 'p-nobody'), []);
  assert.deepEqual(caregiversOf(null, zosia.id), []);
});

test('archived people, most recently archived first', () => {
  const people = [zosia, { ...ola, archivedAt: '2026-10-01T10:00:00Z' }, { ...ania, archivedAt: '2026-11-01T10:00:00Z' }];
  assert.deepEqual(archivedPeople(people).map((person) => person.id), ['p-ania', 'p-ola']);
  assert.deepEqual(archivedPeople(undefined), []);
});

test('an admin lets a senior manage her own medicines; only then may she change them', async () => {
  const { mayChangeMedicines } = await import('../../care/me.js');
  const zosia = { id: 'z', name: 'Zosia', role: 'senior', phone: null, managesOwnMedications: false };
  const asAdmin = { name: true, phone: true, role: true };
  assert.deepEqual(personPatch(zosia, { name: 'Zosia', phone: '', role: 'senior', managesOwnMedications: true }, asAdmin).body,
    { managesOwnMedications: true });
  assert.equal(personPatch(zosia, { name: 'Zosia', phone: '', managesOwnMedications: false }, asAdmin).body, null, 'unchanged');
  assert.equal(personPatch(zosia, { name: 'Zosia', phone: '', managesOwnMedications: true }, { name: true, phone: true }).body, null,
    'not hers to decide');
  const ania = { id: 'a', name: 'Ania', role: 'caregiver', phone: null };
  assert.equal(personPatch(ania, { name: 'Ania', phone: '', role: 'caregiver', managesOwnMedications: true }, asAdmin).body, null,
    'only a senior manages her own');
  assert.equal(mayChangeMedicines({ role: 'senior', managesOwnMedications: false }), false);
  assert.equal(mayChangeMedicines({ role: 'senior', managesOwnMedications: true }), true);
  assert.equal(mayChangeMedicines({ role: 'caregiver' }), true);
  assert.equal(mayChangeMedicines(null), false);
});

test("a senior's screen is arranged by her, a caregiver who looks after her, or an admin", async () => {
  const { mayArrangeScreen } = await import('../../household/people.js');
  const babcia = { id: 'b', role: 'senior' };
  assert.equal(mayArrangeScreen({ personId: 'b', role: 'senior' }, babcia), true);
  assert.equal(mayArrangeScreen({ personId: 'a', role: 'caregiver', looksAfter: ['b'] }, babcia), true);
  assert.equal(mayArrangeScreen({ personId: 'o', role: 'caregiver', looksAfter: [] }, babcia), false);
  assert.equal(mayArrangeScreen({ personId: 'x', role: 'admin', looksAfter: [] }, babcia), true);
  assert.equal(mayArrangeScreen({ personId: 'z', role: 'senior' }, babcia), false);
  assert.equal(mayArrangeScreen({ personId: 'a', role: 'caregiver', looksAfter: ['b'] }, { ...babcia, archivedAt: '2026-01-01' }), false);
  assert.equal(mayArrangeScreen({ personId: 'x', role: 'admin' }, { id: 'a', role: 'caregiver' }), false);
});
