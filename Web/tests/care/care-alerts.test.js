import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { amountText } from '../../care/words.js';
import {
  alertMedication, alertMessage, answeredState, answersDose, bannerAlerts, canAcknowledge, canRespond, isForMe, isOwnSOS,
  isOlderAlert, newSounds, offersCall, reminderDoseKey, sentenceSaysTime, soundKey, staysInView, takesFocus, upsertAlert,
} from '../../care/alerts.js';

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

test('a reminder is answered by its senior (Taken, Skip, Later), and never closed with OK while open', () => {
  const due = alert('dose-due', 'senior', 'ela', { details: { medicationName: 'Omeprazol', strength: '20 mg', doseKey: 's1/2026-11-22T08:00' } });
  assert.equal(answersDose(due, ela), true);
  assert.equal(answersDose(due, jan), false, 'another senior');
  assert.equal(answersDose(due, ania), false, 'a caregiver is told only when it is missed');
  assert.equal(answersDose({ ...due, open: false }, ela), false, 'already answered');
  assert.equal(canAcknowledge(due), false, 'OK recorded nothing, and the dose was then counted missed');
  assert.equal(canAcknowledge({ ...due, open: false }), false);
  assert.equal(canAcknowledge(alert('dose-missed', 'caregivers', 'ela')), true);
  assert.equal(canAcknowledge(alert('sos', 'caregivers', 'ela')), true);
  assert.equal(reminderDoseKey(due), 's1/2026-11-22T08:00');
  assert.equal(reminderDoseKey(alert('dose-due', 'senior', 'ela')), null, 'raised before reminders named their dose');
  assert.equal(alertMedication(due), 'Omeprazol 20 mg');
});

test('a dose alert closed by an answer says how, when and by whom', async () => {
  const en = createTranslator(JSON.parse(await readFile(new URL('../../i18n/en.json', import.meta.url), 'utf8')));
  const pl = createTranslator(JSON.parse(await readFile(new URL('../../i18n/pl.json', import.meta.url), 'utf8')));
  const time = (iso) => iso.slice(11, 16);
  const missed = alert('dose-missed', 'caregivers', 'ela', {
    open: false, resolvedAt: '2026-11-22T09:00:00.000Z',
    details: { answer: 'taken', takenAt: '2026-11-22T08:10:00.000Z', answeredAt: '2026-11-22T09:00:00.000Z', answeredByName: 'Ela' },
  });
  const taken = answeredState(missed, { time });
  assert.equal(en(taken.key, taken.params), 'Taken at 08:10 (recorded by Ela, 09:00)');
  assert.equal(pl(taken.key, taken.params), 'Lek przyjęty o 08:10 (zapisane przez: Ela, 09:00)');
  const skipped = answeredState({ ...missed, details: { ...missed.details, answer: 'skipped', takenAt: undefined } }, { time });
  assert.equal(en(skipped.key, skipped.params), 'Skipped (recorded by Ela, 09:00)');
  assert.equal(answeredState({ ...missed, details: {} }), null, 'closed without an answer (the grace ran out)');
  assert.equal(answeredState({ ...missed, resolvedAt: null }), null, 'still open');
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
  const load = async (lang) => JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
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

test('what a caregiver calls her ("Mama") wins over the name the alert keeps; her own screen is unchanged', async () => {
  const en = createTranslator(JSON.parse(await readFile(new URL('../../i18n/en.json', import.meta.url), 'utf8')));
  const aliasOf = (id) => (id === 'ela' ? 'Mama' : null);
  const say = (kind, audience, me) => {
    const { key, params } = alertMessage(alert(kind, audience, 'ela'), me, {
      aliasOf, nameOf: () => 'Ela', amountText: (n, u) => amountText('en', n, u), time: () => '08:00',
    });
    return en(key, params);
  };
  assert.equal(say('dose-missed', 'caregivers', ania), 'Mama has not taken Aspirin (2 tablets, 08:00)');
  assert.match(say('sos', 'caregivers', ania), /^Mama needs help/);
  const noAlias = alertMessage(alert('sos', 'caregivers', 'ela'), ania, { aliasOf: () => null, nameOf: () => 'Elżbieta' });
  assert.equal(noAlias.params.person, 'Ela', 'without an alias the alert\'s own name comes first, as before');
  const mine = alertMessage(alert('sos', 'caregivers', 'ela'), ela, { aliasOf: () => null });
  assert.equal(mine.key, 'alerts.message.sosSent', 'her own SOS names nobody');
});

test('a list of open alerts adds the time only to a sentence that does not say it', () => {
  assert.equal(sentenceSaysTime(alert('sos', 'caregivers', 'ela'), ania), true, '"SOS at 20:54" said it');
  assert.equal(sentenceSaysTime(alert('sos', 'caregivers', 'ela'), ela), true, 'her own SOS, waiting');
  assert.equal(sentenceSaysTime(alert('dose-due', 'senior', 'ela'), ela), true);
  assert.equal(sentenceSaysTime(alert('dose-missed', 'caregivers', 'ela'), ania), true);
  assert.equal(sentenceSaysTime(alert('low-stock', 'caregivers', 'ela'), ania), false);
  assert.equal(sentenceSaysTime(alert('clock', 'keepers', null), ania), false);
});

test('an older state of an alert does not replace a later one', () => {
  const sos = alert('sos', 'caregivers', 'ela');
  const answered = { ...sos, respondedAt: '2026-11-22T08:01:00Z' };
  const closed = { ...answered, open: false };
  assert.equal(isOlderAlert(sos, answered), true);
  assert.equal(isOlderAlert(answered, closed), true);
  assert.equal(isOlderAlert(closed, answered), false);
  assert.equal(isOlderAlert(sos, sos), false);
  assert.equal(isOlderAlert(sos, { ...answered, id: 'other' }), false);
  // A snoozed reminder closes, then rings again: the repeat is the later state.
  const rings = { ...sos, repeats: 1, notifiedAt: '2026-11-22T08:10:00Z' };
  assert.equal(isOlderAlert(rings, { ...sos, open: false }), false);
  assert.equal(isOlderAlert({ ...sos, open: false }, rings), true);
  assert.deepEqual(upsertAlert([answered], sos), [answered]);
  assert.deepEqual(upsertAlert([answered], closed), [closed]);
});

test('a caregiver\'s SOS banner offers to call the senior back; the senior\'s own does not', () => {
  const sos = alert('sos', 'caregivers', 'ela');
  assert.equal(offersCall(sos, ania), true);
  assert.equal(offersCall({ ...sos, respondedAt: '2026-11-22T08:01:00Z' }, admin), true, 'still useful once someone is on the way');
  assert.equal(offersCall(sos, ela), false, 'her own call for help');
  assert.equal(offersCall({ ...sos, open: false }, ania), false, 'closed');
  assert.equal(offersCall(alert('dose-missed', 'caregivers', 'ela'), ania), true, 'a missed dose: call and ask');
  assert.equal(offersCall(alert('low-stock', 'caregivers', 'ela'), ania), false, 'not for stock');
  assert.equal(offersCall({ ...sos, personId: null }, ania), false, 'nobody to call');
});

test('an unanswered SOS or a missed dose takes a caregiver\'s keyboard; her own SOS, a reminder or low stock do not', () => {
  const sos = alert('sos', 'caregivers', 'ela');
  assert.equal(takesFocus(sos, ania), true);
  assert.equal(takesFocus({ ...sos, respondedAt: '2026-11-22T08:01:00Z' }, ania), false, 'someone is on the way already');
  assert.equal(takesFocus({ ...sos, open: false }, ania), false, 'closed');
  assert.equal(takesFocus(sos, ela), false, 'she has just slid it herself');
  assert.equal(takesFocus(alert('sos', 'caregivers', 'jan'), ania), false, 'not someone she looks after');
  assert.equal(takesFocus(alert('dose-missed', 'caregivers', 'ela'), ania), true);
  assert.equal(takesFocus(alert('dose-due', 'senior', 'ela'), ela), false, 'a reminder waits politely');
  assert.equal(takesFocus(alert('low-stock', 'caregivers', 'ela'), ania), false);
});

test('a dose alert follows its dose: taken late, put right since, or its answer taken back', async () => {
  const en = createTranslator(JSON.parse(await readFile(new URL('../../i18n/en.json', import.meta.url), 'utf8')));
  const pl = createTranslator(JSON.parse(await readFile(new URL('../../i18n/pl.json', import.meta.url), 'utf8')));
  const time = (iso) => iso.slice(11, 16);
  const missed = alert('dose-missed', 'caregivers', 'ela', {
    open: false, resolvedAt: '2026-11-22T14:00:00.000Z',
    details: {
      answer: 'taken', takenAt: '2026-11-22T13:40:00.000Z', takenLate: true, answeredAt: '2026-11-22T14:00:00.000Z', answeredByName: 'Ela',
    },
  });
  const say = (state) => [en(state.key, state.params), pl(state.key, state.params)];
  assert.deepEqual(say(answeredState(missed, { time })), [
    'Taken late, at 13:40 (recorded by Ela, 14:00)', 'Lek przyjęty z opóźnieniem, o 13:40 (zapisane przez: Ela, 14:00)']);
  const changed = { correctedByName: 'Ania', correctedAt: '2026-11-22T15:05:00.000Z' };
  const skipped = { ...missed, details: { ...missed.details, ...changed, answer: 'skipped', takenAt: undefined, takenLate: undefined } };
  assert.deepEqual(say(answeredState(skipped, { time })), [
    'Skipped (changed by Ania, 15:05)', 'Dawka pominięta (zmienione przez: Ania, 15:05)'], 'not "Taken at 13:40" any more');
  const onTime = { ...missed, details: { ...missed.details, ...changed, takenAt: '2026-11-22T08:10:00.000Z', takenLate: false } };
  assert.equal(say(answeredState(onTime, { time }))[0], 'Taken at 08:10 (changed by Ania, 15:05)');
  const lateChanged = { ...missed, details: { ...missed.details, ...changed } };
  assert.equal(say(answeredState(lateChanged, { time }))[0], 'Taken late, at 13:40 (changed by Ania, 15:05)');
  const withdrawn = { ...missed, details: { ...changed, answer: 'withdrawn', answeredByName: 'Ela' } };
  assert.deepEqual(say(answeredState(withdrawn, { time })), ['Answer taken back by Ania (15:05)', 'Odpowiedź cofnięta przez: Ania (15:05)']);
  const later = { ...missed, details: { ...changed, answer: 'snoozed', answeredAt: '2026-11-22T08:05:00.000Z', answeredByName: 'Ela' } };
  assert.equal(say(answeredState(later, { time }))[0], 'Put off for later by Ela (08:05)', 'a Later stays what it was');
});

test('an SOS or a missed dose stays in view for a caregiver once answered too; her own SOS and the rest do not', () => {
  const sos = alert('sos', 'caregivers', 'ela');
  assert.equal(staysInView(sos, ania), true);
  assert.equal(staysInView({ ...sos, respondedAt: '2026-11-22T08:01:00Z' }, ania), true, 'on her way: the page stays where she was');
  assert.equal(staysInView({ ...sos, open: false }, ania), false);
  assert.equal(staysInView(sos, ela), false, 'her own');
  assert.equal(staysInView(alert('dose-missed', 'caregivers', 'ela'), ania), true);
  assert.equal(staysInView(alert('low-stock', 'caregivers', 'ela'), ania), false);
  assert.equal(staysInView(alert('dose-due', 'senior', 'ela'), ela), false);
});
