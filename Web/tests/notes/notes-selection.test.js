import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveTextareaSelection, shiftPosition, shiftSelection } from '../../notes/selection.js';

test('text inserted before the caret pushes it along; after it, leaves it', () => {
  assert.equal(shiftPosition(5, { kind: 'insert', position: 2, length: 3 }), 8);
  assert.equal(shiftPosition(5, { kind: 'insert', position: 7, length: 3 }), 5);
});

test('text inserted exactly at the caret stays after it', () => {
  assert.equal(shiftPosition(5, { kind: 'insert', position: 5, length: 3 }), 5);
});

test('deleted text before the caret pulls it back; around it, leaves it where the text was', () => {
  assert.equal(shiftPosition(8, { kind: 'delete', position: 2, length: 3 }), 5);
  assert.equal(shiftPosition(3, { kind: 'delete', position: 2, length: 3 }), 2);
  assert.equal(shiftPosition(1, { kind: 'delete', position: 2, length: 3 }), 1);
});

test('a selection keeps covering its words and does not take in others\' words at its edges', () => {
  // "mleko chleb" with "chleb" selected (6..11); someone types at both ends.
  const moved = shiftSelection({ start: 6, end: 11 }, [
    { kind: 'insert', position: 0, length: 4, text: 'Kup ' },
    { kind: 'insert', position: 15, length: 2, text: ', ' },
  ]);
  assert.deepEqual(moved, { start: 10, end: 15 });
});

test('the textarea selection is moved in UTF-16 offsets past remote emoji', () => {
  const before = 'ab';
  const after = '🍎ab';
  const moved = moveTextareaSelection(before, after, 1, 2, [{ kind: 'insert', position: 0, length: 1, text: '🍎' }]);
  assert.deepEqual(moved, { start: 3, end: 4 });
  assert.equal(after.slice(moved.start, moved.end), 'b');
});

test('a selection is never put past the end of the text', () => {
  const moved = moveTextareaSelection('abcdef', 'ab', 5, 6, []);
  assert.deepEqual(moved, { start: 2, end: 2 });
});
