import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HubProblem, getJSON, isUnpaired, problemMessage, retryAfterSeconds, sendJSON } from '../api.js';
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

test('a 401 means this browser is not paired; other refusals do not', async () => {
  let refused;
  try {
    await getJSON('/household', { t, fetchImpl: reply(401, { type: 'urn:hearth:problem:unpaired', status: 401, title: 'Unauthorized', detail: 'Pair this device first' }) });
  } catch (e) {
    refused = e;
  }
  assert.equal(isUnpaired(refused), true);
  assert.equal(refused.type, 'urn:hearth:problem:unpaired');
  assert.equal(isUnpaired(new HubProblem('Forbidden', { status: 403 })), false);
  assert.equal(isUnpaired(new Error('x')), false);
  assert.equal(isUnpaired(null), false);
});

test('Retry-After is read as whole seconds only', () => {
  assert.equal(retryAfterSeconds('30'), 30);
  assert.equal(retryAfterSeconds(' 5 '), 5);
  assert.equal(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT'), null);
  assert.equal(retryAfterSeconds('-1'), null);
  assert.equal(retryAfterSeconds(null), null);
});

test('sendJSON sends the body and reads an empty 204 as null', async () => {
  const calls = [];
  const fetchImpl = async (url, options) => {
    calls.push({ url, ...options });
    return { ok: true, status: 204, json: async () => { throw new SyntaxError('empty'); } };
  };
  assert.equal(await sendJSON('DELETE', '/devices/d1', undefined, { t, fetchImpl }), null);
  assert.equal(calls[0].method, 'DELETE');
  assert.equal(calls[0].body, undefined);
  assert.equal(calls[0].headers['Content-Type'], undefined, 'no body, no content type');
});

test("a validation problem keeps each field's message for the form", async () => {
  const body = { type: 'urn:hearth:problem:invalid', status: 422, title: 'Unprocessable Content',
    detail: 'Some fields are not valid', errors: { name: 'must not be empty', 'schedules.0.times': 'must list at least one time of day' } };
  await assert.rejects(
    sendJSON('POST', '/medications', {}, { t, fetchImpl: reply(422, body) }),
    (e) => e instanceof HubProblem && e.status === 422 && e.errors.name === 'must not be empty'
      && e.errors['schedules.0.times'] === 'must list at least one time of day',
  );
  await assert.rejects(getJSON('/x', { t, fetchImpl: reply(409, { detail: 'Too soon', type: 'urn:hearth:problem:limit-reached' }) }),
    (e) => e.errors === null && e.type.endsWith('limit-reached') && e.message === 'Too soon');
});

test('a request cancelled while its answer arrives stays a cancellation, not a "cannot read" message', async () => {
  const aborted = async () => ({
    ok: true, status: 200,
    json: async () => { throw new DOMException('The operation was aborted.', 'AbortError'); },
  });
  await assert.rejects(getJSON('/today', { t, fetchImpl: aborted }), (e) => e.name === 'AbortError');
});
