import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { TEST_NOTICE_MS, createTestNotice } from '../../care/test-notice.js';
import { installFakeDocument } from '../fake-dom.js';

const dictionary = async (lang) => JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const en = await dictionary('en');
const pl = await dictionary('pl');
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let removeDocument;
before(() => {
  removeDocument = installFakeDocument();
  // What the notice asks of the page around it: where the keyboard is, and the page's heading.
  Object.assign(globalThis.document, { activeElement: null, querySelector: () => null, getElementById: () => null });
});
after(() => removeDocument());

/** Every element under `node`, itself first. */
function walk(node) {
  return [node, ...(node?.children ?? []).flatMap(walk)];
}

/** The #test-notice div, as far as the notice uses it. */
function fakeContainer() {
  return {
    children: [],
    hidden: true,
    replaceChildren(...nodes) { this.children = nodes; },
    contains(node) { return node !== null && walk(this).includes(node); },
    querySelector(selector) { return walk(this).find((node) => node.tagName === selector.toUpperCase()) ?? null; },
    get textContent() { return this.children.map((child) => child.textContent).join(''); },
  };
}

function harness() {
  const testListeners = new Set();
  const timers = [];
  const app = {
    t: createTranslator(en),
    language: 'en',
    live: { onTest: (fn) => { testListeners.add(fn); return () => testListeners.delete(fn); } },
  };
  const container = fakeContainer();
  const announcer = { textContent: '' };
  let beeps = 0;
  const notice = createTestNotice(app, {
    container,
    announcer,
    sound: () => { beeps += 1; },
    setTimer: (fn, ms) => { const timer = { fn, ms }; timers.push(timer); return timer; },
    clearTimer: (timer) => { const at = timers.indexOf(timer); if (at >= 0) timers.splice(at, 1); },
  });
  return {
    app, container, announcer, timers, notice,
    beeps: () => beeps,
    receive: (frame) => { for (const fn of testListeners) fn(frame); },
    ok: () => container.querySelector('button'),
    listening: () => testListeners.size,
  };
}

const frame = (id = 'h120-tAbc123XyZ') => ({ type: 'test', id, title: 'Test from Hearth', message: 'Hearth sends a test.' });

test('a test from the live stream shows in the page’s words, with OK, one beep and an announcement', async () => {
  const page = harness();
  const stop = page.notice.start();
  assert.equal(page.container.hidden, true);
  page.receive(frame());
  assert.equal(page.container.hidden, false);
  assert.equal(page.container.textContent, 'Test from Hearth: alerts reach this screen.OK');
  assert.doesNotMatch(page.container.textContent, /null|undefined/);
  assert.equal(page.ok().getAttribute('type'), 'button');
  assert.equal(page.ok().getAttribute('aria-describedby'), 'test-notice-text');
  assert.equal(page.beeps(), 1);
  await pause(60);
  assert.equal(page.announcer.textContent, 'Test from Hearth: alerts reach this screen.');
  stop();
  assert.equal(page.listening(), 0);
});

test('OK takes it away, and with it the minute’s timer', () => {
  const page = harness();
  page.notice.start();
  page.receive(frame());
  assert.deepEqual(page.timers.map((timer) => timer.ms), [TEST_NOTICE_MS]);
  for (const listener of page.ok().listeners.click) listener();
  assert.equal(page.container.hidden, true);
  assert.equal(page.container.children.length, 0);
  assert.equal(page.timers.length, 0);
  assert.equal(page.notice.shown, null);
});

test('left alone it goes by itself after a minute', () => {
  const page = harness();
  page.notice.start();
  page.receive(frame());
  page.timers.shift().fn();
  assert.equal(page.container.hidden, true);
  assert.equal(page.container.children.length, 0);
});

test('the same test twice beeps once; a new one starts the minute again', () => {
  const page = harness();
  page.notice.start();
  page.receive(frame());
  page.receive(frame());
  assert.equal(page.beeps(), 1);
  page.receive(frame('h121-tSecond'));
  assert.equal(page.beeps(), 2);
  assert.equal(page.timers.length, 1, 'one timer, not one per test');
  assert.equal(page.notice.shown, 'h121-tSecond');
  page.receive(null);
  page.receive({ type: 'test' });
  assert.equal(page.beeps(), 2, 'a frame without an id shows nothing');
});

test('a new language redraws it in that language; nothing is drawn when none is shown', () => {
  const page = harness();
  page.notice.start();
  page.notice.render();
  assert.equal(page.container.hidden, true);
  page.receive(frame());
  page.app.t = createTranslator(pl, en);
  page.app.language = 'pl';
  page.notice.render();
  assert.equal(page.container.textContent, 'Test z Hearth: alerty docierają na ten ekran.OK');
});

test('with the keyboard on OK, it goes on to the page’s heading when the notice goes', () => {
  const page = harness();
  page.notice.start();
  page.receive(frame());
  let focused = null;
  const heading = { focus() { focused = 'heading'; } };
  globalThis.document.querySelector = (selector) => (selector === '#page h1' ? heading : null);
  globalThis.document.activeElement = page.ok();
  try {
    page.timers.shift().fn();
  } finally {
    globalThis.document.activeElement = null;
    globalThis.document.querySelector = () => null;
  }
  assert.equal(focused, 'heading');
});
