import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator, lookup } from '../i18n.js';
import {
  ALERT_APP_NAME_MAX_LENGTH,
  ALERT_TOPICS,
  alertAppEntries,
  alertAppRequest,
  canRemoveAlertApp,
  ntfySteps,
  suggestedAlertAppName,
  testReport,
} from '../household/alert-apps.js';

const readDictionary = async (lang) =>
  JSON.parse(await readFile(new URL(`../i18n/${lang}.json`, import.meta.url), 'utf8'));

const anna = { id: 'p-anna', name: 'Anna', role: 'caregiver' };
const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior' };
const admin = { id: 'p-admin', name: 'Łukasz', role: 'admin' };
const people = [anna, zosia, admin];

const made = {
  id: 'a-1', personId: anna.id, name: 'Anna’s phone', username: 'hearth-k3m9x2qa', password: 'secret',
  server: 'http://192.168.1.20:8080/ntfy', createdAt: '2026-11-22T09:00:00Z',
};

test('the steps go from installing ntfy to a test, and name the server and user once a sign-in is made', () => {
  const before = ntfySteps(null);
  assert.deepEqual(before.map((step) => step.key.split('.').at(-1)),
    ['install', 'make', 'user', 'subscribe', 'instant', 'allow', 'test']);
  assert.deepEqual(before.find((step) => step.key.endsWith('.subscribe')).params, { topic: 'alerts' });
  const after = ntfySteps(made);
  assert.deepEqual(after[2], { key: 'phoneAlerts.steps.userWith', params: { server: made.server, username: made.username } });
  assert.equal(after.length, before.length);
  // Not a sign-in the hub answered in full: the step points at the form instead.
  assert.equal(ntfySteps({ server: made.server })[2].key, 'phoneAlerts.steps.user');
});

test('every step and topic reads in English and Polish, with nothing left unfilled', async () => {
  for (const lang of ['en', 'pl']) {
    const dictionary = await readDictionary(lang);
    const t = createTranslator(dictionary);
    for (const step of [...ntfySteps(null), ...ntfySteps(made)]) {
      assert.ok(lookup(dictionary, step.key), `${lang}: ${step.key}`);
      assert.doesNotMatch(t(step.key, step.params), /\{\w+\}/, `${lang}: ${step.key} is filled`);
    }
    for (const topic of ALERT_TOPICS) assert.ok(lookup(dictionary, `phoneAlerts.topics.${topic}`), `${lang}: topic ${topic}`);
  }
  const t = createTranslator(await readDictionary('en'));
  assert.match(t('phoneAlerts.steps.userWith', ntfySteps(made)[2].params), /http:\/\/192\.168\.1\.20:8080\/ntfy.*hearth-k3m9x2qa/);
});

test('the topics are the four the hub serves, “alerts” first', () => {
  assert.deepEqual(ALERT_TOPICS, ['alerts', 'sos', 'doses', 'stock']);
});

test('a name is needed, and at most as long as the hub keeps', () => {
  assert.deepEqual(alertAppRequest('  Anna’s phone '), { body: { name: 'Anna’s phone' } });
  assert.deepEqual(alertAppRequest('   '), { errors: { name: 'nameMissing' } });
  assert.deepEqual(alertAppRequest(null), { errors: { name: 'nameMissing' } });
  assert.deepEqual(alertAppRequest('x'.repeat(ALERT_APP_NAME_MAX_LENGTH)), { body: { name: 'x'.repeat(60) } });
  assert.deepEqual(alertAppRequest('x'.repeat(61)), { errors: { name: 'nameTooLong' } });
  // Counted in characters, as the hub counts them: 60 emoji are not 120.
  assert.ok(alertAppRequest('📱'.repeat(60)).body);
});

test('the suggested name is never one the hub would refuse', async () => {
  const en = createTranslator(await readDictionary('en'));
  const pl = createTranslator(await readDictionary('pl'));
  assert.equal(suggestedAlertAppName(en('phoneAlerts.make.suggestedName', { name: 'Anna' })), 'Anna’s phone');
  assert.equal(suggestedAlertAppName(pl('phoneAlerts.make.suggestedName', { name: 'Anna' })), 'Telefon – Anna');
  const long = suggestedAlertAppName(en('phoneAlerts.make.suggestedName', { name: 'A'.repeat(80) }));
  assert.equal([...long].length, ALERT_APP_NAME_MAX_LENGTH);
  assert.ok(alertAppRequest(long).body);
  assert.ok(alertAppRequest(suggestedAlertAppName(`${'Ł'.repeat(59)} 📱📱`)).body, 'cut by characters, and trimmed');
});

test('the sign-ins: this person’s first, then by whose and by name; revoked ones are not listed', () => {
  const apps = [
    { id: 'z1', personId: zosia.id, name: 'Tablet', username: 'hearth-z1', createdAt: '2026-11-20T08:00:00Z' },
    { id: 'a2', personId: anna.id, name: 'Work phone', username: 'hearth-a2', createdAt: '2026-11-21T08:00:00Z' },
    { id: 'a1', personId: anna.id, name: 'Anna’s phone', username: 'hearth-a1', createdAt: '2026-11-22T08:00:00Z' },
    { id: 'x1', personId: 'p-gone', name: 'Old phone', username: 'hearth-x1', createdAt: '2026-11-19T08:00:00Z' },
    { id: 'r1', personId: admin.id, name: 'Revoked', username: 'hearth-r1', createdAt: '2026-11-19T08:00:00Z', revokedAt: '2026-11-20T08:00:00Z' },
    { id: 'l1', personId: admin.id, name: 'Łukasz’s phone', username: 'hearth-l1', createdAt: '2026-11-19T08:00:00Z' },
  ];
  const listed = alertAppEntries(apps, people, { meId: admin.id, language: 'pl' });
  assert.deepEqual(listed.map((entry) => entry.id), ['l1', 'a1', 'a2', 'z1', 'x1']);
  assert.deepEqual(listed.map((entry) => entry.ownerName), ['Łukasz', 'Anna', 'Anna', 'Babcia Zosia', null]);
  assert.deepEqual(listed.filter((entry) => entry.isMine).map((entry) => entry.id), ['l1']);
  assert.deepEqual(alertAppEntries(apps, people, { meId: anna.id, only: 'mine' }).map((entry) => entry.id), ['a1', 'a2']);
  assert.deepEqual(alertAppEntries(null, null), []);
});

test('an admin removes anyone’s sign-in; anyone else only their own', () => {
  const annas = { id: 'a1', personId: anna.id };
  assert.equal(canRemoveAlertApp({ personId: admin.id, role: 'admin' }, annas), true);
  assert.equal(canRemoveAlertApp({ personId: anna.id, role: 'caregiver' }, annas), true);
  assert.equal(canRemoveAlertApp({ personId: zosia.id, role: 'senior' }, annas), false);
  assert.equal(canRemoveAlertApp(null, annas), false);
  assert.equal(canRemoveAlertApp({ personId: admin.id, role: 'admin' }, null), false);
});

const warsaw = { language: 'en', timeZone: 'Europe/Warsaw' };

test('a test a phone wrote out says where and when, each phone once, in the household’s time', () => {
  const report = testReport({
    messageId: 'h42-t1',
    sentTo: ['Anna’s phone', 'Anna’s phone'],
    delivered: [
      { channel: 'alert-app', recipient: 'Anna’s phone', at: '2026-11-22T09:32:01Z' },
      { channel: 'alert-app', recipient: 'Anna’s phone', at: '2026-11-22T09:32:00Z' },
      { channel: 'voice', recipient: 'speaker', at: '2026-11-22T09:32:02Z' },
    ],
  }, warsaw);
  assert.equal(report.outcome, 'delivered');
  assert.deepEqual(report.lines, [
    { key: 'phoneAlerts.test.deliveredTo', params: { name: 'Anna’s phone', time: '10:32' } },
    { key: 'phoneAlerts.test.spoken', params: { time: '10:32' } },
  ]);
});

test('a phone that only polls still counts as the phone it is', () => {
  const report = testReport({
    sentTo: ['Anna’s phone'], delivered: [{ channel: 'alert-app', recipient: 'Anna’s phone (poll)', at: '2026-11-22T09:32:00Z' }],
  }, warsaw);
  assert.equal(report.outcome, 'delivered');
  assert.deepEqual(report.lines.map((line) => line.key), ['phoneAlerts.test.deliveredTo']);
  assert.equal(report.lines[0].params.name, 'Anna’s phone');
});

test('a phone handed the test that did not confirm it in time is named as such', () => {
  const report = testReport({
    sentTo: ['Anna’s phone', 'Work phone', 'Tablet'],
    delivered: [{ channel: 'alert-app', recipient: 'Tablet', at: '2026-11-22T09:32:00Z' }],
  }, { language: 'pl', timeZone: 'Europe/Warsaw' });
  assert.equal(report.outcome, 'delivered');
  assert.deepEqual(report.lines.at(-1), { key: 'phoneAlerts.test.notConfirmed', params: { names: 'Anna’s phone i Work phone' } });
  const none = testReport({ sentTo: ['Anna’s phone'], delivered: [] }, warsaw);
  assert.equal(none.outcome, 'unconfirmed');
  assert.deepEqual(none.lines, [{ key: 'phoneAlerts.test.notConfirmed', params: { names: 'Anna’s phone' } }]);
});

test('no phone listening says so plainly, even when the hub spoke it', () => {
  assert.deepEqual(testReport({ messageId: 'h1', sentTo: [], delivered: [] }, warsaw),
    { outcome: 'nobody', lines: [{ key: 'phoneAlerts.test.nobody', params: {} }] });
  const spoken = testReport({ sentTo: [], delivered: [{ channel: 'voice', recipient: 'speaker', at: '2026-11-22T09:32:00Z' }] }, warsaw);
  assert.equal(spoken.outcome, 'nobody');
  assert.deepEqual(spoken.lines.map((line) => line.key), ['phoneAlerts.test.nobody', 'phoneAlerts.test.spoken']);
  assert.equal(testReport(null).outcome, 'nobody', 'an answer the page cannot read is no phone');
});

test('an open page that showed the test says so, each device once, at its first showing', () => {
  const report = testReport({
    sentTo: ['Anna’s phone', 'Tablet babci'],
    delivered: [
      { channel: 'page', recipient: 'Tablet babci', at: '2026-11-22T08:41:30Z' },
      { channel: 'page', recipient: 'Tablet babci', at: '2026-11-22T08:41:00Z' },
      { channel: 'alert-app', recipient: 'Anna’s phone', at: '2026-11-22T08:41:01Z' },
    ],
  }, warsaw);
  assert.equal(report.outcome, 'delivered');
  assert.deepEqual(report.lines, [
    { key: 'phoneAlerts.test.deliveredTo', params: { name: 'Anna’s phone', time: '09:41' } },
    { key: 'phoneAlerts.test.shownOn', params: { name: 'Tablet babci', time: '09:41' } },
  ]);
});

test('the pages and the hub’s voice in sentTo are not phones that did not confirm', () => {
  const report = testReport({
    sentTo: ['Work phone', 'Tablet babci', 'Kitchen tablet', 'speaker'],
    delivered: [
      { channel: 'page', recipient: 'Tablet babci', at: '2026-11-22T08:41:00Z' },
      { channel: 'page', recipient: 'Kitchen tablet', at: '2026-11-22T08:41:00Z' },
      { channel: 'voice', recipient: 'speaker', at: '2026-11-22T08:41:03Z' },
    ],
  }, warsaw);
  assert.equal(report.outcome, 'unconfirmed');
  assert.deepEqual(report.lines.find((line) => line.key === 'phoneAlerts.test.notConfirmed').params, { names: 'Work phone' });
  // The voice not heard from in time is still not a phone.
  const unspoken = testReport({ sentTo: ['speaker'], delivered: [] }, warsaw);
  assert.deepEqual(unspoken, { outcome: 'nobody', lines: [{ key: 'phoneAlerts.test.nobody', params: {} }] });
});

test('with no phone listening a page that showed it is still said, after "nobody"', () => {
  const report = testReport({
    sentTo: ['Tablet babci', 'speaker'],
    delivered: [
      { channel: 'voice', recipient: 'speaker', at: '2026-11-22T08:41:02Z' },
      { channel: 'page', recipient: 'Tablet babci', at: '2026-11-22T08:41:00Z' },
    ],
  }, warsaw);
  assert.equal(report.outcome, 'nobody', 'the outcome is about phones');
  assert.deepEqual(report.lines.map((line) => line.key),
    ['phoneAlerts.test.nobody', 'phoneAlerts.test.shownOn', 'phoneAlerts.test.spoken']);
});

test('the lines go phones, then pages, then the voice, whatever order the hub listed them in', () => {
  const report = testReport({
    sentTo: ['speaker', 'Tablet babci', 'Anna’s phone', 'Work phone'],
    delivered: [
      { channel: 'voice', recipient: 'speaker', at: '2026-11-22T08:41:00Z' },
      { channel: 'page', recipient: 'Tablet babci', at: '2026-11-22T08:41:00Z' },
      { channel: 'alert-app', recipient: 'Anna’s phone', at: '2026-11-22T08:41:01Z' },
    ],
  }, warsaw);
  assert.deepEqual(report.lines.map((line) => line.key), [
    'phoneAlerts.test.deliveredTo', 'phoneAlerts.test.notConfirmed', 'phoneAlerts.test.shownOn', 'phoneAlerts.test.spoken',
  ]);
});

test('each result reads as a sentence in both languages', async () => {
  const answer = {
    sentTo: ['Anna’s phone', 'Tablet'],
    delivered: [{ channel: 'alert-app', recipient: 'Anna’s phone', at: '2026-11-22T09:32:00Z' }, { channel: 'voice', recipient: 'speaker', at: '2026-11-22T09:32:00Z' }],
  };
  const en = createTranslator(await readDictionary('en'));
  assert.deepEqual(testReport(answer, warsaw).lines.map(({ key, params }) => en(key, params)), [
    'Delivered to Anna’s phone at 10:32.',
    'Handed to Tablet, but not confirmed within 2 seconds. Look at the phone.',
    'Spoken by the hub at 10:32.',
  ]);
  const pl = createTranslator(await readDictionary('pl'));
  const page = { sentTo: ['Tablet babci'], delivered: [{ channel: 'page', recipient: 'Tablet babci', at: '2026-11-22T08:41:00Z' }] };
  assert.deepEqual(testReport(page, warsaw).lines.map(({ key, params }) => en(key, params)), [
    'No phone is listening right now: check that the ntfy app is subscribed and connected.',
    'Shown on Tablet babci at 09:41.',
  ]);
  assert.equal(pl('phoneAlerts.test.shownOn', testReport(page, warsaw).lines[1].params), 'Pokazano na: Tablet babci o 09:41.');
  assert.equal(pl('phoneAlerts.test.nobody'),
    'Żaden telefon teraz nie nasłuchuje: sprawdź, czy aplikacja ntfy subskrybuje temat i jest połączona.');
});
