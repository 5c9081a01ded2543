import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markCurrentPage } from '../shell.js';

/** The navigation's links as markCurrentPage reads them: a data-page and an aria-current each. */
function fakeNav(pages) {
  const links = pages.map((page) => {
    const attributes = new Map([['data-page', page]]);
    return {
      textContent: page,
      getAttribute: (name) => attributes.get(name) ?? null,
      setAttribute: (name, value) => attributes.set(name, String(value)),
      removeAttribute: (name) => attributes.delete(name),
    };
  });
  return {
    links,
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
  const toggle = {
    querySelector: () => label,
    setAttribute() {},
    parentElement: { dataset: {} },
  };
  markCurrentPage(nav, 'phone-alerts', toggle);
  assert.equal(label.textContent, 'settings');
});
