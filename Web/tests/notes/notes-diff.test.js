import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteText } from '../../notes/crdt.js';
import { applyValueChange, findEdit, scalarEdit } from '../../notes/diff.js';

test('typing, Backspace, Delete and paste each become one changed range', () => {
  assert.deepEqual(findEdit('mleko', 'mleko!', 6), { start: 5, removed: '', inserted: '!' });
  assert.deepEqual(findEdit('mleko', 'mlko', 2), { start: 2, removed: 'e', inserted: '' });
  assert.deepEqual(findEdit('mleko', 'mleo', 3), { start: 3, removed: 'k', inserted: '' });
  assert.deepEqual(findEdit('kup mleko', 'kup chleb', 9), { start: 4, removed: 'mleko', inserted: 'chleb' });
  assert.equal(findEdit('same', 'same', 2), null);
});

test('the caret says which of two equal letters was typed', () => {
  // "aa" → "aaa" with the caret after the first new letter: position 1.
  assert.deepEqual(findEdit('aa', 'aaa', 1), { start: 0, removed: '', inserted: 'a' });
  assert.deepEqual(findEdit('aa', 'aaa', 3), { start: 2, removed: '', inserted: 'a' });
  // A new line typed after an empty line.
  assert.deepEqual(findEdit('a\n\nb', 'a\n\n\nb', 3), { start: 2, removed: '', inserted: '\n' });
});

test('an emoji is never cut in two, even when it shares a surrogate with its neighbour', () => {
  // 🥛 is \uD83E\uDD5B and 🥚 is \uD83E\uDD5A: the same high surrogate.
  const edit = findEdit('🥛', '🥚', 2);
  assert.deepEqual(edit, { start: 0, removed: '🥛', inserted: '🥚' });
  assert.deepEqual(scalarEdit('x🥛y', findEdit('x🥛y', 'x🥚y', 3)), { position: 1, deleteLength: 1, text: '🥚' });
});

test('positions sent to the CRDT are in scalars, after emoji and Polish letters', () => {
  const before = 'żółw 🐢 i ';
  const after = 'żółw 🐢 i jeż';
  assert.deepEqual(scalarEdit(before, findEdit(before, after, after.length)), { position: 9, deleteLength: 0, text: 'jeż' });
});

test('a textarea edit applied to the CRDT leaves the same text as the textarea', () => {
  const note = new NoteText(7);
  let shown = '';
  const steps = ['Z', 'Za', 'Zakupy', 'Zakupy:\n', 'Zakupy:\n🍩 pączki', 'Zakupy:\n🍩 pączki', 'Zakupy:\npączki', 'Lista:\npączki', ''];
  for (const value of steps) {
    applyValueChange(note, shown, value);
    shown = value;
    assert.equal(note.text, value);
  }
});

test('replacing a selection is one deletion then one insertion', () => {
  const note = new NoteText(3);
  note.insert(0, 'kup mleko');
  const ops = applyValueChange(note, 'kup mleko', 'kup chleb', 9);
  assert.deepEqual(ops.map((op) => op.kind), ['delete', 'insert']);
  assert.equal(note.text, 'kup chleb');
});
