import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteText } from '../../notes/crdt.js';
import { hasChecklist, readChecklist, setChecked } from '../../notes/checklist.js';

test('lines starting with "[ ] " or "[x] " are items, others are not', () => {
  const lines = readChecklist('Zakupy\n[ ] mleko\n[x] chleb\n[X] jajka\n[] nie\n [ ] nie');
  assert.deepEqual(lines.map((l) => [l.isItem, l.checked, l.label]), [
    [false, false, 'Zakupy'],
    [true, false, 'mleko'],
    [true, true, 'chleb'],
    [true, true, 'jajka'],
    [false, false, '[] nie'],
    [false, false, ' [ ] nie'],
  ]);
  assert.equal(hasChecklist('a\nb'), false);
  assert.equal(hasChecklist('[ ] a'), true);
});

test('the mark\'s position counts scalars, so emoji on earlier lines do not shift it', () => {
  const [, second] = readChecklist('🍩🍩\n[ ] kawa');
  assert.equal(second.markPosition, 4);
});

test('ticking changes only the mark, through the CRDT, and both people\'s ticks survive', () => {
  const ania = new NoteText(1);
  const base = ania.insert(0, '[ ] mleko\n[ ] chleb');
  const zosia = new NoteText(2);
  zosia.apply(base);
  const fromAnia = setChecked(ania, 0, true);
  const fromZosia = setChecked(zosia, 1, true);
  for (const op of fromZosia) ania.apply(op);
  for (const op of fromAnia) zosia.apply(op);
  assert.equal(ania.text, '[x] mleko\n[x] chleb');
  assert.equal(zosia.text, ania.text);
  assert.deepEqual(setChecked(ania, 0, true), [], 'already ticked');
  assert.deepEqual(setChecked(ania, 5, true), [], 'no such line');
  setChecked(ania, 1, false);
  assert.equal(ania.text, '[x] mleko\n[ ] chleb');
});
