import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../i18n.js';
import { createAlertDeliveries } from '../pages/alerts/alert-deliveries.js';
import { installFakeDocument } from './fake-dom.js';

const en = JSON.parse(await readFile(new URL('../i18n/en.json', import.meta.url), 'utf8'));
const me = { personId: 'p-anna', timeZone: 'Europe/Warsaw' };
const alert = { id: 'a1', kind: 'sos', open: true, raisedAt: '2026-11-25T09:32:00Z', repeats: 0 };
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The hub's answers in turn (an Error is a failed request); the paths asked for are kept. */
function fakeHub(answers) {
  const asked = [];
  const previous = globalThis.fetch;
  globalThis.fetch = async (path) => {
    asked.push(path);
    const answer = answers.shift();
    if (answer instanceof Error) throw answer;
    return { ok: true, status: 200, json: async () => answer };
  };
  return { asked, restore: () => { globalThis.fetch = previous; } };
}

/** The disclosures of a page, drawn again on every redraw as the page does. */
function page() {
  const said = [];
  const app = { t: createTranslator(en), language: 'en' };
  let current = alert;
  let drawn = null;
  const draw = () => { drawn = deliveries.view(current, me, { labelId: 'alert-a1-kind', describedBy: 'alert-a1-text' }); };
  const deliveries = createAlertDeliveries(app, { redraw: draw, announce: (text) => said.push(text) });
  return {
    deliveries,
    said,
    show(next = current) { current = next; draw(); },
    button: () => drawn.children[0],
    panel: () => drawn.children[1],
    click() { for (const listener of drawn.children[0].listeners.click) listener(); },
  };
}

const lines = (panel) => panel.children[0].children.map((li) => li.textContent);

test('unfolding reads where the alert went once, saying so while it reads', async (t) => {
  const restoreDocument = installFakeDocument();
  const hub = fakeHub([{ deliveries: [{ channel: 'voice', recipient: 'speaker', at: '2026-11-25T09:32:02Z' }], acknowledgedFrom: null, respondedFrom: null }]);
  t.after(() => { hub.restore(); restoreDocument(); });
  const view = page();
  view.show();
  assert.equal(view.button().getAttribute('aria-expanded'), 'false');
  assert.equal(view.button().getAttribute('data-action'), 'deliveries');
  assert.equal(view.button().getAttribute('aria-labelledby'), 'alert-a1-where alert-a1-kind');
  assert.equal(view.panel().getAttribute('hidden'), '');
  view.click();
  assert.equal(view.button().getAttribute('aria-expanded'), 'true');
  assert.equal(view.panel().textContent, 'Finding out where the alert went…');
  assert.deepEqual(view.said, ['Finding out where the alert went…']);
  await pause();
  assert.deepEqual(hub.asked, ['/api/v1/alerts/a1/deliveries']);
  assert.equal(view.panel().children[0].getAttribute('class'), 'alert-delivery-list');
  assert.deepEqual(lines(view.panel()), ['Said aloud by the hub at 10:32']);
  view.click();
  assert.equal(view.panel().getAttribute('hidden'), '');
  view.click();
  assert.deepEqual(lines(view.panel()), ['Said aloud by the hub at 10:32'], 'unfolded again: what was read');
  assert.equal(hub.asked.length, 1);
});

test('an unfolded alert that changed is read again, keeping its lines meanwhile; a folded one is forgotten', async (t) => {
  const restoreDocument = installFakeDocument();
  const nowhere = { deliveries: [], acknowledgedFrom: null, respondedFrom: null };
  const hub = fakeHub([nowhere, { ...nowhere, acknowledgedFrom: 'Anna’s phone' }, nowhere]);
  t.after(() => { hub.restore(); restoreDocument(); });
  const view = page();
  view.show();
  view.click();
  await pause();
  const closed = { ...alert, open: false, acknowledgedAt: '2026-11-25T09:40:00Z' };
  view.deliveries.follow([alert]);
  assert.equal(hub.asked.length, 1, 'nothing changed');
  view.deliveries.follow([closed]);
  view.show(closed);
  assert.deepEqual(lines(view.panel()), ['Nowhere yet: no phone or page was open, and the hub’s voice is off.']);
  await pause();
  assert.equal(hub.asked.length, 2);
  assert.deepEqual(lines(view.panel()), ['Closed from Anna’s phone']);
  assert.equal(view.said.length, 1, 'reading again is not announced');
  view.click();
  view.deliveries.follow([{ ...closed, repeats: 1 }]);
  assert.equal(hub.asked.length, 2, 'folded: not read until unfolded');
  view.show({ ...closed, repeats: 1 });
  view.click();
  await pause();
  assert.equal(hub.asked.length, 3);
});

test('a failure is said and shown, and unfolding again tries again', async (t) => {
  const restoreDocument = installFakeDocument();
  const hub = fakeHub([new Error('offline'), { deliveries: [], acknowledgedFrom: null, respondedFrom: null }]);
  t.after(() => { hub.restore(); restoreDocument(); });
  const view = page();
  view.show();
  view.click();
  await pause();
  const failed = en.alerts.deliveries.failed.replace('{problem}', en.errors.unreachable);
  assert.equal(view.panel().textContent, failed);
  assert.equal(view.said.at(-1), failed);
  view.click();
  view.click();
  await pause();
  assert.equal(hub.asked.length, 2);
  assert.deepEqual(lines(view.panel()), ['Nowhere yet: no phone or page was open, and the hub’s voice is off.']);
});
