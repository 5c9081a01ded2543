// One note open for editing in this tab: its text as a CRDT replica, the
// outbox of operations the hub has not stored yet — typed here or heard
// from other editors (kept in localStorage),
// and the connection to WS /api/v1/notes/{id}/edit that sends and receives
// them. No DOM here: the editor page turns text changes into textarea
// updates; the socket, storage and timers are injected for tests.
import { decodeState } from './crdt.js';
import { findEdit, scalarEdit } from './diff.js';
import { createNoteDrafts, newReplicaId, ownTyping } from './drafts.js';
import {
  advanceVector, appendOperation, batches, dropAcknowledged, operationsBeyond,
} from './outbox.js';
import {
  CLOSE, closeCodeForRefusedUpgrade, editURL, helloFrame, operationsFrame, planAfterClose, presenceFrame, readHubFrame,
} from './protocol.js';
import { updateEditors } from './presence.js';
import { API_BASE, paths } from '../api-paths.js';

// Operations typed within this time go out as one frame: the hub allows 100
// messages a second, and a fast typist (or a test) types faster than that.
const FLUSH_MS = 30;
const PRESENCE_MS = 250;
const STATE_SAVE_MS = 1000;
const HEARTBEAT_MS = 5000;

/** The changes (scalar terms, like NoteText.apply's) that turn `before` into `after`. */
export function changesBetween(before, after) {
  const edit = findEdit(before, after);
  if (!edit) return [];
  const { position, deleteLength, text } = scalarEdit(before, edit);
  const changes = [];
  if (deleteLength > 0) changes.push({ kind: 'delete', position, length: deleteLength });
  if (text.length > 0) changes.push({ kind: 'insert', position, length: [...text].length, text });
  return changes;
}

/**
 * status: 'loading' (no copy of the text yet), 'connecting', 'offline'
 * (the text is here and editable; changes are kept), 'saving', 'saved',
 * 'gone' (moved to Trash or no longer shared: the hub closed for good),
 * 'reading' (in step with the hub, and this person may only read the note),
 * 'unpaired' (this device was removed from the household: changes are kept
 * here and saved if it is paired again).
 * Listeners: onText(changes) after remote changes (the textarea must follow
 * `note.text`), onStatus(status), onEditors(map), onProblem(kind) for
 * 'refused' | 'tooLarge' | 'gone' | 'readOnly'.
 *
 * `readOnly` says whether this person may only read the note: true (the
 * hub closes the socket with 4403 on any change sent, so nothing but hello
 * is sent, not even where the cursor is), false, or null while the page
 * does not know yet (typing is kept, as when offline, but not sent).
 * setReadOnly() changes it as the note's sharing changes.
 */
export function createNoteSession({
  noteId,
  storage = null,
  location = globalThis.location,
  WebSocketImpl = globalThis.WebSocket,
  fetchImpl = globalThis.fetch ? (...args) => globalThis.fetch(...args) : null,
  setTimer = (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimer = (id) => globalThis.clearTimeout(id),
  now = () => Date.now(),
  random = Math.random,
  readOnly = false,
}) {
  // Where the session stands, and what it is given; the functions below change it.
  const session = {
    noteId, location, WebSocketImpl, fetchImpl, random,
    // Wrapped so they are still called as plain functions: the browser's own
    // setTimeout, given as setTimer, refuses to be called as session.setTimer.
    setTimer: (fn, ms) => setTimer(fn, ms),
    clearTimer: (id) => clearTimer(id),
    drafts: createNoteDrafts(storage, noteId, { now }),
    listeners: { text: new Set(), status: new Set(), editors: new Set(), problem: new Set() },
    replica: newReplicaId(random),
    mine: new Set(), // the replicas whose typing the outbox holds as this device's
    note: null, outbox: [], sent: new Map(), socket: null, synced: false,
    failed: false, // the last connection attempt did not get through
    gone: false,
    readOnly: readOnly === null ? null : readOnly === true,
    unpaired: false, // the hub said this device is not paired
    stopped: true, attempt: 0, editors: new Map(), status: null,
    cursor: undefined, // last cursor id handed to us (undefined: none yet)
    sentCursor: undefined,
    timers: { reconnect: null, flush: null, presence: null, state: null, heartbeat: null },
  };
  session.mine.add(session.replica);

  return {
    get note() {
      return session.note;
    },
    get replica() {
      return session.replica;
    },
    get status() {
      return session.status;
    },
    get editors() {
      return session.editors;
    },
    get outbox() {
      return session.outbox;
    },
    /** Whether the text can be edited now (there is a copy of it, and this person may change it). */
    get editable() {
      return session.note !== null && !session.gone && session.readOnly !== true;
    },
    /** true, false, or null while not known; see createNoteSession. */
    get readOnly() {
      return session.readOnly;
    },
    setReadOnly: (value) => setReadOnly(session, value),
    start() {
      if (!session.stopped) return;
      session.stopped = false;
      start(session);
    },
    /** Operations just made on `note` (typing, ticking): keep, then send. */
    recordLocal: (ops) => recordLocal(session, ops),
    /** This person's cursor moved: [replica, counter] or null; sent at most a few times a second. */
    setCursor(id) {
      session.cursor = id;
      later(session, 'presence', PRESENCE_MS, () => sendPresence(session));
    },
    /** Try now instead of waiting out the backoff (the network came back). */
    retryNow() {
      if (session.stopped || session.gone || session.socket) return;
      clear(session, 'reconnect');
      open(session);
    },
    /** Leaving the note (or the page): keep what is unsent, release the draft. */
    stop: () => stop(session),
    onText: (fn) => listen(session, 'text', fn),
    onStatus: (fn) => listen(session, 'status', fn),
    onEditors: (fn) => listen(session, 'editors', fn),
    onProblem: (fn) => listen(session, 'problem', fn),
  };
}

function listen(session, kind, fn) {
  session.listeners[kind].add(fn);
  return () => session.listeners[kind].delete(fn);
}

function notify(session, kind, ...args) {
  for (const fn of session.listeners[kind]) {
    try {
      fn(...args);
    } catch (error) {
      console.error('note session listener failed', error);
    }
  }
}

function updateStatus(session) {
  const { gone, synced, unpaired, note, failed, outbox } = session;
  let next;
  if (gone) next = 'gone';
  else if (!synced && unpaired) next = 'unpaired';
  else if (!synced) next = note === null ? 'loading' : failed ? 'offline' : 'connecting';
  else if (session.readOnly === true) next = 'reading';
  else next = outbox.length > 0 ? 'saving' : 'saved';
  if (next !== session.status) {
    session.status = next;
    notify(session, 'status', session.status);
  }
}

function clear(session, name) {
  const { timers } = session;
  if (timers[name] !== null) session.clearTimer(timers[name]);
  timers[name] = null;
}

function later(session, name, ms, fn) {
  const { timers } = session;
  if (timers[name] !== null) return;
  timers[name] = session.setTimer(() => {
    timers[name] = null;
    fn();
  }, ms);
}

function saveDraft(session, leased = !session.stopped) {
  session.drafts.saveDraft(session.replica, session.outbox, { leased, mine: [...session.mine] });
}

// A device that may no longer read the note keeps only its own typing,
// never what it heard others type.
function forgetHeard(session) {
  session.outbox = ownTyping(session.outbox, [...session.mine]);
}

// Not once the hub said the note is gone or the device removed: the copy
// holds the whole note, and this device may no longer read it.
function saveState(session) {
  clear(session, 'state');
  if (session.note && !session.gone && !session.unpaired) session.drafts.saveState(session.note.encodeState());
}

/** saveState within STATE_SAVE_MS, unless one is due already. */
function saveStateSoon(session) {
  later(session, 'state', STATE_SAVE_MS, () => saveState(session));
}

// Operations read from storage may be damaged: each is applied on its own
// and dropped if the CRDT refuses it.
function applyKept(target, ops) {
  const kept = [];
  for (const op of ops) {
    try {
      target.apply(op);
      kept.push(op);
    } catch (error) {
      console.warn('a kept note change could not be applied and was dropped', error);
    }
  }
  return kept;
}

function start(session) {
  const { drafts, timers } = session;
  session.mine = new Set([session.replica]);
  const orphans = drafts.orphans();
  const saved = drafts.loadState();
  if (saved) {
    try {
      session.note = decodeState(saved, session.replica);
    } catch {
      drafts.forgetState();
    }
  }
  for (const orphan of orphans) {
    session.outbox.push(...orphan.ops);
    for (const replica of orphan.mine) session.mine.add(replica);
  }
  if (session.note) session.outbox = applyKept(session.note, session.outbox);
  saveDraft(session, true);
  for (const orphan of orphans) drafts.removeDraft(orphan.replica);
  timers.heartbeat = session.setTimer(function beat() {
    saveDraft(session, true);
    timers.heartbeat = session.setTimer(beat, HEARTBEAT_MS);
  }, HEARTBEAT_MS);
  updateStatus(session);
  open(session);
}

function open(session) {
  session.timers.reconnect = null;
  if (session.stopped || session.gone) return;
  let ws;
  try {
    ws = new session.WebSocketImpl(editURL(session.location, session.noteId));
  } catch {
    closed(session, 1006);
    return;
  }
  ws.binaryType = 'arraybuffer';
  session.socket = ws;
  let opened = false;
  ws.onopen = () => {
    if (ws !== session.socket) return;
    opened = true;
    ws.send(helloFrame(session.note ? session.note.versionVector : new Map()));
  };
  ws.onmessage = (event) => {
    if (ws !== session.socket) return;
    try {
      receive(session, readHubFrame(event.data));
    } catch (error) {
      // A frame we cannot use leaves us out of step: start again.
      console.error('note editing: unreadable frame from the hub', error);
      ws.close(4000, 'unreadable frame');
    }
  };
  ws.onerror = () => {};
  ws.onclose = (event) => {
    if (ws !== session.socket) return;
    session.socket = null;
    if (opened || event.code !== 1006 || !session.fetchImpl) {
      closed(session, event.code);
      return;
    }
    // Never opened: the hub may have refused the upgrade (the note went
    // to Trash, or is no longer shared with this person). Ask it why.
    whyRefused(session).then((code) => {
      if (session.socket === null && session.timers.reconnect === null) closed(session, code);
    });
  };
}

async function whyRefused(session) {
  const { fetchImpl, noteId } = session;
  try {
    const response = await fetchImpl(`${API_BASE}${paths.noteEditing(noteId)}`, {
      credentials: 'same-origin', headers: { Accept: 'application/problem+json' },
    });
    return closeCodeForRefusedUpgrade(response.status) ?? 1006;
  } catch {
    return 1006;
  }
}

function closed(session, code) {
  const { drafts } = session;
  session.synced = false;
  session.editors = new Map();
  notify(session, 'editors', session.editors);
  clear(session, 'flush');
  if (session.stopped) return;
  const plan = planAfterClose(code, session.attempt);
  session.attempt = plan.attempt;
  session.failed = true;
  session.unpaired = plan.unpaired === true;
  if (plan.readOnly) session.readOnly = true;
  if (session.unpaired) {
    clear(session, 'state');
    drafts.forgetState();
    forgetHeard(session);
    saveDraft(session);
  }
  if (plan.problem === 'gone') {
    session.gone = true;
    clear(session, 'state');
    drafts.forgetState();
    forgetHeard(session);
    saveDraft(session); // kept, in case the note comes back from Trash
    notify(session, 'problem', 'gone');
  } else if (plan.restart) {
    // The hub will not take what we hold: start again from its copy, with
    // a new replica, and say that the last changes were not saved.
    drafts.removeDraft(session.replica);
    drafts.forgetState();
    session.replica = newReplicaId(session.random);
    session.mine = new Set([session.replica]);
    session.outbox = [];
    session.note = null;
    saveDraft(session);
    notify(session, 'problem', plan.problem);
  }
  updateStatus(session);
  if (plan.reconnect) session.timers.reconnect = session.setTimer(() => open(session), plan.delay);
}

function receive(session, message) {
  switch (message.type) {
    case 'state': {
      const { note, replica } = session;
      const before = note ? note.text : '';
      const fresh = decodeState(message.bytes, replica);
      const mine = note ? (note.versionVector.get(replica) ?? 0) : 0;
      session.outbox = applyKept(fresh, session.outbox);
      if ((fresh.versionVector.get(replica) ?? 0) < mine) {
        // The hub lost some of what it had stored from us (restored from a
        // backup): those counters must not be used again.
        session.replica = newReplicaId(session.random);
        session.mine.add(session.replica);
        fresh.replica = session.replica;
      }
      session.note = fresh;
      notify(session, 'text', changesBetween(before, fresh.text), { reset: true });
      saveStateSoon(session);
      break;
    }
    case 'operations': {
      if (!session.note) return;
      const { changes } = session.note.applyAll(message.ops);
      if (changes.length > 0) notify(session, 'text', changes, { reset: false });
      // The hub relays typing before it stores it: what we heard is kept
      // like our own until the hub says it is stored, and sent again if a
      // reconnection finds the hub without it. Not sent back now: the hub
      // has it.
      for (const op of message.ops) session.outbox = appendOperation(session.outbox, op);
      if (session.synced) session.sent = advanceVector(session.sent, message.ops);
      saveDraft(session);
      saveStateSoon(session);
      break;
    }
    case 'synced':
      session.synced = true;
      session.failed = false;
      session.unpaired = false;
      session.attempt = 0;
      session.sent = new Map(message.vector);
      flush(session);
      session.sentCursor = undefined;
      sendPresence(session);
      break;
    case 'acknowledged':
      session.outbox = dropAcknowledged(session.outbox, message.vector);
      saveDraft(session);
      saveStateSoon(session);
      break;
    case 'presence':
      session.editors = updateEditors(session.editors, message.presence);
      notify(session, 'editors', session.editors);
      break;
    default:
      break;
  }
  updateStatus(session);
}

// Nothing goes to the hub until this person is known to be allowed to change the note.
const maySend = (session) => session.synced && session.socket !== null && session.readOnly === false;

function flush(session) {
  clear(session, 'flush');
  if (!maySend(session)) return;
  const ops = operationsBeyond(session.outbox, session.sent);
  if (ops.length === 0) return;
  for (const batch of batches(ops)) session.socket.send(operationsFrame(batch));
  session.sent = advanceVector(session.sent, ops);
}

function sendPresence(session) {
  clear(session, 'presence');
  if (!maySend(session) || session.cursor === undefined) return;
  if (JSON.stringify(session.cursor) === JSON.stringify(session.sentCursor)) return;
  session.socket.send(presenceFrame({ cursor: session.cursor }));
  session.sentCursor = session.cursor;
}

function recordLocal(session, ops) {
  if (session.readOnly === true) return; // the textarea is read-only; this is the last guard
  for (const op of ops) if (op) session.outbox = appendOperation(session.outbox, op);
  saveDraft(session);
  later(session, 'flush', FLUSH_MS, () => flush(session));
  saveStateSoon(session);
  updateStatus(session);
}

function setReadOnly(session, value) {
  const next = value === null ? null : value === true;
  if (next === session.readOnly) return;
  session.readOnly = next;
  if (next === true && !session.stopped && !session.gone && unsentTyping(session)) {
    // Typed here (before the page knew, or offline) and never sent: the hub
    // will not store it, so start again from its copy, as a 4403 would.
    const ws = session.socket;
    session.socket = null;
    if (ws) ws.close(1000, 'read only');
    clear(session, 'reconnect');
    closed(session, CLOSE.readOnly);
    return;
  }
  if (next === false) {
    flush(session);
    session.sentCursor = undefined;
    sendPresence(session);
  }
  updateStatus(session);
}

/** Whether the outbox holds this device's typing that never went to the hub. */
function unsentTyping(session) {
  return operationsBeyond(session.outbox, session.sent).some((op) => session.mine.has(op.replica));
}

function stop(session) {
  if (session.stopped) return;
  session.stopped = true;
  for (const name of Object.keys(session.timers)) clear(session, name);
  saveState(session);
  saveDraft(session, false);
  const ws = session.socket;
  session.socket = null;
  if (ws) ws.close(1000, 'bye');
}
