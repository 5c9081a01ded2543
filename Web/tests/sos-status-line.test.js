import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSOSStatus } from '../pages/today/sos-status.js';
import { HubProblem } from '../api.js';
import { installFakeDocument } from './fake-dom.js';

const zosia = { personId: 'zosia', role: 'senior', people: [] };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The app as the SOS bar sees it: open alerts, the live stream, who this is, t() that says its key. */
function fakeApp() {
  const sets = { alerts: new Set(), change: new Set(), state: new Set() };
  const on = (kind) => (fn) => { sets[kind].add(fn); return () => sets[kind].delete(fn); };
  const app = {
    t: (key, params = {}) => (params.name ? `${key}:${params.name}` : key),
    me: { current: zosia, nameOf: () => null },
    alerts: { open: [], subscribe: on('alerts') },
    live: { onChange: on('change'), onState: on('state') },
    /** The alert center's news: the open alerts now. */
    listOpen(open) { app.alerts.open = open; for (const fn of sets.alerts) fn(open); },
    hear(payload) { for (const fn of sets.change) fn({ entity: 'alert', payload }); },
    connected() { for (const fn of sets.state) fn('connected'); },
    listening: () => sets.alerts.size + sets.change.size + sets.state.size,
  };
  return app;
}

const call = { id: 'a', kind: 'sos', personId: 'zosia', raisedAt: '2026-03-01T08:00:00Z', open: true, details: {} };

test('the line follows her call to its end and then empties (the minute shortened as a test may)', async (t) => {
  t.after(installFakeDocument());
  globalThis.hearthSOSEndedShownMs = 30;
  t.after(() => { delete globalThis.hearthSOSEndedShownMs; });
  const app = fakeApp();
  const status = createSOSStatus(app);
  assert.equal(status.element.getAttribute('id'), 'sos-status');
  assert.equal(status.element.textContent, '', 'nothing to say before she calls');
  status.sending();
  assert.equal(status.element.textContent, 'sos.sending');
  status.sent(call);
  app.listOpen([call]);
  assert.equal(status.element.textContent, 'sos.sent');
  const coming = { ...call, respondedAt: '2026-03-01T08:01:00Z', respondedBy: 'ania', details: { respondedByName: 'Ania' } };
  app.hear(coming);
  assert.equal(status.element.textContent, 'sos.onTheWay:Ania');
  app.hear(call);
  assert.equal(status.element.textContent, 'sos.onTheWay:Ania', 'an older state arriving late changes nothing');
  app.hear({ ...coming, open: false, acknowledgedAt: '2026-03-01T08:09:00Z', acknowledgedBy: 'ania' });
  app.listOpen([]);
  assert.equal(status.element.textContent, 'sos.answered');
  await pause(60);
  assert.equal(status.element.textContent, '', 'gone after its minute');
  status.stop();
  assert.equal(app.listening(), 0);
});

test('her own cancel says "Cancelled"; a call that left the open list unheard is read from the hub', async (t) => {
  t.after(installFakeDocument());
  const realFetch = globalThis.fetch;
  t.after(() => { globalThis.fetch = realFetch; });
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(url);
    return { ok: true, status: 200, json: async () => ({ ...call, open: false, acknowledgedAt: '2026-03-01T08:02:00Z', acknowledgedBy: 'zosia' }) };
  };
  const app = fakeApp();
  app.alerts.open = [call];
  const status = createSOSStatus(app);
  assert.equal(status.element.textContent, 'sos.sent', 'a call still open when the page opened');
  app.listOpen([]); // closed while the live stream was away: only the list says so
  await pause(10);
  assert.deepEqual(asked, ['/api/v1/alerts/a']);
  assert.equal(status.element.textContent, 'sos.cancelled');
  status.stop();
});

test('"could not be sent" for want of the hub goes when the live connection is back; a refusal stays', (t) => {
  t.after(installFakeDocument());
  const app = fakeApp();
  const status = createSOSStatus(app);
  status.sending();
  status.failed(new HubProblem('Cannot reach the Hearth hub.'));
  assert.equal(status.element.textContent, 'sos.failed');
  app.connected();
  assert.equal(status.element.textContent, '');
  status.failed(new HubProblem('No', { status: 500 }));
  app.connected();
  assert.equal(status.element.textContent, 'sos.failed', 'the hub answered: that is still what happened');
  status.sent(call);
  assert.equal(status.element.textContent, 'sos.sent', 'a later slide that reached the hub');
  status.stop();
});
