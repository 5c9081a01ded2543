import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HubProblem, getJSON, problemMessage } from '../api.js';
import { createTranslator } from '../i18n.js';

const t = createTranslator({
  errors: { unreachable: 'Cannot reach the hub.', status: 'Error {status}.', badResponse: 'Bad answer.' },
});
const reply = (status, body, isJSON = true) => async () => ({
  ok: status >= 200 && status < 300,
  status,
  json: async () => { if (!isJSON) throw new SyntaxError('html'); return body; },
});

test('the household arrives as JSON', async () => {
  const body = { id: 'h1', name: 'Dom Kowalskich', timeZone: 'Europe/Warsaw', createdAt: '2025-01-01T00:00:00Z' };
  assert.deepEqual(await getJSON('/household', { t, fetchImpl: reply(200, body) }), body);
});

test('a problem shows its detail, else its title', async () => {
  assert.equal(problemMessage({ title: 'Forbidden', detail: 'Only caregivers may do this.' }), 'Only caregivers may do this.');
  assert.equal(problemMessage({ title: 'Forbidden', detail: '  ' }), 'Forbidden');
  assert.equal(problemMessage('nope'), null);
  await assert.rejects(
    getJSON('/household', { t, fetchImpl: reply(401, { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Pair this device first.' }) }),
    (e) => e instanceof HubProblem && e.message === 'Pair this device first.' && e.status === 401,
  );
});

test('errors without a problem body or network still give a readable sentence', async () => {
  await assert.rejects(getJSON('/household', { t, fetchImpl: reply(502, null, false) }), { message: 'Error 502.' });
  await assert.rejects(getJSON('/household', { t, fetchImpl: async () => { throw new TypeError('fetch failed'); } }),
    { message: 'Cannot reach the hub.' });
  await assert.rejects(getJSON('/household', { t, fetchImpl: reply(200, null, false) }), { message: 'Bad answer.' });
});
