import test from 'node:test';
import assert from 'node:assert/strict';

import { getJSON } from '../api.js';
import { hubDate, hubNow, hubOffsetMs, learnHubTime } from '../hub-clock.js';
import { canAnswer } from '../care/today-model.js';

const t = (key) => key;

test('the hub time is learned from a Hearth-Time header and followed from then on', () => {
  assert.equal(learnHubTime('1000000', 400000), true);
  assert.equal(hubOffsetMs(), 600000);
  const now = hubNow();
  assert.ok(Math.abs(now - (Date.now() + 600000)) < 50);
  assert.ok(Math.abs(hubDate().getTime() - now) < 50);
});

test('a missing or malformed Hearth-Time leaves the time as it was', () => {
  learnHubTime('5000', 2000);
  for (const bad of [null, undefined, '', 'soon', '-5', '12.5', '1e9', '99999999999999999']) {
    assert.equal(learnHubTime(bad, 0), false, String(bad));
    assert.equal(hubOffsetMs(), 3000);
  }
});

test('every API answer, a refusal too, sets the hub time', async () => {
  const at = (ms, status) => async () => ({
    ok: status < 400, status, headers: { get: (name) => (name === 'Hearth-Time' ? String(ms) : null) },
    json: async () => ({ detail: 'No.' }),
  });
  const hubTime = Date.now() + 3 * 3600 * 1000; // the hub is three hours ahead of this tablet
  await getJSON('/household', { t, fetchImpl: at(hubTime, 200) });
  assert.ok(Math.abs(hubOffsetMs() - 3 * 3600 * 1000) < 1000);
  await assert.rejects(getJSON('/household', { t, fetchImpl: at(hubTime - 3600 * 1000, 403) }));
  assert.ok(Math.abs(hubOffsetMs() - 2 * 3600 * 1000) < 1000);
});

test('whether a dose may be answered is read on the hub clock, not the tablet clock', () => {
  // A dose 13 hours ahead by the tablet is 11 hours ahead by the hub: Taken is offered.
  const dueAt = new Date(Date.now() + 13 * 3600 * 1000).toISOString();
  learnHubTime(String(Date.now() + 2 * 3600 * 1000));
  assert.equal(canAnswer({ dueAt }), true);
  learnHubTime(String(Date.now()));
  assert.equal(canAnswer({ dueAt }), false);
});
