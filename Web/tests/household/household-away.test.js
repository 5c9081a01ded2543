import { test } from 'node:test';
import assert from 'node:assert/strict';
import { awayReach, contactsRequest, reachedCount } from '../../household/away.js';

const people = [
  { id: 'z', name: 'Babcia Zosia', role: 'senior', phone: '+48 600 100 100' },
  { id: 'a', name: 'Ania', role: 'caregiver', phone: '+48 600 100 200' },
  { id: 'e', name: 'Ela', role: 'caregiver', phone: '' },
  { id: 'p', name: 'Piotr', role: 'admin', phone: '+48 600 100 400' },
  { id: 'o', name: 'Ola', role: 'caregiver', phone: '+48 600 100 500' },
  { id: 'x', name: 'Xawery', role: 'caregiver', phone: '+48 600 100 600', archivedAt: '2026-11-01T00:00:00Z' },
];

test('each caregiver and admin is said reached by what she chose and the hub can send, or why not', () => {
  const both = { textsPossible: true, pushPossible: true };
  const reach = awayReach(people, {
    a: { sms: true, push: true, ...both },
    e: { sms: true, push: false, ...both },
    p: { sms: false, push: false, ...both },
  });
  assert.deepEqual(reach.map((r) => [r.name, r.reachedBy, r.reasons]), [
    ['Ania', ['sms', 'push'], []],
    ['Ela', [], ['noPhone']],
    ['Ola', [], ['unknown']],
    ['Piotr', [], ['notChosen']],
  ]);
  assert.equal(reachedCount(reach), 1);
});

test('a hub with no modem and no push is the reason, not her', () => {
  const [ania] = awayReach(people, { a: { sms: true, push: true, textsPossible: false, pushPossible: false } })
    .filter((r) => r.id === 'a');
  assert.deepEqual(ania.reasons, ['noModem', 'noPush']);
  assert.deepEqual(ania.reachedBy, []);
});

test('emergency contacts are sent trimmed, empty rows left out', () => {
  assert.deepEqual(contactsRequest([{ name: ' Pani Halina ', phone: ' +48 600 100 900 ' }, { name: '', phone: '' }, { name: 'Jan', phone: '' }]),
    [{ name: 'Pani Halina', phone: '+48 600 100 900' }, { name: 'Jan', phone: '' }]);
});

test('the hub\'s channels are said to the admin: the month\'s texts, warned from four fifths, the signal and what stops them', async () => {
  const { hubAwayLines } = await import('../../household/away.js');
  assert.deepEqual(hubAwayLines(null), []);
  assert.deepEqual(hubAwayLines({ smsEnabled: false, pushEnabled: false }), []);
  assert.deepEqual(hubAwayLines({ smsEnabled: true, textsThisMonth: 79, monthlyLimit: 100, modem: { signalPercent: 42 } }).map((l) => [l.key, l.warning]), [
    ['household.away.hub.texts', false], ['household.away.hub.signal', false],
  ]);
  const lines = hubAwayLines({ smsEnabled: true, textsThisMonth: 80, monthlyLimit: 100, smsProblem: 'gammu-smsd-inject is not installed',
    modemProblem: 'gammu-smsd is not running', pushEnabled: true, pushProblem: 'the push server answered 429' });
  assert.deepEqual(lines.map((l) => [l.key, l.warning]), [
    ['household.away.hub.textsNearLimit', true], ['household.away.hub.modemProblem', true],
    ['household.away.hub.smsProblem', true], ['household.away.hub.pushProblem', true],
  ]);
});
