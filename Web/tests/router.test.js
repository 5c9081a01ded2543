import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PAGE_NAMES, createRouter, navPageOf, pageHref, resolveRoute } from '../router.js';

test('every page in the navigation opens from its link', () => {
  for (const page of ['today', 'notes', 'medications', 'alerts', 'games', 'household', 'settings', 'panel']) {
    assert.deepEqual(resolveRoute(`#/${page}`), { page, params: [] });
    assert.deepEqual(resolveRoute(pageHref(page)), { page, params: [] });
  }
  assert.deepEqual(PAGE_NAMES, ['today', 'notes', 'medications', 'alerts', 'games', 'household', 'settings']);
});

test("a senior's navigation starts with her panel, and her device opens on it; everyone else's on Today", async () => {
  const { navPagesFor, homePageFor, navLayoutFor } = await import('../router.js');
  assert.deepEqual(navPagesFor('senior'), ['panel', 'today', 'notes', 'games', 'alerts', 'settings']);
  assert.deepEqual(navPagesFor('caregiver'), [...PAGE_NAMES]);
  assert.equal(homePageFor('senior'), 'panel');
  // A phone's bottom belongs to her SOS bar: her pages stay behind "Menu" at the top.
  assert.equal(navLayoutFor('senior'), 'menu');
  assert.equal(navLayoutFor('caregiver'), 'bar');
  assert.equal(navLayoutFor('admin'), 'bar');
  assert.equal(homePageFor('admin'), 'today');
  assert.deepEqual(resolveRoute('', 'panel'), { page: 'panel', params: [] });
  assert.deepEqual(resolveRoute('#/nope', 'panel'), { page: 'panel', params: [] });
  assert.deepEqual(resolveRoute('#/arrange/b1'), { page: 'arrange', params: ['b1'] });
  assert.equal(navPageOf('arrange'), 'household');
});

test('Alerts on this phone opens from its links, and is shown under Settings in the navigation', () => {
  assert.deepEqual(resolveRoute('#/phone-alerts'), { page: 'phone-alerts', params: [] });
  assert.deepEqual(resolveRoute(pageHref('phone-alerts')), { page: 'phone-alerts', params: [] });
  assert.ok(!PAGE_NAMES.includes('phone-alerts'), 'it has no link of its own in the navigation');
  assert.equal(navPageOf('phone-alerts'), 'settings');
  for (const page of PAGE_NAMES) assert.equal(navPageOf(page), page);
  assert.equal(navPageOf('__proto__'), '__proto__');
});

test('opening the hub with no hash shows Today', () => {
  for (const hash of ['', '#', '#/', undefined, null]) {
    assert.deepEqual(resolveRoute(hash), { page: 'today', params: [] }, `hash ${hash}`);
  }
});

test('a stale or mistyped link shows Today instead of a blank page', () => {
  for (const hash of ['#/nope', '#/Notes', '#main', '#/constructor', '#/__proto__']) {
    assert.deepEqual(resolveRoute(hash), { page: 'today', params: [] }, `hash ${hash}`);
  }
});

test('a link to one note carries its id', () => {
  assert.deepEqual(resolveRoute('#/notes/abc'), { page: 'notes', params: ['abc'] });
  assert.deepEqual(resolveRoute('#/notes/abc/'), { page: 'notes', params: ['abc'] });
  assert.deepEqual(resolveRoute('#/medications/m1/history'), {
    page: 'medications',
    params: ['m1', 'history'],
  });
});

test('ids with spaces or Polish letters survive the round trip through a link', () => {
  const href = pageHref('notes', 'zakupy na środę');
  assert.deepEqual(resolveRoute(href), { page: 'notes', params: ['zakupy na środę'] });
  assert.deepEqual(resolveRoute('#/notes/%E0%A4%A'), { page: 'notes', params: ['%E0%A4%A'] });
});

// A stand-in for window: enough for the router to listen to hash changes.
function fakeWindow(hash) {
  const listeners = new Set();
  return {
    location: { hash },
    addEventListener: (type, fn) => type === 'hashchange' && listeners.add(fn),
    removeEventListener: (type, fn) => listeners.delete(fn),
    go(newHash) {
      this.location.hash = newHash;
      for (const fn of listeners) fn();
    },
  };
}

const fakeOutlet = () => ({ cleared: 0, replaceChildren() { this.cleared += 1; } });

test('following a link renders the new page and cleans up the old one', () => {
  const win = fakeWindow('#/notes');
  const shown = [];
  let todayLeft = 0;
  const pages = Object.fromEntries(
    PAGE_NAMES.map((page) => [page, (outlet, route) => {
      shown.push(route);
      return page === 'today' ? () => (todayLeft += 1) : undefined;
    }]),
  );
  const changes = [];
  const router = createRouter({ pages, outlet: fakeOutlet(), onChange: (r) => changes.push(r.page), win });
  router.start();
  win.go('#/today');
  win.go('#/settings');
  assert.deepEqual(changes, ['notes', 'today', 'settings']);
  assert.equal(todayLeft, 1, "leaving Today must stop its live subscription");

  router.refresh(); // language switch re-renders the same page
  assert.deepEqual(shown.at(-1), { page: 'settings', params: [] });
  assert.equal(router.current.page, 'settings');

  router.stop();
  win.go('#/alerts');
  assert.equal(router.current.page, 'settings', 'a stopped router ignores hash changes');
});
