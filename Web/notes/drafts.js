// What a note's editor keeps in localStorage, so typing offline and even a
// reload or a closed tab lose nothing:
//   hearth.note.<id>.draft.<replica>  {replica, ops, lease, mine} — the
//       operations of one editing session the hub has not stored yet: typed
//       here (by the replicas in `mine`) or heard from other editors (the hub
//       relays before it stores); a draft without `mine` is older and holds
//       only typing;
//   hearth.note.<id>.state            the note as last seen (format 2,
//       base64), so it opens at once, and offline.
// A saved note holds every word of it, other people's too, so it is kept
// only while this device may read the note: a device removed from the
// household forgets every saved note (forgetSavedNotes), and an editor told
// its note is gone (made private, or moved to Trash) forgets that one. Of a
// draft, what was heard from others goes too (`ownTyping`); what was typed
// on this device is kept, to be saved if the device is paired again.
// Each editing session takes a fresh replica id (Docs/note-crdt.md,
// "Sessions and replica ids"), so two tabs never share counters. A session
// keeps a lease on its draft while it is open; a draft whose lease was
// released (the tab closed or reloaded) or ran out (the tab crashed) is an
// orphan: the next session for that note takes its operations into its own
// outbox and sends them. Sending an operation twice is harmless — the hub
// ignores what it already has — so a lease that runs out in a sleeping tab
// costs nothing but a duplicate.

export const LEASE_MS = 20000;
const PREFIX = 'hearth.note.';

export const draftKey = (noteId, replica) => `${PREFIX}${noteId}.draft.${replica}`;
export const stateKey = (noteId) => `${PREFIX}${noteId}.state`;

export function toBase64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A random replica id in 1 ..< 2^53. */
export function newReplicaId(random = Math.random) {
  return 1 + Math.floor(random() * (2 ** 53 - 1));
}

function keysOf(storage) {
  const keys = [];
  try {
    for (let i = 0; i < storage.length; i++) keys.push(storage.key(i));
  } catch {
    // storage blocked: nothing kept
  }
  return keys;
}

function read(storage, key) {
  try {
    const text = storage?.getItem(key);
    return text == null ? null : text;
  } catch {
    return null;
  }
}

/** Of `ops`, what the replicas in `mine` typed (all of them when `mine` is not a list). */
export function ownTyping(ops, mine) {
  if (!Array.isArray(mine)) return ops;
  const own = new Set(mine);
  return ops.filter((op) => own.has(op.replica));
}

/**
 * Forgets every note saved on this device, and from the drafts what other
 * people typed (the drafts keep this device's own typing). Returns how
 * many notes were forgotten.
 */
export function forgetSavedNotes(storage) {
  let forgotten = 0;
  for (const key of keysOf(storage)) {
    if (key?.startsWith(PREFIX) && key.includes('.draft.')) forgetHeard(storage, key);
    if (!key?.startsWith(PREFIX) || !key.endsWith('.state')) continue;
    try {
      storage.removeItem(key);
      forgotten += 1;
    } catch {
      // blocked: nothing was kept either
    }
  }
  return forgotten;
}

/**
 * The drafts and saved state of one note. `storage` may be null (storage
 * blocked): then nothing is kept, and nothing breaks.
 */
export function createNoteDrafts(storage, noteId, { now = () => Date.now() } = {}) {
  return {
    /**
     * Drafts of this note no open session holds: [{replica, ops}], oldest
     * lease first. Unreadable ones are skipped.
     */
    orphans() {
      return findOrphans(storage, noteId, now);
    },

    /**
     * Keeps this session's unstored operations; `leased` says the session
     * is still open. An empty draft is removed instead (nothing to keep).
     */
    saveDraft(replica, ops, { leased = true, mine = [replica] } = {}) {
      if (ops.length === 0 && !leased) {
        this.removeDraft(replica);
        return true;
      }
      return write(storage, draftKey(noteId, replica), JSON.stringify({ replica, ops, lease: leased ? now() : null, mine }));
    },

    removeDraft(replica) {
      try {
        storage?.removeItem(draftKey(noteId, replica));
      } catch {
        // nothing to do
      }
    },

    /** The saved note (format-2 bytes), or null. */
    loadState() {
      const text = read(storage, stateKey(noteId));
      if (!text) return null;
      try {
        return fromBase64(text);
      } catch {
        return null;
      }
    },

    /**
     * Saves the note. When storage is full, other notes' saved copies go
     * first (they are only a faster start; drafts are never dropped).
     */
    saveState(bytes) {
      const text = toBase64(bytes);
      if (write(storage, stateKey(noteId), text)) return true;
      forgetOtherStates(storage, noteId);
      return write(storage, stateKey(noteId), text);
    },

    forgetState() {
      try {
        storage?.removeItem(stateKey(noteId));
      } catch {
        // ignore
      }
    },
  };
}

/** A draft without what others typed. */
function forgetHeard(storage, key) {
  try {
    const draft = JSON.parse(read(storage, key));
    if (!draft || !Array.isArray(draft.ops) || !Array.isArray(draft.mine)) return;
    const ops = ownTyping(draft.ops, draft.mine);
    if (ops.length !== draft.ops.length) write(storage, key, JSON.stringify({ ...draft, ops }));
  } catch {
    // damaged or not ours: leave it
  }
}

function write(storage, key, value) {
  if (!storage) return false;
  try {
    storage.setItem(key, value);
    return true;
  } catch {
    return false; // full, or blocked
  }
}

/** What orphans() answers, read from storage. */
function findOrphans(storage, noteId, now) {
  const found = [];
  const draftPrefix = `${PREFIX}${noteId}.draft.`;
  for (const key of keysOf(storage)) {
    if (!key?.startsWith(draftPrefix)) continue;
    try {
      const draft = JSON.parse(read(storage, key));
      if (!draft || !Number.isSafeInteger(draft.replica) || !Array.isArray(draft.ops)) continue;
      const lease = Number.isFinite(draft.lease) ? draft.lease : null;
      if (lease !== null && now() - lease < LEASE_MS) continue; // someone is editing
      // An older draft holds only typing: every replica in it is this device's.
      const mine = Array.isArray(draft.mine) ? draft.mine : [...new Set([...draft.ops.map((op) => op.replica), draft.replica])];
      found.push({ replica: draft.replica, ops: draft.ops, lease: lease ?? 0, mine });
    } catch {
      // not ours or damaged: leave it
    }
  }
  return found.sort((a, b) => a.lease - b.lease).map(({ replica, ops, mine }) => ({ replica, ops, mine }));
}

/** Removes the saved copies of every note but this one, to make room for it. */
function forgetOtherStates(storage, noteId) {
  for (const key of keysOf(storage)) {
    if (key?.startsWith(PREFIX) && key.endsWith('.state') && key !== stateKey(noteId)) {
      try {
        storage.removeItem(key);
      } catch {
        // ignore
      }
    }
  }
}
