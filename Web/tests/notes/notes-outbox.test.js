import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteText } from '../../notes/crdt.js';
import {
  advanceVector, appendOperation, batches, dropAcknowledged, operationsBeyond, trimOperation,
} from '../../notes/outbox.js';

test('typing on makes one longer insertion, not one per letter', () => {
  const note = new NoteText(5);
  let outbox = [];
  for (const [i, letter] of [...'mleko🥛'].entries()) outbox = appendOperation(outbox, note.insert(i, letter));
  assert.equal(outbox.length, 1);
  assert.equal(outbox[0].text, 'mleko🥛');
  const copy = new NoteText(6);
  copy.apply(outbox[0]);
  assert.equal(copy.text, 'mleko🥛');
});

test('typing somewhere else, or deleting, starts a new operation', () => {
  const note = new NoteText(5);
  let outbox = appendOperation([], note.insert(0, 'ab'));
  outbox = appendOperation(outbox, note.insert(0, 'x'));
  outbox = appendOperation(outbox, note.delete(0, 1));
  outbox = appendOperation(outbox, note.insert(2, 'c'));
  assert.deepEqual(outbox.map((op) => op.kind), ['insert', 'insert', 'delete', 'insert']);
});

test('a trimmed insertion continues where the hub stopped, even after an emoji', () => {
  const note = new NoteText(5);
  const op = note.insert(0, '🍩abc');
  const rest = trimOperation(op, 2);
  assert.deepEqual(rest, { kind: 'insert', replica: 5, counter: 2, originLeft: { replica: 5, counter: 1 }, originRight: null, text: 'bc' });
  assert.equal(trimOperation(op, 4), null);
  assert.equal(trimOperation(op, 0), op);
  const copy = new NoteText(6);
  copy.apply(trimOperation(op, 0 + 0));
  assert.equal(copy.text, '🍩abc');
});

test('a trimmed deletion keeps only the spans not yet covered', () => {
  const op = { kind: 'delete', replica: 5, counter: 10, spans: [{ replica: 1, counter: 0, length: 2 }, { replica: 2, counter: 4, length: 3 }] };
  assert.deepEqual(trimOperation(op, 13), { kind: 'delete', replica: 5, counter: 13, spans: [{ replica: 2, counter: 5, length: 2 }] });
});

test('after a reconnect only what the hub lacks is sent; acknowledged operations are dropped', () => {
  const note = new NoteText(5);
  let outbox = appendOperation([], note.insert(0, 'abc'));
  outbox = appendOperation(outbox, note.delete(0, 1));
  outbox = appendOperation(outbox, note.insert(0, 'X'));
  const hub = new Map([[5, 2]]);
  const toSend = operationsBeyond(outbox, hub);
  assert.deepEqual(toSend.map((op) => [op.kind, op.counter]), [['insert', 2], ['delete', 3], ['insert', 4]]);
  assert.deepEqual([...advanceVector(hub, toSend)], [[5, 5]]);
  assert.equal(dropAcknowledged(outbox, new Map([[5, 4]])).length, 1);
  assert.equal(dropAcknowledged(outbox, new Map([[5, 5]])).length, 0);
  assert.equal(dropAcknowledged(outbox, new Map([[9, 5]])).length, 3, 'another replica\'s acknowledgement');
});

test('a big paste goes out in frames far below the hub\'s 1 MiB limit', () => {
  const ops = Array.from({ length: 5 }, (_, i) => ({ kind: 'insert', replica: 1, counter: i * 100000, originLeft: null, originRight: null, text: 'x'.repeat(100000) }));
  const parts = batches(ops);
  assert.ok(parts.length >= 2);
  assert.deepEqual(parts.flat(), ops);
});
