// The one rule for when "Taken" asks first, and the question every "Taken"
// of a planned dose goes through (Today's, the panel's tile, later the
// banner's reminder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EARLY_ASK_MS, isTakenEarly } from '../../care/early-dose.js';
import { earlyDoses } from '../../care/today-model.js';
import { confirmTakenNow } from '../../pages/today/early-dose-dialog.js';
import { installFakeDocument } from '../fake-dom.js';

const now = Date.parse('2026-11-25T12:25:00Z');
const inMinutes = (minutes) => new Date(now + minutes * 60000).toISOString();

test('Taken more than an hour before the planned time is early; within the hour, or after, it is not', () => {
  assert.equal(EARLY_ASK_MS, 60 * 60 * 1000);
  assert.equal(isTakenEarly(inMinutes(6 * 60 + 35), now), true, 'the 20:00 dose at 13:25');
  assert.equal(isTakenEarly(inMinutes(61), now), true);
  assert.equal(isTakenEarly(new Date(now + EARLY_ASK_MS + 1).toISOString(), now), true, 'a moment past the hour');
  assert.equal(isTakenEarly(new Date(now + EARLY_ASK_MS).toISOString(), now), false, 'exactly an hour ahead');
  assert.equal(isTakenEarly(inMinutes(30), now), false);
  assert.equal(isTakenEarly(inMinutes(0), now), false, 'due now');
  assert.equal(isTakenEarly(inMinutes(-90), now), false, 'late, or missed');
});

test('a dose with no planned time (as needed) or a time that is not one never asks', () => {
  for (const dueAt of [undefined, null, '', 'tonight', {}]) assert.equal(isTakenEarly(dueAt, now), false, String(dueAt));
});

test("Today's Take all uses the same rule as every single Taken", () => {
  const doses = [-30, 0, 60, 61, 720].map((minutes) => ({ key: `k${minutes}`, dueAt: inMinutes(minutes) }));
  assert.deepEqual(earlyDoses(doses, now), doses.filter((dose) => isTakenEarly(dose.dueAt, now)));
  assert.deepEqual(earlyDoses(doses, now).map((dose) => dose.key), ['k61', 'k720']);
});

const app = { t: (key, params = {}) => `${key} ${JSON.stringify(params)}` };

test('not early: Taken is recorded at once, with no question (no page needed)', async () => {
  assert.equal(typeof globalThis.document, 'undefined');
  assert.equal(await confirmTakenNow(app, { dueAt: inMinutes(30), time: '13:55', medication: 'Bisoprolol 5 mg' }, now), true);
  assert.equal(await confirmTakenNow(app, { dueAt: undefined, time: '', medication: 'Paracetamol' }, now), true);
});

/**
 * A page that shows one dialog at a time, enough for dialog.js: the shown
 * dialog is `shown.dialog`; press(id) clicks a button in it, escape()
 * closes it as the browser does on Escape.
 */
function fakePage() {
  const restore = installFakeDocument();
  const element = Object.getPrototypeOf(document.createElement('div'));
  const find = (node, test) => (test(node) ? node : (node.children ?? []).map((child) => find(child, test)).find(Boolean) ?? null);
  const added = {
    showModal() { this.open = true; },
    close() { this.open = false; for (const listener of this.listeners.close ?? []) listener(); },
    remove() { shown.dialog = null; },
    querySelector(selector) { return selector === '[autofocus]' ? find(this, (node) => node.hasAttribute?.('autofocus')) : null; },
    focus() { shown.focused = this; },
  };
  Object.assign(element, added);
  const shown = { dialog: null, focused: null };
  document.body = { append: (dialog) => { shown.dialog = dialog; } };
  const byId = (id) => find(shown.dialog, (node) => node.getAttribute?.('id') === id);
  return {
    shown,
    byId,
    press: (id) => byId(id).listeners.click[0](),
    escape: () => shown.dialog.close(),
    restore() {
      for (const name of Object.keys(added)) delete element[name];
      restore();
    },
  };
}

test('early: the question says the medicine and its planned time; "Not yet" has the keyboard and records nothing', async (t) => {
  const page = fakePage();
  t.after(() => page.restore());
  const dose = { dueAt: inMinutes(6 * 60 + 35), time: '20:00', medication: 'Bisoprolol 5 mg' };

  const notYet = confirmTakenNow(app, dose, now);
  assert.ok(page.shown.dialog?.open, 'asked');
  assert.equal(page.shown.dialog.getAttribute('id'), 'early-dose-dialog', "the dialog Today's Taken asks with");
  assert.equal(page.shown.dialog.getAttribute('aria-labelledby'), 'early-dose-title');
  assert.equal(page.shown.dialog.getAttribute('aria-describedby'), 'early-dose-text');
  assert.equal(page.byId('early-dose-title').textContent, 'today.early.title {"medication":"Bisoprolol 5 mg"}');
  assert.equal(page.byId('early-dose-text').textContent, 'today.early.text {"time":"20:00"}');
  assert.equal(page.shown.focused, page.byId('early-dose-cancel'), 'a stray Enter says "Not yet"');
  page.press('early-dose-cancel');
  assert.equal(await notYet, false);
  assert.equal(page.shown.dialog, null, 'the question is gone');

  const escaped = confirmTakenNow(app, dose, now);
  page.escape();
  assert.equal(await escaped, false, 'Escape records nothing either');

  const yes = confirmTakenNow(app, dose, now);
  page.press('early-dose-confirm');
  assert.equal(await yes, true);
});
