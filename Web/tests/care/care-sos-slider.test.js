import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SOS_MAX, sends, valueAfterKey, valueFromDrag, valueState } from '../../care/sos-slider.js';

test('by keyboard: four presses of the right arrow, or End, reach the end and send', () => {
  let value = 0;
  const presses = [];
  for (let i = 0; i < 4; i += 1) {
    value = valueAfterKey('ArrowRight', value);
    presses.push(sends(value));
  }
  assert.deepEqual(presses, [false, false, false, true]);
  assert.equal(valueAfterKey('End', 0), SOS_MAX);
  assert.equal(sends(valueAfterKey('End', 0)), true);
  assert.equal(valueAfterKey('Home', 75), 0);
  assert.equal(valueAfterKey('ArrowLeft', 0), 0, 'never below the start');
  assert.equal(valueAfterKey('ArrowUp', 90), 100, 'never past the end');
});

test('keys that are not for the slider (Tab, Enter, Space) leave it alone', () => {
  for (const key of ['Tab', 'Enter', ' ', 'a']) assert.equal(valueAfterKey(key, 50), null, key);
});

test('a drag moves with the pointer; a tap does not move it', () => {
  assert.equal(valueFromDrag(0, 0, 300), 0);
  assert.equal(valueFromDrag(0, 150, 300), 50);
  assert.equal(valueFromDrag(0, 500, 300), 100);
  assert.equal(valueFromDrag(0, -20, 300), 0);
  assert.equal(valueFromDrag(25, 0, 0), 25, 'a track with no room does not divide by zero');
});

test('letting go near the end sends; halfway springs back', () => {
  assert.equal(sends(96, { dragging: true }), true);
  assert.equal(sends(60, { dragging: true }), false);
  assert.equal(sends(96), false, 'by keyboard it must reach the end');
  assert.deepEqual([0, 40, 100].map(valueState), ['notSent', 'partWay', 'sending']);
});
