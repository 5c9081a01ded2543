import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import {
  HOUSEHOLD_SECTIONS, devicesAwaitingApproval, openAtStart, peopleShownTo, readOpenSections, sectionOfRoute,
  sectionsShownTo, withSectionOpen,
} from '../../household/sections.js';
import { sectionSummary } from '../../household/section-summaries.js';

const dictionary = async (language) => JSON.parse(await readFile(new URL(`../../i18n/${language}.json`, import.meta.url), 'utf8'));
const en = createTranslator(await dictionary('en'));
const pl = createTranslator(await dictionary('pl'), await dictionary('en'));

const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior' };
const edek = { id: 'p-edek', name: 'Dziadek Edek', role: 'senior' };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver' };
const ola = { id: 'p-ola', name: 'Ola', role: 'caregiver' };
const admin = { id: 'p-admin', name: 'Łukasz', role: 'admin' };
const people = [admin, ola, zosia, ania, edek];
const links = [{ caregiverId: ania.id, seniorId: zosia.id }, { caregiverId: admin.id, seniorId: edek.id }];

const asAdmin = { personId: admin.id, role: 'admin' };
const asAnia = { personId: ania.id, role: 'caregiver' };
const asZosia = { personId: zosia.id, role: 'senior' };

const ADMIN_ONLY = ['archived', 'care-links', 'away', 'reminders', 'details', 'language', 'audit'];

test('an admin sees every section, in the page\'s order', () => {
  assert.deepEqual(sectionsShownTo(asAdmin), HOUSEHOLD_SECTIONS.map((section) => section.key));
  assert.deepEqual(sectionsShownTo(asAdmin), [
    'people', 'archived', 'care-links', 'devices', 'alert-apps', 'away', 'add-device', 'reminders', 'details', 'language', 'audit']);
});

test('a senior and a caregiver see none of the admin\'s; only a senior of them adds a device', () => {
  assert.deepEqual(sectionsShownTo(asZosia), ['people', 'devices', 'alert-apps', 'add-device']);
  assert.deepEqual(sectionsShownTo(asAnia), ['people', 'devices', 'alert-apps']);
  for (const me of [asZosia, asAnia]) {
    assert.deepEqual(sectionsShownTo(me).filter((key) => ADMIN_ONLY.includes(key)), [], me.role);
  }
  assert.deepEqual(sectionsShownTo(null), ['people'], 'until the page knows who this is');
  assert.deepEqual(sectionsShownTo({ role: 'admin' }), ['people'], 'nobody without a person');
  assert.deepEqual(sectionsShownTo({ personId: 'x', role: 'guest' }), ['people', 'devices', 'alert-apps']);
});

test('each section\'s element and heading ids are those links, tests and the page refocus by', () => {
  const ids = Object.fromEntries(HOUSEHOLD_SECTIONS.map((section) => [section.key, section.id]));
  assert.equal(ids.people, 'household-people');
  assert.equal(ids.archived, 'archived-people');
  assert.equal(ids.devices, 'household-devices');
  assert.equal(new Set(Object.values(ids)).size, HOUSEHOLD_SECTIONS.length);
  for (const section of HOUSEHOLD_SECTIONS) assert.notEqual(en(section.heading), section.heading, `${section.key} has a heading`);
});

test('People starts open, the rest closed, unless this device kept otherwise', () => {
  assert.deepEqual(HOUSEHOLD_SECTIONS.filter((section) => openAtStart(section.key)).map((section) => section.key), ['people']);
  const saved = { people: false, devices: true };
  assert.equal(openAtStart('people', saved), false);
  assert.equal(openAtStart('devices', saved), true);
  assert.equal(openAtStart('audit', saved), false);
});

test('what this device kept is read leniently and written one section at a time', () => {
  assert.deepEqual(readOpenSections('{"devices":true,"people":false,"garden":true,"audit":"yes"}'), { devices: true, people: false });
  for (const junk of [null, undefined, '', 'not json', '[true]', 'null', '42']) assert.deepEqual(readOpenSections(junk), {}, String(junk));
  const saved = { devices: true };
  const next = withSectionOpen(saved, 'audit', 1);
  assert.deepEqual(next, { devices: true, audit: true });
  assert.deepEqual(saved, { devices: true }, 'a new object');
  assert.deepEqual(withSectionOpen(next, 'garden', true), next, 'an unknown section is not kept');
  assert.deepEqual(readOpenSections(JSON.stringify(withSectionOpen(next, 'devices', false))), { devices: false, audit: true });
});

test('a link names a section: #/household/devices', () => {
  assert.equal(sectionOfRoute(['devices']), 'devices');
  assert.equal(sectionOfRoute(['add-device', 'x']), 'add-device');
  assert.equal(sectionOfRoute([]), null);
  assert.equal(sectionOfRoute(['garden']), null);
  assert.equal(sectionOfRoute(undefined), null);
});

test('devices waiting for approval count for an admin only', () => {
  const devices = [{ id: 'd1', awaitingApproval: true }, { id: 'd2', awaitingApproval: true, revoked: true }, { id: 'd3' }];
  assert.equal(devicesAwaitingApproval(asAdmin, devices), 1);
  assert.equal(devicesAwaitingApproval(asAnia, devices), 0);
  assert.equal(devicesAwaitingApproval(asAdmin, null), 0);
});

test('a senior\'s People are herself and those who look after her; everyone else sees everyone', () => {
  assert.deepEqual(peopleShownTo(asZosia, people, links).map((p) => p.name), ['Babcia Zosia', 'Ania']);
  assert.deepEqual(peopleShownTo({ personId: edek.id, role: 'senior' }, people, links).map((p) => p.name), ['Łukasz', 'Dziadek Edek']);
  assert.deepEqual(peopleShownTo(asAnia, people, links), people);
  assert.deepEqual(peopleShownTo(asAdmin, people, links), people);
  assert.deepEqual(peopleShownTo(asZosia, null, links), []);
});

const data = (me, more = {}) => ({
  me,
  household: { name: 'Dom Zosi', timeZone: 'Europe/Warsaw', language: 'pl' },
  people,
  links,
  devices: [
    { id: 'd1', name: 'Tablet', personId: zosia.id },
    { id: 'd2', name: 'Telefon', personId: ania.id, awaitingApproval: true },
    { id: 'd3', name: 'Stary', personId: ola.id, revoked: true },
  ],
  alertApps: [{ id: 'a1', name: 'Telefon Ani', personId: ania.id }, { id: 'a2', name: 'Old', personId: ania.id, revokedAt: '2026-01-01T00:00:00Z' }],
  reminders: { graceMinutes: 30, repeatMinutes: 10 },
  archived: [...people, { id: 'p-gone', name: 'Obcy', role: 'caregiver', archivedAt: '2026-11-01T10:00:00Z' }],
  audit: [{ seq: 7, time: '2026-11-20T10:05:00Z', entity: 'person' }, { seq: 3, time: '2026-11-19T08:00:00Z', entity: 'device' }],
  ...more,
});

const lines = (t, language, page, extra) => Object.fromEntries(sectionsShownTo(page.me).map((key) => [key, sectionSummary(key, t, language, page, extra)]));

test('the admin\'s lines say what is inside each closed section, in English', () => {
  assert.deepEqual(lines(en, 'en', data(asAdmin)), {
    people: 'In all: 5 · cared for: 2',
    archived: 'Archived: 1',
    'care-links': 'Cared for: 2 · caregivers who look after no one: 1',
    devices: 'Paired: 2 · waiting for your approval: 1',
    'alert-apps': 'Phones signed in: 1',
    away: 'Told away from home: 0 of 3 · emergency contacts: 0',
    'add-device': 'A pairing code for a new phone or tablet.',
    reminders: 'Missed after 30 min · reminded every 10 min',
    details: 'Dom Zosi · Europe/Warsaw',
    language: 'Polski',
    audit: 'Latest: 20 Nov 2026, 11:05',
  });
});

test('and in Polish', () => {
  assert.deepEqual(lines(pl, 'pl', data(asAdmin)), {
    people: 'Razem: 5 · pod opieką: 2',
    archived: 'Zarchiwizowane osoby: 1',
    'care-links': 'Pod opieką: 2 · opiekunowie bez podopiecznych: 1',
    devices: 'Sparowane: 2 · czekają na twoją zgodę: 1',
    'alert-apps': 'Zalogowane telefony: 1',
    away: 'Powiadamiani poza domem: 0 z 3 · kontakty alarmowe: 0',
    'add-device': 'Kod parowania dla nowego telefonu lub tabletu.',
    reminders: 'Nieprzyjęta po 30 min · przypomnienie co 10 min',
    details: 'Dom Zosi · Europe/Warsaw',
    language: 'Polski',
    audit: 'Ostatnia: 20 lis 2026, 11:05',
  });
});

test('a senior\'s and a caregiver\'s lines speak of what is theirs', () => {
  const hers = data(asZosia, { devices: [{ id: 'd1', name: 'Tablet', personId: zosia.id }], alertApps: [] });
  assert.deepEqual(lines(en, 'en', hers), {
    people: 'Looked after by: Ania',
    devices: 'Yours: 1',
    'alert-apps': 'No phone gets alerts through the ntfy app yet.',
    'add-device': 'A pairing code for the phone of someone new who will look after you.',
  });
  assert.equal(sectionSummary('people', pl, 'pl', hers), 'Opiekunowie: Ania');
  assert.equal(sectionSummary('people', en, 'en', data(asZosia, { links: [] })), 'No one looks after you here yet.');
  assert.equal(sectionSummary('add-device', en, 'en', hers, { codeWaiting: true }), 'Waiting for the new device…');
  const anias = data(asAnia, { devices: [{ id: 'd2', name: 'Telefon', personId: ania.id, awaitingApproval: true }] });
  assert.deepEqual(lines(en, 'en', anias), {
    people: 'In all: 5 · cared for: 2',
    devices: 'Yours: 1',
    'alert-apps': 'Your phones: 1',
  });
});

test('nothing known yet, nothing listed or not readable: the lines say so, never "undefined"', () => {
  assert.equal(sectionSummary('people', en, 'en', null), '');
  assert.equal(sectionSummary('garden', en, 'en', data(asAdmin)), '');
  const empty = data(asAdmin, {
    people: [], links: [], devices: [], alertApps: [], archived: [], audit: null, reminders: null, household: {},
  });
  assert.deepEqual(lines(en, 'en', empty), {
    people: 'Nobody is in the household yet.',
    archived: 'Nobody is archived.',
    'care-links': 'There are no seniors in the household yet.',
    devices: 'No devices are paired.',
    'alert-apps': 'No phone gets alerts through the ntfy app yet.',
    away: 'No caregiver to tell yet.',
    'add-device': 'A pairing code for a new phone or tablet.',
    reminders: '',
    details: '',
    language: '',
    audit: 'The list of changes could not be read just now.',
  });
  assert.equal(sectionSummary('audit', en, 'en', data(asAdmin, { audit: [] })), 'No changes yet.');
});
