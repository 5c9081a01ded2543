import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../i18n.js';
import { amountText } from '../care/words.js';
import {
  alertMessage, bannerAlerts, canRespond, isForMe, isOwnSOS, newSounds, soundKey, upsertAlert,
} from '../care/alerts.js';

const ela = { personId: 'ela', role: 'senior' };
const jan = { personId: 'jan', role: 'senior' };
const ania = { personId: 'ania', role: 'caregiver', caresFor: ['ela'] };
const admin = { personId: 'adam', role: 'admin', caresFor: [] };
const alert = (kind, audience, personId, extra = {}) => ({
  id: `${kind}-${personId}`, kind, audience, personId, open: true, raisedAt: '2026-11-22T08:00:00.000Z', repeats: 0,
  details: { personName: 'Ela', medicationName: 'Aspirin', amount: 2, unit: 'tablets', plannedTime: '08:00' }, ...extra,
});

test('a due dose is for the senior who takes it, not for others', () => {
  const due = alert('dose-due', 'senior', 'ela');
  assert.equal(isForMe(due, ela), true);
  assert.equal(isForMe(due, jan), false, 'another senior');
  assert.equal(isForMe(due, ania), false, 'caregivers are told only when it is missed');
  assert.equal(isForMe(due, admin), false);
});

test("an SOS, a missed dose or low stock is for the senior's linked caregivers", () => {
  for (const kind of ['sos', 'dose-missed', 'low-stock']) {
    const raised = alert(kind, 'caregivers', 'ela');
    assert.equal(isForMe(raised, ania), true, kind);
    assert.equal(isForMe(raised, { ...ania, caresFor: ['jan'] }), false, `${kind}: not linked`);
    assert.equal(isForMe(raised, { personId: 'x', role: 'caregiver' }), true, `${kind}: the hub already filtered`);
    assert.equal(isForMe(raised, ela), false, `${kind}: not the senior's own banner`);
    assert.equal(isForMe(raised, admin), false, `${kind}: an admin not linked to her`);
  }
  assert.equal(isForMe(alert('sos', 'caregivers', 'ela'), { ...admin, caresFor: ['ela'] }), true, 'an admin who looks after her');
});

test("the hub's clock is for admins and caregivers, never seniors", () => {
  const clock = alert('clock', 'keepers', null);
  assert.equal(isForMe(clock, admin), true);
  assert.equal(isForMe(clock, ania), true);
  assert.equal(isForMe(clock, ela), false);
  assert.equal(isForMe({ ...clock, audience: 'nobody' }, admin), false);
});

test('the banner shows open alerts for me, SOS first then newest; a senior follows their own SOS', () => {
  const alerts = [
    alert('dose-due', 'senior', 'ela', { id: 'old-due', raisedAt: '2026-11-22T07:00:00Z' }),
    alert('dose-due', 'senior', 'ela', { id: 'new-due', raisedAt: '2026-11-22T09:00:00Z' }),
    alert('sos', 'caregivers', 'ela', { id: 'sos', raisedAt: '2026-11-22T06:00:00Z' }),
    alert('dose-due', 'senior', 'ela', { id: 'closed', open: false }),
    alert('low-stock', 'caregivers', 'ela', { id: 'stock' }),
  ];
  assert.deepEqual(bannerAlerts(alerts, ela).map((a) => a.id), ['sos', 'new-due', 'old-due']);
  assert.deepEqual(bannerAlerts(alerts, ania).map((a) => a.id), ['sos', 'stock']);
  assert.equal(isOwnSOS(alerts[2], ela), true);
  assert.equal(isOwnSOS(alerts[2], jan), false);
});

test('a live change replaces the alert with its id', () => {
  const first = alert('sos', 'caregivers', 'ela');
  const list = upsertAlert([first], { ...first, open: false });
  assert.equal(list.length, 1);
  assert.equal(list[0].open, false);
  assert.equal(upsertAlert(list, { ...first, id: 'other' }).length, 2);
  assert.equal(upsertAlert(list, null), list);
});

test('a sound is made for a new alert, a repeat, and an answer, but not twice', () => {
  const sos = alert('sos', 'caregivers', 'ela');
  const heard = new Set([soundKey(sos)]);
  assert.deepEqual(newSounds([sos], heard), []);
  assert.equal(newSounds([{ ...sos, repeats: 1 }], heard).length, 1);
  assert.equal(newSounds([{ ...sos, respondedAt: '2026-11-22T08:01:00Z' }], heard).length, 1);
});

test('only a caregiver answers an SOS with "I\'m on my way", once', () => {
  const sos = alert('sos', 'caregivers', 'ela');
  assert.equal(canRespond(sos, ania), true);
  assert.equal(canRespond(sos, ela), false);
  assert.equal(canRespond({ ...sos, respondedAt: '2026-11-22T08:01:00Z' }, ania), false);
  assert.equal(canRespond(alert('dose-missed', 'caregivers', 'ela'), ania), false);
});

test('alert sentences read well in English and Polish', async () => {
  const load = async (lang) => JSON.parse(await readFile(new URL(`../i18n/${lang}.json`, import.meta.url), 'utf8'));
  const en = await load('en');
  const pl = await load('pl');
  const say = (lang, a, me) => {
    const t = lang === 'pl' ? createTranslator(pl, en) : createTranslator(en);
    const { key, params } = alertMessage(a, me, { amountText: (n, u) => amountText(lang, n, u), time: () => '08:00' });
    return t(key, params);
  };
  const due = alert('dose-due', 'senior', 'ela');
  assert.equal(say('en', due, ela), 'Time to take Aspirin: 2 tablets (08:00)');
  assert.equal(say('pl', due, ela), 'Pora na lek Aspirin: 2 tabletki (08:00)');
  assert.equal(say('pl', { ...due, details: { ...due.details, amount: 5 } }, ela), 'Pora na lek Aspirin: 5 tabletek (08:00)');

  const sos = alert('sos', 'caregivers', 'ela');
  assert.equal(say('en', sos, ania), 'Ela needs help! (SOS at 08:00)');
  assert.equal(say('en', sos, ela), 'You called for help at 08:00. Waiting for an answer…');
  const answered = { ...sos, respondedAt: '2026-11-22T08:01:00Z', details: { ...sos.details, respondedByName: 'Ania' } };
  assert.equal(say('en', answered, ela), 'Help is on the way: Ania');
  assert.equal(say('pl', answered, ela), 'Pomoc jest w drodze: Ania');
  assert.equal(say('en', answered, ania), 'Ela needs help (SOS at 08:00). Ania is on the way.');

  assert.equal(say('en', alert('dose-missed', 'caregivers', 'ela'), ania), 'Ela has not taken Aspirin (2 tablets, 08:00)');
  const low = alert('low-stock', 'caregivers', 'ela', { details: { personName: 'Ela', medicationName: 'Aspirin', daysRemaining: 4.5 } });
  assert.equal(say('en', low, ania), 'Aspirin for Ela is running low. Days left: 4');
  const unnamed = { ...low, details: { medicationName: 'Aspirin', daysRemaining: 2 } };
  const { key, params } = alertMessage(unnamed, ania, { nameOf: (id) => (id === 'ela' ? 'Ela' : null) });
  assert.equal(createTranslator(en)(key, params), 'Aspirin for Ela is running low. Days left: 2', 'the name is looked up');
  assert.equal(say('pl', alert('clock', 'keepers', null), admin), 'Zegar centrali wskazuje złą godzinę. Sprawdź ustawienia czasu.');
});
