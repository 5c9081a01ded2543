import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAlertCenter } from '../../care/alert-center.js';

// A fetch the test answers by hand, in the order it chooses, as a busy
// network may: each call waits until the test resolves it.
function handFetch() {
  const calls = [];
  const fetchImpl = (url, init) => new Promise((resolve) => {
    calls.push({ url, method: init?.method ?? 'GET', answer: (body) => resolve({ ok: true, status: 200, json: async () => body }) });
  });
  return { calls, fetchImpl };
}

function fakeApp() {
  const listeners = { change: [], state: [], reset: [] };
  return {
    t: (key) => key,
    me: { load: async () => ({ personId: 'ela', role: 'senior' }), forget() {} },
    reportProblem() {},
    live: {
      onChange: (fn) => listeners.change.push(fn),
      onState: (fn) => listeners.state.push(fn),
      onReset: (fn) => listeners.reset.push(fn),
    },
    hear: (payload) => listeners.change.forEach((fn) => fn({ entity: 'alert', payload })),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const sos = { id: 'sos-1', kind: 'sos', audience: 'caregivers', personId: 'ela', raisedAt: '2026-11-26T02:05:00Z', notifiedAt: '2026-11-26T02:05:00Z', repeats: 0, open: true };
const answered = { ...sos, respondedAt: '2026-11-26T02:05:02Z', details: { respondedByName: 'Ania' } };

async function started() {
  const net = handFetch();
  const saved = globalThis.fetch;
  globalThis.fetch = net.fetchImpl;
  const app = fakeApp();
  const center = createAlertCenter(app);
  center.start();
  await settle();
  return { net, app, center, restore: () => { globalThis.fetch = saved; } };
}

test('the answer to a slid SOS arriving after the live news of who is coming does not undo it', async () => {
  const { net, app, center, restore } = await started();
  try {
    net.calls[0].answer([]);
    await settle();
    const sent = (async () => center.take(await net.fetchImpl('/api/v1/sos', { method: 'POST' }).then((r) => r.json())))();
    app.hear(sos);
    app.hear(answered);
    net.calls[1].answer(sos); // the slide's own answer, late
    await sent;
    assert.equal(center.open.length, 1);
    assert.equal(center.open[0].respondedAt, answered.respondedAt);
  } finally {
    restore();
  }
});

test('a list read before live changes keeps what they said: a closed alert stays closed, a new one stays', async () => {
  const { net, app, center, restore } = await started();
  try {
    const later = { ...sos, id: 'due-1', kind: 'dose-due', audience: 'senior' };
    app.hear(sos);
    app.hear({ ...sos, open: false, acknowledgedAt: '2026-11-26T02:06:00Z' });
    app.hear(later);
    net.calls[0].answer([sos]); // read before either change
    await settle();
    assert.deepEqual(center.open.map((alert) => alert.id), ['due-1']);
  } finally {
    restore();
  }
});

test('a list read after a gap drops what closed unheard, and a reminder that rings again reopens', async () => {
  const { net, app, center, restore } = await started();
  try {
    net.calls[0].answer([sos]);
    await settle();
    assert.equal(center.open.length, 1);
    center.load();
    await settle();
    net.calls[1].answer([]); // closed while this browser was away
    await settle();
    assert.equal(center.open.length, 0);
    const due = { ...sos, id: 'due-2', kind: 'dose-due', audience: 'senior' };
    app.hear({ ...due, open: false, resolvedAt: '2026-11-26T02:10:00Z' });
    app.hear({ ...due, repeats: 1, notifiedAt: '2026-11-26T02:20:00Z' });
    assert.deepEqual(center.open.map((alert) => alert.repeats), [1]);
  } finally {
    restore();
  }
});
