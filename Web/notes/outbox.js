// The operations this browser made (or took over from a closed tab), and
// those it heard from other editors, that the hub has not acknowledged yet,
// in the order they came. The hub relays typing before storing it, so a hub
// that stopped in between may lack what others typed too. They are sent
// after every (re)connection, from where the hub's version vector says it
// stopped, and dropped once acknowledged: acknowledged means stored.
// Pure functions over arrays of operations, so Node can test them.
import { operationLength, scalarLength, trimOperation as trimmedFrom } from './crdt.js';

const sameId = (a, b) => (a === null && b === null)
  || (a !== null && b !== null && a.replica === b.replica && a.counter === b.counter);

/**
 * The outbox with `op` added. Typing on where one's last insertion ended
 * makes one longer insertion instead of one per letter (the spec's chain
 * rule: the same origin right, origin left the previous character), which
 * keeps what is saved in localStorage and sent small.
 */
export function appendOperation(outbox, op) {
  const last = outbox[outbox.length - 1];
  if (last && last.kind === 'insert' && op.kind === 'insert' && last.replica === op.replica) {
    const end = last.counter + scalarLength(last.text);
    if (op.counter === end && sameId(op.originLeft, { replica: op.replica, counter: end - 1 })
      && sameId(op.originRight ?? null, last.originRight ?? null)) {
      return [...outbox.slice(0, -1), { ...last, text: last.text + op.text }];
    }
  }
  return [...outbox, op];
}

/**
 * The part of `op` from counter `have` on (null when it is all below):
 * the same trimming the CRDT does, so a partly sent or partly acknowledged
 * operation can be finished without repeating its start.
 */
export function trimOperation(op, have) {
  if (have >= op.counter + operationLength(op)) return null;
  return trimmedFrom(op, have);
}

/**
 * What of the outbox lies beyond `vector` (replica → next counter, a Map):
 * after `synced` the hub's vector (what it lacks), while connected the
 * counters already sent on this connection (what is new).
 */
export function operationsBeyond(outbox, vector) {
  const result = [];
  for (const op of outbox) {
    const rest = trimOperation(op, vector.get(op.replica) ?? 0);
    if (rest) result.push(rest);
  }
  return result;
}

/** `vector` moved past every operation in `ops` (a new Map). */
export function advanceVector(vector, ops) {
  const next = new Map(vector);
  for (const op of ops) {
    const end = op.counter + operationLength(op);
    if ((next.get(op.replica) ?? 0) < end) next.set(op.replica, end);
  }
  return next;
}

/** The outbox without what the hub acknowledged (`acknowledged`: a Map). */
export function dropAcknowledged(outbox, acknowledged) {
  return operationsBeyond(outbox, acknowledged);
}

/** Splits ops into batches of at most `maxBytes` of text each, so one frame stays far below the hub's 1 MiB. */
export function batches(ops, maxBytes = 256 * 1024) {
  const result = [];
  let current = [];
  let size = 0;
  for (const op of ops) {
    const bytes = op.kind === 'insert' ? op.text.length * 3 : op.spans.length * 24;
    if (current.length > 0 && size + bytes > maxBytes) {
      result.push(current);
      current = [];
      size = 0;
    }
    current.push(op);
    size += bytes;
  }
  if (current.length > 0) result.push(current);
  return result;
}
