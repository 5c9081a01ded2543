// The note's text in its <textarea>, kept the same as the CRDT's: each
// input event becomes operations (notes/diff.js), and others' operations
// are shown without moving this person's cursor or selection off their
// text (notes/selection.js); where the cursor is goes to the others. Its
// own file as the most delicate part of the editor (note-editor.js).
import { scalarPosition } from '../../notes/crdt.js';
import { applyValueChange } from '../../notes/diff.js';
import { cursorId } from '../../notes/presence.js';
import { moveTextareaSelection } from '../../notes/selection.js';
import { changesBetween } from '../../notes/session.js';

/**
 * Binds `textarea` to `session`'s note. `changed()` runs after the text
 * changed, here or elsewhere (the checklist and who is on which line
 * follow). Returns { shown(), showText(changes, before), stop() }, where
 * shown() is the textarea's value as the CRDT knows it.
 */
export function bindNoteText(session, textarea, { changed }) {
  let shown = '';

  // Local typing: whatever the input event was, diff the old and new value.
  textarea.addEventListener('input', () => {
    const note = session.note;
    if (!session.editable) {
      textarea.value = shown; // not editable yet: undo the keystroke
      return;
    }
    const after = textarea.value;
    try {
      const ops = applyValueChange(note, shown, after, textarea.selectionEnd);
      shown = after;
      if (note.text !== after) throw new Error('the note and the textarea disagree');
      session.recordLocal(ops);
    } catch (error) {
      console.error('note edit could not be applied', error);
      showText(changesBetween(after, note.text), after);
    }
    sendCursor();
    changed();
  });

  // Shows session.note.text in the textarea, moving the selection by
  // `changes` (relative to `before`, what the textarea showed).
  function showText(changes, before = shown) {
    const after = session.note?.text ?? '';
    if (before === after && textarea.value === after) return;
    const { selectionStart, selectionEnd, selectionDirection, scrollTop } = textarea;
    const moved = moveTextareaSelection(before, after, selectionStart, selectionEnd, changes);
    textarea.value = after;
    shown = after;
    textarea.setSelectionRange(moved.start, moved.end, selectionDirection);
    textarea.scrollTop = scrollTop;
  }

  function sendCursor() {
    const note = session.note;
    if (!note) return;
    session.setCursor(cursorId(note, scalarPosition(shown, Math.min(textarea.selectionEnd, shown.length))));
  }
  for (const type of ['keyup', 'mouseup', 'focus', 'select']) textarea.addEventListener(type, sendCursor);
  const onSelectionChange = () => { if (document.activeElement === textarea) sendCursor(); };
  document.addEventListener('selectionchange', onSelectionChange);

  const stopText = session.onText((changes, { reset }) => {
    // A whole new copy from the hub: diff it against what is on screen.
    showText(reset ? changesBetween(shown, session.note.text) : changes);
    changed();
  });

  return {
    shown: () => shown,
    showText,
    stop() {
      document.removeEventListener('selectionchange', onSelectionChange);
      stopText();
    },
  };
}
