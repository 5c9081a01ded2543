import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { closedUnheard, currentSOSLine, SOS_ENDED_SHOWN_MS, sosLine } from '../../care/sos-status.js';
import { alertMessage, cancelledByHer } from '../../care/alerts.js';
import { HubProblem, isAwaitingApproval, isConnectionProblem } from '../../api.js';
import { createTranslator } from '../../i18n.js';

const zosia = { personId: 'zosia', role: 'senior' };
const ania = { personId: 'ania', role: 'caregiver' };

function sos(id, changes = {}) {
  return { id, kind: 'sos', audience: 'caregivers', personId: 'zosia', raisedAt: `2026-03-01T08:0${id.length}:00Z`, open: true, details: {}, ...changes };
}
const answered = (alert, name = 'Ania') => ({ ...alert, respondedAt: '2026-03-01T08:05:00Z', respondedBy: 'ania', details: { respondedByName: name } });
const closedBy = (alert, who) => ({ ...alert, open: false, acknowledgedAt: '2026-03-01T08:06:00Z', acknowledgedBy: who });

test('her line follows the call: waiting, who is coming, then how it ended', () => {
  const call = sos('a');
  assert.deepEqual(sosLine(call, zosia), { key: 'sos.sent', params: {} });
  assert.deepEqual(sosLine(answered(call), zosia), { key: 'sos.onTheWay', params: { name: 'Ania' } });
  assert.deepEqual(sosLine(answered(call, ''), zosia, { nameOf: (id) => (id === 'ania' ? 'Ania K.' : null) }),
    { key: 'sos.onTheWay', params: { name: 'Ania K.' } }, 'a name the alert lacks is looked up');
  assert.deepEqual(sosLine(answered(call, ''), zosia), { key: 'sos.helpOnTheWay', params: {} }, 'nobody named: help is still coming');
  assert.equal(sosLine(closedBy(call, 'zosia'), zosia).key, 'sos.cancelled');
  assert.equal(sosLine(closedBy(call, 'ania'), zosia).key, 'sos.answered');
  assert.equal(sosLine(closedBy(answered(call), 'zosia'), zosia).key, 'sos.answered', 'her OK after "on my way" is no cancellation');
});

test('"Cancelled" only when she called it off herself, before anyone answered', () => {
  assert.equal(cancelledByHer(closedBy(sos('a'), 'zosia'), zosia), true);
  assert.equal(cancelledByHer(closedBy(sos('a'), 'ania'), zosia), false);
  assert.equal(cancelledByHer(sos('a'), zosia), false, 'still open');
  assert.equal(cancelledByHer(closedBy(answered(sos('a')), 'zosia'), zosia), false);
  assert.equal(cancelledByHer(closedBy(sos('a'), 'ania'), ania), false, 'not her screen');
});

test('an open call stays on the line; an ended one for a minute from when it was seen ending, then nothing', () => {
  const call = sos('a');
  const seen = new Map([['a', 1000]]);
  const closedAt = (alert) => seen.get(alert.id);
  assert.equal(SOS_ENDED_SHOWN_MS, 60000);
  const open = currentSOSLine([call], zosia, { now: 10 ** 9, closedAt });
  assert.equal(open.line.key, 'sos.sent');
  assert.equal(open.endsAt, null, 'true for as long as it is open');
  const ended = closedBy(call, 'zosia');
  assert.equal(currentSOSLine([ended], zosia, { now: 1000, closedAt }).line.key, 'sos.cancelled');
  assert.equal(currentSOSLine([ended], zosia, { now: 1000, closedAt }).endsAt, 61000);
  assert.equal(currentSOSLine([ended], zosia, { now: 60999, closedAt }).line.key, 'sos.cancelled');
  assert.equal(currentSOSLine([ended], zosia, { now: 61000, closedAt }), null, 'gone after the minute');
  assert.equal(currentSOSLine([ended], zosia, { now: 1500, closedAt, shownMs: 400 }), null, 'a shorter minute for a test');
  assert.equal(currentSOSLine([ended], zosia, { now: 1000, closedAt: () => undefined }), null, 'never seen ending: never shown');
});

test('the newest open call wins over one that just ended; others\' alerts are not hers', () => {
  const first = closedBy(sos('a'), 'ania');
  const second = answered(sos('bb'));
  const closedAt = () => 1000;
  assert.equal(currentSOSLine([first, second], zosia, { now: 2000, closedAt }).line.key, 'sos.onTheWay');
  const newer = sos('ccc');
  assert.equal(currentSOSLine([second, newer], zosia, { now: 2000, closedAt }).alert.id, 'ccc');
  const someoneElses = { ...sos('d'), personId: 'ela' };
  assert.equal(currentSOSLine([someoneElses], zosia, { now: 2000, closedAt }), null);
  assert.equal(currentSOSLine([sos('a')], ania, { now: 2000, closedAt }), null, 'a caregiver has no such line');
});

test('a call gone from the open list whose ending was not heard is read again', () => {
  const calls = [sos('a'), sos('bb'), closedBy(sos('ccc'), 'ania')];
  assert.deepEqual(closedUnheard(calls, ['bb']).map((alert) => alert.id), ['a']);
  assert.deepEqual(closedUnheard(calls, ['a', 'bb']), []);
});

test('her Alerts page says how a closed call ended, in English and Polish', async () => {
  const read = async (lang) => createTranslator(JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8')));
  const [en, pl] = [await read('en'), await read('pl')];
  const say = (t, alert) => {
    const { key, params } = alertMessage(alert, zosia, { time: () => '08:01' });
    return t(key, params);
  };
  assert.equal(say(en, sos('a')), 'You called for help at 08:01. Waiting for an answer…');
  assert.equal(say(en, closedBy(sos('a'), 'zosia')), 'You called for help at 08:01. Cancelled.');
  assert.equal(say(en, closedBy(answered(sos('a')), 'ania')), 'You called for help at 08:01. The call was answered.');
  assert.equal(say(pl, closedBy(sos('a'), 'zosia')), 'Wezwano pomoc o 08:01. Odwołano.');
  for (const t of [en, pl]) {
    for (const key of ['sos.onTheWay', 'sos.helpOnTheWay', 'sos.answered', 'sos.cancelled', 'alerts.message.sosClosed']) {
      assert.notEqual(t(key, { name: 'Ania', time: '08:01' }), key, `${key} is translated`);
    }
  }
  assert.equal(en('sos.onTheWay', { name: 'Ania' }), 'Ania is on the way.');
  assert.equal(pl('sos.cancelled', {}), 'Wezwanie pomocy odwołane.');
});

test('what goes when the live connection opens: the hub not reached, or not yet approved; not its refusals', () => {
  assert.equal(isConnectionProblem(new HubProblem('Cannot reach the Hearth hub.')), true);
  const approval = new HubProblem('an admin must approve it', { status: 403, type: 'urn:hearth:problem:awaiting-approval' });
  assert.equal(isAwaitingApproval(approval), true);
  assert.equal(isConnectionProblem(approval), true);
  assert.equal(isConnectionProblem(new HubProblem('No', { status: 403, type: 'urn:hearth:problem:forbidden' })), false);
  assert.equal(isConnectionProblem(new HubProblem('Oops', { status: 500 })), false);
  assert.equal(isConnectionProblem(new Error('page')), false);
  assert.equal(isConnectionProblem(null), false);
});
