import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteText } from '../../notes/crdt.js';
import { cursorId, cursorPosition, describeEditors, lineAt, updateEditors } from '../../notes/presence.js';

test('a cursor sent as an id stays on its character while text is added above it', () => {
  const mine = new NoteText(1);
  const theirs = new NoteText(2);
  theirs.apply(mine.insert(0, 'mleko\nchleb'));
  const id = cursorId(mine, 8); // after "ch"
  assert.equal(cursorPosition(theirs, id), 8);
  theirs.insert(0, 'Zakupy:\n');
  assert.equal(cursorPosition(theirs, id), 16);
  assert.equal(lineAt(theirs.text, cursorPosition(theirs, id)), 3);
});

test('the start of the note is null, a deleted character leaves the cursor where it was, an unknown id is null', () => {
  const note = new NoteText(1);
  note.insert(0, 'abc');
  assert.equal(cursorId(note, 0), null);
  assert.equal(cursorPosition(note, null), 0);
  const id = cursorId(note, 2);
  note.delete(1, 1);
  assert.equal(cursorPosition(note, id), 1);
  assert.equal(cursorPosition(note, [99, 0]), null);
  assert.equal(cursorPosition(note, 'nonsense'), null);
});

test('lines are counted in scalars past emoji', () => {
  assert.equal(lineAt('🍩\n🍩\nx', 0), 1);
  assert.equal(lineAt('🍩\n🍩\nx', 2), 2);
  assert.equal(lineAt('🍩\n🍩\nx', 5), 3);
});

test('editors come with name and colour, and go when they leave', () => {
  const note = new NoteText(1);
  note.insert(0, 'a\nb');
  let editors = updateEditors(new Map(), { editor: 'e1', name: 'Ania', colour: '#0b5cad', cursor: cursorId(note, 3) });
  editors = updateEditors(editors, { editor: 'e2', name: 'Zosia', colour: 'red; background: url(x)', cursor: null });
  assert.deepEqual(describeEditors(editors, note), [
    { editor: 'e1', name: 'Ania', colour: '#0b5cad', line: 2 },
    { editor: 'e2', name: 'Zosia', colour: null, line: 1 },
  ]);
  editors = updateEditors(editors, { editor: 'e1', left: true });
  assert.deepEqual([...editors.keys()], ['e2']);
});
