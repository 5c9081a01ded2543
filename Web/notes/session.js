// One note open for editing in this tab: its text as a CRDT replica, the
// outbox of operations the hub has not stored yet — typed here or heard
// from other editors (kept in localStorage),
// and the connection to WS /api/v1/notes/{id}/edit that sends and receives
// them. No DOM here: the editor page turns text changes into textarea
// updates; the socket, storage and timers are injected for tests.
import { decodeState } from './crdt.js';
import { findEdit, scalarEdit } from './diff.js';
import { createNoteDrafts, newReplicaId } from './drafts.js';
import {
  advanceVector, appendOperation, batches, dropAcknowledged, operationsBeyond,
} from './outbox.js';
import {
  closeCodeForRefusedUpgrade, editURL, helloFrame, operationsFrame, planAfterClose, presenceFrame, readHubFrame,
} from './protocol.js';
import { updateEditors } from './presence.js';

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
 * 'unpaired' (this device was removed from the household: changes are kept
 * here and saved if it is paired again).
 * Listeners: onText(changes) after remote changes (the textarea must follow
 * `note.text`), onStatus(status), onEditors(map), onProblem(kind) for
 * 'refused' | 'tooLarge' | 'gone'.
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
}) {
  const drafts = createNoteDrafts(storage, noteId, { now });
  const listeners = { text: new Set(), status: new Set(), editors: new Set(), problem: new Set() };
  let replica = newReplicaId(random);
  let note = null;
  let outbox = [];
  let sent = new Map();
  let socket = null;
  let synced = false;
  let failed = false; // the last connection attempt did not get through
  let gone = false;
  let unpaired = false; // the hub said this device is not paired
  let stopped = true;
  let attempt = 0;
  let editors = new Map();
  let status = null;
  let cursor = undefined; // last cursor id handed to us (undefined: none yet)
  let sentCursor = undefined;
  const timers = { reconnect: null, flush: null, presence: null, state: null, heartbeat: null };

  function notify(kind, ...args) {
    for (const fn of listeners[kind]) {
      try {
        fn(...args);
      } catch (error) {
        console.error('note session listener failed', error);
      }
    }
  }

  function updateStatus() {
    let next;
    if (gone) next = 'gone';
    else if (!synced && unpaired) next = 'unpaired';
    else if (!synced) next = note === null ? 'loading' : failed ? 'offline' : 'connecting';
    else next = outbox.length > 0 ? 'saving' : 'saved';
    if (next !== status) {
      status = next;
      notify('status', status);
    }
  }

  function clear(name) {
    if (timers[name] !== null) clearTimer(timers[name]);
    timers[name] = null;
  }

  function later(name, ms, fn) {
    if (timers[name] !== null) return;
    timers[name] = setTimer(() => {
      timers[name] = null;
      fn();
    }, ms);
  }

  function saveDraft(leased = !stopped) {
    drafts.saveDraft(replica, outbox, { leased });
  }

  // Not once the hub said the note is gone or the device removed: the copy
  // holds the whole note, and this device may no longer read it.
  function saveState() {
    clear('state');
    if (note && !gone && !unpaired) drafts.saveState(note.encodeState());
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

  function start() {
    const orphans = drafts.orphans();
    const saved = drafts.loadState();
    if (saved) {
      try {
        note = decodeState(saved, replica);
      } catch {
        drafts.forgetState();
      }
    }
    for (const orphan of orphans) outbox.push(...orphan.ops);
    if (note) outbox = applyKept(note, outbox);
    saveDraft(true);
    for (const orphan of orphans) drafts.removeDraft(orphan.replica);
    timers.heartbeat = setTimer(function beat() {
      saveDraft(true);
      timers.heartbeat = setTimer(beat, HEARTBEAT_MS);
    }, HEARTBEAT_MS);
    updateStatus();
    open();
  }

  function open() {
    timers.reconnect = null;
    if (stopped || gone) return;
    let ws;
    try {
      ws = new WebSocketImpl(editURL(location, noteId));
    } catch {
      closed(1006);
      return;
    }
    ws.binaryType = 'arraybuffer';
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      if (ws !== socket) return;
      opened = true;
      ws.send(helloFrame(note ? note.versionVector : new Map()));
    };
    ws.onmessage = (event) => {
      if (ws !== socket) return;
      try {
        receive(readHubFrame(event.data));
      } catch (error) {
        // A frame we cannot use leaves us out of step: start again.
        console.error('note editing: unreadable frame from the hub', error);
        ws.close(4000, 'unreadable frame');
      }
    };
    ws.onerror = () => {};
    ws.onclose = (event) => {
      if (ws !== socket) return;
      socket = null;
      if (opened || event.code !== 1006 || !fetchImpl) {
        closed(event.code);
        return;
      }
      // Never opened: the hub may have refused the upgrade (the note went
      // to Trash, or is no longer shared with this person). Ask it why.
      whyRefused().then((code) => {
        if (socket === null && timers.reconnect === null) closed(code);
      });
    };
  }

  async function whyRefused() {
    try {
      const response = await fetchImpl(`/api/v1/notes/${encodeURIComponent(noteId)}/edit`, {
        credentials: 'same-origin', headers: { Accept: 'application/problem+json' },
      });
      return closeCodeForRefusedUpgrade(response.status) ?? 1006;
    } catch {
      return 1006;
    }
  }

  function closed(code) {
    synced = false;
    editors = new Map();
    notify('editors', editors);
    clear('flush');
    if (stopped) return;
    const plan = planAfterClose(code, attempt);
    attempt = plan.attempt;
    failed = true;
    unpaired = plan.unpaired === true;
    if (unpaired) {
      clear('state');
      drafts.forgetState();
    }
    if (plan.problem === 'gone') {
      gone = true;
      clear('state');
      drafts.forgetState();
      saveDraft(); // kept, in case the note comes back from Trash
      notify('problem', 'gone');
    } else if (plan.restart) {
      // The hub will not take what we hold: start again from its copy, with
      // a new replica, and say that the last changes were not saved.
      drafts.removeDraft(replica);
      drafts.forgetState();
      replica = newReplicaId(random);
      outbox = [];
      note = null;
      saveDraft();
      notify('problem', plan.problem);
    }
    updateStatus();
    if (plan.reconnect) timers.reconnect = setTimer(open, plan.delay);
  }

  function receive(message) {
    switch (message.type) {
      case 'state': {
        const before = note ? note.text : '';
        const fresh = decodeState(message.bytes, replica);
        const mine = note ? (note.versionVector.get(replica) ?? 0) : 0;
        outbox = applyKept(fresh, outbox);
        if ((fresh.versionVector.get(replica) ?? 0) < mine) {
          // The hub lost some of what it had stored from us (restored from a
          // backup): those counters must not be used again.
          replica = newReplicaId(random);
          fresh.replica = replica;
        }
        note = fresh;
        notify('text', changesBetween(before, note.text), { reset: true });
        later('state', STATE_SAVE_MS, saveState);
        break;
      }
      case 'operations': {
        if (!note) return;
        const { changes } = note.applyAll(message.ops);
        if (changes.length > 0) notify('text', changes, { reset: false });
        // The hub relays typing before it stores it: what we heard is kept
        // like our own until the hub says it is stored, and sent again if a
        // reconnection finds the hub without it. Not sent back now: the hub
        // has it.
        for (const op of message.ops) outbox = appendOperation(outbox, op);
        if (synced) sent = advanceVector(sent, message.ops);
        saveDraft();
        later('state', STATE_SAVE_MS, saveState);
        break;
      }
      case 'synced':
        synced = true;
        failed = false;
        unpaired = false;
        attempt = 0;
        sent = new Map(message.vector);
        flush();
        sentCursor = undefined;
        sendPresence();
        break;
      case 'acknowledged':
        outbox = dropAcknowledged(outbox, message.vector);
        saveDraft();
        later('state', STATE_SAVE_MS, saveState);
        break;
      case 'presence':
        editors = updateEditors(editors, message.presence);
        notify('editors', editors);
        break;
      default:
        break;
    }
    updateStatus();
  }

  function flush() {
    clear('flush');
    if (!synced || !socket) return;
    const ops = operationsBeyond(outbox, sent);
    if (ops.length === 0) return;
    for (const batch of batches(ops)) socket.send(operationsFrame(batch));
    sent = advanceVector(sent, ops);
  }

  function sendPresence() {
    clear('presence');
    if (!synced || !socket || cursor === undefined) return;
    if (JSON.stringify(cursor) === JSON.stringify(sentCursor)) return;
    socket.send(presenceFrame({ cursor }));
    sentCursor = cursor;
  }

  return {
    get note() {
      return note;
    },
    get replica() {
      return replica;
    },
    get status() {
      return status;
    },
    get editors() {
      return editors;
    },
    get outbox() {
      return outbox;
    },
    /** Whether the text can be edited now (there is a copy of it). */
    get editable() {
      return note !== null && !gone;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      start();
    },
    /** Operations just made on `note` (typing, ticking): keep, then send. */
    recordLocal(ops) {
      for (const op of ops) if (op) outbox = appendOperation(outbox, op);
      saveDraft();
      later('flush', FLUSH_MS, flush);
      later('state', STATE_SAVE_MS, saveState);
      updateStatus();
    },
    /** This person's cursor moved: [replica, counter] or null; sent at most a few times a second. */
    setCursor(id) {
      cursor = id;
      later('presence', PRESENCE_MS, sendPresence);
    },
    /** Try now instead of waiting out the backoff (the network came back). */
    retryNow() {
      if (stopped || gone || socket) return;
      clear('reconnect');
      open();
    },
    /** Leaving the note (or the page): keep what is unsent, release the draft. */
    stop() {
      if (stopped) return;
      stopped = true;
      for (const name of Object.keys(timers)) clear(name);
      saveState();
      saveDraft(false);
      const ws = socket;
      socket = null;
      if (ws) ws.close(1000, 'bye');
    },
    onText(fn) { listeners.text.add(fn); return () => listeners.text.delete(fn); },
    onStatus(fn) { listeners.status.add(fn); return () => listeners.status.delete(fn); },
    onEditors(fn) { listeners.editors.add(fn); return () => listeners.editors.delete(fn); },
    onProblem(fn) { listeners.problem.add(fn); return () => listeners.problem.delete(fn); },
  };
}

