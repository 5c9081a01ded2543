// Keeping the local cursor and selection on their text while someone else's
// edits arrive. Offsets are scalar positions; NoteText.apply() reports its
// `changes` in the same terms, each relative to the text after the previous.
import { scalarLength, scalarPosition, utf16Offset } from './crdt.js';

/**
 * Where a position moves to after one change:
 * - text inserted before it pushes it right; text inserted exactly at it
 *   stays after it (the caret keeps to the letter the person just typed,
 *   and a selection does not grow to take in someone else's words);
 * - text deleted before it pulls it left; deleting around it leaves it where
 *   the deleted text was.
 */
export function shiftPosition(position, change) {
  if (change.kind === 'insert') {
    return position > change.position ? position + change.length : position;
  }
  if (position >= change.position + change.length) return position - change.length;
  return position > change.position ? change.position : position;
}

/** A {start, end} selection (scalars) after a list of changes. */
export function shiftSelection(selection, changes) {
  let { start, end } = selection;
  for (const change of changes) {
    start = shiftPosition(start, change);
    end = shiftPosition(end, change);
  }
  return { start, end };
}

/**
 * The textarea's selection (UTF-16 offsets into `before`) mapped through
 * `changes` into UTF-16 offsets of `after`.
 */
export function moveTextareaSelection(before, after, selectionStart, selectionEnd, changes) {
  const clamp = (offset) => Math.max(0, Math.min(offset, before.length));
  const moved = shiftSelection({
    start: scalarPosition(before, clamp(selectionStart)),
    end: scalarPosition(before, clamp(selectionEnd)),
  }, changes);
  // Never past the end, whatever the changes said: a wrong caret is better than an exception.
  const last = scalarLength(after);
  return {
    start: utf16Offset(after, Math.min(moved.start, last)),
    end: utf16Offset(after, Math.min(moved.end, last)),
  };
}
