// The frames of WS /api/v1/notes/{id}/edit (see NoteEditController.swift):
// binary, [1][type] then the body. Editor → hub: hello (our version vector),
// operations (a format-1 batch), presence (a small JSON object). Hub →
// editor: state (format 2), operations, synced (the hub's version vector),
// acknowledged (stored: every counter below each entry), other editors'
// presence. Pure functions; the socket lives in session.js.
import { decodeOperations, encodeOperations } from './crdt.js';
import { retryDelay, UNPAIRED_RETRY_MS } from '../live.js';
import { API_BASE, paths } from '../api-paths.js';

export const PROTOCOL_VERSION = 1;
export const FRAME = Object.freeze({
  hello: 0x01,
  operations: 0x02,
  presence: 0x03,
  state: 0x11,
  synced: 0x12,
  acknowledged: 0x13,
  otherPresence: 0x14,
});

// Close codes the hub uses, and what the editor does about each.
export const CLOSE = Object.freeze({
  badFrame: 4400,
  gone: 4404,
  refused: 4409,
  tooLarge: 4413,
  tooMany: 4429,
  revoked: 4401,
  readOnly: 4403,
  hubError: 1011,
  hubStopping: 1001,
});

// Varints hold values up to 2^53, past what bit operators reach: arithmetic.
function writeVarint(out, value) {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) + 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function readVarint(bytes, at) {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 8; i++) {
    if (at.i >= bytes.length) throw new Error('truncated varint');
    const b = bytes[at.i++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return value;
    scale *= 0x80;
  }
  throw new Error('varint longer than 8 bytes');
}

/** `varint count`, then (varint replica, varint next counter), replicas ascending; zero entries left out. */
export function encodeVersionVector(vector) {
  const entries = [...vector].filter(([, next]) => next > 0).sort((a, b) => a[0] - b[0]);
  const out = [];
  writeVarint(out, entries.length);
  for (const [replica, next] of entries) {
    writeVarint(out, replica);
    writeVarint(out, next);
  }
  return out;
}

export function decodeVersionVector(bytes) {
  const at = { i: 0 };
  const count = readVarint(bytes, at);
  const vector = new Map();
  for (let k = 0; k < count; k++) {
    const replica = readVarint(bytes, at);
    vector.set(replica, readVarint(bytes, at));
  }
  if (at.i !== bytes.length) throw new Error('bytes left over after the version vector');
  return vector;
}

function frame(type, body) {
  const bytes = new Uint8Array(2 + body.length);
  bytes[0] = PROTOCOL_VERSION;
  bytes[1] = type;
  bytes.set(body, 2);
  return bytes;
}

export const helloFrame = (vector) => frame(FRAME.hello, encodeVersionVector(vector));
export const operationsFrame = (ops) => frame(FRAME.operations, encodeOperations(ops));
export const presenceFrame = (object) => frame(FRAME.presence, new TextEncoder().encode(JSON.stringify(object)));

/**
 * One frame from the hub as { type, … }: state {bytes}, operations {ops},
 * synced/acknowledged {vector}, presence {presence}. Throws on bytes this
 * version of the page cannot read.
 */
export function readHubFrame(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.length < 2 || bytes[0] !== PROTOCOL_VERSION) throw new Error('not a version 1 frame');
  const body = bytes.subarray(2);
  switch (bytes[1]) {
    case FRAME.state: return { type: 'state', bytes: body };
    case FRAME.operations: return { type: 'operations', ops: decodeOperations(body) };
    case FRAME.synced: return { type: 'synced', vector: decodeVersionVector(body) };
    case FRAME.acknowledged: return { type: 'acknowledged', vector: decodeVersionVector(body) };
    case FRAME.otherPresence: return { type: 'presence', presence: JSON.parse(new TextDecoder().decode(body)) };
    default: throw new Error(`unknown frame type ${bytes[1]}`);
  }
}

/**
 * A browser tells a page nothing about an upgrade the hub refused: it looks
 * like a network failure (1006). The same address fetched as plain HTTP
 * says why; this is the close code to act on for its status, or null when
 * the refusal is nothing the session can act on (keep trying).
 */
export function closeCodeForRefusedUpgrade(status) {
  if (status === 404) return CLOSE.gone;
  if (status === 401) return CLOSE.revoked;
  return null;
}

/** ws://host/api/v1/notes/<id>/edit (wss: under https:). */
export function editURL(location, noteId) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${API_BASE}${paths.noteEditing(noteId)}`;
}

/**
 * What to do after the connection closed (attempt counts failures since the
 * last sync):
 * - gone (moved to Trash, made private): stop, and say so;
 * - refused / bad frame / too large: what we hold cannot be stored, so start
 *   again from the hub's copy (`restart`), after saying so;
 * - read only (the owner lets this person only read the note, and we sent
 *   a change): what we typed cannot be stored either, so start again from
 *   the hub's copy, and from now on send nothing but hello: the text keeps
 *   coming live;
 * - too many: wait a little longer before the next try;
 * - revoked (this device was removed, or is not paired): keep what was
 *   typed and try again only now and then, in case it is paired again;
 * - anything else (network, hub restart or error): reconnect with backoff.
 */
export function planAfterClose(code, attempt) {
  if (code === CLOSE.gone) return { reconnect: false, problem: 'gone', delay: 0, attempt };
  if (code === CLOSE.refused || code === CLOSE.badFrame || code === CLOSE.tooLarge) {
    return { reconnect: true, restart: true, problem: code === CLOSE.tooLarge ? 'tooLarge' : 'refused', delay: retryDelay(attempt), attempt: attempt + 1 };
  }
  if (code === CLOSE.readOnly) {
    return { reconnect: true, restart: true, readOnly: true, problem: 'readOnly', delay: retryDelay(attempt), attempt: attempt + 1 };
  }
  if (code === CLOSE.tooMany) return { reconnect: true, delay: Math.max(5000, retryDelay(attempt)), attempt: attempt + 1 };
  if (code === CLOSE.revoked) return { reconnect: true, unpaired: true, delay: UNPAIRED_RETRY_MS, attempt: attempt + 1 };
  return { reconnect: true, delay: retryDelay(attempt), attempt: attempt + 1 };
}
