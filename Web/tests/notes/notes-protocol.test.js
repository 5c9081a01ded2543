import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteText, encodeOperations, encodeState } from '../../notes/crdt.js';
import {
  CLOSE, decodeVersionVector, editURL, encodeVersionVector, helloFrame, operationsFrame,
  planAfterClose, presenceFrame, readHubFrame,
} from '../../notes/protocol.js';

test('version vectors are varint pairs in ascending replica order, large ids included', () => {
  const vector = new Map([[2 ** 53 - 1, 3], [5, 300]]);
  const bytes = encodeVersionVector(vector);
  assert.deepEqual(bytes.slice(0, 4), [2, 5, 0xac, 0x02]);
  assert.deepEqual([...decodeVersionVector(new Uint8Array(bytes))], [[5, 300], [2 ** 53 - 1, 3]]);
  assert.deepEqual(encodeVersionVector(new Map()), [0]);
  assert.throws(() => decodeVersionVector(new Uint8Array([1, 5])), /truncated/);
});

test('editor frames start with version 1 and their type', () => {
  assert.deepEqual([...helloFrame(new Map())], [1, 1, 0]);
  const note = new NoteText(9);
  const op = note.insert(0, 'hej');
  assert.deepEqual([...operationsFrame([op])], [1, 2, ...encodeOperations([op])]);
  const presence = presenceFrame({ cursor: [9, 2] });
  assert.deepEqual([...presence.slice(0, 2)], [1, 3]);
  assert.equal(new TextDecoder().decode(presence.slice(2)), '{"cursor":[9,2]}');
});

test('hub frames are read into what they say', () => {
  const note = new NoteText(9);
  const op = note.insert(0, 'hej');
  const state = encodeState(note);
  assert.deepEqual(readHubFrame(new Uint8Array([1, 0x11, ...state])).bytes, state);
  assert.deepEqual(readHubFrame(new Uint8Array([1, 0x02, ...encodeOperations([op])]).buffer).ops, [op]);
  assert.deepEqual([...readHubFrame(new Uint8Array([1, 0x12, 1, 9, 3])).vector], [[9, 3]]);
  assert.deepEqual([...readHubFrame(new Uint8Array([1, 0x13, 1, 9, 3])).vector], [[9, 3]]);
  const json = new TextEncoder().encode('{"editor":"e","name":"Ania"}');
  assert.equal(readHubFrame(new Uint8Array([1, 0x14, ...json])).presence.name, 'Ania');
  assert.throws(() => readHubFrame(new Uint8Array([2, 0x11])));
  assert.throws(() => readHubFrame(new Uint8Array([1, 0x99])));
});

test('the socket address follows the page\'s scheme', () => {
  assert.equal(editURL({ protocol: 'http:', host: 'hub.local:8080' }, 'abc'), 'ws://hub.local:8080/api/v1/notes/abc/edit');
  assert.equal(editURL({ protocol: 'https:', host: 'hub.local' }, 'abc'), 'wss://hub.local/api/v1/notes/abc/edit');
});

test('after a close: gone stops, refusals start again from the hub\'s copy, the rest back off', () => {
  assert.deepEqual(planAfterClose(CLOSE.gone, 0), { reconnect: false, problem: 'gone', delay: 0, attempt: 0 });
  assert.equal(planAfterClose(CLOSE.refused, 0).restart, true);
  assert.equal(planAfterClose(CLOSE.tooLarge, 0).problem, 'tooLarge');
  assert.ok(planAfterClose(CLOSE.tooMany, 0).delay >= 5000);
  assert.deepEqual([0, 1, 2, 10].map((n) => planAfterClose(1006, n).delay), [1000, 2000, 4000, 30000]);
  assert.equal(planAfterClose(CLOSE.hubStopping, 0).reconnect, true);
  assert.deepEqual(planAfterClose(4403, 0), { reconnect: true, restart: true, readOnly: true, problem: 'readOnly', delay: 1000, attempt: 1 },
    'read only: start again from the hub\'s copy and keep listening');
  assert.deepEqual(planAfterClose(CLOSE.revoked, 3), { reconnect: true, unpaired: true, delay: 60000, attempt: 4 },
    'a revoked device tries again only now and then');
});
