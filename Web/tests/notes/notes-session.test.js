// The editing session against a small stand-in for the hub (NoteSession.swift
// in miniature: catch-up on hello, relay, then store and acknowledge to
// everyone, refusing operations that are not ready; a disk that stalls and
// a hub that dies before storing), with fake timers and storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteText, decodeOperations, encodeOperations, encodeState, operationLength } from '../../notes/crdt.js';
import { applyValueChange } from '../../notes/diff.js';
import { draftKey, stateKey } from '../../notes/drafts.js';
import { decodeVersionVector, encodeVersionVector } from '../../notes/protocol.js';
import { createNoteSession } from '../../notes/session.js';
import { memoryStorage } from '../memory-storage.js';

function fakeClock() {
  let now = 0;
  let timers = [];
  let next = 1;
  return {
    now: () => now,
    setTimer: (fn, ms) => { const id = next++; timers.push({ id, at: now + ms, fn }); return id; },
    clearTimer: (id) => { timers = timers.filter((t) => t.id !== id); },
    advance(ms = 0) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.id - b.id);
        const due = timers[0];
        if (!due || due.at > end) break;
        timers.shift();
        now = due.at;
        due.fn();
      }
      now = end;
    },
  };
}

function fakeHub(clock, text = '') {
  // `log` is what the hub applied, `stored` how much of it is on disk.
  const hub = { note: new NoteText(1), up: true, sockets: new Set(), received: [], log: [], stored: 0, stalled: false };
  if (text) hub.log.push(hub.note.insert(0, text));
  hub.stored = hub.log.length;
  const frame = (type, body) => new Uint8Array([1, type, ...body]).buffer;
  const deliver = (socket, data) => clock.setTimer(() => socket.onmessage?.({ data }), 0);
  hub.close = (socket, code) => {
    hub.sockets.delete(socket);
    clock.setTimer(() => socket.onclose?.({ code }), 0);
  };
  hub.WebSocket = class {
    constructor() {
      if (!hub.up || hub.refusing) { clock.setTimer(() => this.onclose?.({ code: 1006 }), 0); return; }
      hub.sockets.add(this);
      clock.setTimer(() => this.onopen?.(), 0);
    }
    send(bytes) {
      if (!hub.sockets.has(this)) return;
      const type = bytes[1];
      const body = bytes.slice(2);
      // A person who may only read: anything but hello closes the socket.
      if (hub.readOnly && type !== 1) { hub.readOnlyRefusals.push(type); hub.close(this, 4403); return; }
      if (type === 1) {
        const vector = decodeVersionVector(body);
        if (vector.size === 0) deliver(this, frame(0x11, encodeState(hub.note)));
        else {
          const missing = hub.log.filter((op) => op.counter + operationLength(op) > (vector.get(op.replica) ?? 0));
          if (missing.length) deliver(this, frame(0x02, encodeOperations(missing)));
        }
        deliver(this, frame(0x12, encodeVersionVector(hub.note.versionVector)));
        if (!hub.stalled) deliver(this, frame(0x13, encodeVersionVector(hub.note.versionVector)));
      } else if (type === 2) {
        const ops = decodeOperations(body);
        for (const op of ops) {
          const have = hub.note.versionVector.get(op.replica) ?? 0;
          if (op.counter > have) { hub.close(this, 4409); return; }
          const { applied } = hub.note.apply(op);
          hub.log.push(...applied);
          hub.received.push(op);
          hub.touched.add(op.replica);
        }
        // Relayed at once; stored and acknowledged to everyone after.
        for (const other of hub.sockets) if (other !== this) deliver(other, frame(0x02, body));
        if (!hub.stalled) hub.store();
      } else if (type === 3) {
        const json = JSON.parse(new TextDecoder().decode(body));
        for (const other of hub.sockets) {
          if (other !== this) deliver(other, frame(0x14, new TextEncoder().encode(JSON.stringify({ ...json, editor: 'e', name: 'Ania', colour: '#0b5cad' }))));
        }
      }
    }
    close() { hub.sockets.delete(this); }
  };
  // The same address as plain HTTP: why an upgrade was refused.
  hub.fetch = async (url) => {
    hub.asked.push(url);
    if (!hub.up) throw new TypeError('Failed to fetch');
    return { status: hub.refusing ?? 426 };
  };
  hub.asked = [];
  hub.readOnlyRefusals = [];
  hub.touched = new Set();
  hub.store = () => {
    hub.stored = hub.log.length;
    const ack = new Map([...hub.touched].map((replica) => [replica, hub.note.versionVector.get(replica)]));
    hub.touched = new Set();
    for (const socket of hub.sockets) deliver(socket, frame(0x13, encodeVersionVector(ack)));
  };
  // Killed: what was not stored is gone, and every connection drops.
  hub.crash = () => {
    hub.log = hub.log.slice(0, hub.stored);
    hub.note = new NoteText(1);
    hub.note.applyAll(hub.log);
    hub.touched = new Set();
    for (const s of [...hub.sockets]) hub.close(s, 1006);
  };
  hub.stop = () => { hub.up = false; for (const s of [...hub.sockets]) hub.close(s, 1001); };
  return hub;
}

function open(hub, clock, storage = memoryStorage(), random = Math.random, readOnly = false) {
  const session = createNoteSession({
    noteId: 'n1', storage, location: { protocol: 'http:', host: 'hub' }, WebSocketImpl: hub.WebSocket, fetchImpl: hub.fetch,
    setTimer: clock.setTimer, clearTimer: clock.clearTimer, now: clock.now, random, readOnly,
  });
  const seen = { statuses: [], texts: 0, problems: [] };
  session.onStatus((s) => seen.statuses.push(s));
  session.onText(() => { seen.texts++; });
  session.onProblem((p) => seen.problems.push(p));
  session.start();
  return { session, seen, storage };
}

function type(session, value) {
  const before = session.note.text;
  session.recordLocal(applyValueChange(session.note, before, value));
}

/**
 * Lets `times` steps of `ms` pass, each followed by a turn of the event
 * loop, so that the HTTP question a refused connection asks (a promise)
 * is answered before the next step.
 */
async function pass(clock, ms, times = 1) {
  for (let i = 0; i < times; i++) {
    clock.advance(ms);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('two sessions on one hub see each other\'s typing, and it is saved', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Zakupy\n');
  const a = open(hub, clock);
  const b = open(hub, clock);
  clock.advance(10);
  assert.equal(a.session.note.text, 'Zakupy\n');
  assert.equal(a.session.status, 'saved');
  type(a.session, 'Zakupy\nmleko');
  assert.equal(a.session.status, 'saving');
  clock.advance(100);
  assert.equal(b.session.note.text, 'Zakupy\nmleko');
  assert.equal(hub.note.text, 'Zakupy\nmleko');
  assert.equal(a.session.status, 'saved');
  assert.equal(a.session.outbox.length, 0);
  assert.equal(b.session.outbox.length, 0, 'what b heard is dropped once the hub stored it');
  assert.equal(b.session.status, 'saved');
  assert.deepEqual(a.seen.statuses.slice(0, 2), ['loading', 'connecting']);
});

test('typing heard before the hub stored it is sent again by the listener when the hub lost it', async () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Zakupy\n');
  const a = open(hub, clock);
  const b = open(hub, clock);
  clock.advance(10);
  hub.stalled = true; // the disk stalls: relayed, not stored
  type(a.session, 'Zakupy\nmleko');
  clock.advance(100);
  assert.equal(b.session.note.text, 'Zakupy\nmleko', 'heard before it was stored');
  assert.equal(b.session.status, 'saving', 'b holds what the hub has not stored');
  assert.ok(b.storage.getItem(draftKey('n1', b.session.replica)).includes('mleko'), 'and keeps it in localStorage');
  hub.crash();
  a.session.stop(); // the typist's tab is closed: only b can give it back
  hub.stalled = false;
  await pass(clock, 1000, 30);
  assert.equal(hub.note.text, 'Zakupy\nmleko');
  assert.equal(hub.stored, hub.log.length);
  assert.equal(b.session.note.text, 'Zakupy\nmleko');
  assert.equal(b.session.status, 'saved');
  assert.equal(b.session.outbox.length, 0);
});

test('what was heard is not sent back to the hub that relayed it', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Zakupy\n');
  const a = open(hub, clock);
  open(hub, clock);
  clock.advance(10);
  type(a.session, 'Zakupy\nchleb');
  clock.advance(1000);
  assert.equal(hub.received.length, 1, 'one operation reached the hub, from the typist only');
});

test('quick typing goes out as few frames, well within the hub\'s 100 a second', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock);
  const a = open(hub, clock);
  clock.advance(10);
  let value = '';
  for (const letter of 'Dzień dobry, jak się masz?') {
    value += letter;
    type(a.session, value);
    clock.advance(2);
  }
  clock.advance(100);
  assert.equal(hub.note.text, value);
  assert.ok(hub.received.length <= 2, `${hub.received.length} operations sent`);
});

test('typing while the hub is away is kept, survives closing the tab, and is saved by the next one', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Wizyta\n');
  const storage = memoryStorage();
  const first = open(hub, clock, storage);
  clock.advance(2000); // the saved copy is written a second after a change
  hub.stop();
  clock.advance(10);
  assert.equal(first.session.status, 'offline');
  assert.equal(first.session.editable, true);
  type(first.session, 'Wizyta\nciśnienie');
  clock.advance(50);
  first.session.stop(); // the tab is closed while the hub is away
  assert.match([...storage.items.values()].join(), /ciśnienie/);

  hub.up = true;
  const second = open(hub, clock, storage);
  assert.equal(second.session.note.text, 'Wizyta\nciśnienie', 'shown at once from this device');
  assert.notEqual(second.session.replica, first.session.replica, 'a new session, a new replica');
  clock.advance(100);
  assert.equal(hub.note.text, 'Wizyta\nciśnienie');
  assert.equal(second.session.status, 'saved');
  const drafts = [...storage.items].filter(([k]) => k.includes('.draft.'));
  assert.ok(drafts.every(([, v]) => JSON.parse(v).ops.length === 0), 'nothing left to send');
});

test('after a dropped connection the session reconnects and sends what it typed meanwhile', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'a');
  const a = open(hub, clock);
  const b = open(hub, clock);
  clock.advance(10);
  hub.stop();
  clock.advance(10);
  type(a.session, 'ab');
  type(b.session, 'ca');
  hub.up = true;
  clock.advance(5000);
  assert.equal(a.session.status, 'saved');
  assert.equal(b.session.status, 'saved');
  assert.equal(a.session.note.text, b.session.note.text);
  assert.equal(hub.note.text, 'cab');
});

test('the cursor goes to the others as an id, a few times a second at most', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'a\nb');
  const a = open(hub, clock);
  const b = open(hub, clock);
  clock.advance(10);
  for (let i = 0; i < 3; i++) a.session.setCursor([1, i]);
  clock.advance(500);
  assert.deepEqual([...b.session.editors.values()], [{ name: 'Ania', colour: '#0b5cad', cursor: [1, 2] }]);
});

test('when the hub refuses what was sent, the session starts again from the hub\'s copy and says so', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'abc');
  const a = open(hub, clock);
  clock.advance(10);
  const replica = a.session.replica;
  // A gap in the counters: what a damaged outbox would send.
  a.session.recordLocal([{ kind: 'insert', replica, counter: 5, originLeft: null, originRight: null, text: 'x' }]);
  clock.advance(100);
  assert.deepEqual(a.seen.problems, ['refused']);
  clock.advance(2000);
  assert.notEqual(a.session.replica, replica);
  assert.equal(a.session.note.text, 'abc');
  assert.equal(a.session.status, 'saved');
});

test('a note moved to Trash closes for good, keeping what was typed', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'abc');
  const a = open(hub, clock);
  clock.advance(10);
  for (const s of [...hub.sockets]) hub.close(s, 4404);
  clock.advance(60000);
  assert.equal(a.session.status, 'gone');
  assert.equal(a.session.editable, false);
  assert.deepEqual(a.seen.problems, ['gone']);
  assert.equal(hub.sockets.size, 0, 'no reconnecting');
});

test('an upgrade refused because the note is gone stops reconnecting and says so', async () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'abc');
  const a = open(hub, clock);
  clock.advance(10);
  type(a.session, 'abcd');
  // The note goes to Trash while this tab is away; the hub refuses the upgrade.
  for (const s of [...hub.sockets]) hub.close(s, 1006);
  hub.refusing = 404;
  await pass(clock, 60000, 5);
  assert.equal(a.session.status, 'gone');
  assert.deepEqual(a.seen.problems, ['gone']);
  assert.equal(hub.asked[0], '/api/v1/notes/n1/edit');
  assert.equal(hub.asked.length, 1, 'asked once, then stopped trying');
});

test('a device removed while editing keeps what it typed, says so, and saves it once paired again', async () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'abc');
  const a = open(hub, clock);
  clock.advance(10);
  // The device is revoked: the hub closes the editing connection as revoked,
  // and refuses the next upgrade as unauthenticated.
  for (const s of [...hub.sockets]) hub.close(s, 4401);
  hub.refusing = 401;
  clock.advance(10);
  assert.equal(a.session.status, 'unpaired');
  assert.equal(a.session.editable, true, 'typing goes on, kept on this device');
  type(a.session, 'abcd');
  await pass(clock, 30000);
  assert.equal(hub.asked.length, 0, 'no quick retries while unpaired');
  await pass(clock, 30000);
  assert.equal(hub.asked.length, 1, 'tried again after a minute, and asked why it was refused');
  assert.equal(a.session.status, 'unpaired');
  // Paired again: the next try gets through and what was typed is saved.
  hub.refusing = undefined;
  await pass(clock, 60000, 2);
  assert.equal(a.session.status, 'saved');
  assert.equal(hub.note.text, 'abcd');
});

test('a device removed while editing forgets its saved copy of the note, and keeps only its own typing', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Leki babci');
  const a = open(hub, clock);
  clock.advance(10);
  clock.advance(60000);
  assert.ok(a.storage.getItem(stateKey('n1')), 'the note was saved for a quick start');
  for (const s of [...hub.sockets]) hub.close(s, 4401);
  hub.refusing = 401;
  clock.advance(10);
  assert.equal(a.session.status, 'unpaired');
  assert.equal(a.storage.getItem(stateKey('n1')), null, 'the household\'s words are gone from the device');
  // Typing goes on and is kept as a draft, but the whole note is not saved again
  type(a.session, 'Leki babci!');
  clock.advance(60000);
  assert.equal(a.storage.getItem(stateKey('n1')), null);
  a.session.stop();
  assert.equal(a.storage.getItem(stateKey('n1')), null, 'not even on leaving');
  assert.ok(a.storage.getItem(draftKey('n1', a.session.replica)), 'its own typing is kept');
});

test('an editor told its note is gone keeps only its own typing, not what it heard and the hub had not stored', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Lista\n');
  const a = open(hub, clock);
  const b = open(hub, clock);
  clock.advance(10);
  hub.stalled = true;
  type(a.session, 'Lista\ntajne');
  clock.advance(100);
  type(b.session, 'Lista\ntajne moje');
  clock.advance(100);
  assert.ok(b.storage.getItem(draftKey('n1', b.session.replica)).includes('tajn'), 'heard, kept while it may read the note');
  for (const s of [...hub.sockets]) hub.close(s, 4404);
  clock.advance(10);
  assert.equal(b.session.status, 'gone');
  const draft = b.storage.getItem(draftKey('n1', b.session.replica));
  assert.ok(draft.includes(' moj'), 'its own typing is kept');
  assert.ok(!draft.includes('tajn'), 'what the other person typed is not');
  b.session.stop();
  assert.ok(!b.storage.getItem(draftKey('n1', b.session.replica)).includes('tajn'), 'nor saved again on leaving');
});

test('an editor told its note is gone forgets its saved copy', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Prywatne');
  const a = open(hub, clock);
  clock.advance(60010);
  assert.ok(a.storage.getItem(stateKey('n1')));
  for (const s of [...hub.sockets]) hub.close(s, 4404);
  clock.advance(10);
  assert.equal(a.session.status, 'gone');
  assert.equal(a.storage.getItem(stateKey('n1')), null);
  a.session.stop();
  assert.equal(a.storage.getItem(stateKey('n1')), null, 'not saved again on leaving');
});

test('a connection that fails for other reasons keeps trying, and gets through when the hub is back', async () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'abc');
  const a = open(hub, clock);
  clock.advance(10);
  hub.stop();
  await pass(clock, 60000, 3);
  assert.equal(a.session.status, 'offline');
  assert.ok(hub.asked.length >= 2, 'it asked after each failed attempt');
  hub.up = true;
  await pass(clock, 60000, 3);
  assert.equal(a.session.status, 'saved');
});

test('a person who may only read hears the typing live and sends nothing, not even where the cursor is', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Zakupy\n');
  const owner = open(hub, clock);
  const reader = open(hub, clock, memoryStorage(), Math.random, true);
  clock.advance(10);
  assert.equal(reader.session.status, 'reading');
  assert.equal(reader.session.editable, false);
  hub.readOnly = true; // from now on the hub refuses any change, as it does for a reader
  reader.session.setCursor([1, 2]);
  clock.advance(500);
  assert.deepEqual(hub.readOnlyRefusals, [], 'nothing was sent');
  hub.readOnly = false;
  type(owner.session, 'Zakupy\nmleko');
  clock.advance(100);
  assert.equal(reader.session.note.text, 'Zakupy\nmleko');
  assert.equal(hub.note.text, 'Zakupy\nmleko');
  assert.deepEqual(reader.seen.problems, []);
});

test('typing made before the page knew the note is read-only is never sent; made editable, it is', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Lista');
  const a = open(hub, clock, memoryStorage(), Math.random, null);
  clock.advance(10);
  assert.equal(a.session.editable, true, 'typing is kept while the page asks');
  type(a.session, 'Lista!');
  clock.advance(500);
  assert.equal(hub.note.text, 'Lista', 'but not sent');
  a.session.setReadOnly(false);
  clock.advance(100);
  assert.equal(hub.note.text, 'Lista!');
  assert.equal(a.session.status, 'saved');
});

test('told the note is read-only with typing not sent, the session starts again from the hub\'s copy and says so', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Lista');
  const a = open(hub, clock, memoryStorage(), Math.random, null);
  clock.advance(10);
  type(a.session, 'Lista?');
  a.session.setReadOnly(true);
  assert.deepEqual(a.seen.problems, ['readOnly']);
  clock.advance(2000);
  assert.equal(a.session.note.text, 'Lista', 'the hub\'s copy, without what could not be stored');
  assert.equal(a.session.status, 'reading');
  assert.equal(a.session.outbox.length, 0);
  assert.equal(hub.note.text, 'Lista');
});

test('a 4403 from the hub: the last typing was not stored, the text keeps coming, and nothing more is sent', () => {
  const clock = fakeClock();
  const hub = fakeHub(clock, 'Lista');
  const owner = open(hub, clock);
  const a = open(hub, clock);
  clock.advance(10);
  hub.readOnly = true; // the owner made it read-only; this page has not heard yet
  type(a.session, 'Lista, chleb');
  clock.advance(100);
  assert.deepEqual(hub.readOnlyRefusals, [2]);
  assert.deepEqual(a.seen.problems, ['readOnly']);
  assert.equal(a.session.readOnly, true);
  assert.equal(a.session.editable, false);
  assert.equal(a.session.note?.text ?? 'Lista, chleb', 'Lista, chleb', 'the text stays shown until the hub\'s copy comes');
  clock.advance(2000);
  assert.equal(a.session.note.text, 'Lista');
  assert.equal(a.session.status, 'reading');
  hub.readOnly = false;
  type(owner.session, 'Lista\nmasło');
  clock.advance(100);
  hub.readOnly = true;
  a.session.setCursor([1, 1]);
  clock.advance(60000);
  assert.equal(a.session.note.text, 'Lista\nmasło');
  assert.deepEqual(hub.readOnlyRefusals, [2], 'no second refusal: nothing more was sent');
  assert.deepEqual(a.seen.problems, ['readOnly']);
});
