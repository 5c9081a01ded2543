import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reloadOnLiveChanges } from '../pages/page-tools.js';

/** A live connection a test drives by hand. */
function fakeLive() {
  const listeners = { change: new Set(), state: new Set(), reset: new Set() };
  const on = (kind) => (listener) => { listeners[kind].add(listener); return () => listeners[kind].delete(listener); };
  return {
    onChange: on('change'), onState: on('state'), onReset: on('reset'),
    emit(kind, value) { for (const listener of listeners[kind]) listener(value); },
    listening() { return listeners.change.size + listeners.state.size + listeners.reset.size; },
  };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('a burst of changes the page shows is read once; others are not', async () => {
  const live = fakeLive();
  let loads = 0;
  const reloads = reloadOnLiveChanges(live, () => { loads += 1; }, (change) => change.entity === 'dose', 10);
  live.emit('change', { entity: 'note' });
  await pause(30);
  assert.equal(loads, 0);
  for (let i = 0; i < 5; i += 1) live.emit('change', { entity: 'dose' });
  await pause(30);
  assert.equal(loads, 1);
  reloads.stop();
});

test('a connection back after a gap, or reset, reads the page again', async () => {
  const live = fakeLive();
  let loads = 0;
  const reloads = reloadOnLiveChanges(live, () => { loads += 1; }, () => false, 5);
  live.emit('state', 'connecting');
  live.emit('state', 'connected');
  await pause(20);
  live.emit('reset');
  await pause(20);
  assert.equal(loads, 2);
  reloads.stop();
});

test('a page left hears nothing more, not even a reload already asked for', async () => {
  const live = fakeLive();
  let loads = 0;
  const reloads = reloadOnLiveChanges(live, () => { loads += 1; }, () => true, 10);
  live.emit('change', { entity: 'dose' });
  reloads.stop();
  await pause(30);
  assert.equal(loads, 0);
  assert.equal(live.listening(), 0);
});
