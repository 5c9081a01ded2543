import { test } from 'node:test';
import assert from 'node:assert/strict';
import { h } from '../dom.js';
import {
  announceIn, createAnnouncer, createBusyKeys, createNewestLoader, redrawAfterTaps, reloadOnLiveChanges, whileBusy,
} from '../pages/page-tools.js';
import { installFakeDocument } from './fake-dom.js';

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

/** The app's problem line, as the pages use it. */
function fakeApp() {
  const app = {
    problem: null,
    reportProblem(problem) { app.problem = problem.message; },
    clearProblem() { app.problem = null; },
  };
  return app;
}

/** A request the test lets finish (or fail) when it wants. */
function pending() {
  let finish;
  let fail;
  const promise = new Promise((resolve, reject) => { finish = resolve; fail = reject; });
  return { promise, finish, fail };
}

test('a busy key runs its request once; the page is redrawn as it starts and ends', async () => {
  const app = fakeApp();
  const drawn = [];
  const busy = createBusyKeys(app, { redraw: () => drawn.push(busy.keys()) });
  const request = pending();
  let calls = 0;
  const first = busy.run('dose-1|taken', () => { calls += 1; return request.promise; });
  assert.equal(busy.has('dose-1|taken'), true);
  assert.deepEqual(drawn, [['dose-1|taken']]);
  // A double tap, while the first still runs, sends nothing.
  assert.equal(await busy.run('dose-1|taken', () => { calls += 1; }), undefined);
  assert.equal(calls, 1);
  request.finish('recorded');
  assert.equal(await first, 'recorded');
  assert.equal(busy.has('dose-1|taken'), false);
  assert.deepEqual(drawn, [['dose-1|taken'], []]);
});

test('a failed request is reported, a good one clears the last problem, and the key is free again', async () => {
  const app = fakeApp();
  const busy = createBusyKeys(app);
  assert.equal(await busy.run('a:ack', async () => { throw new Error('The hub is not answering'); }), undefined);
  assert.equal(app.problem, 'The hub is not answering');
  assert.equal(busy.has('a:ack'), false);
  assert.equal(await busy.run('a:ack', async () => true), true);
  assert.equal(app.problem, null);
});

test('two buttons are busy on their own', async () => {
  const busy = createBusyKeys(fakeApp());
  const request = pending();
  const running = busy.run('one', () => request.promise);
  assert.equal(await busy.run('two', async () => 'done'), 'done');
  assert.deepEqual(busy.keys(), ['one']);
  request.finish();
  await running;
  assert.deepEqual(busy.keys(), []);
});

test('a form button says it is busy, ignores presses meanwhile, and gets its label back even after a failure', async () => {
  const restore = installFakeDocument();
  try {
    const button = h('button', { type: 'submit' }, 'Create');
    const request = pending();
    let calls = 0;
    const first = whileBusy(button, 'Creating…', () => { calls += 1; return request.promise; });
    assert.equal(button.getAttribute('aria-disabled'), 'true');
    assert.equal(button.textContent, 'Creating…');
    await whileBusy(button, 'Creating…', () => { calls += 1; });
    assert.equal(calls, 1);
    request.fail(new Error('refused'));
    await assert.rejects(first, /refused/);
    assert.equal(button.hasAttribute('aria-disabled'), false);
    assert.equal(button.textContent, 'Create');
  } finally {
    restore();
  }
});

test('an announcement empties the status line first, so the same sentence is heard again', async () => {
  const restore = installFakeDocument();
  try {
    const { element, announce } = createAnnouncer('today-announcer');
    assert.equal(element.getAttribute('role'), 'status');
    assert.equal(element.getAttribute('id'), 'today-announcer');
    assert.equal(element.getAttribute('class'), 'visually-hidden');
    element.textContent = 'Aspirin taken';
    announce('Aspirin taken');
    assert.equal(element.textContent, '');
    await pause(70);
    assert.equal(element.textContent, 'Aspirin taken');
    // The banner's own line, already in the page, is announced the same way.
    const banner = h('p', { role: 'alert' });
    announceIn(banner, 'SOS from Anna');
    assert.equal(banner.textContent, '');
    await pause(70);
    assert.equal(banner.textContent, 'SOS from Anna');
  } finally {
    restore();
  }
});

/** A hub answer the test gives when it wants; rejects as fetch does when its signal aborts. */
function answerable(signal) {
  const answer = pending();
  signal.addEventListener('abort', () => {
    const aborted = new Error('The operation was aborted.');
    aborted.name = 'AbortError';
    answer.fail(aborted);
  });
  return answer;
}

test('a load that a newer one overtook is not shown, even when its answer comes last', async () => {
  const app = fakeApp();
  const asked = [];
  const shown = [];
  const loader = createNewestLoader(app, {
    read: (signal, query) => { const answer = answerable(signal); asked.push({ query, signal, answer }); return answer.promise; },
    shown: (answer) => shown.push(answer),
  });
  const first = loader.load('all notes');
  const second = loader.load('soup');
  assert.equal(asked[0].signal.aborted, true);
  assert.equal(asked[1].signal.aborted, false);
  // The older answer arrives anyway (the hub had already sent it).
  asked[0].answer.finish(['every note']);
  asked[1].answer.finish(['the soup recipe']);
  await Promise.all([first, second]);
  assert.deepEqual(shown, [['the soup recipe']]);
  assert.equal(app.problem, null);
});

test('a failed load is reported after failed(); an aborted one and a page left say nothing', async () => {
  const app = fakeApp();
  const events = [];
  let answer = null;
  const loader = createNewestLoader(app, {
    read: (signal) => { answer = answerable(signal); return answer.promise; },
    shown: () => events.push('shown'),
    failed: () => events.push(`failed with problem ${app.problem}`),
  });
  const failing = loader.load();
  answer.fail(new Error('The hub is not answering'));
  await failing;
  assert.deepEqual(events, ['failed with problem null']);
  assert.equal(app.problem, 'The hub is not answering');

  app.clearProblem();
  const left = loader.load();
  loader.stop();
  await left;
  assert.deepEqual(events, ['failed with problem null']);
  assert.equal(app.problem, null);
});

/** A page and the window around it, as redrawAfterTaps hears them. */
function tapTargets() {
  const page = new EventTarget();
  const window = new EventTarget();
  return {
    page, window,
    down: () => page.dispatchEvent(new Event('pointerdown')),
    up: () => window.dispatchEvent(new Event('pointerup')),
    cancel: () => window.dispatchEvent(new Event('pointercancel')),
  };
}

test('a redraw asked for while a finger is down waits until just after it lifts', async () => {
  const taps = tapTargets();
  let draws = 0;
  const redraws = redrawAfterTaps(taps.page, () => { draws += 1; }, { lifts: taps.window, longest: 1000 });
  redraws.redraw();
  assert.equal(draws, 1, 'no finger down: at once');
  taps.down();
  redraws.redraw();
  redraws.redraw();
  assert.equal(draws, 1, 'not under the finger');
  taps.up();
  assert.equal(draws, 1, 'not before the tap is handled (the click follows pointerup)');
  await pause(5);
  assert.equal(draws, 2, 'once after, however many were asked for');
  taps.down();
  taps.up();
  await pause(5);
  assert.equal(draws, 2, 'a tap with nothing waiting draws nothing');
  redraws.stop();
});

test('a finger taken over by scrolling, or resting on the screen, holds nothing for long', async () => {
  const taps = tapTargets();
  let draws = 0;
  const redraws = redrawAfterTaps(taps.page, () => { draws += 1; }, { lifts: taps.window, longest: 20 });
  taps.down();
  redraws.redraw();
  taps.cancel();
  await pause(5);
  assert.equal(draws, 1, 'a cancelled press is a lifted finger');
  taps.down();
  redraws.redraw();
  await pause(40);
  assert.equal(draws, 2, 'drawn once the longest wait is over, the finger still down');
  redraws.redraw();
  assert.equal(draws, 3, 'and from then on at once, until the next press');
  taps.up();
  redraws.stop();
});

test('a page left forgets a redraw it was holding and hears no more taps', async () => {
  const taps = tapTargets();
  let draws = 0;
  const redraws = redrawAfterTaps(taps.page, () => { draws += 1; }, { lifts: taps.window, longest: 20 });
  taps.down();
  redraws.redraw();
  redraws.stop();
  taps.up();
  await pause(40);
  assert.equal(draws, 0);
});

