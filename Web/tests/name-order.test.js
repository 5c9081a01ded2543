import test from 'node:test';
import assert from 'node:assert/strict';

import { nameOrder } from '../name-order.js';
import { deviceStorage } from '../device-storage.js';

test('names sort in the reader\'s alphabet', () => {
  const names = ['Świątek', 'Szymański', 'Adam'];
  assert.deepEqual([...names].sort(nameOrder('pl')), ['Adam', 'Szymański', 'Świątek']);
  assert.deepEqual([...names].sort(nameOrder('en')), ['Adam', 'Świątek', 'Szymański']);
});

test('case alone does not order two names, and a missing name sorts first', () => {
  assert.equal(nameOrder('pl')('ania', 'Ania'), 0);
  assert.ok(nameOrder('en')(undefined, 'Ania') < 0);
});

test('a device whose storage cannot be read has none', () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  try {
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, get() { throw new Error('blocked'); } });
    assert.equal(deviceStorage(), null);
    const kept = new Map();
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: kept });
    assert.equal(deviceStorage(), kept);
  } finally {
    if (had) Object.defineProperty(globalThis, 'localStorage', had);
    else delete globalThis.localStorage;
  }
});
