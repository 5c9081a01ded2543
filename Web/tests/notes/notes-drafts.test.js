import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LEASE_MS, createNoteDrafts, draftKey, forgetSavedNotes, fromBase64, newReplicaId, stateKey, toBase64,
} from '../../notes/drafts.js';
import { memoryStorage } from '../memory-storage.js';


const op = { kind: 'insert', replica: 7, counter: 0, originLeft: null, originRight: null, text: 'hej' };

test('a draft held by an open session is not taken; a released or stale one is', () => {
  let now = 1000;
  const storage = memoryStorage();
  const drafts = createNoteDrafts(storage, 'n1', { now: () => now });
  drafts.saveDraft(7, [op]);
  assert.deepEqual(drafts.orphans(), []);
  now += LEASE_MS;
  assert.deepEqual(drafts.orphans(), [{ replica: 7, ops: [op], mine: [7] }], 'the tab stopped renewing its lease');
  drafts.saveDraft(7, [op], { leased: false });
  now = 1000;
  assert.deepEqual(drafts.orphans(), [{ replica: 7, ops: [op], mine: [7] }], 'released on leaving');
  assert.deepEqual(createNoteDrafts(storage, 'n2').orphans(), [], 'another note\'s drafts are its own');
});

test('an empty draft is removed when its session ends; damaged ones are skipped', () => {
  const storage = memoryStorage();
  const drafts = createNoteDrafts(storage, 'n1');
  drafts.saveDraft(7, []);
  drafts.saveDraft(7, [], { leased: false });
  assert.equal(storage.getItem(draftKey('n1', 7)), null);
  storage.setItem(draftKey('n1', 8), '{not json');
  storage.setItem(draftKey('n1', 9), '{"replica":9}');
  assert.deepEqual(drafts.orphans(), []);
});

test('the saved note round-trips, and other notes\' copies make room when storage is full', () => {
  const draftSize = JSON.stringify({ replica: 7, ops: [op], lease: 0 }).length + 20;
  // Room for the draft and one 28-character copy, not two.
  const storage = memoryStorage({ quota: draftSize + 40 });
  const bytes = new Uint8Array([2, 1, 200, 0, 255]);
  const drafts = createNoteDrafts(storage, 'n1');
  drafts.saveDraft(7, [op]);
  const other = createNoteDrafts(storage, 'other');
  assert.equal(other.saveState(new Uint8Array(20)), true);
  assert.equal(drafts.saveState(new Uint8Array(20).fill(7)), true);
  assert.equal(other.loadState(), null, 'the other note\'s copy went');
  assert.ok(storage.getItem(draftKey('n1', 7)), 'drafts are never dropped');
  assert.deepEqual([...fromBase64(toBase64(bytes))], [...bytes]);
});

test('a device removed from the household forgets every saved note, and keeps its drafts and settings', () => {
  const storage = memoryStorage();
  createNoteDrafts(storage, 'n1').saveState(new Uint8Array([2, 1]));
  createNoteDrafts(storage, 'n2').saveState(new Uint8Array([2, 2]));
  createNoteDrafts(storage, 'n1').saveDraft(7, [op]);
  storage.setItem('hearth.language', 'pl');
  assert.equal(forgetSavedNotes(storage), 2);
  assert.equal(storage.getItem(stateKey('n1')), null);
  assert.equal(storage.getItem(stateKey('n2')), null);
  assert.ok(storage.getItem(draftKey('n1', 7)), 'typing not yet saved stays');
  assert.equal(storage.getItem('hearth.language'), 'pl');
  assert.equal(forgetSavedNotes(null), 0, 'blocked storage: nothing to forget');
});

test('no storage at all (blocked) keeps nothing and breaks nothing', () => {
  const drafts = createNoteDrafts(null, 'n1');
  assert.equal(drafts.saveDraft(1, [op]), false);
  assert.deepEqual(drafts.orphans(), []);
  assert.equal(drafts.loadState(), null);
});

test('replica ids are whole numbers in 1 ..< 2^53', () => {
  assert.equal(newReplicaId(() => 0), 1);
  assert.equal(newReplicaId(() => 0.999999999999), Math.floor(0.999999999999 * (2 ** 53 - 1)) + 1);
  assert.ok(Number.isSafeInteger(newReplicaId()));
});

test('a device removed from the household keeps its own typing in drafts, never what it heard others type', () => {
  const storage = memoryStorage();
  const drafts = createNoteDrafts(storage, 'n1');
  const heard = { ...op, replica: 9, text: 'cudze' };
  // Typed here by replicas 7 and 5 (a closed tab's, taken over); 9 is another person's.
  drafts.saveDraft(7, [op, { ...op, replica: 5 }, heard], { mine: [7, 5] });
  // A draft from before drafts said whose typing they hold: all of it is this device's.
  storage.setItem(draftKey('n2', 3), JSON.stringify({ replica: 3, ops: [{ ...op, replica: 3 }, { ...op, replica: 4 }], lease: null }));
  storage.setItem(stateKey('n1'), 'AAAA');
  assert.equal(forgetSavedNotes(storage), 1);
  const kept = JSON.parse(storage.getItem(draftKey('n1', 7)));
  assert.deepEqual(kept.ops.map((o) => o.replica), [7, 5]);
  assert.ok(!storage.getItem(draftKey('n1', 7)).includes('cudze'));
  assert.equal(JSON.parse(storage.getItem(draftKey('n2', 3))).ops.length, 2, 'an older draft is left as it was');
  assert.deepEqual(createNoteDrafts(storage, 'n2').orphans()[0].mine, [3, 4], 'and taken over as typing');
});
