import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPreferences, readPreferences, writeSaved } from '../preferences.js';

const memoryStorage = () => {
  const data = new Map();
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, String(v)) };
};
const fakeRoot = () => {
  const attrs = new Map();
  return {
    attrs,
    setAttribute: (k, v) => attrs.set(k, v),
    removeAttribute: (k) => attrs.delete(k),
  };
};

test('large text and dark theme are remembered after a reload', () => {
  const storage = memoryStorage();
  writeSaved(storage, 'hearth.textSize', 'x-large');
  writeSaved(storage, 'hearth.theme', 'dark');
  const root = fakeRoot();
  applyPreferences(root, readPreferences(storage));
  assert.equal(root.attrs.get('data-text-size'), 'x-large');
  assert.equal(root.attrs.get('data-theme'), 'dark');
});

test('"same as this device" removes the theme override', () => {
  const root = fakeRoot();
  applyPreferences(root, { textSize: 'large', theme: 'dark' });
  applyPreferences(root, { textSize: 'large', theme: 'system' });
  assert.equal(root.attrs.has('data-theme'), false);
});

test('blocked or junk storage falls back to normal text and the system theme', () => {
  const throwing = { getItem() { throw new Error('SecurityError'); }, setItem() { throw new Error('full'); } };
  assert.deepEqual(readPreferences(throwing), { textSize: 'normal', theme: 'system' });
  assert.doesNotThrow(() => writeSaved(throwing, 'hearth.theme', 'dark'));
  const junk = memoryStorage();
  junk.setItem('hearth.textSize', 'huge');
  assert.deepEqual(readPreferences(junk), { textSize: 'normal', theme: 'system' });
  assert.deepEqual(readPreferences(null), { textSize: 'normal', theme: 'system' });
});
