import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SKIP_REASONS, SKIP_REASON_IDS, chosenReason, skipReasonId, skipReasonLabel, skipReasonText } from '../../care/skip-reasons.js';
import { limitRefusalMessage, limitRefusalText } from '../../care/limit-refusal.js';

test('every ready-made reason has its English and Polish words', () => {
  assert.deepEqual(SKIP_REASON_IDS, ['unwell', 'ranOut', 'doctorPause']);
  for (const id of SKIP_REASON_IDS) {
    assert.ok(SKIP_REASONS[id].en?.trim(), `${id} in English`);
    assert.ok(SKIP_REASONS[id].pl?.trim(), `${id} in Polish`);
    assert.notEqual(SKIP_REASONS[id].en, SKIP_REASONS[id].pl, `${id} is translated`);
  }
  assert.equal(skipReasonLabel('en', 'ranOut'), 'Ran out');
  assert.equal(skipReasonLabel('de', 'ranOut'), 'Ran out', 'a language without words falls back to English');
});

test('a reason chosen on a Polish tablet reads in English on an English phone, and back', () => {
  const sent = chosenReason('pl', { id: 'doctorPause' }).reason;
  assert.equal(sent, 'Lekarz zalecił przerwę');
  assert.equal(skipReasonText('en', sent), 'Doctor said to pause');
  assert.equal(skipReasonText('pl', 'Felt unwell'), 'Złe samopoczucie');
  assert.equal(skipReasonText('en', ' felt UNWELL '), 'Felt unwell', 'case and spaces do not matter');
  assert.equal(skipReasonId('Skończył się lek'), 'ranOut');
});

test('a typed reason is shown as typed, and no reason as nothing', () => {
  assert.equal(skipReasonText('pl', 'Wizyta u dentysty'), 'Wizyta u dentysty');
  assert.equal(skipReasonText('en', null), '');
  assert.equal(skipReasonText('en', '   '), '');
});

test('what the dialog sends: the reason, null without one, or that it is too long', () => {
  assert.deepEqual(chosenReason('en', { id: 'unwell' }), { reason: 'Felt unwell' });
  assert.deepEqual(chosenReason('en', { typed: '  Hospital visit ' }), { reason: 'Hospital visit' });
  assert.deepEqual(chosenReason('en', { typed: '  ' }), { reason: null });
  assert.deepEqual(chosenReason('en', {}), { reason: null });
  assert.deepEqual(chosenReason('en', { typed: 'x'.repeat(501) }), { error: 'tooLong' });
  assert.deepEqual(chosenReason('pl', { typed: 'ż'.repeat(500) }), { reason: 'ż'.repeat(500) });
});

const polish = {
  'today.refusal.tooSoon': 'Za wcześnie: następną dawkę leku {medication} można przyjąć od {time}.',
  'today.refusal.dailyMaximum': '{medication}: dziś przyjęto już największą dozwoloną liczbę dawek ({count}).',
};
const t = (key, params) => polish[key].replace(/\{(\w+)\}/g, (_, name) => String(params[name]));

test('the hub’s refusal of an as-needed dose is said again in Polish from its fields', () => {
  assert.equal(limitRefusalText(t, { rule: 'minimumInterval', medicationName: 'Paracetamol', nextAllowedTime: '14:05',
    detail: 'Too soon: the next dose of Paracetamol is allowed from 14:05' }),
  'Za wcześnie: następną dawkę leku Paracetamol można przyjąć od 14:05.');
  assert.equal(limitRefusalText(t, { rule: 'dailyMaximum', medicationName: 'Paracetamol 500', dailyMaximum: 3,
    detail: 'Paracetamol 500 has already been taken 3 times today, the most allowed' }),
  'Paracetamol 500: dziś przyjęto już największą dozwoloną liczbę dawek (3).');
  assert.deepEqual(limitRefusalMessage({ rule: 'minimumInterval', medicationName: 'Syrop: na kaszel', nextAllowedTime: '08:30' }),
    { key: 'today.refusal.tooSoon', params: { medication: 'Syrop: na kaszel', time: '08:30' } });
});

test('a refusal worded some other way is shown as the hub wrote it', () => {
  assert.equal(limitRefusalMessage({ detail: 'Not now' }), null);
  assert.equal(limitRefusalMessage(null), null);
  assert.equal(limitRefusalText(t, { rule: 'dailyMaximum', detail: 'Not now' }), 'Not now');
});
