import { test } from 'node:test';
import assert from 'node:assert/strict';
import { careLinkGroups, unlinkedCaregivers } from '../../household/care-links.js';
import { paths } from '../../api-paths.js';

const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior' };
const edek = { id: 'p-edek', name: 'Dziadek Edek', role: 'senior' };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver' };
const ola = { id: 'p-ola', name: 'Ola', role: 'caregiver' };
const zbyszek = { id: 'p-zbyszek', name: 'Zbyszek', role: 'caregiver' };
const lukasz = { id: 'p-admin', name: 'Łukasz', role: 'admin' };
const people = [lukasz, zbyszek, ola, edek, zosia, ania];
const ids = (list) => list.map((person) => person.id);

test('each senior, by name, with who looks after her and who could be added', () => {
  const links = [
    { caregiverId: ola.id, seniorId: zosia.id },
    { caregiverId: ania.id, seniorId: zosia.id },
    { caregiverId: lukasz.id, seniorId: edek.id },
  ];
  const groups = careLinkGroups(people, links);
  assert.deepEqual(ids(groups), [zosia.id, edek.id]);
  assert.deepEqual(ids(groups[0].caregivers), [ania.id, ola.id]);
  assert.deepEqual(ids(groups[0].candidates), [lukasz.id, zbyszek.id], 'admins may be added too');
  assert.deepEqual(ids(groups[1].caregivers), [lukasz.id]);
  assert.deepEqual(ids(groups[1].candidates), [ania.id, ola.id, zbyszek.id]);
  assert.deepEqual(groups[0].caregivers[0], { id: ania.id, name: 'Ania', role: 'caregiver' });
});

test('names sort with the page\'s language: Ł after L in Polish', () => {
  const lena = { id: 'p-lena', name: 'Lena', role: 'caregiver' };
  const mira = { id: 'p-mira', name: 'Mira', role: 'caregiver' };
  const group = (language) => careLinkGroups([zosia, mira, lukasz, lena], [], { language })[0];
  assert.deepEqual(ids(group('pl').candidates), [lena.id, lukasz.id, mira.id]);
});

test('seniors are never offered as someone who looks after; unknown people in links are left out', () => {
  const links = [
    { caregiverId: 'p-gone', seniorId: zosia.id },
    { caregiverId: edek.id, seniorId: zosia.id },
    { caregiverId: ania.id, seniorId: 'p-gone' },
  ];
  const [, zosiaGroup] = careLinkGroups(people, links);
  assert.deepEqual(ids(zosiaGroup.caregivers), []);
  assert.ok(!ids(zosiaGroup.candidates).includes(edek.id));
  assert.deepEqual(unlinkedCaregivers(people, links).map((person) => person.name), ['Ania', 'Ola', 'Zbyszek'],
    'a link to someone not listed makes no one looked after');
});

test('caregivers who look after nobody are named, admins never', () => {
  const links = [{ caregiverId: ola.id, seniorId: zosia.id }];
  assert.deepEqual(ids(unlinkedCaregivers(people, links)), [ania.id, zbyszek.id]);
  assert.deepEqual(unlinkedCaregivers([lukasz, zosia], []), []);
});

test('nothing in, nothing out', () => {
  assert.deepEqual(careLinkGroups(null, null), []);
  assert.deepEqual(unlinkedCaregivers(undefined), []);
});

test('the link\'s path escapes both ids', () => {
  assert.equal(paths.careLink('p-zosia', 'p-ania'), '/people/p-zosia/caregivers/p-ania');
  assert.equal(paths.careLink('a/b', 'c d'), '/people/a%2Fb/caregivers/c%20d');
});
