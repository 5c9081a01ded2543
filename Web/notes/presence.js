// Who else has the note open, and where. A cursor travels as the CRDT id of
// the character just before it ([replica, counter], or null at the very
// start), not as a number: a number would be wrong as soon as someone typed
// above it, an id stays on its character whatever arrives first.
import { utf16Offset } from './crdt.js';

/** The id of the character before scalar `position`, as [replica, counter], or null at the start. */
export function cursorId(note, position) {
  if (position <= 0 || note.length === 0) return null;
  // NoteText's run index (its own internal lookup) finds the character.
  const { index, offset } = note.locate(Math.min(position, note.length) - 1);
  const run = note.runs[index];
  return [run.replica, run.counter + offset];
}

/**
 * The scalar position just after the character `id` names (0 for null).
 * A deleted character leaves the cursor where it was; an id this browser
 * has not received yet gives null.
 */
export function cursorPosition(note, id) {
  if (id === null) return 0;
  if (!Array.isArray(id) || id.length !== 2 || !id.every(Number.isSafeInteger)) return null;
  const [replica, counter] = id;
  const run = note.findRun(replica, counter);
  if (!run) return null;
  const before = note.visibleBefore(note.indexOf(run));
  return run.deleted ? before : before + (counter - run.counter) + 1;
}

/** The 1-based line of scalar `position` in `text`. */
export function lineAt(text, position) {
  const end = utf16Offset(text, Math.min(position, [...text].length));
  let line = 1;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The other editors after one presence message from the hub: a new Map of
 * editor → {name, colour, cursor}. {"editor", "left": true} removes one.
 */
export function updateEditors(editors, message) {
  const next = new Map(editors);
  if (!message || typeof message.editor !== 'string') return next;
  if (message.left) {
    next.delete(message.editor);
    return next;
  }
  next.set(message.editor, {
    name: typeof message.name === 'string' && message.name.trim() !== '' ? message.name : null,
    colour: typeof message.colour === 'string' && /^#[0-9a-fA-F]{6}$/.test(message.colour) ? message.colour : null,
    cursor: message.cursor === undefined ? null : message.cursor,
  });
  return next;
}

/**
 * What to show for each other editor, sorted by name: {editor, name,
 * colour, line} — line null when their cursor is on a character not here yet.
 */
export function describeEditors(editors, note) {
  const text = note.text;
  return [...editors].map(([editor, { name, colour, cursor }]) => {
    const position = cursorPosition(note, cursor);
    return { editor, name, colour, line: position === null ? null : lineAt(text, position) };
  }).sort((a, b) => String(a.name ?? '').localeCompare(String(b.name ?? '')) || a.editor.localeCompare(b.editor));
}
