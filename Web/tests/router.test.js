import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PAGE_NAMES, createRouter, lazyPage, navPageOf, pageHref, resolveRoute } from '../router.js';

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

// An outlet that keeps its attributes, to see aria-busy while a page's module loads.
function busyOutlet() {
  const attributes = new Map();
  return {
    cleared: 0,
    replaceChildren() { this.cleared += 1; },
    setAttribute: (name, value) => attributes.set(name, value),
    removeAttribute: (name) => attributes.delete(name),
    get busy() { return attributes.get('aria-busy') === 'true'; },
  };
}

/** A lazy page whose module arrives (or fails) when the test says. */
function heldPage(name, drawn) {
  const held = {};
  held.page = lazyPage(() => new Promise((resolve, reject) => {
    held.arrive = () => resolve((outlet, route) => { drawn.push(`${name}:${route.params.join('/')}`); });
    held.fail = () => reject(new Error('the hub is out of reach'));
  }));
  return held;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a page's module is loaded when it is first shown; the outlet is empty and busy until then, and it is loaded once", async () => {
  const win = fakeWindow('#/notes/n1');
  const drawn = [];
  const changes = [];
  const notes = heldPage('notes', drawn);
  let loads = 0;
  const counted = lazyPage(() => { loads += 1; return (outlet, route) => { drawn.push(`today:${route.params.join('/')}`); }; });
  const outlet = busyOutlet();
  const router = createRouter({ pages: { notes: notes.page, today: counted }, outlet, onChange: (r) => changes.push(r.page), win });
  router.start();
  await settle();
  assert.deepEqual(drawn, [], 'nothing is drawn before the module arrives');
  assert.deepEqual(changes, [], 'the page is not announced as shown before it is');
  assert.ok(outlet.busy, 'the outlet says it is loading');
  notes.arrive();
  await settle();
  assert.deepEqual(drawn, ['notes:n1']);
  assert.deepEqual(changes, ['notes']);
  assert.ok(!outlet.busy);
  assert.equal(notes.page.loaded !== null, true);

  win.go('#/today');
  await settle();
  win.go('#/notes/n2');
  win.go('#/today/x');
  await settle();
  assert.deepEqual(drawn, ['notes:n1', 'today:', 'notes:n2', 'today:x'], 'a loaded page is drawn at once, as before');
  assert.equal(loads, 1, "a page's module is asked for once");
  router.stop();
});

test('a module that arrives after the person went elsewhere, or left, draws nothing', async () => {
  const win = fakeWindow('#/notes');
  const drawn = [];
  const changes = [];
  const notes = heldPage('notes', drawn);
  const today = heldPage('today', drawn);
  const router = createRouter({ pages: { notes: notes.page, today: today.page }, outlet: busyOutlet(), onChange: (r) => changes.push(r.page), win });
  router.start();
  win.go('#/today');
  await settle();
  today.arrive();
  await settle();
  notes.arrive(); // the slower one, asked for first
  await settle();
  assert.deepEqual(drawn, ['today:'], 'only the page last asked for is drawn');
  assert.deepEqual(changes, ['today']);
  assert.equal(router.current.page, 'today');

  const held = heldPage('alerts', drawn);
  const win2 = fakeWindow('#/alerts');
  const router2 = createRouter({ pages: { alerts: held.page }, outlet: busyOutlet(), win: win2 });
  router2.start();
  router2.leave(); // the device was removed from the household meanwhile
  await settle();
  held.arrive();
  await settle();
  assert.deepEqual(drawn, ['today:'], 'a page left before its module came is not drawn');
  router.stop();
  router2.stop();
});

test('a module that fails to load is reported, and the next visit asks for it again', async () => {
  const win = fakeWindow('#/medications');
  const drawn = [];
  const failed = [];
  let attempts = 0;
  let reachable = false;
  const medications = lazyPage(() => {
    attempts += 1;
    if (!reachable) return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    return (outlet, route) => { drawn.push(route.page); };
  });
  const outlet = busyOutlet();
  const router = createRouter({
    pages: { medications }, outlet, win, onFailed: (route, error) => failed.push([route.page, error.message]),
  });
  router.start();
  await settle();
  assert.deepEqual(failed, [['medications', 'Failed to fetch dynamically imported module']]);
  assert.ok(!outlet.busy, 'a page that failed is not left saying it loads');
  assert.deepEqual(drawn, []);
  reachable = true;
  router.refresh(); // the live connection is back
  await settle();
  assert.deepEqual(drawn, ['medications']);
  assert.equal(attempts, 2);
  router.stop();
});

test('a page whose module throws as it is made is reported, not left loading', async () => {
  const win = fakeWindow('#/settings');
  const failed = [];
  const settings = lazyPage(() => { throw new Error('made wrong'); });
  const router = createRouter({ pages: { settings }, outlet: busyOutlet(), win, onFailed: (route) => failed.push(route.page) });
  router.start();
  await settle();
  assert.deepEqual(failed, ['settings']);
  router.stop();
});
