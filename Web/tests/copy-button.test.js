import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyText } from '../pages/copy-button.js';

/** A document with just a selection and the old copy command, which does `copies` (true, false or throws). */
function fakeDocument(copies) {
  const selection = {
    ranges: [],
    removeAllRanges() { this.ranges = []; },
    addRange(range) { this.ranges.push(range); },
  };
  return {
    selection,
    commands: [],
    getSelection: () => selection,
    createRange: () => ({ selectNodeContents(node) { this.node = node; } }),
    execCommand(command) {
      this.commands.push(command);
      if (copies === 'throws') throw new Error('not allowed');
      return copies;
    },
  };
}

const password = { textContent: 'Xk3-9qaP' };

test('with the clipboard API the value is copied as it is, nothing selected', async () => {
  const written = [];
  const doc = fakeDocument(false);
  const result = await copyText(password, { clipboard: { writeText: async (text) => { written.push(text); } }, doc });
  assert.equal(result, 'copied');
  assert.deepEqual(written, ['Xk3-9qaP']);
  assert.deepEqual(doc.selection.ranges, []);
});

test('over plain http (no clipboard API) the value is selected and the old copy command tried', async () => {
  const doc = fakeDocument(true);
  assert.equal(await copyText(password, { clipboard: undefined, doc }), 'copied');
  assert.deepEqual(doc.commands, ['copy']);
  assert.equal(doc.selection.ranges[0].node, password);
});

test('when nothing copies, the value is left selected for the person to copy', async () => {
  for (const copies of [false, 'throws']) {
    const doc = fakeDocument(copies);
    assert.equal(await copyText(password, { clipboard: null, doc }), 'selected', String(copies));
    assert.equal(doc.selection.ranges.length, 1);
    assert.equal(doc.selection.ranges[0].node, password);
  }
});

test('a clipboard that refuses (no permission) falls back to selecting', async () => {
  const doc = fakeDocument(false);
  const clipboard = { writeText: async () => { throw new Error('NotAllowedError'); } };
  assert.equal(await copyText(password, { clipboard, doc }), 'selected');
  assert.equal(doc.selection.ranges[0].node, password);
});
