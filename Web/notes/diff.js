// What one edit of the note's <textarea> changed, as the CRDT needs it.
// Every input event (typing, Enter, Backspace, Delete, cut, paste, spelling
// fixes, undo/redo, dictation, IME) is handled the same way: compare the
// value before with the value after and take the one changed range. That is
// robust where `beforeinput` is not (undo and IME give no usable ranges), and
// one input event only ever changes one range.
import { scalarLength, scalarPosition } from './crdt.js';

const isHighSurrogate = (c) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c) => c >= 0xdc00 && c <= 0xdfff;

/**
 * The changed range between `before` and `after`, in UTF-16 offsets:
 * { start, removed, inserted } — `removed` is the text taken out of `before`
 * at `start`, `inserted` what took its place. null when nothing changed.
 *
 * `caret` (the selectionEnd after the edit) settles ambiguous cases: typing
 * "a" after "a" in "aa" could be either letter, and the caret says the
 * second, so the new character gets the right neighbours in the CRDT.
 * A surrogate pair (an emoji) is never cut in two.
 */
export function findEdit(before, after, caret = null) {
  if (before === after) return null;
  const shorter = Math.min(before.length, after.length);
  // The common end first, but not past the caret: what is after the caret
  // after the edit is what was after it before.
  let maxSuffix = shorter;
  if (Number.isInteger(caret) && caret >= 0 && caret <= after.length) {
    maxSuffix = Math.min(maxSuffix, after.length - caret);
  }
  let suffix = 0;
  while (suffix < maxSuffix
    && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) {
    suffix++;
  }
  let prefix = 0;
  const maxPrefix = shorter - suffix;
  while (prefix < maxPrefix && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  // Keep pairs whole: a prefix ending on a high surrogate or a suffix
  // starting on a low one would split an emoji between kept and changed text.
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) suffix--;
  return {
    start: prefix,
    removed: before.slice(prefix, before.length - suffix),
    inserted: after.slice(prefix, after.length - suffix),
  };
}

/**
 * The same edit in Unicode scalars, as NoteText.delete/insert take it:
 * { position, deleteLength, text } — delete deleteLength scalars at
 * position, then insert text there.
 */
export function scalarEdit(before, edit) {
  return {
    position: scalarPosition(before, edit.start),
    deleteLength: scalarLength(edit.removed),
    text: edit.inserted,
  };
}

/**
 * Applies a textarea edit to the note's CRDT and returns the operations
 * made (a deletion first, then an insertion; either may be missing).
 */
export function applyValueChange(note, before, after, caret = null) {
  const edit = findEdit(before, after, caret);
  if (!edit) return [];
  const { position, deleteLength, text } = scalarEdit(before, edit);
  const operations = [];
  if (deleteLength > 0) operations.push(note.delete(position, deleteLength));
  if (text.length > 0) operations.push(note.insert(position, text));
  return operations;
}
