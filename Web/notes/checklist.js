// The checklist view: lines that start with "[ ] " or "[x] " are things to
// tick off (a shopping list, what to ask the doctor). Ticking one changes
// only the one character between the brackets, through the CRDT, so two
// people ticking different lines at once both keep their ticks.
import { scalarLength } from './crdt.js';

const ITEM = /^\[([ xX])\] /;

/**
 * Every line of `text` with its checklist state:
 * { index, text, isItem, checked, label, markPosition } — markPosition is the
 * scalar position of the character between the brackets (items only),
 * label the line without its "[ ] ".
 */
export function readChecklist(text) {
  const lines = text.split('\n');
  const result = [];
  let position = 0; // scalars before this line
  lines.forEach((line, index) => {
    const match = ITEM.exec(line);
    result.push({
      index,
      text: line,
      isItem: match !== null,
      checked: match !== null && match[1] !== ' ',
      label: match ? line.slice(match[0].length) : line,
      markPosition: match ? position + 1 : null,
    });
    position += scalarLength(line) + 1; // and the line break
  });
  return result;
}

/** Whether a note has anything to show in the checklist view. */
export function hasChecklist(text) {
  return readChecklist(text).some((line) => line.isItem);
}

/**
 * Ticks or unticks a line in the note's CRDT: delete the mark, insert the
 * other. Returns the operations, or [] when the line is not an item (any
 * more: someone may have just changed it) or already as wanted.
 */
export function setChecked(note, lineIndex, checked) {
  const line = readChecklist(note.text)[lineIndex];
  if (!line || !line.isItem || line.checked === checked) return [];
  return [note.delete(line.markPosition, 1), note.insert(line.markPosition, checked ? 'x' : ' ')];
}
