import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { HubProblem } from '../api.js';
import { createTranslator } from '../i18n.js';
import {
  SHORT_CODE_ALPHABET,
  deviceKind,
  exchangePairingCode,
  formatShortCode,
  isPairingPath,
  normalizeShortCode,
  pairingFailureMessage,
  pairingRequest,
  secretFromHash,
} from '../household/pairing.js';

const readDictionary = async (lang) =>
  JSON.parse(await readFile(new URL(`../i18n/${lang}.json`, import.meta.url), 'utf8'));

test('the pairing page is /pair, with or without a trailing slash', () => {
  assert.equal(isPairingPath('/pair'), true);
  assert.equal(isPairingPath('/pair/'), true);
  for (const path of ['/', '/pairing', '/pair/x', '/Pair', '/index.html']) {
    assert.equal(isPairingPath(path), false, path);
  }
});

test('the secret is read from the QR link’s fragment', () => {
  assert.equal(secretFromHash('#R475r0z2VmSMZgahprc8hw'), 'R475r0z2VmSMZgahprc8hw');
  assert.equal(secretFromHash('#c1wpiDIiXQ4f5rXo-c4_Og'), 'c1wpiDIiXQ4f5rXo-c4_Og', 'base64url keeps - and _');
  assert.equal(secretFromHash('R475r0z2VmSMZgahprc8hw'), 'R475r0z2VmSMZgahprc8hw', 'the # is optional');
});

test('a fragment that is no secret asks for the typed code instead', () => {
  for (const hash of ['', '#', null, undefined, '#/today', '#main', '#short', '#R475r0z2 VmSMZgahprc8hw',
    '#R475r0z2VmSMZgahprc8hw%20', '#<script>alert(1)</script>', `#${'a'.repeat(200)}`]) {
    assert.equal(secretFromHash(hash), null, String(hash));
  }
});

test('a typed code is read like the hub reads it: any case, dash and spaces optional', () => {
  for (const typed of ['7K3M-Q9TX', '7k3m-q9tx', '7K3MQ9TX', ' 7K3M Q9TX ', '7k3m q9tx', '7-K-3-M-Q-9-T-X',
    '7K3M\u2011Q9TX', '7K3M\u2013Q9TX', '7K3M\u00a0Q9TX', '7K3M\tQ9TX']) {
    assert.equal(normalizeShortCode(typed), '7K3MQ9TX', typed);
  }
});

test('look-alike letters become the digits they look like: O→0, I and L→1', () => {
  assert.equal(normalizeShortCode('OO1I-LlOo'), '00111100');
  assert.equal(normalizeShortCode('ab0d-efgh'), 'AB0DEFGH');
});

test('a code that cannot be one is refused before asking the hub', () => {
  for (const typed of ['', '   ', '7K3M-Q9T', '7K3M-Q9TXX', '7K3M-Q9TU', 'UUUU-UUUU', '7K3M_Q9TX',
    'ZAŻÓ-ŁĆ12', '7K3M-Q9T!', null, undefined]) {
    assert.equal(normalizeShortCode(typed), null, String(typed));
  }
});

test('every character of the alphabet is accepted as itself', () => {
  assert.equal(SHORT_CODE_ALPHABET, '0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  for (let i = 0; i + 8 <= SHORT_CODE_ALPHABET.length; i += 8) {
    const chunk = SHORT_CODE_ALPHABET.slice(i, i + 8);
    assert.equal(normalizeShortCode(chunk.toLowerCase()), chunk);
  }
  assert.equal(formatShortCode('7K3MQ9TX'), '7K3M-Q9TX');
});

test('the default device name follows the kind of device', () => {
  const ua = {
    iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
    ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
    androidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36',
    androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 Chrome/124.0 Safari/537.36',
    linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/124.0 Safari/537.36',
  };
  assert.equal(deviceKind(ua.iphone), 'phone');
  assert.equal(deviceKind(ua.androidPhone), 'phone');
  assert.equal(deviceKind(ua.ipad), 'tablet');
  assert.equal(deviceKind(ua.androidTablet), 'tablet');
  assert.equal(deviceKind(ua.linux), 'computer');
  assert.equal(deviceKind(undefined), 'computer');
});

test('a scanned code needs only a device name; the name is trimmed', () => {
  assert.deepEqual(pairingRequest({ secret: 'R475r0z2VmSMZgahprc8hw', deviceName: '  Tablet w kuchni ' }),
    { body: { code: 'R475r0z2VmSMZgahprc8hw', deviceName: 'Tablet w kuchni' } });
});

test('a typed code is sent normalized, as shortCode', () => {
  assert.deepEqual(pairingRequest({ shortCode: '7k3m q9tx', deviceName: 'Phone' }),
    { body: { shortCode: '7K3MQ9TX', deviceName: 'Phone' } });
});

test('what to fix is named before anything is sent', () => {
  assert.deepEqual(pairingRequest({ shortCode: '7K3M', deviceName: 'Phone' }),
    { field: 'shortCode', error: 'shortCodeInvalid' });
  assert.deepEqual(pairingRequest({ secret: 'R475r0z2VmSMZgahprc8hw', deviceName: '   ' }),
    { field: 'deviceName', error: 'deviceNameMissing' });
  assert.deepEqual(pairingRequest({ shortCode: '7K3M-Q9TX', deviceName: 'ż'.repeat(61) }),
    { field: 'deviceName', error: 'deviceNameTooLong' });
  assert.ok(pairingRequest({ shortCode: '7K3M-Q9TX', deviceName: 'ż'.repeat(60) }).body,
    'Polish letters count as one character each, as on the hub');
});

test('failures are explained in the person’s language', async () => {
  const pl = createTranslator(await readDictionary('pl'), await readDictionary('en'));
  const en = createTranslator(await readDictionary('en'));
  const gone = new HubProblem('This pairing code (it may have expired or been used) was not found', { status: 404 });
  assert.match(pairingFailureMessage(gone, en), /does not work.*expired.*used/);
  assert.match(pairingFailureMessage(gone, pl), /nie działa.*wygasnąć/);
  const slow = new HubProblem('Too many pairing attempts', { status: 429, retryAfter: 42 });
  assert.equal(pairingFailureMessage(slow, en), 'Too many tries. Please wait 42 seconds, then try again.');
  assert.equal(pairingFailureMessage(slow, pl), 'Zbyt wiele prób. Odczekaj 42 s i spróbuj ponownie.');
  const slowNoHeader = new HubProblem('Too many', { status: 429 });
  assert.match(pairingFailureMessage(slowNoHeader, en), /wait a minute/);
  const invalid = new HubProblem('Invalid input: deviceName must not be empty', { status: 422 });
  assert.equal(pairingFailureMessage(invalid, en), 'Invalid input: deviceName must not be empty',
    'other refusals show the hub’s own detail');
  assert.match(pairingFailureMessage(new TypeError('boom'), en), /Cannot reach/);
});

// --- the exchange, with a fake fetch ---

const t = createTranslator({
  errors: { unreachable: 'Cannot reach the hub.', status: 'Error {status}.', badResponse: 'Bad answer.' },
});

function fakeFetch(status, body, headers = {}) {
  const calls = [];
  const fetchImpl = async (url, options) => {
    calls.push({ url, ...options });
    return {
      ok: status >= 200 && status < 300,
      status,
      headers: { get: (name) => headers[name.toLowerCase()] ?? null },
      json: async () => body,
    };
  };
  return { fetchImpl, calls };
}

test('pairing POSTs the code and name as JSON to /api/v1/pairing', async () => {
  const paired = {
    device: { id: 'd1', name: 'Phone' },
    person: { id: 'p1', name: 'Zofia', role: 'senior' },
    token: 'x'.repeat(43),
  };
  const { fetchImpl, calls } = fakeFetch(201, paired);
  assert.deepEqual(await exchangePairingCode({ code: 'R475r0z2VmSMZgahprc8hw', deviceName: 'Phone' }, { t, fetchImpl }),
    paired);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, '/api/v1/pairing');
  assert.equal(calls[0].method, 'POST');
  assert.equal(calls[0].headers['Content-Type'], 'application/json');
  assert.equal(calls[0].credentials, 'same-origin', 'so the browser keeps the device cookie');
  assert.deepEqual(JSON.parse(calls[0].body), { code: 'R475r0z2VmSMZgahprc8hw', deviceName: 'Phone' });
});

test('a refused pairing carries the status, problem type and Retry-After', async () => {
  const { fetchImpl } = fakeFetch(429,
    { type: 'urn:hearth:problem:rate-limited', title: 'Too Many Requests', status: 429, detail: 'Too many pairing attempts; try again in 37 seconds' },
    { 'retry-after': '37' });
  await assert.rejects(exchangePairingCode({ shortCode: 'AAAAAAAA', deviceName: 'x' }, { t, fetchImpl }),
    (e) => e instanceof HubProblem && e.status === 429 && e.retryAfter === 37
      && e.type === 'urn:hearth:problem:rate-limited');
});

test('a 201 without a device is not taken for success', async () => {
  const { fetchImpl } = fakeFetch(201, { hello: 'world' });
  await assert.rejects(exchangePairingCode({ shortCode: 'AAAAAAAA', deviceName: 'x' }, { t, fetchImpl }),
    { message: 'Bad answer.' });
});

test('a name the person did not touch is only a suggestion: the code\'s own name wins over it on the hub', () => {
  assert.deepEqual(pairingRequest({ secret: 'R475r0z2VmSMZgahprc8hw', deviceName: 'Phone', nameChosen: false }),
    { body: { code: 'R475r0z2VmSMZgahprc8hw', suggestedDeviceName: 'Phone' } });
  assert.deepEqual(pairingRequest({ secret: 'R475r0z2VmSMZgahprc8hw', deviceName: 'Tablet babci', nameChosen: true }),
    { body: { code: 'R475r0z2VmSMZgahprc8hw', deviceName: 'Tablet babci' } });
});
