// What a note's editor keeps in localStorage, so typing offline and even a
// reload or a closed tab lose nothing:
//   hearth.note.<id>.draft.<replica>  {replica, ops, lease} — the operations
//       of one editing session the hub has not stored yet;
//   hearth.note.<id>.state            the note as last seen (format 2,
//       base64), so it opens at once, and offline.
// A saved note holds every word of it, other people's too, so it is kept
// only while this device may read the note: a device removed from the
// household forgets every saved note (forgetSavedNotes), and an editor told
// its note is gone (made private, or moved to Trash) forgets that one. A
// draft holds only what was typed on this device, and is kept, to be saved
// if the device is paired again.
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

/**
 * Forgets every note saved on this device (not the drafts: those are this
 * device's own typing). Returns how many were forgotten.
 */
export function forgetSavedNotes(storage) {
  let forgotten = 0;
  for (const key of keysOf(storage)) {
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
    saveDraft(replica, ops, { leased = true } = {}) {
      if (ops.length === 0 && !leased) {
        this.removeDraft(replica);
        return true;
      }
      return write(storage, draftKey(noteId, replica), JSON.stringify({ replica, ops, lease: leased ? now() : null }));
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
      found.push({ replica: draft.replica, ops: draft.ops, lease: lease ?? 0 });
    } catch {
      // not ours or damaged: leave it
    }
  }
  return found.sort((a, b) => a.lease - b.lease).map(({ replica, ops }) => ({ replica, ops }));
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
