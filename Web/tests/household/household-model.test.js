import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HUB_LANGUAGES,
  canManageHousehold,
  canApproveDevice,
  canRemoveDevice,
  householdDevices,
  householdPatch,
  householdPeople,
  hubLanguagePatch,
  invitationKinds,
  invitationNote,
  invitationRequest,
  invitationScope,
  inviteeChoices,
  newPersonRoles,
  careLinksOf,
  remindersRequest,
  timeZoneGroups,
  timeZoneLabel,
} from '../../household/model.js';

const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior' };
const edek = { id: 'p-edek', name: 'Dziadek Edek', role: 'senior' };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver' };
const ola = { id: 'p-ola', name: 'Ola', role: 'caregiver' };
const admin = { id: 'p-admin', name: 'Łukasz', role: 'admin' };
const people = [admin, ola, zosia, ania, edek];

const asAdmin = { personId: admin.id, role: 'admin' };
const asAnia = { personId: ania.id, role: 'caregiver' };
const asZosia = { personId: zosia.id, role: 'senior' };

test('the people are listed seniors first, then caregivers, then admins, by name', () => {
  const listed = householdPeople(people, [], { meId: ania.id });
  assert.deepEqual(listed.map((p) => p.name), ['Babcia Zosia', 'Dziadek Edek', 'Ania', 'Ola', 'Łukasz']);
  assert.deepEqual(listed.filter((p) => p.isMe).map((p) => p.name), ['Ania']);
});

test('Polish names sort as a Polish reader expects (Ł after L, not after Z)', () => {
  const listed = householdPeople([
    { id: '1', name: 'Zenon', role: 'caregiver' }, { id: '2', name: 'Łucja', role: 'caregiver' }, { id: '3', name: 'Lena', role: 'caregiver' },
  ], [], { language: 'pl' });
  assert.deepEqual(listed.map((p) => p.name), ['Lena', 'Łucja', 'Zenon']);
});

test('each person says whom they look after and who looks after them', () => {
  const links = [
    { caregiverId: ania.id, seniorId: zosia.id },
    { caregiverId: ania.id, seniorId: edek.id },
    { caregiverId: admin.id, seniorId: zosia.id },
    { caregiverId: 'p-gone', seniorId: zosia.id }, // someone archived: not named
  ];
  const byName = Object.fromEntries(householdPeople(people, links).map((p) => [p.name, p]));
  assert.deepEqual(byName.Ania.looksAfter, ['Babcia Zosia', 'Dziadek Edek']);
  assert.deepEqual(byName['Babcia Zosia'].lookedAfterBy, ['Ania', 'Łukasz']);
  assert.deepEqual(byName['Dziadek Edek'].lookedAfterBy, ['Ania']);
  assert.deepEqual(byName.Ola.looksAfter, []);
});

test('care links come from each person’s caresFor as the hub lists them', () => {
  assert.deepEqual(careLinksOf([{ ...ania, caresFor: [zosia.id, edek.id] }, { ...zosia, caresFor: [] }, ola]),
    [{ caregiverId: ania.id, seniorId: zosia.id }, { caregiverId: ania.id, seniorId: edek.id }]);
  assert.deepEqual(careLinksOf(null), []);
});

test('devices: this one first, then by whose they are; removed ones are not listed', () => {
  const devices = [
    { id: 'd1', name: 'Telefon Oli', personId: ola.id, current: false },
    { id: 'd2', name: 'Tablet babci', personId: zosia.id, current: false },
    { id: 'd3', name: 'Laptop', personId: admin.id, current: true },
    { id: 'd4', name: 'Stary telefon', personId: ola.id, revoked: true },
    { id: 'd5', name: 'Telefon gościa', personId: 'p-gone', current: false },
  ];
  const listed = householdDevices(devices, people, { meId: admin.id, language: 'pl' });
  assert.deepEqual(listed.map((d) => d.name), ['Laptop', 'Telefon gościa', 'Tablet babci', 'Telefon Oli']);
  assert.equal(listed[0].ownerName, 'Łukasz');
  assert.equal(listed[1].ownerName, null, 'an archived owner is not guessed');
  assert.deepEqual(listed.map((d) => d.isMine), [true, false, false, false]);
});

test('a device another person\'s device added says whose; one paired at the console says nothing', () => {
  const devices = [
    { id: 'd1', name: 'Telefon Ani', personId: ania.id, pairedBy: zosia.id },
    { id: 'd2', name: 'Tablet babci', personId: zosia.id },
    { id: 'd3', name: 'Laptop', personId: admin.id, pairedBy: admin.id },
    { id: 'd4', name: 'Telefon gościa', personId: ania.id, pairedBy: 'p-gone' },
  ];
  const byName = Object.fromEntries(householdDevices(devices, people, { meId: admin.id }).map((d) => [d.name, d.addedByName]));
  assert.deepEqual(byName, { 'Telefon Ani': 'Babcia Zosia', 'Tablet babci': null, Laptop: null, 'Telefon gościa': null });
});

test('an admin may remove any device; others only their own, this one included', () => {
  const zosiasTablet = { personId: zosia.id };
  assert.equal(canRemoveDevice(asAdmin, zosiasTablet), true);
  assert.equal(canRemoveDevice(asZosia, zosiasTablet), true);
  assert.equal(canRemoveDevice(asAnia, zosiasTablet), false);
  assert.equal(canRemoveDevice(null, zosiasTablet), false);
});

test('only an admin changes the household’s settings', () => {
  assert.equal(canManageHousehold(asAdmin), true);
  assert.equal(canManageHousehold(asAnia), false);
  assert.equal(canManageHousehold(asZosia), false);
});

test('an admin makes codes for anyone, a senior only for someone new, a caregiver for nobody', () => {
  assert.equal(invitationScope(asAdmin), 'anyone');
  assert.equal(invitationScope(asZosia), 'caregivers');
  assert.equal(invitationScope(asAnia), null);
  assert.deepEqual(inviteeChoices(asAdmin, people).map((p) => p.name), ['Babcia Zosia', 'Dziadek Edek', 'Ania', 'Ola', 'Łukasz']);
  assert.deepEqual(inviteeChoices(asZosia, people), [], 'nobody who exists: her caregiver may look after other seniors too');
  assert.deepEqual(inviteeChoices(asAnia, people), []);
});

test('a code for someone new needs their name and role; for someone known, who', () => {
  assert.deepEqual(invitationRequest({ who: 'existing', personId: ania.id }), { body: { personId: ania.id } });
  assert.deepEqual(invitationRequest({ who: 'existing', personId: '' }), { errors: { personId: 'personMissing' } });
  assert.deepEqual(invitationRequest({ who: 'new', name: '  Wnuczka Ola ', role: 'caregiver' }),
    { body: { newPerson: { name: 'Wnuczka Ola', role: 'caregiver' } } });
  assert.deepEqual(invitationRequest({ who: 'new', name: ' ', role: '' }), { errors: { name: 'nameMissing', role: 'roleMissing' } });
  assert.deepEqual(invitationRequest({ who: 'new', name: 'x'.repeat(81), role: 'senior' }), { errors: { name: 'nameTooLong' } });
  assert.ok(invitationRequest({ who: 'new', name: 'ż'.repeat(80), role: 'senior' }).body, '80 Polish letters are 80 characters');
});

test('a senior offers only someone new who will look after her; an admin, anyone', () => {
  assert.deepEqual(invitationKinds('anyone'), ['existing', 'new']);
  assert.deepEqual(invitationKinds('caregivers'), ['new']);
  assert.deepEqual(invitationKinds(null), []);
  assert.deepEqual(newPersonRoles('anyone'), ['senior', 'caregiver', 'admin']);
  assert.deepEqual(newPersonRoles('caregivers'), ['caregiver'], 'her form asks no role');
  assert.deepEqual(newPersonRoles(null), []);
});

test('a senior’s code for someone new is for a caregiver, whatever the form holds', () => {
  const asked = (form) => invitationRequest(form, { scope: 'caregivers' });
  assert.deepEqual(asked({ who: 'new', name: ' Wnuczka Ola ', role: 'caregiver' }),
    { body: { newPerson: { name: 'Wnuczka Ola', role: 'caregiver' } } });
  assert.deepEqual(asked({ who: 'new', name: 'Ola' }), { body: { newPerson: { name: 'Ola', role: 'caregiver' } } }, 'no role picked');
  for (const role of ['admin', 'senior', '', 'owner']) {
    assert.deepEqual(asked({ who: 'new', name: 'Ola', role }), { body: { newPerson: { name: 'Ola', role: 'caregiver' } } },
      `a form tampered to "${role}" still asks for a caregiver`);
  }
  assert.deepEqual(asked({ who: 'new', name: ' ', role: 'admin' }), { errors: { name: 'nameMissing' } }, 'only the name is hers to fix');
  assert.deepEqual(asked({ who: 'new', name: 'x'.repeat(81) }), { errors: { name: 'nameTooLong' } });
  assert.deepEqual(asked({ who: 'existing', personId: ania.id, name: 'Ola', role: 'admin' }), { body: { personId: ania.id } });
  assert.deepEqual(invitationRequest({ who: 'new', name: 'Ola', role: 'caregiver' }, { scope: null }), { errors: { role: 'roleMissing' } },
    'nobody else makes a code for someone new');
  assert.deepEqual(invitationRequest({ who: 'new', name: 'Ola', role: 'admin' }, { scope: 'anyone' }),
    { body: { newPerson: { name: 'Ola', role: 'admin' } } }, 'an admin picks any role, as before');
});

test('after a senior’s code for someone new, the page says they will look after her', () => {
  assert.equal(invitationNote('caregivers', { newPerson: { name: 'Ola', role: 'caregiver' } }), 'newCaregiverOfMe');
  assert.equal(invitationNote('caregivers', { personId: ania.id }), null);
  assert.equal(invitationNote('anyone', { newPerson: { name: 'Ola', role: 'caregiver' } }), null, 'an admin’s new caregiver looks after nobody yet');
  assert.equal(invitationNote('caregivers', undefined), null);
});

test('reminder minutes are whole numbers within the hub’s limits', () => {
  assert.deepEqual(remindersRequest({ graceMinutes: ' 45 ', repeatMinutes: '15' }), { body: { graceMinutes: 45, repeatMinutes: 15 } });
  assert.deepEqual(remindersRequest({ graceMinutes: '720', repeatMinutes: '240' }), { body: { graceMinutes: 720, repeatMinutes: 240 } });
  assert.deepEqual(remindersRequest({ graceMinutes: '0', repeatMinutes: '241' }), { errors: { graceMinutes: 'graceMinutes', repeatMinutes: 'repeatMinutes' } });
  assert.deepEqual(remindersRequest({ graceMinutes: '7.5', repeatMinutes: '' }), { errors: { graceMinutes: 'graceMinutes', repeatMinutes: 'repeatMinutes' } });
  assert.deepEqual(remindersRequest({ graceMinutes: 'ten', repeatMinutes: '-5' }).errors, { graceMinutes: 'graceMinutes', repeatMinutes: 'repeatMinutes' });
});

test('saving the name and time zone sends only what changed', () => {
  const household = { name: 'Dom Zofii', timeZone: 'Europe/Warsaw' };
  assert.deepEqual(householdPatch(household, { name: ' Dom Zofii ', timeZone: 'Europe/Warsaw' }), { body: null });
  assert.deepEqual(householdPatch(household, { name: 'Dom Edka', timeZone: 'Europe/Warsaw' }), { body: { name: 'Dom Edka' } });
  assert.deepEqual(householdPatch(household, { name: 'Dom Zofii', timeZone: 'Europe/London' }), { body: { timeZone: 'Europe/London' } });
  assert.deepEqual(householdPatch(household, { name: '  ', timeZone: 'Europe/Warsaw' }), { errors: { name: 'householdNameMissing' } });
  assert.deepEqual(householdPatch(household, { name: 'x'.repeat(101), timeZone: 'Europe/Warsaw' }), { errors: { name: 'householdNameTooLong' } });
});

test('the hub’s language is sent only when it is another one it speaks', () => {
  assert.deepEqual(HUB_LANGUAGES, ['en', 'pl']);
  const household = { name: 'Dom Zofii', timeZone: 'Europe/Warsaw', language: 'en' };
  assert.deepEqual(hubLanguagePatch(household, 'pl'), { body: { language: 'pl' } });
  assert.deepEqual(hubLanguagePatch(household, 'en'), { body: null });
  assert.deepEqual(hubLanguagePatch({ ...household, language: undefined }, 'en'), { body: { language: 'en' } });
  for (const wrong of ['de', '', null, 'PL']) {
    assert.deepEqual(hubLanguagePatch(household, wrong), { errors: { language: 'languageUnknown' } }, String(wrong));
  }
});

test('the time-zone list: the household’s and this device’s zones first, then by region and place, and found by a few letters', () => {
  const supported = ['Europe/Warsaw', 'Europe/London', 'America/New_York', 'America/Argentina/Buenos_Aires', 'Asia/Tokyo', 'UTC', 'Etc/GMT+5'];
  const groups = timeZoneGroups('Europe/Warsaw', { supported, deviceZone: 'Europe/London' });
  assert.deepEqual(groups.map((g) => g.region), ['yours', 'America', 'Asia', 'other']);
  assert.deepEqual(groups[0].zones.map((z) => z.value), ['Europe/Warsaw', 'Europe/London']);
  assert.deepEqual(groups[1].zones.map((z) => z.label), ['Argentina – Buenos Aires (America/Argentina/Buenos_Aires)', 'New York (America/New_York)']);
  assert.deepEqual(groups[3].zones.map((z) => z.label), ['Etc/GMT+5', 'UTC'].map((zone) => timeZoneLabel(zone) === zone ? zone : `${timeZoneLabel(zone)} (${zone})`));
  // A few letters, any case, accents or not; the chosen zone stays.
  const found = timeZoneGroups('Europe/Warsaw', { supported, deviceZone: 'Europe/London', query: 'buenos' });
  assert.deepEqual(found.flatMap((g) => g.zones.map((z) => z.value)), ['Europe/Warsaw', 'America/Argentina/Buenos_Aires']);
  assert.deepEqual(timeZoneGroups('', { supported, deviceZone: 'Asia/Tokyo', query: 'TOK' })
    .flatMap((g) => g.zones.map((z) => z.value)), ['Asia/Tokyo']);
  assert.deepEqual(timeZoneGroups('Europe/Kyiv', { supported: [], deviceZone: null })[0].zones.map((z) => z.value), ['Europe/Kyiv'],
    'a zone this browser does not list is still offered when it is the household\u2019s');
  assert.ok(timeZoneGroups('Europe/Warsaw').flatMap((g) => g.zones).length > 300, 'the real list, grouped');
});

test('a device a senior\'s tablet paired waits for an admin, who alone approves it', () => {
  const waiting = { id: 'd1', personId: 'ola', awaitingApproval: true };
  assert.equal(canApproveDevice({ personId: 'tomek', role: 'admin' }, waiting), true);
  assert.equal(canApproveDevice({ personId: 'ola', role: 'caregiver' }, waiting), false, 'not even her own');
  assert.equal(canApproveDevice({ personId: 'tomek', role: 'admin' }, { ...waiting, awaitingApproval: false }), false);
});
