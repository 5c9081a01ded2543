// The note text CRDT, as in Docs/note-crdt.md — the contract this file shares
// byte for byte with Sources/HearthCRDT and the vectors in Tests/vectors/.
//
// Algorithm: YjsMod integration from J. Gentle's reference-crdts
// (github.com/josephg/reference-crdts, `integrateYjsMod`), in the YATA family
// (Nicolaescu, Jahns, Derntl, Klamma: "Near Real-Time Peer-to-Peer Shared
// Editing on Extensible Data Types", GROUP 2016), as analysed by Weidner and
// Kleppmann, "The Art of the Fugue" (2023): concurrent runs typed at one place
// never interleave.
//
// Layout: the document is an array of runs in document order. A run is
// characters with one replica, consecutive counters, each (after the first)
// originating left at the one before it, one origin right and one deleted
// flag, so typing a sentence is one object, not one per letter. Each
// replica's runs are also kept sorted by counter to find an id's run by
// binary search. Runs are only ever inserted into the array, never removed,
// so a run's index only grows: each run remembers where it was last seen
// (`hint`) and the search goes forward from there. A cursor remembers how many
// visible characters precede one run index, so edits near the last one do not
// rescan the note.
//
// Positions and lengths are in Unicode scalars (code points); the textarea
// speaks UTF-16, see scalarPosition/utf16Offset.

const MAX_ID = 2 ** 53; // replica ids and varints stay below this
// Counters stay below 2^52, so a state's zigzagged counter differences fit a varint.
const MAX_COUNTER = 2 ** 52;
// A raw position is encoded as runIndex * RUN_SPAN + offset in the run, so two
// characters compare by one number. A note is at most 1 MiB, far below 2^32.
const RUN_SPAN = 2 ** 32;
const OBJECT_REPLACEMENT = '\uFFFC'; // stands in for dropped tombstone text

const encoder = new TextEncoder();
// fatal: refuse invalid UTF-8; ignoreBOM: keep a leading U+FEFF as text.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// ---------------------------------------------------------------------------
// Unicode scalars and UTF-16

/** Number of Unicode scalars in a well-formed string. */
export function scalarLength(text) {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--; // the low half of a pair
  }
  return n;
}

/**
 * The scalar position of a UTF-16 offset in `text` (a textarea's
 * selectionStart). An offset inside a surrogate pair counts as before the pair.
 */
export function scalarPosition(text, offset) {
  if (!Number.isInteger(offset) || offset < 0 || offset > text.length) {
    throw new RangeError(`UTF-16 offset ${offset} is outside the text (0…${text.length})`);
  }
  let n = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (i + 1 === offset) break; // inside the pair
        i++;
      }
    }
    n++;
  }
  return n;
}

/** The UTF-16 offset of scalar position `position` in `text`. */
export function utf16Offset(text, position) {
  if (!Number.isInteger(position) || position < 0) {
    throw new RangeError(`scalar position ${position} is not a non-negative integer`);
  }
  let i = 0;
  for (let n = 0; n < position; n++) {
    if (i >= text.length) throw new RangeError(`scalar position ${position} is past the end of the text`);
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length
      && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff ? 2 : 1;
  }
  return i;
}

// Scalars [from, to) of a run's text; most runs are all-BMP and take the fast path.
function sliceScalars(text, length, from, to) {
  if (text.length === length) return text.slice(from, to);
  return text.slice(utf16Offset(text, from), utf16Offset(text, to));
}

// ---------------------------------------------------------------------------
// Ids and operations
//
// An id is {replica, counter}. Operations are plain objects:
//   {kind: 'insert', replica, counter, originLeft: id|null, originRight: id|null, text}
//   {kind: 'delete', replica, counter, spans: [{replica, counter, length}, …]}

const isReplica = (r) => Number.isSafeInteger(r) && r >= 1;
const isCounter = (c) => Number.isSafeInteger(c) && c >= 0 && c < MAX_COUNTER;

/** The number of counter values an operation takes. */
export function operationLength(op) {
  if (op.kind === 'insert') return scalarLength(op.text);
  let n = 0;
  for (const s of op.spans) n += s.length;
  return n;
}

function checkId(id, what) {
  if (id === null) return;
  if (typeof id !== 'object' || !isReplica(id.replica) || !isCounter(id.counter)) {
    throw new Error(`${what} is not a valid id`);
  }
}

// Shape checks that need no document, so a bad operation is refused before
// anything changes.
function checkOperation(op) {
  if (!op || typeof op !== 'object') throw new Error('operation is not an object');
  if (!isReplica(op.replica)) throw new Error(`operation replica ${op.replica} is not in 1 ..< 2^53`);
  if (!isCounter(op.counter)) throw new Error(`operation counter ${op.counter} is not a non-negative integer`);
  let n;
  if (op.kind === 'insert') {
    if (typeof op.text !== 'string' || op.text.length === 0) throw new Error('insertion has no text');
    if (!op.text.isWellFormed()) throw new Error('insertion text has an unpaired surrogate');
    checkId(op.originLeft ?? null, 'origin left');
    checkId(op.originRight ?? null, 'origin right');
    n = scalarLength(op.text);
    // Its own characters cannot be its origins: it would never become ready.
    for (const o of [op.originLeft, op.originRight]) {
      if (o && o.replica === op.replica && o.counter >= op.counter) {
        throw new Error('insertion names one of its own or a later id as an origin');
      }
    }
  } else if (op.kind === 'delete') {
    if (!Array.isArray(op.spans) || op.spans.length === 0) throw new Error('deletion has no spans');
    n = 0;
    for (const s of op.spans) {
      checkId(s, 'deletion span');
      if (!Number.isSafeInteger(s.length) || s.length < 1) throw new Error('deletion span has zero length');
      if (s.counter + s.length > MAX_COUNTER) throw new Error('deletion span runs past 2^52');
      if (s.replica === op.replica && s.counter + s.length > op.counter) {
        throw new Error('deletion targets its own or a later id');
      }
      n += s.length;
    }
  } else {
    throw new Error(`unknown operation kind ${op.kind}`);
  }
  if (op.counter + n > MAX_COUNTER) throw new Error('operation counters run past 2^52');
  return n;
}

const sameId = (r1, c1, r2, c2) => r1 === r2 && c1 === c2;

/**
 * The part of an operation from counter `have` on, as Docs/note-crdt.md
 * trims it: an insertion keeps its origin right and chains its first new
 * character to the one before; a deletion drops its first targets. An
 * operation starting at or after `have` is returned as it is.
 */
export function trimOperation(op, have) {
  const skip = have - op.counter;
  if (skip <= 0) return op;
  if (op.kind === 'insert') {
    const length = scalarLength(op.text);
    return {
      kind: 'insert', replica: op.replica, counter: have,
      originLeft: { replica: op.replica, counter: have - 1 }, // the chain rule
      originRight: op.originRight ?? null,
      text: sliceScalars(op.text, length, skip, length),
    };
  }
  const spans = [];
  let left = skip;
  for (const s of op.spans) {
    if (left >= s.length) { left -= s.length; continue; }
    spans.push({ replica: s.replica, counter: s.counter + left, length: s.length - left });
    left = 0;
  }
  return { kind: 'delete', replica: op.replica, counter: have, spans };
}

// ---------------------------------------------------------------------------
// The document

class Run {
  constructor(replica, counter, length, leftReplica, leftCounter, rightReplica, rightCounter, deleted, text, hint) {
    this.replica = replica;
    this.counter = counter;
    this.length = length;
    // Origin left of the first character (replica 0: none); the others
    // originate at the character before them in the run.
    this.leftReplica = leftReplica;
    this.leftCounter = leftCounter;
    // Origin right of every character (replica 0: none).
    this.rightReplica = rightReplica;
    this.rightCounter = rightCounter;
    this.deleted = deleted;
    this.text = text; // null once deleted: tombstones keep no text
    this.hint = hint; // the index in NoteText.runs where it was last seen
  }
  get visible() { return this.deleted ? 0 : this.length; }
}

/** A note's text as a sequence CRDT replica (Docs/note-crdt.md). */
export class NoteText {
  /** @param {number} replica this editing session's id, an integer in 1 ..< 2^53 */
  constructor(replica) {
    if (!isReplica(replica)) throw new Error(`replica id ${replica} is not an integer in 1 ..< 2^53`);
    this.replica = replica;
    this.runs = [];
    this.byReplica = new Map(); // replica → its runs sorted by counter
    this.version = new Map(); // replica → next expected counter (only replicas seen)
    this.pending = new Map(); // replica → operations waiting, sorted by counter
    this.visibleLength = 0;
    this.cursor = { index: 0, visible: 0 }; // visible characters before runs[index]
    this.cachedText = '';
    this.droppedPending = 0; // pending operations found invalid once ready
  }

  /** A replica from encodeState bytes; `replica` is the new session's id. */
  static decodeState(bytes, replica) {
    return decodeState(bytes, replica);
  }

  /** The visible text. */
  get text() {
    if (this.cachedText === null) {
      let s = '';
      for (const run of this.runs) if (!run.deleted) s += run.text;
      this.cachedText = s;
    }
    return this.cachedText;
  }

  /** The visible length in scalars. */
  get length() { return this.visibleLength; }

  /** A copy of the version vector: replica → next expected counter. */
  get versionVector() { return new Map(this.version); }

  /** How many received operations wait for ones they depend on. */
  get pendingCount() {
    let n = 0;
    for (const list of this.pending.values()) n += list.length;
    return n;
  }

  encodeState() { return encodeState(this); }

  // --- local edits --------------------------------------------------------

  /** Insert `text` before visible scalar `position`; returns the operation (null for ""). */
  insert(position, text) {
    this.requireReplica();
    if (typeof text !== 'string' || !text.isWellFormed()) throw new Error('text must be a well-formed string');
    this.checkPosition(position, 0);
    if (text.length === 0) return null;
    const counter = this.version.get(this.replica) ?? 0;
    if (counter + scalarLength(text) > MAX_COUNTER) throw new Error('this replica has used up its counters');
    // Before the position-th visible character, after any tombstones before it.
    let index = this.runs.length;
    if (position < this.visibleLength) {
      const { index: j, offset } = this.locate(position);
      index = offset > 0 ? this.split(j, offset) : j;
    }
    const before = index > 0 ? this.runs[index - 1] : null;
    const after = index < this.runs.length ? this.runs[index] : null;
    const op = {
      kind: 'insert', replica: this.replica, counter,
      originLeft: before ? { replica: before.replica, counter: before.counter + before.length - 1 } : null,
      originRight: after ? { replica: after.replica, counter: after.counter } : null,
      text,
    };
    this.integrate(op);
    return op;
  }

  /** Delete `length` visible scalars from `position`; returns the operation (null for 0). */
  delete(position, length) {
    this.requireReplica();
    this.checkPosition(position, 0);
    if (!Number.isInteger(length) || length < 0 || position + length > this.visibleLength) {
      throw new RangeError(`cannot delete ${length} characters at ${position} of ${this.visibleLength}`);
    }
    if (length === 0) return null;
    const counter = this.version.get(this.replica) ?? 0;
    if (counter + length > MAX_COUNTER) throw new Error('this replica has used up its counters');
    const spans = [];
    for (let left = length; left > 0;) {
      const { index, offset } = this.locate(position);
      const run = this.runs[index];
      const take = Math.min(run.length - offset, left);
      const last = spans[spans.length - 1];
      if (last && last.replica === run.replica && last.counter + last.length === run.counter + offset) {
        last.length += take;
      } else {
        spans.push({ replica: run.replica, counter: run.counter + offset, length: take });
      }
      this.markDeleted(index, offset, take);
      left -= take;
    }
    this.version.set(this.replica, counter + length);
    return { kind: 'delete', replica: this.replica, counter, spans };
  }

  // --- remote operations --------------------------------------------------

  /**
   * Apply a received operation. Duplicates are ignored, overlaps trimmed, and
   * operations that are not ready yet wait until what they name arrives.
   * Returns {changes, applied}: `changes` in visible scalar terms, each
   * relative to the text after the previous one —
   *   {kind: 'insert', position, length, text} or {kind: 'delete', position, length};
   * `applied`: the operations applied now (trimmed), this one and any that
   * were waiting for it, in order. Throws, changing nothing, on a malformed
   * operation or one that names ids that are not characters.
   */
  apply(op) {
    const result = { changes: [], applied: [] };
    const n = checkOperation(op);
    const have = this.version.get(op.replica) ?? 0;
    if (op.counter + n <= have) return result; // all seen: a duplicate
    if (op.counter > have || !this.namesApplied(op, have)) {
      this.wait(op);
      return result;
    }
    const ready = this.trim(op, have);
    this.checkReferences(ready);
    this.applyReady(ready, result);
    this.drainPending(result);
    return result;
  }

  // Apply every operation of a batch; the results are concatenated.
  applyAll(ops) {
    const result = { changes: [], applied: [] };
    for (const op of ops) {
      const r = this.apply(op);
      result.changes.push(...r.changes);
      result.applied.push(...r.applied);
    }
    return result;
  }

  // --- internals ----------------------------------------------------------

  requireReplica() {
    if (this.replica === null) throw new Error('this note was decoded without a replica id: it cannot be edited');
  }

  checkPosition(position, extra) {
    if (!Number.isInteger(position) || position < 0 || position + extra > this.visibleLength) {
      throw new RangeError(`position ${position} is outside the note (0…${this.visibleLength})`);
    }
  }

  wait(op) {
    let list = this.pending.get(op.replica);
    if (!list) this.pending.set(op.replica, (list = []));
    let i = list.length;
    while (i > 0 && list[i - 1].counter > op.counter) i--;
    if (i > 0 && list[i - 1].counter === op.counter) {
      // Resent while waiting: keep whichever covers more.
      if (operationLength(op) > operationLength(list[i - 1])) list[i - 1] = op;
      return;
    }
    list.splice(i, 0, op);
  }

  drainPending(result) {
    for (let progress = true; progress;) {
      progress = false;
      for (const [replica, list] of this.pending) {
        while (list.length > 0) {
          const op = list[0];
          const have = this.version.get(replica) ?? 0;
          if (op.counter + operationLength(op) <= have) { list.shift(); continue; }
          if (op.counter > have || !this.namesApplied(op, have)) break;
          list.shift();
          const ready = this.trim(op, have);
          try {
            this.checkReferences(ready);
          } catch {
            this.droppedPending++; // it can never apply; its sender sent a bad one
            continue;
          }
          this.applyReady(ready, result);
          progress = true;
        }
        if (list.length === 0) this.pending.delete(replica);
      }
    }
  }

  // Whether every id the (trimmed) operation names has a counter already applied.
  namesApplied(op, have) {
    const applied = (r, c) => c < (this.version.get(r) ?? 0);
    if (op.kind === 'insert') {
      if (op.counter < have) return !op.originRight || applied(op.originRight.replica, op.originRight.counter);
      return (!op.originLeft || applied(op.originLeft.replica, op.originLeft.counter))
        && (!op.originRight || applied(op.originRight.replica, op.originRight.counter));
    }
    let skip = have - op.counter;
    for (const s of op.spans) {
      if (skip >= s.length) { skip -= s.length; continue; }
      if (!applied(s.replica, s.counter + s.length - 1)) return false;
      skip = 0;
    }
    return true;
  }

  // The part of an operation after the counters already applied.
  trim(op, have) {
    return trimOperation(op, have);
  }

  // Ids an operation names must be inserted characters, not a deletion's
  // counters; an insertion's origin right must come after its origin left.
  checkReferences(op) {
    if (op.kind === 'insert') {
      const l = op.originLeft ? this.position(op.originLeft.replica, op.originLeft.counter) : -1;
      const r = op.originRight ? this.position(op.originRight.replica, op.originRight.counter) : Infinity;
      if (l === null || r === null) throw new Error('insertion names an origin that is not a character');
      if (r <= l) throw new Error('insertion has its origin right before its origin left');
      return;
    }
    for (const s of op.spans) {
      for (let c = s.counter, end = s.counter + s.length; c < end;) {
        const run = this.findRun(s.replica, c);
        if (!run) throw new Error('deletion targets an id that is not a character');
        c = run.counter + run.length;
      }
    }
  }

  applyReady(op, result) {
    result.applied.push(op);
    if (op.kind === 'insert') {
      const { position, length } = this.integrate(op);
      result.changes.push({ kind: 'insert', position, length, text: op.text });
      return;
    }
    let n = 0;
    for (const s of op.spans) {
      n += s.length;
      for (let c = s.counter, end = s.counter + s.length; c < end;) {
        let run = this.findRun(s.replica, c);
        const offset = c - run.counter;
        const take = Math.min(run.length - offset, end - c);
        if (!run.deleted) {
          const index = this.markDeleted(this.indexOf(run), offset, take);
          result.changes.push({ kind: 'delete', position: this.visibleBefore(index), length: take });
        }
        c += take;
      }
    }
    this.version.set(op.replica, op.counter + n);
  }

  // YjsMod integration of an insertion whose origins are applied (see the spec).
  integrate(op) {
    const length = scalarLength(op.text);
    let left = -1;
    let leftIndex = -1;
    if (op.originLeft) {
      const run = this.findRun(op.originLeft.replica, op.originLeft.counter);
      const offset = op.originLeft.counter - run.counter;
      if (offset < run.length - 1) this.split(this.indexOf(run), offset + 1);
      leftIndex = this.indexOf(run);
      left = leftIndex * RUN_SPAN + run.length - 1;
    }
    let rightIndex = this.runs.length;
    if (op.originRight) {
      const run = this.findRun(op.originRight.replica, op.originRight.counter);
      const offset = op.originRight.counter - run.counter;
      // The origin right comes after the origin left, so this split leaves leftIndex alone.
      rightIndex = offset > 0 ? this.split(this.indexOf(run), offset) : this.indexOf(run);
    }
    const end = this.runs.length * RUN_SPAN; // rawLength
    const right = rightIndex * RUN_SPAN;
    // Only the first character of a run can stop the scan or change
    // `scanning`: the others originate at the character just before them,
    // which is after `left`. So we step run by run.
    let dest = leftIndex + 1;
    let scanning = false;
    for (let i = leftIndex + 1; ; i++) {
      if (!scanning) dest = i;
      if (i === this.runs.length || i === rightIndex) break;
      const other = this.runs[i];
      const oleft = other.leftReplica ? this.position(other.leftReplica, other.leftCounter) : -1;
      const oright = other.rightReplica ? this.position(other.rightReplica, other.rightCounter) : end;
      if (oleft < left) break;
      if (oleft === left) {
        if (oright < right) scanning = true;
        else if (oright === right) {
          if (op.replica < other.replica) break;
          scanning = false;
        } else scanning = false;
      }
    }
    const position = this.visibleBefore(dest);
    const prev = dest > 0 ? this.runs[dest - 1] : null;
    const lr = op.originLeft ? op.originLeft.replica : 0;
    const lc = op.originLeft ? op.originLeft.counter : 0;
    const rr = op.originRight ? op.originRight.replica : 0;
    const rc = op.originRight ? op.originRight.counter : 0;
    if (prev && !prev.deleted && prev.replica === op.replica && prev.counter + prev.length === op.counter
        && sameId(lr, lc, prev.replica, prev.counter + prev.length - 1)
        && sameId(rr, rc, prev.rightReplica, prev.rightCounter)) {
      // Typing on at the end of one's own run: grow it instead of adding one.
      prev.length += length;
      prev.text += op.text;
      if (this.cursor.index > dest - 1) this.cursor.visible += length;
    } else {
      const run = new Run(op.replica, op.counter, length, lr, lc, rr, rc, false, op.text, dest);
      this.runs.splice(dest, 0, run);
      if (this.cursor.index > dest) { this.cursor.index++; this.cursor.visible += length; }
      // Operations of a replica come in counter order, so its list stays sorted.
      const list = this.byReplica.get(op.replica);
      if (list) list.push(run); else this.byReplica.set(op.replica, [run]);
    }
    this.visibleLength += length;
    this.cachedText = null;
    this.version.set(op.replica, op.counter + length);
    return { position, length };
  }

  // The run holding id (replica, counter), or null.
  findRun(replica, counter) {
    const list = this.byReplica.get(replica);
    if (!list) return null;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const run = list[mid];
      if (counter < run.counter) hi = mid - 1;
      else if (counter >= run.counter + run.length) lo = mid + 1;
      else return run;
    }
    return null;
  }

  // The raw position of a character as runIndex * RUN_SPAN + offset, or null.
  position(replica, counter) {
    const run = this.findRun(replica, counter);
    return run ? this.indexOf(run) * RUN_SPAN + (counter - run.counter) : null;
  }

  // The index of a run in this.runs: runs only move right, so look forward
  // from where it was last seen.
  indexOf(run) {
    let i = run.hint;
    while (this.runs[i] !== run) i++;
    run.hint = i;
    return i;
  }

  // The number of visible characters before runs[index], moving the cursor.
  visibleBefore(index) {
    const c = this.cursor;
    while (c.index < index) c.visible += this.runs[c.index++].visible;
    while (c.index > index) c.visible -= this.runs[--c.index].visible;
    return c.visible;
  }

  // The run holding visible character `position` (< visibleLength) and the
  // offset in it.
  locate(position) {
    const c = this.cursor;
    while (c.visible > position) c.visible -= this.runs[--c.index].visible;
    while (c.visible + this.runs[c.index].visible <= position) c.visible += this.runs[c.index++].visible;
    return { index: c.index, offset: position - c.visible };
  }

  // Split runs[index] before its offset-th character; returns the new run's index.
  split(index, offset) {
    const run = this.runs[index];
    const tail = new Run(
      run.replica, run.counter + offset, run.length - offset,
      run.replica, run.counter + offset - 1, run.rightReplica, run.rightCounter,
      run.deleted, run.deleted ? null : sliceScalars(run.text, run.length, offset, run.length), index + 1,
    );
    if (!run.deleted) run.text = sliceScalars(run.text, run.length, 0, offset);
    run.length = offset;
    this.runs.splice(index + 1, 0, tail);
    if (this.cursor.index > index) this.cursor.index++;
    const list = this.byReplica.get(run.replica);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].counter <= run.counter) lo = mid + 1; else hi = mid;
    }
    list.splice(lo, 0, tail);
    return index + 1;
  }

  // Delete `take` characters of runs[index] from `offset`; returns the index
  // of the run now holding exactly them.
  markDeleted(index, offset, take) {
    if (offset > 0) index = this.split(index, offset);
    if (take < this.runs[index].length) this.split(index, take);
    const run = this.runs[index];
    run.deleted = true;
    run.text = null;
    if (this.cursor.index > index) this.cursor.visible -= take;
    this.visibleLength -= take;
    this.cachedText = null;
    return index;
  }
}

// ---------------------------------------------------------------------------
// Bytes: unsigned LEB128 varints, zigzag, length-prefixed UTF-8

class Writer {
  constructor() { this.bytes = new Uint8Array(64); this.length = 0; }
  byte(b) {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = b;
  }
  varint(v) {
    // Arithmetic, not bit operators: those stop at 32 bits and ids reach 53.
    while (v >= 128) { this.byte((v % 128) + 128); v = Math.floor(v / 128); }
    this.byte(v);
  }
  text(s) {
    const utf8 = encoder.encode(s);
    this.varint(utf8.length);
    for (const b of utf8) this.byte(b);
  }
  done() { return this.bytes.slice(0, this.length); }
}

class Reader {
  constructor(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new Error('expected a Uint8Array');
    this.bytes = bytes;
    this.at = 0;
  }
  byte() {
    if (this.at >= this.bytes.length) throw new Error('truncated: ended inside a value');
    return this.bytes[this.at++];
  }
  varint() {
    let value = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      const b = this.byte();
      value += (b & 127) * scale;
      if (b < 128) {
        if (b === 0 && i > 0) throw new Error('over-long varint (a zero last byte)');
        break;
      }
      if (i === 7) throw new Error('over-long varint (more than 8 bytes)');
      scale *= 128;
    }
    if (value >= MAX_ID) throw new Error('varint is 2^53 or more');
    return value;
  }
  text() {
    const n = this.varint();
    if (n > this.bytes.length - this.at) throw new Error('truncated: text runs past the end');
    let s;
    try {
      s = decoder.decode(this.bytes.subarray(this.at, this.at + n));
    } catch {
      throw new Error('text is not valid UTF-8');
    }
    this.at += n;
    return s;
  }
  end() {
    if (this.at !== this.bytes.length) throw new Error(`${this.bytes.length - this.at} bytes left over at the end`);
  }
}

const zigzag = (n) => (n >= 0 ? 2 * n : -2 * n - 1);
const unzigzag = (z) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

function readReplica(r, what) {
  const v = r.varint();
  if (v === 0) throw new Error(`${what} replica id is 0`);
  return v;
}

// ---------------------------------------------------------------------------
// A batch of operations (format byte 1)

export function encodeOperations(ops) {
  const w = new Writer();
  w.byte(1);
  w.varint(ops.length);
  for (const op of ops) {
    checkOperation(op);
    w.byte(op.kind === 'insert' ? 0 : 1);
    w.varint(op.replica);
    w.varint(op.counter);
    if (op.kind === 'insert') {
      w.byte((op.originLeft ? 1 : 0) | (op.originRight ? 2 : 0));
      if (op.originLeft) { w.varint(op.originLeft.replica); w.varint(op.originLeft.counter); }
      if (op.originRight) { w.varint(op.originRight.replica); w.varint(op.originRight.counter); }
      w.text(op.text);
    } else {
      w.varint(op.spans.length);
      for (const s of op.spans) { w.varint(s.replica); w.varint(s.counter); w.varint(s.length); }
    }
  }
  return w.done();
}

export function decodeOperations(bytes) {
  const r = new Reader(bytes);
  const format = r.byte();
  if (format !== 1) throw new Error(`unknown format byte ${format} for a batch of operations`);
  const count = r.varint();
  const ops = [];
  for (let k = 0; k < count; k++) {
    const kind = r.byte();
    const replica = readReplica(r, 'operation');
    const counter = r.varint();
    let op;
    if (kind === 0) {
      const flags = r.byte();
      if (flags > 3) throw new Error(`unknown insertion flags ${flags}`);
      const originLeft = flags & 1 ? { replica: readReplica(r, 'origin left'), counter: r.varint() } : null;
      const originRight = flags & 2 ? { replica: readReplica(r, 'origin right'), counter: r.varint() } : null;
      const text = r.text();
      if (text.length === 0) throw new Error('zero-length insertion');
      op = { kind: 'insert', replica, counter, originLeft, originRight, text };
    } else if (kind === 1) {
      const n = r.varint();
      if (n === 0) throw new Error('deletion with no spans');
      if (n > r.bytes.length - r.at) throw new Error('truncated: fewer spans than the count says');
      const spans = [];
      for (let i = 0; i < n; i++) {
        const s = { replica: readReplica(r, 'span'), counter: r.varint(), length: r.varint() };
        if (s.length === 0) throw new Error('zero-length deletion span');
        spans.push(s);
      }
      op = { kind: 'delete', replica, counter, spans };
    } else {
      throw new Error(`unknown operation kind ${kind}`);
    }
    ops.push(op); // whether its ids make sense is for apply() to judge

  }
  r.end();
  return ops;
}

// ---------------------------------------------------------------------------
// A whole document (format byte 2)

const DELETED = 1;
const HAS_LEFT = 2;
const HAS_RIGHT = 4;
const LEFT_IS_PREVIOUS = 8;
const RIGHT_IS_NEXT = 16;

// Whether run b continues run a as one run of the encoding (the spec's
// "maximal runs" rule): in memory runs may be split finer than that.
function continues(a, b) {
  return a.replica === b.replica && b.counter === a.counter + a.length
    && sameId(b.leftReplica, b.leftCounter, a.replica, a.counter + a.length - 1)
    && sameId(b.rightReplica, b.rightCounter, a.rightReplica, a.rightCounter)
    && a.deleted === b.deleted;
}

export function encodeState(doc) {
  const runs = [];
  for (const run of doc.runs) {
    const last = runs[runs.length - 1];
    if (last && continues(last, run)) last.length += run.length;
    else runs.push({ ...run, hint: 0 });
  }
  const replicas = [...doc.version.keys()].sort((x, y) => x - y);
  const indexOf = new Map(replicas.map((id, i) => [id, i]));
  const w = new Writer();
  w.byte(2);
  w.varint(replicas.length);
  for (const id of replicas) w.varint(id);
  for (const id of replicas) w.varint(doc.version.get(id));
  w.varint(runs.length);
  const expected = new Map(); // replica index → end of its previous run
  runs.forEach((run, k) => {
    const prev = runs[k - 1];
    const next = runs[k + 1];
    const index = indexOf.get(run.replica);
    let flags = run.deleted ? DELETED : 0;
    if (run.leftReplica) {
      flags |= HAS_LEFT;
      if (prev && sameId(run.leftReplica, run.leftCounter, prev.replica, prev.counter + prev.length - 1)) flags |= LEFT_IS_PREVIOUS;
    }
    if (run.rightReplica) {
      flags |= HAS_RIGHT;
      if (next && sameId(run.rightReplica, run.rightCounter, next.replica, next.counter)) flags |= RIGHT_IS_NEXT;
    }
    w.varint(index * 32 + flags);
    w.varint(zigzag(run.counter - (expected.get(index) ?? 0)));
    expected.set(index, run.counter + run.length);
    w.varint(run.length);
    if ((flags & (HAS_LEFT | LEFT_IS_PREVIOUS)) === HAS_LEFT) { w.varint(indexOf.get(run.leftReplica)); w.varint(run.leftCounter); }
    if ((flags & (HAS_RIGHT | RIGHT_IS_NEXT)) === HAS_RIGHT) { w.varint(indexOf.get(run.rightReplica)); w.varint(run.rightCounter); }
  });
  w.text(doc.text);
  return w.done();
}

/** A replica `replica` (undefined: read-only) holding the note encoded in `bytes`. */
export function decodeState(bytes, replica) {
  const r = new Reader(bytes);
  const format = r.byte();
  if (format !== 2) throw new Error(`unknown format byte ${format} for a note state`);
  const { replicas, version } = readReplicas(r);
  const { runs, flagsOf, visible } = readRuns(r, replicas, version);
  const text = r.text();
  r.end();
  if (scalarLength(text) !== visible) throw new Error('the text length does not match the runs');
  const doc = build(replica, version, runs, flagsOf, text, visible);
  checkOrigins(doc);
  return doc;
}

/** The replica table: ids, ascending, then each one's next counter. */
function readReplicas(r) {
  const count = r.varint();
  if (count > r.bytes.length - r.at) throw new Error('truncated: fewer replicas than the count says');
  const replicas = [];
  for (let i = 0; i < count; i++) {
    const id = readReplica(r, 'table');
    if (i > 0 && id <= replicas[i - 1]) throw new Error('replica table is not strictly ascending');
    replicas.push(id);
  }
  const version = new Map();
  for (const id of replicas) {
    const next = r.varint();
    if (next === 0) throw new Error('version vector entry is 0');
    version.set(id, next);
  }
  return { replicas, version };
}

function readIndex(r, count) {
  const i = r.varint();
  if (i >= count) throw new Error(`replica index ${i} is outside the table of ${count}`);
  return i;
}

/**
 * The runs, in order, with their explicit origins; each one's flags too, for
 * build to resolve "previous/next character". `visible` counts the
 * characters not deleted.
 */
function readRuns(r, replicas, version) {
  const count = replicas.length;
  const runCount = r.varint();
  if (runCount > r.bytes.length - r.at) throw new Error('truncated: fewer runs than the count says');
  const runs = [];
  const flagsOf = [];
  const expected = new Array(count).fill(0);
  let visible = 0;
  for (let k = 0; k < runCount; k++) {
    const header = r.varint();
    const flags = header % 32;
    const index = Math.floor(header / 32);
    if (index >= count) throw new Error(`replica index ${index} is outside the table of ${count}`);
    if ((flags & LEFT_IS_PREVIOUS) && !(flags & HAS_LEFT)) throw new Error('"origin left is the previous character" without an origin left');
    if ((flags & RIGHT_IS_NEXT) && !(flags & HAS_RIGHT)) throw new Error('"origin right is the next character" without an origin right');
    if ((flags & LEFT_IS_PREVIOUS) && k === 0) throw new Error('the first run has no previous character');
    if ((flags & RIGHT_IS_NEXT) && k === runCount - 1) throw new Error('the last run has no next character');
    const counter = expected[index] + unzigzag(r.varint());
    const length = r.varint();
    if (length === 0) throw new Error('zero-length run');
    if (counter < 0 || counter + length > version.get(replicas[index])) {
      throw new Error('a run lies outside its replica\'s version vector entry');
    }
    expected[index] = counter + length;
    const run = new Run(replicas[index], counter, length, 0, 0, 0, 0, (flags & DELETED) !== 0, null, k);
    if ((flags & (HAS_LEFT | LEFT_IS_PREVIOUS)) === HAS_LEFT) {
      run.leftReplica = replicas[readIndex(r, count)];
      run.leftCounter = r.varint();
    }
    if ((flags & (HAS_RIGHT | RIGHT_IS_NEXT)) === HAS_RIGHT) {
      run.rightReplica = replicas[readIndex(r, count)];
      run.rightCounter = r.varint();
    }
    flagsOf.push(flags); // for resolving "previous/next character" in build
    if (!run.deleted) visible += length;
    runs.push(run);
  }
  return { runs, flagsOf, visible };
}

/** The note holding the runs read, in order, each with its origins and text. */
function build(replica, version, runs, flagsOf, text, visible) {
  // Resolve "previous/next character", hand out the text.
  let at = 0;
  for (let k = 0; k < runs.length; k++) {
    const run = runs[k];
    if (flagsOf[k] & LEFT_IS_PREVIOUS) {
      const prev = runs[k - 1];
      run.leftReplica = prev.replica;
      run.leftCounter = prev.counter + prev.length - 1;
    }
    if (flagsOf[k] & RIGHT_IS_NEXT) {
      run.rightReplica = runs[k + 1].replica;
      run.rightCounter = runs[k + 1].counter;
    }
    if (run.deleted) continue;
    const start = at;
    for (let n = 0; n < run.length; n++) {
      const c = text.charCodeAt(at);
      at += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    }
    run.text = text.slice(start, at);
  }

  const doc = new NoteText(replica ?? 1);
  if (replica === undefined) doc.replica = null; // read-only until given a replica
  doc.runs = runs;
  doc.version = version;
  doc.visibleLength = visible;
  doc.cachedText = text;
  for (const run of runs) {
    const list = doc.byReplica.get(run.replica);
    if (list) list.push(run); else doc.byReplica.set(run.replica, [run]);
  }
  for (const list of doc.byReplica.values()) list.sort((a, b) => a.counter - b.counter);
  return doc;
}

// Every id in the note once, and every origin a character on the proper side.
function checkOrigins(doc) {
  for (const list of doc.byReplica.values()) {
    for (let i = 1; i < list.length; i++) {
      if (list[i].counter < list[i - 1].counter + list[i - 1].length) throw new Error('two runs hold the same id');
    }
  }
  const { runs } = doc;
  for (let k = 0; k < runs.length; k++) {
    const run = runs[k];
    if (run.leftReplica) {
      const p = doc.position(run.leftReplica, run.leftCounter);
      if (p === null || p >= k * RUN_SPAN) throw new Error('a run\'s origin left is not a character before it');
    }
    if (run.rightReplica) {
      const p = doc.position(run.rightReplica, run.rightCounter);
      if (p === null || p < (k + 1) * RUN_SPAN) throw new Error('a run\'s origin right is not a character after it');
    }
  }
}
