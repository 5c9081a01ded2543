import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import {
  NoteText, decodeOperations, decodeState, encodeOperations, encodeState,
  scalarLength, scalarPosition, utf16Offset,
} from '../notes/crdt.js';

const vectorsDir = new URL('../../Tests/vectors/', import.meta.url);
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const unhex = (s) => new Uint8Array(Buffer.from(s, 'hex'));

// ---------------------------------------------------------------------------
// Shared vectors (format: Tests/vectors/README.md)

// Replays a vector's steps; returns each replica's note, log and local operations.
function replay(vector, steps = vector.steps) {
  const notes = {};
  const logs = {};
  const local = {};
  for (const [name, id] of Object.entries(vector.replicas)) {
    notes[name] = new NoteText(id);
    logs[name] = [];
    local[name] = [];
  }
  // A batch goes over the wire as bytes, as it will between browser and hub.
  const deliver = (to, bytes) => {
    for (const op of decodeOperations(bytes)) logs[to].push(...notes[to].apply(op).applied);
  };
  for (const step of steps) {
    if ('insert' in step || 'delete' in step) {
      const op = 'insert' in step
        ? notes[step.at].insert(step.insert, step.text)
        : notes[step.at].delete(step.delete, step.length);
      local[step.at].push(op);
      logs[step.at].push(op);
    } else if (step.sync) {
      const [x, y] = step.sync;
      deliver(y, encodeOperations(logs[x]));
      deliver(x, encodeOperations(logs[y]));
    } else if (step.send) {
      const [x, y] = step.send;
      deliver(y, encodeOperations(step.operations.map((i) => logs[x][i])));
    } else if (step.receive) {
      deliver(step.receive, unhex(step.bytes));
    } else if (step.check) {
      for (const [name, text] of Object.entries(step.check.text ?? {})) assert.equal(notes[name].text, text, `check: text of ${name}`);
      for (const [name, n] of Object.entries(step.check.pending ?? {})) assert.equal(notes[name].pendingCount, n, `check: pending at ${name}`);
    } else {
      throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }
  return { notes, logs, local };
}

const vectorFiles = readdirSync(vectorsDir).filter((f) => f.endsWith('.json') && f !== 'refused.json').sort();

test('there are shared vectors to run', () => assert.ok(vectorFiles.length >= 10));

for (const file of vectorFiles) {
  test(`vector ${file}`, () => {
    const vector = JSON.parse(readFileSync(new URL(file, vectorsDir), 'utf8'));
    const { notes, local } = replay(vector);
    const { expect } = vector;
    for (const [name, text] of Object.entries(expect.text ?? {})) assert.equal(notes[name].text, text, `text of ${name}`);
    for (const [name, state] of Object.entries(expect.state ?? {})) {
      assert.equal(hex(notes[name].encodeState()), state, `state of ${name}`);
      const decoded = decodeState(unhex(state), vector.replicas[name]);
      assert.equal(hex(decoded.encodeState()), state, `state of ${name} re-encoded`);
      assert.equal(decoded.text, notes[name].text);
    }
    for (const [name, ops] of Object.entries(expect.operations ?? {})) {
      assert.equal(hex(encodeOperations(local[name])), ops, `operations of ${name}`);
      assert.equal(hex(encodeOperations(decodeOperations(unhex(ops)))), ops);
    }
  });
}

test('vector refused.json: every listed encoding is refused', () => {
  const refused = JSON.parse(readFileSync(new URL('refused.json', vectorsDir), 'utf8'));
  for (const { bytes, why } of refused.operations) {
    assert.throws(() => decodeOperations(unhex(bytes)), Error, `operations ${bytes}: ${why}`);
  }
  for (const { bytes, why } of refused.states) {
    assert.throws(() => decodeState(unhex(bytes), 1), Error, `state ${bytes}: ${why}`);
  }
  for (const { bytes, why } of refused.accepted ?? []) {
    assert.doesNotThrow(() => (bytes.startsWith('01') ? decodeOperations : decodeState)(unhex(bytes), 1), `${bytes}: ${why}`);
  }
});

// ---------------------------------------------------------------------------
// Unit tests

const polish = 'Zażółć gęślą jaźń 👵🏼';

test('UTF-16 offsets and scalar positions round-trip through diacritics and emoji', () => {
  assert.equal(polish.length, 22);
  assert.equal(scalarLength(polish), 20);
  for (let p = 0; p <= 20; p++) assert.equal(scalarPosition(polish, utf16Offset(polish, p)), p);
  assert.equal(utf16Offset(polish, 19), 20); // 👵 takes two UTF-16 units
  assert.equal(scalarPosition(polish, 19), 18); // inside 👵: counts as before it
  assert.throws(() => utf16Offset(polish, 21), RangeError);
  assert.throws(() => scalarPosition(polish, 23), RangeError);
});

test('typing, deleting and the operations they make', () => {
  const note = new NoteText(7);
  const typed = note.insert(0, 'kup mleko');
  assert.deepEqual(typed, { kind: 'insert', replica: 7, counter: 0, originLeft: null, originRight: null, text: 'kup mleko' });
  const middle = note.insert(4, 'dobre ');
  assert.deepEqual(middle.originLeft, { replica: 7, counter: 3 });
  assert.deepEqual(middle.originRight, { replica: 7, counter: 4 });
  assert.equal(note.text, 'kup dobre mleko');
  // Across the two runs: one span per run, in document order.
  const removed = note.delete(2, 5);
  assert.deepEqual(removed.spans, [{ replica: 7, counter: 2, length: 2 }, { replica: 7, counter: 9, length: 3 }]);
  assert.equal(removed.counter, 15);
  assert.equal(note.text, 'kure mleko');
  assert.equal(note.length, 10);
  assert.deepEqual([...note.versionVector], [[7, 20]]);
  assert.equal(note.insert(3, ''), null);
  assert.equal(note.delete(3, 0), null);
  assert.throws(() => note.insert(11, 'x'), RangeError);
  assert.throws(() => note.delete(8, 3), RangeError);
  assert.throws(() => note.insert(0, '\ud83d'), /surrogate|well-formed/);
  assert.throws(() => new NoteText(0));
  assert.throws(() => new NoteText(2 ** 53));
});

test('emoji and diacritics round-trip through operations and state', () => {
  const a = new NoteText(1);
  const b = new NoteText(2);
  const ops = [a.insert(0, polish), a.delete(19, 1), a.insert(6, '✓')];
  for (const op of decodeOperations(encodeOperations(ops))) b.apply(op);
  assert.equal(b.text, 'Zażółć✓ gęślą jaźń 👵');
  assert.equal(decodeState(encodeState(b)).text, b.text);
});

test('apply reports changes that patch a mirror of the text and keep a cursor on its text', () => {
  const a = new NoteText(1);
  const b = new NoteText(2);
  b.applyAll([a.insert(0, 'jabłka, gruszki, śliwki')]);
  // b's cursor sits before "śliwki"; a edits before and inside the cursor's text.
  let cursor = b.text.indexOf('ś');
  let mirror = b.text;
  const ops = [a.delete(0, 8), a.insert(0, '🍎 '), a.insert(a.length, '!')];
  for (const op of ops) {
    for (const change of b.apply(op).changes) {
      const at = utf16Offset(mirror, change.position);
      if (change.kind === 'insert') {
        mirror = mirror.slice(0, at) + change.text + mirror.slice(at);
        if (at <= cursor) cursor += change.text.length;
      } else {
        const end = utf16Offset(mirror, change.position + change.length);
        mirror = mirror.slice(0, at) + mirror.slice(end);
        if (end <= cursor) cursor -= end - at;
      }
    }
  }
  assert.equal(mirror, b.text);
  assert.equal(b.text, '🍎 gruszki, śliwki!');
  assert.equal(b.text.slice(cursor), 'śliwki!');
});

test('a deletion that hits several runs reports each visible range', () => {
  const a = new NoteText(1);
  const b = new NoteText(2);
  b.applyAll([a.insert(0, 'abcdef'), a.delete(2, 1), a.insert(4, 'XY')]); // ab·deXYf
  const { changes } = b.apply(a.delete(1, 5)); // b, de, XY
  assert.equal(b.text, 'af');
  assert.deepEqual(changes.map((c) => [c.kind, c.position, c.length]),
    [['delete', 1, 1], ['delete', 1, 2], ['delete', 1, 2]]);
});

test('duplicates are ignored, and a bad operation is refused without changing anything', () => {
  const a = new NoteText(1);
  const b = new NoteText(2);
  const op = a.insert(0, 'leki');
  b.apply(op);
  assert.deepEqual(b.apply(op), { changes: [], applied: [] });
  const before = hex(b.encodeState());
  const bad = [
    { kind: 'insert', replica: 1, counter: 4, originLeft: { replica: 9, counter: 0 }, originRight: null, text: '' },
    { kind: 'insert', replica: 1, counter: 4, originLeft: { replica: 1, counter: 5 }, originRight: null, text: 'x' },
    { kind: 'insert', replica: 1, counter: 4, originLeft: { replica: 1, counter: 2 }, originRight: { replica: 1, counter: 1 }, text: 'x' },
    { kind: 'delete', replica: 1, counter: 4, spans: [] },
    { kind: 'delete', replica: 1, counter: 4, spans: [{ replica: 1, counter: 0, length: 0 }] },
    { kind: 'move', replica: 1, counter: 4 },
    { kind: 'insert', replica: 0, counter: 0, originLeft: null, originRight: null, text: 'x' },
  ];
  for (const o of bad) assert.throws(() => b.apply(o), Error, JSON.stringify(o));
  // A deletion's counters are not characters: naming them is refused.
  const c = new NoteText(3);
  c.applyAll([op, a.delete(0, 1)]); // the deletion takes counter 4
  assert.throws(() => c.apply({ kind: 'insert', replica: 3, counter: 0, originLeft: { replica: 1, counter: 4 }, originRight: null, text: 'x' }), /not a character/);
  assert.equal(hex(b.encodeState()), before);
});

test('a note decoded without a replica id can be read but not edited', () => {
  const a = new NoteText(5);
  a.insert(0, 'notatka');
  const copy = decodeState(encodeState(a));
  assert.equal(copy.text, 'notatka');
  assert.throws(() => copy.insert(0, 'x'), /replica/);
  // With a replica id it edits, and with its own id it continues its counter.
  const same = decodeState(encodeState(a), 5);
  assert.equal(same.insert(7, '!').counter, 7);
});

test('varints: 2^53 - 1 takes 8 bytes; 2^53, 9 bytes and padded varints are refused', () => {
  const big = 2 ** 53 - 1;
  const a = new NoteText(big);
  const bytes = encodeOperations([a.insert(0, 'x')]);
  assert.equal(hex(bytes), '010100ffffffffffffff0f000001' + '78');
  assert.throws(() => decodeOperations(unhex('010100808080808080801000000178')), /2\^53|8 bytes/);
  assert.throws(() => decodeOperations(unhex('01010080808080808080800100000178')), /8 bytes/);
  assert.throws(() => decodeOperations(unhex('0101008100000000000178')), /over-long/);
  assert.deepEqual(decodeOperations(unhex('0100')), []);
});

// ---------------------------------------------------------------------------
// Property tests with a seeded PRNG: a failure prints its seed, and
// CRDT_SEED=<seed> node --test Web/tests/ replays it.

function prng(seed) {
  let s = seed >>> 0;
  const next = () => { // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)] };
}

const pieces = ['a', 'b', 'c', 'ą', 'ę', 'ż', 'ź', 'ł', 'ó', ' ', '\n', '👵🏼', '💊', '€', 'x', 'y', '漢'];
function randomText(rand) {
  let s = '';
  for (let n = 1 + (rand.next() < 0.7 ? 0 : rand.int(6)); n > 0; n--) s += rand.pick(pieces);
  return s;
}

const seeds = process.env.CRDT_SEED ? [Number(process.env.CRDT_SEED)] : [1, 2, 3, 42, 1234, 98765, 20250101, 777];

// A replica in a simulation: the note, its log, and a mirror string patched
// only from what insert/delete did and from apply's changes.
function simulate(seed) {
  const rand = prng(seed);
  const count = 3 + rand.int(6);
  const replicas = [];
  const used = new Set();
  while (replicas.length < count) {
    const id = rand.next() < 0.5 ? 1 + rand.int(20) : 1 + Math.floor(rand.next() * (2 ** 53 - 1));
    if (used.has(id)) continue;
    used.add(id);
    replicas.push({ note: new NoteText(id), log: [], mirror: '' });
  }
  const patch = (r, changes) => {
    for (const c of changes) {
      const at = utf16Offset(r.mirror, c.position);
      if (c.kind === 'insert') r.mirror = r.mirror.slice(0, at) + c.text + r.mirror.slice(at);
      else r.mirror = r.mirror.slice(0, at) + r.mirror.slice(utf16Offset(r.mirror, c.position + c.length));
    }
  };
  const deliver = (from, to, ops) => {
    const { changes, applied } = to.note.applyAll(decodeOperations(encodeOperations(ops)));
    to.log.push(...applied);
    patch(to, changes);
  };
  const batches = [];
  for (let step = 0; step < 300; step++) {
    const r = rand.pick(replicas);
    const roll = rand.next();
    if (roll < 0.55) {
      const len = r.note.length;
      if (len > 0 && rand.next() < 0.35) {
        const p = rand.int(len);
        const op = r.note.delete(p, 1 + rand.int(Math.min(len - p, 5)));
        r.log.push(op);
        patch(r, [{ kind: 'delete', position: p, length: op.spans.reduce((n, s) => n + s.length, 0) }]);
      } else {
        const p = rand.int(len + 1);
        const text = randomText(rand);
        r.log.push(r.note.insert(p, text));
        patch(r, [{ kind: 'insert', position: p, text }]);
      }
    } else if (roll < 0.9) {
      // Some of another replica's log, shuffled, some twice.
      const from = rand.pick(replicas);
      if (from === r || from.log.length === 0) continue;
      const ops = [];
      for (let k = 1 + rand.int(6); k > 0; k--) ops.push(from.log[rand.int(from.log.length)]);
      deliver(from, r, ops);
      batches.push(encodeOperations(ops));
    } else {
      // Reconnecting: everything again, both ways.
      const other = rand.pick(replicas);
      if (other === r) continue;
      deliver(other, r, other.log);
      deliver(r, other, r.log);
    }
    assert.equal(r.mirror, r.note.text, `seed ${seed} step ${step}: the mirror follows the changes`);
  }
  // Everyone hears from everyone, in order, as the hub would relay.
  for (const a of replicas) for (const b of replicas) if (a !== b) deliver(a, b, a.log);
  return { replicas, batches };
}

// The spec's integration, one character at a time, straight from the
// pseudo-code: the run-based NoteText must order characters exactly so.
function referenceReplay(log) {
  const chars = []; // {replica, counter, left, right, deleted, text}
  const position = (id) => (id ? chars.findIndex((c) => c.replica === id.replica && c.counter === id.counter) : null);
  for (const op of log) {
    if (op.kind === 'delete') {
      for (const s of op.spans) {
        for (let k = 0; k < s.length; k++) chars[position({ replica: s.replica, counter: s.counter + k })].deleted = true;
      }
      continue;
    }
    const text = [...op.text];
    const left = op.originLeft ? position(op.originLeft) : -1;
    const right = op.originRight ? position(op.originRight) : chars.length;
    let dest = left + 1;
    let scanning = false;
    for (let i = left + 1; ; i++) {
      if (!scanning) dest = i;
      if (i === chars.length || i === right) break;
      const other = chars[i];
      const oleft = other.left ? position(other.left) : -1;
      const oright = other.right ? position(other.right) : chars.length;
      if (oleft < left) break;
      if (oleft === left) {
        if (oright < right) scanning = true;
        else if (oright === right) {
          if (op.replica < other.replica) break;
          scanning = false;
        } else scanning = false;
      }
    }
    chars.splice(dest, 0, ...text.map((ch, k) => ({
      replica: op.replica, counter: op.counter + k, deleted: false, text: ch,
      left: k === 0 ? op.originLeft : { replica: op.replica, counter: op.counter + k - 1 }, right: op.originRight,
    })));
  }
  return chars;
}

test('random concurrent edits by 3–8 replicas converge (text and state bytes)', (t) => {
  for (const seed of seeds) {
    t.diagnostic(`seed ${seed}`);
    const { replicas } = simulate(seed);
    const text = replicas[0].note.text;
    const state = hex(replicas[0].note.encodeState());
    for (const r of replicas) {
      assert.equal(r.note.pendingCount, 0, `seed ${seed}: nothing left waiting`);
      assert.equal(r.note.text, text, `seed ${seed}: text of replica ${r.note.replica}`);
      assert.equal(r.mirror, text, `seed ${seed}: mirror of replica ${r.note.replica}`);
      assert.equal(hex(r.note.encodeState()), state, `seed ${seed}: state of replica ${r.note.replica}`);
    }
    // Character by character, the spec's pseudo-code orders them the same.
    for (const r of replicas.slice(0, 2)) {
      const reference = referenceReplay(r.log);
      assert.equal(reference.filter((c) => !c.deleted).map((c) => c.text).join(''), text, `seed ${seed}: reference text`);
      const ids = [];
      for (const run of r.note.runs) for (let k = 0; k < run.length; k++) ids.push(`${run.replica}:${run.counter + k}:${run.deleted}`);
      assert.deepEqual(ids, reference.map((c) => `${c.replica}:${c.counter}:${c.deleted}`), `seed ${seed}: reference order`);
    }
    // encode(decode(x)) == x, and a decoded note keeps editing and syncing.
    const decoded = decodeState(unhex(state), replicas[0].note.replica);
    assert.equal(hex(decoded.encodeState()), state, `seed ${seed}: state round trip`);
    const op = decoded.insert(Math.floor(decoded.length / 2), 'ok');
    replicas[1].note.apply(op);
    replicas[0].note.apply(op);
    assert.equal(replicas[1].note.text, decoded.text);
    assert.equal(hex(replicas[0].note.encodeState()), hex(decoded.encodeState()));
  }
});

test('runs typed at the same place at the same time never interleave', (t) => {
  for (const seed of seeds) {
    t.diagnostic(`seed ${seed}`);
    const rand = prng(seed);
    const base = new NoteText(1000);
    base.insert(0, 'Lista: .');
    const start = base.encodeState();
    const count = 2 + rand.int(5);
    const typists = [];
    for (let i = 0; i < count; i++) {
      const note = decodeState(start, 2000 + rand.int(1000) * 8 + i);
      // Each types a word letter by letter at the same place, sometimes
      // backspacing and retyping a letter.
      const word = `<${i}${[...'ąb👵c'].slice(0, 1 + rand.int(4)).join('')}>`;
      const ops = [];
      let at = 7;
      for (const ch of word) {
        ops.push(note.insert(at, ch));
        if (rand.next() < 0.2) { ops.push(note.delete(at, 1)); ops.push(note.insert(at, ch)); }
        at++;
      }
      typists.push({ note, ops, word });
    }
    for (const a of typists) for (const b of typists) if (a !== b) b.note.applyAll(a.ops.slice().reverse());
    const text = typists[0].note.text;
    for (const { note, word } of typists) {
      assert.equal(note.text, text, `seed ${seed}: converged`);
      assert.ok(text.includes(word), `seed ${seed}: "${word}" stays whole in ${JSON.stringify(text)}`);
    }
    // Lower replica ids first.
    const order = typists.slice().sort((a, b) => a.note.replica - b.note.replica).map((x) => x.word).join('');
    assert.equal(text, `Lista: ${order}.`);
  }
});

test('text inserted inside a range someone else deletes survives, the rest of the range goes', (t) => {
  for (const seed of seeds) {
    t.diagnostic(`seed ${seed}`);
    const rand = prng(seed);
    const a = new NoteText(1 + rand.int(100));
    const b = new NoteText(101 + rand.int(100));
    b.applyAll([a.insert(0, 'Wizyta u lekarza: wtorek 10:00, pokój 12')]);
    const from = rand.int(30);
    const length = 1 + rand.int(10);
    const inside = from + 1 + rand.int(length);
    const cut = a.delete(from, length);
    const typed = b.insert(inside, 'żółw👵');
    const original = b.text.replace('żółw👵', '');
    a.apply(typed);
    b.apply(cut);
    const chars = [...original];
    const expected = chars.slice(0, from).join('') + 'żółw👵' + chars.slice(from + length).join('');
    assert.equal(a.text, expected, `seed ${seed}`);
    assert.equal(b.text, expected, `seed ${seed}`);
  }
});

test('decoders refuse or accept mutated bytes, never anything else', (t) => {
  const seed = seeds[0];
  t.diagnostic(`seed ${seed}`);
  const rand = prng(seed);
  const { replicas, batches } = simulate(seed);
  const samples = [
    ...batches.slice(0, 20).map((b) => ['ops', b]),
    ...replicas.map((r) => ['state', r.note.encodeState()]),
    ['ops', encodeOperations(replicas[0].log.slice(0, 30))],
  ];
  let refused = 0;
  let accepted = 0;
  for (let k = 0; k < 4000; k++) {
    const [kind, valid] = rand.pick(samples);
    let bytes = Array.from(valid);
    for (let m = 1 + rand.int(3); m > 0; m--) {
      const at = rand.int(bytes.length + 1);
      const roll = rand.next();
      if (roll < 0.4) bytes[Math.min(at, bytes.length - 1)] = rand.int(256);
      else if (roll < 0.6) bytes.splice(at, 1);
      else if (roll < 0.8) bytes.splice(at, 0, rand.int(256));
      else bytes = bytes.slice(0, at);
    }
    const input = new Uint8Array(bytes);
    try {
      if (kind === 'ops') {
        const ops = decodeOperations(input);
        assert.equal(hex(encodeOperations(ops)), hex(input), 'what decodes re-encodes to the same bytes');
        // Applying them either works or is refused.
        const note = decodeState(replicas[0].note.encodeState(), 99);
        for (const op of ops) { try { note.apply(op); } catch (e) { assert.ok(e instanceof Error); } }
      } else {
        const note = decodeState(input, 99);
        note.encodeState();
        note.insert(0, 'x');
      }
      accepted++;
    } catch (e) {
      if (e instanceof assert.AssertionError) throw e;
      assert.ok(e instanceof Error, `throws an Error, not ${e}`);
      refused++;
    }
  }
  t.diagnostic(`${refused} mutations refused, ${accepted} accepted`);
  assert.ok(refused > 1000);
});

// ---------------------------------------------------------------------------
// Speed, printed, not asserted

test('speed: a 100k-character note with 20k runs, 20k keystrokes and 5k deletes', (t) => {
  const rand = prng(7);
  const writer = new NoteText(1);
  for (let i = 0; i < 11000; i++) writer.insert(rand.int(writer.length + 1), 'abcdefghi');
  const base = writer.encodeState();
  const author = decodeState(base, 2);
  const reader = decodeState(base, 3);
  t.diagnostic(`note: ${author.length} characters, ${author.runs.length} runs, state ${base.length} bytes`);
  // Typing in bursts at random places, deleting with backspace-like ranges.
  const ops = [];
  let started = performance.now();
  let at = 0;
  for (let i = 0; i < 25000; i++) {
    if (i % 20 === 0) at = rand.int(author.length + 1);
    if (i % 5 === 4 && at > 0) { ops.push(author.delete(at - 1, 1)); at--; } else { ops.push(author.insert(at, 'q')); at++; }
  }
  const local = performance.now() - started;
  started = performance.now();
  for (const op of ops) reader.apply(op);
  const remote = performance.now() - started;
  assert.equal(reader.text, author.text);
  started = performance.now();
  const state = encodeState(reader);
  const encode = performance.now() - started;
  started = performance.now();
  decodeState(state, 4);
  const decode = performance.now() - started;
  t.diagnostic(`${ops.length} local edits ${local.toFixed(0)} ms; applied remotely ${remote.toFixed(0)} ms; `
    + `encode state ${encode.toFixed(0)} ms (${state.length} bytes); decode ${decode.toFixed(0)} ms; ${reader.runs.length} runs in memory`);
});
