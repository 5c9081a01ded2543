import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markCurrentPage } from '../shell.js';

/** The navigation's links as markCurrentPage reads them: a data-page and an aria-current each. */
function fakeNav(pages, { layout = 'menu', barPages = pages.length } = {}) {
  const links = pages.map((page, index) => {
    const attributes = new Map([['data-page', page]]);
    return {
      textContent: page,
      getAttribute: (name) => attributes.get(name) ?? null,
      setAttribute: (name, value) => attributes.set(name, String(value)),
      removeAttribute: (name) => attributes.delete(name),
      // Behind "More" when the bar shows fewer pages (shell.js's li.nav-more).
      closest: (selector) => (selector === '.nav-more' && index >= barPages ? {} : null),
    };
  });
  return {
    links,
    parentElement: { dataset: { layout } },
    querySelectorAll: () => links,
    querySelector: () => links.find((link) => link.getAttribute('aria-current') !== null) ?? null,
  };
}

const currentOf = (nav) => Object.fromEntries(nav.links.map((link) => [link.textContent, link.getAttribute('aria-current')]));

test('the open page’s link is the current page; the others are not', () => {
  const nav = fakeNav(['today', 'household', 'settings']);
  markCurrentPage(nav, 'household');
  assert.deepEqual(currentOf(nav), { today: null, household: 'page', settings: null });
  markCurrentPage(nav, 'today');
  assert.deepEqual(currentOf(nav), { today: 'page', household: null, settings: null });
});

test('a page without a link of its own marks the one it is reached from, not as the page itself', () => {
  const nav = fakeNav(['today', 'household', 'settings']);
  markCurrentPage(nav, 'phone-alerts');
  assert.deepEqual(currentOf(nav), { today: null, household: null, settings: 'true' });
  // A phone's menu button still says where one is.
  const label = { textContent: '' };
  const toggle = fakeToggle(label);
  markCurrentPage(nav, 'phone-alerts', toggle);
  assert.equal(label.textContent, 'settings');
});

function fakeToggle(label) {
  return { querySelector: () => label, setAttribute() {}, dataset: {}, parentElement: { dataset: {} } };
}

test('on the bottom bar, "More" names and lights the page only when it is one of its own', () => {
  const nav = fakeNav(['today', 'notes', 'medications', 'alerts', 'games', 'household', 'settings'], { layout: 'bar', barPages: 4 });
  const label = { textContent: '' };
  const toggle = fakeToggle(label);
  markCurrentPage(nav, 'household', toggle);
  assert.equal(label.textContent, 'household');
  assert.equal(toggle.dataset.current, 'true');
  markCurrentPage(nav, 'notes', toggle);
  assert.equal(label.textContent, '', 'a page on the bar is lit there, not on "More"');
  assert.equal(toggle.dataset.current, undefined);
  // Alerts on this phone is reached from Settings, which is behind "More".
  markCurrentPage(nav, 'phone-alerts', toggle);
  assert.equal(label.textContent, 'settings');
  assert.equal(toggle.dataset.current, 'true');
});
