// Pairing this browser with the hub. `hearth pair`, or the Household page
// (an admin's, or a senior's for a caregiver), shows a QR code for
// http://<hub>/pair#<secret> and an 8-character code to type by hand;
// either one, with a name for the device, is exchanged at POST
// /api/v1/pairing for the device cookie.
// The secret travels in the URL fragment, which browsers never send to a
// server or put in a Referer. Everything here is pure, for the Node tests;
// pages/pair.js draws the form.
import { HubProblem, sendJSON } from '../api.js';
import { paths } from '../api-paths.js';

/** The path of the pairing page (index.html is served there too). */
export const PAIR_PATH = '/pair';

/** Crockford's base32: no I, L, O or U, so nothing reads as 1, 0 or a word. */
export const SHORT_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const SHORT_CODE_LENGTH = 8;
/** The hub refuses longer device names (Device.maximumNameLength). */
export const DEVICE_NAME_MAX_LENGTH = 60;

/** True on /pair (and /pair/), where the app shows the pairing form. */
export function isPairingPath(pathname) {
  return pathname === PAIR_PATH || pathname === `${PAIR_PATH}/`;
}

/**
 * The QR secret from a location hash ("#R475r0z2VmSMZgahprc8hw"), or null
 * when the hash holds none (then the page asks for the typed code).
 * The hub makes 22 base64url characters; a little leeway keeps an older or
 * newer hub working, while "#/today" or "#main" is clearly not a secret.
 */
export function secretFromHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '').trim();
  return /^[A-Za-z0-9_-]{16,128}$/.test(text) ? text : null;
}

// Dashes a phone keyboard may put in place of "-", skipped like it.
const DASHES = new Set(['-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212']);

/**
 * Reads a short code as a person typed it, the way the hub does: any case,
 * with or without the dash or spaces, and the look-alikes O→0, I/L→1.
 * (A little more forgiving: any dash or white space a keyboard produces.)
 * Returns the 8 characters ("7K3MQ9TX") or null if it cannot be a code.
 */
export function normalizeShortCode(typed) {
  let result = '';
  for (const character of String(typed ?? '').toUpperCase()) {
    if (DASHES.has(character) || /\s/.test(character)) continue;
    if (character === 'O') result += '0';
    else if (character === 'I' || character === 'L') result += '1';
    else if (SHORT_CODE_ALPHABET.includes(character)) result += character;
    else return null;
  }
  return result.length === SHORT_CODE_LENGTH ? result : null;
}

/** "7K3MQ9TX" → "7K3M-Q9TX", as `hearth pair` shows it. */
export function formatShortCode(code) {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What kind of device this probably is, for a default name. */
export function deviceKind(userAgent) {
  const ua = String(userAgent ?? '');
  if (/iPad|Tablet|Kindle|Silk|PlayBook/i.test(ua)) return 'tablet';
  if (/Android/i.test(ua)) return /Mobile/i.test(ua) ? 'phone' : 'tablet';
  if (/iPhone|iPod|Mobile|Windows Phone/i.test(ua)) return 'phone';
  return 'computer';
}

/**
 * Checks the form before anything is sent. With a secret from the URL only
 * the name is needed; otherwise the typed code too.
 * Returns { body } to send, or { field, error } naming what to fix:
 * error is "deviceNameMissing", "deviceNameTooLong" or "shortCodeInvalid".
 */
/**
 * `nameChosen`: whether the person typed the name; an untouched guess
 * ("Phone") is sent as `suggestedDeviceName`, so the name the admin gave the
 * code (`hearth pair --device-name "Kitchen tablet"`) wins over it.
 */
export function pairingRequest({ secret = null, shortCode = '', deviceName = '', nameChosen = true }) {
  const name = String(deviceName ?? '').trim();
  let body;
  if (secret) {
    body = { code: secret };
  } else {
    const code = normalizeShortCode(shortCode);
    if (code === null) return { field: 'shortCode', error: 'shortCodeInvalid' };
    body = { shortCode: code };
  }
  if (name === '') return { field: 'deviceName', error: 'deviceNameMissing' };
  if ([...name].length > DEVICE_NAME_MAX_LENGTH) return { field: 'deviceName', error: 'deviceNameTooLong' };
  return { body: { ...body, [nameChosen ? 'deviceName' : 'suggestedDeviceName']: name } };
}

/**
 * The sentence to show when pairing failed, in the person's language for
 * the failures a person can act on; the hub's own words otherwise.
 */
export function pairingFailureMessage(problem, t) {
  if (!(problem instanceof HubProblem)) return t('errors.unreachable');
  switch (problem.status) {
    case 404:
      return t('pair.errors.notFound');
    case 429:
      return problem.retryAfter
        ? t('pair.errors.tooManyTries', { seconds: problem.retryAfter })
        : t('pair.errors.tooManyTriesLater');
    default:
      return problem.message;
  }
}

/** Exchanges the code; resolves with { device, person } (the cookie is set). */
export async function exchangePairingCode(body, { t, fetchImpl = globalThis.fetch } = {}) {
  const paired = await sendJSON('POST', paths.pairing(), body, { t, fetchImpl });
  if (typeof paired?.device?.id !== 'string') {
    throw new HubProblem(t('errors.badResponse'), { status: 201 });
  }
  return paired;
}
