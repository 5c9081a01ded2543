import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createLiveConnection,
  liveURL,
  planReconnect,
  readFrame,
  retryDelay,
} from '../live.js';

const change = (seq, entity = 'household') =>
  JSON.stringify({
    type: 'change', seq, entity, entityId: '6f1c0d1e-0000-4000-8000-000000000001',
    op: 'update', payload: { name: 'Kowalscy' }, actor: 'ela', time: '2025-01-01T08:00:00Z',
  });

test('the live URL follows the page: http → ws, https → wss, same host and port', () => {
  assert.equal(liveURL({ protocol: 'http:', host: 'hearth.local:8080' }), 'ws://hearth.local:8080/api/v1/live');
  assert.equal(liveURL({ protocol: 'https:', host: 'hearth.local' }), 'wss://hearth.local/api/v1/live');
});

test('reconnecting resumes from the last change seen', () => {
  assert.equal(liveURL({ protocol: 'http:', host: '192.168.1.5:8080' }, 42), 'ws://192.168.1.5:8080/api/v1/live?since=42');
  assert.equal(liveURL({ protocol: 'https:', host: 'hub' }, 0), 'wss://hub/api/v1/live?since=0');
});

test('retries wait 1 s, doubling, never more than 30 s', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 50, 5000].map(retryDelay),
    [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000]);
});

test('hello on a fresh start sets the cursor', () => {
  const r = readFrame(null, '{"type":"hello","seq":17}');
  assert.equal(r.lastSeq, 17);
  assert.equal(r.hello, true);
  assert.equal(r.reset, false);
});

test('hello on resume keeps our cursor so the replay is not dropped', () => {
  const hello = readFrame(10, '{"type":"hello","seq":15}');
  assert.equal(hello.lastSeq, 10);
  const replayed = readFrame(hello.lastSeq, change(11));
  assert.equal(replayed.change?.seq, 11, 'change 11 was missed while away and must be shown');
});

test('a hello below our cursor means the hub log restarted: adopt it and reload', () => {
  const r = readFrame(90, '{"type":"hello","seq":3}');
  assert.equal(r.lastSeq, 3);
  assert.equal(r.reset, true);
  assert.equal(readFrame(r.lastSeq, change(4)).change?.seq, 4);
});

test('changes advance the cursor; duplicates and old ones are ignored', () => {
  let seq = readFrame(null, '{"type":"hello","seq":5}').lastSeq;
  const seen = [];
  for (const n of [6, 7, 7, 5, 8]) {
    const r = readFrame(seq, change(n));
    seq = r.lastSeq;
    if (r.change) seen.push(r.change.seq);
  }
  assert.deepEqual(seen, [6, 7, 8]);
  assert.equal(seq, 8);
});

test('garbage frames are ignored without losing the cursor', () => {
  for (const text of ['not json', '{}', '{"type":"change"}', '{"type":"change","seq":"9"}', 'null']) {
    const r = readFrame(4, text);
    assert.equal(r.lastSeq, 4, text);
    assert.equal(r.change, null, text);
  }
});

const testFrame = (fields = {}) =>
  JSON.stringify({ type: 'test', id: 'h120-tAbc123XyZ', title: 'Test from Hearth', message: 'A test of alerts', ...fields });

test('a test frame is handed on and leaves the cursor alone (it is not in the change log)', () => {
  for (const lastSeq of [null, 0, 42]) {
    const r = readFrame(lastSeq, testFrame());
    assert.deepEqual(r, {
      lastSeq, hello: false, change: null, reset: false,
      test: { type: 'test', id: 'h120-tAbc123XyZ', title: 'Test from Hearth', message: 'A test of alerts' },
    });
  }
  assert.equal(readFrame(7, testFrame({ seq: 99 })).lastSeq, 7, 'even with a seq it moves nothing');
});

test('a test frame without an id is ignored; other frames carry no test', () => {
  for (const text of [testFrame({ id: undefined }), testFrame({ id: '' }), testFrame({ id: 5 })]) {
    assert.equal(readFrame(4, text).test, null, text);
    assert.equal(readFrame(4, text).lastSeq, 4, text);
  }
  assert.equal(readFrame(null, '{"type":"hello","seq":1}').test, null);
  assert.equal(readFrame(1, change(2)).test, null);
  assert.equal(readFrame(1, 'not json').test, null);
});

test('a resync close reconnects at once; other closes show disconnected and back off', () => {
  assert.deepEqual(planReconnect(4000, 'resync', 3), { state: 'connecting', delay: 0, attempt: 0, forget: false, unpaired: false });
  assert.deepEqual(planReconnect(1006, '', 0), { state: 'disconnected', delay: 1000, attempt: 1, forget: false, unpaired: false });
  assert.deepEqual(planReconnect(1011, 'oops', 1), { state: 'disconnected', delay: 2000, attempt: 2, forget: false, unpaired: false });
});

// --- the connection end to end, with a fake socket and fake timers ---

function harness() {
  const sockets = [];
  const timers = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.closed = null;
      sockets.push(this);
    }
    close(code, reason) { this.closed = { code, reason }; }
    accept() { this.onopen?.(); }
    receive(text) { this.onmessage({ data: text }); }
    drop(code = 1006, reason = '') { this.onclose({ code, reason }); }
  }
  const live = createLiveConnection({
    location: { protocol: 'http:', host: 'hub:8080' },
    WebSocketImpl: FakeSocket,
    setTimer: (fn, ms) => {
      const timer = { fn, ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      const index = timers.indexOf(timer);
      if (index >= 0) timers.splice(index, 1);
    },
  });
  const states = [];
  const changes = [];
  const unpaired = [];
  const refused = [];
  live.onState((s) => states.push(s));
  live.onChange((c) => changes.push(c.seq));
  live.onUnpaired(() => unpaired.push(true));
  live.onRefused(() => refused.push(true));
  const fireTimer = () => timers.shift().fn();
  return { live, sockets, timers, states, changes, unpaired, refused, fireTimer };
}

test('the indicator goes connected on hello and changes reach the page', () => {
  const { live, sockets, states, changes } = harness();
  live.start();
  assert.equal(live.state, 'connecting');
  assert.equal(sockets[0].url, 'ws://hub:8080/api/v1/live');
  sockets[0].receive('{"type":"hello","seq":3}');
  sockets[0].receive(change(4));
  assert.deepEqual(states, ['connected']);
  assert.deepEqual(changes, [4]);
});

test('after a drop it shows disconnected, backs off and resumes from the last seq', () => {
  const { live, sockets, timers, states, changes, fireTimer } = harness();
  live.start();
  sockets[0].receive('{"type":"hello","seq":3}');
  sockets[0].receive(change(4));
  sockets[0].drop();
  assert.equal(live.state, 'disconnected');
  assert.equal(timers[0].ms, 1000);
  fireTimer();
  assert.equal(sockets[1].url, 'ws://hub:8080/api/v1/live?since=4');
  sockets[1].drop(); // hub still away: wait longer
  assert.equal(timers[0].ms, 2000);
  fireTimer();
  sockets[2].receive('{"type":"hello","seq":6}');
  sockets[2].receive(change(4)); // replay overlap
  sockets[2].receive(change(5));
  sockets[2].receive(change(6));
  assert.deepEqual(changes, [4, 5, 6]);
  assert.deepEqual(states, ['connected', 'disconnected', 'connected']);
  sockets[2].drop();
  assert.equal(timers[0].ms, 1000, 'a successful hello resets the backoff');
});

test('a resync close reconnects straight away with the cursor', () => {
  const { live, sockets, timers, fireTimer } = harness();
  live.start();
  sockets[0].receive('{"type":"hello","seq":10}');
  sockets[0].receive(change(11));
  sockets[0].drop(4000, 'resync');
  assert.equal(live.state, 'connecting');
  assert.equal(timers[0].ms, 0);
  fireTimer();
  assert.equal(sockets[1].url, 'ws://hub:8080/api/v1/live?since=11');
});

test('a test reaches onTest listeners, not onChange ones, and the next resume is from the last change', () => {
  const { live, sockets, changes, fireTimer } = harness();
  const tests = [];
  const stop = live.onTest((frame) => tests.push(frame.id));
  live.start();
  sockets[0].receive('{"type":"hello","seq":3}');
  sockets[0].receive(testFrame());
  sockets[0].receive(change(4));
  sockets[0].receive(testFrame({ id: 'h121-tSecond' }));
  assert.deepEqual(tests, ['h120-tAbc123XyZ', 'h121-tSecond']);
  assert.deepEqual(changes, [4]);
  assert.equal(live.lastSeq, 4);
  stop();
  sockets[0].receive(testFrame({ id: 'h122-tThird' }));
  assert.equal(tests.length, 2, 'an unsubscribed listener hears no more');
  sockets[0].drop();
  fireTimer();
  assert.equal(sockets[1].url, 'ws://hub:8080/api/v1/live?since=4');
});

test('stopping closes the socket and does not reconnect', () => {
  const { live, sockets, timers } = harness();
  live.start();
  live.stop();
  assert.equal(sockets[0].closed?.code, 1000);
  sockets[0].drop();
  assert.equal(timers.length, 0);
});

test('a listener that throws does not stop other pages hearing changes', () => {
  const { live, sockets, changes } = harness();
  const original = console.error;
  console.error = () => {};
  try {
    live.onChange(() => { throw new Error('page bug'); });
    live.start();
    sockets[0].receive('{"type":"hello","seq":1}');
    sockets[0].receive(change(2));
    sockets[0].receive(change(3));
  } finally {
    console.error = original;
  }
  assert.deepEqual(changes, [2, 3]);
  assert.equal(live.lastSeq, 3);
});

test('a refused cursor (log restored, or garbage) starts again from now instead of retrying it forever', () => {
  assert.deepEqual(planReconnect(4409, 'cursor-ahead: latest seq is 3; reload', 2), { state: 'connecting', delay: 0, attempt: 0, forget: true, unpaired: false });
  assert.deepEqual(planReconnect(4400, 'invalid-cursor', 0), { state: 'connecting', delay: 0, attempt: 0, forget: true, unpaired: false });
});

// --- a device that is not (or no longer) paired ---

test('a revoked device (4401) shows disconnected and retries only once a minute', () => {
  assert.deepEqual(planReconnect(4401, 'revoked: this device was removed; pair it again', 0),
    { state: 'disconnected', delay: 60000, attempt: 1, forget: false, unpaired: true });
  assert.deepEqual(planReconnect(1006, '', 0, true),
    { state: 'disconnected', delay: 60000, attempt: 1, forget: false, unpaired: true },
    'once known unpaired, a refused socket does not bring back fast retries');
  assert.equal(planReconnect(4000, 'resync', 0, true).unpaired, true);
});

test('revocation while connected tells the app once and stops the fast reconnect loop', () => {
  const { live, sockets, timers, states, unpaired, fireTimer } = harness();
  live.start();
  sockets[0].accept();
  sockets[0].receive('{"type":"hello","seq":3}');
  sockets[0].drop(4401, 'revoked: this device was removed; pair it again');
  assert.equal(live.state, 'disconnected');
  assert.equal(live.unpaired, true);
  assert.deepEqual(unpaired, [true]);
  assert.deepEqual(timers.map((timer) => timer.ms), [60000]);
  fireTimer();
  sockets[1].drop(1006); // refused again: still not paired
  assert.deepEqual(timers.map((timer) => timer.ms), [60000]);
  assert.deepEqual(unpaired, [true], 'told once, not on every retry');
  assert.deepEqual(states, ['connected', 'disconnected']);
});

test('a socket that never opened is reported, so the app can ask the API whether it is paired', () => {
  const { live, sockets, refused } = harness();
  live.start();
  sockets[0].drop(1006);
  assert.deepEqual(refused, [true]);
});

test('a socket that was open and dropped is not reported as refused', () => {
  const { live, sockets, refused } = harness();
  live.start();
  sockets[0].accept();
  sockets[0].receive('{"type":"hello","seq":1}');
  sockets[0].drop(1006);
  assert.deepEqual(refused, []);
});

test('when the API says "not paired" the pending fast retry becomes a slow one', () => {
  const { live, sockets, timers } = harness();
  live.start();
  sockets[0].drop(1006);
  assert.deepEqual(timers.map((timer) => timer.ms), [1000]);
  live.markUnpaired();
  assert.equal(live.state, 'disconnected');
  assert.deepEqual(timers.map((timer) => timer.ms), [60000], 'the 1 s retry was replaced by a 60 s one');
});

test('being let in again (paired in another tab) ends the unpaired state', () => {
  const { live, sockets, timers, fireTimer } = harness();
  live.start();
  sockets[0].drop(4401, 'revoked');
  fireTimer();
  sockets[1].accept();
  sockets[1].receive('{"type":"hello","seq":9}');
  assert.equal(live.state, 'connected');
  assert.equal(live.unpaired, false);
  sockets[1].drop(1006);
  assert.equal(timers[0].ms, 1000, 'ordinary backoff again');
});
