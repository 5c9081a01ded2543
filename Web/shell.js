// The parts of index.html around the page: translated static texts, the
// navigation and the header's language switch. Built once and updated in
// place, so a keyboard user's focus stays put when the language changes.
import { h } from './dom.js';
import { icon } from './icon.js';
import { PAGE_NAMES, navPageOf, pageHref } from './router.js';


/** Fills every [data-i18n="key"] element in the static shell. */
export function translateShell(root, t) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    element.textContent = t(element.getAttribute('data-i18n'));
  }
  for (const element of root.querySelectorAll('[data-i18n-label]')) {
    element.setAttribute('aria-label', t(element.getAttribute('data-i18n-label')));
  }
}

/** Each page's icon in the navigation (beside its name, never instead of it). */
const PAGE_ICONS = Object.freeze({
  panel: 'grid-fill', today: 'calendar-check', notes: 'journal-text', medications: 'capsule', alerts: 'bell',
  games: 'controller', household: 'house-heart', settings: 'gear',
});

/** How many pages a phone's bottom bar shows; the rest are behind "More". */
export const BAR_PAGES = 4;

/**
 * Creates the nav links on first call (and again when `pages` or `layout`
 * differ), renames them afterwards. Two layouts on a phone, one row of
 * links on a wider screen:
 * - "bar" (everyone but a senior): a bar of icons with their names fixed to
 *   the bottom of the screen, the first BAR_PAGES pages and "More", which
 *   opens the rest above it;
 * - "menu" (a senior, whose SOS bar keeps the bottom of the screen): one
 *   "Menu" button at the top naming the page that is open.
 */
export function renderNav(list, t, toggle = null, pages = PAGE_NAMES, layout = 'bar') {
  const nav = list.parentElement;
  const shown = [...list.querySelectorAll('a[data-page]')].map((link) => link.getAttribute('data-page'));
  if (shown.join() !== pages.join() || nav?.dataset.layout !== layout) {
    const first = list.children.length === 0;
    list.replaceChildren(
      ...pages.map((page, index) =>
        h('li', { class: layout === 'bar' && index >= BAR_PAGES ? 'nav-more' : null },
          h('a', { href: pageHref(page), class: 'nav-link', 'data-page': page, onclick: () => openMenu(toggle, false) },
            icon(PAGE_ICONS[page] ?? 'grid-fill'), h('span', { class: 'nav-label' }))),
      ),
    );
    if (nav) nav.dataset.layout = layout;
    if (toggle) {
      // In the order they are seen: "More" after the bar's links, "Menu" above its list.
      if (layout === 'bar') nav.append(toggle);
      else nav.prepend(toggle);
      toggle.querySelector('.nav-toggle-icon')?.replaceChildren(icon(layout === 'bar' ? 'three-dots' : 'list'));
      openMenu(toggle, false);
    }
    if (toggle && first) {
      toggle.addEventListener('click', () => openMenu(toggle, toggle.getAttribute('aria-expanded') !== 'true', { focusFirst: true }));
      // Escape closes the menu and gives the keyboard back to its button.
      toggle.parentElement?.addEventListener('keydown', (event) => {
        if (event.key !== 'Escape' || toggle.getAttribute('aria-expanded') !== 'true') return;
        openMenu(toggle, false);
        toggle.focus();
      });
    }
  }
  for (const link of list.querySelectorAll('a[data-page]')) {
    link.querySelector('.nav-label').textContent = t(`pages.${link.getAttribute('data-page')}`);
  }
  if (toggle) {
    toggle.querySelector('.nav-toggle-label').textContent = t(layout === 'bar' ? 'shell.more' : 'shell.menu');
    nameOpenPage(list, toggle);
  }
}

/**
 * The toggle names the page that is open: always in "Menu"; in "More" only
 * when that page is one of its own (then "More" is lit as the page's place).
 */
function nameOpenPage(list, toggle) {
  const current = list.querySelector('a[aria-current]');
  const behindMore = Boolean(current?.closest('.nav-more'));
  const named = list.parentElement?.dataset.layout === 'bar' ? behindMore : Boolean(current);
  toggle.querySelector('.nav-toggle-page').textContent = named ? current.textContent : '';
  if (behindMore) toggle.dataset.current = 'true';
  else delete toggle.dataset.current;
}

/**
 * Opens or closes the phone's menu. "More" opens above its button, so the
 * keyboard is taken to the first page it shows (Escape brings it back).
 */
function openMenu(toggle, open, { focusFirst = false } = {}) {
  if (!toggle) return;
  toggle.setAttribute('aria-expanded', String(open));
  const nav = toggle.parentElement;
  nav.dataset.open = String(open);
  if (open && focusFirst && nav.dataset.layout === 'bar') nav.querySelector('.nav-more a')?.focus();
}

/**
 * aria-current tells screen readers (and the CSS) which page is open: "page"
 * on its own link, "true" on the link it is reached from when it has none
 * (Alerts on this phone, under Settings).
 */
export function markCurrentPage(list, page, toggle = null) {
  const under = navPageOf(page);
  for (const link of list.querySelectorAll('a[data-page]')) {
    const linkPage = link.getAttribute('data-page');
    if (linkPage === page) link.setAttribute('aria-current', 'page');
    else if (linkPage === under) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
  if (toggle) {
    nameOpenPage(list, toggle);
    openMenu(toggle, false);
  }
}

/**
 * Keeps --nav-bar-height at the bottom bar's height while the bar is fixed
 * to the bottom (a phone), 0 otherwise: pages keep their last line, the
 * sound button and the alert banner above it, at any text size.
 */
export function watchNavBar(nav, root = document.documentElement) {
  const measure = () => {
    const fixed = getComputedStyle(nav).position === 'fixed';
    root.style.setProperty('--nav-bar-height', `${fixed ? nav.offsetHeight : 0}px`);
  };
  if (globalThis.ResizeObserver) new ResizeObserver(measure).observe(nav);
  globalThis.addEventListener?.('resize', measure);
  measure();
}

/**
 * The skip link targets #main, but letting the hash become "#main" would
 * make the router leave the page; focus <main> directly instead.
 */
export function wireSkipLink(link, main) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    main.focus();
  });
}

/**
 * The message every page shows while this browser is not a paired device
 * (the hub answered 401, or closed the live connection as revoked).
 * `{command}` in the sentence becomes the command in <code>.
 */
export function unpairedNotice(t) {
  const [before, after = ''] = t('unpaired.whatToDo').split('{command}');
  return h(
    'section',
    { id: 'unpaired', class: 'unpaired', role: 'alert', 'aria-labelledby': 'unpaired-title' },
    h('h2', { id: 'unpaired-title' }, t('unpaired.title')),
    h('p', {}, before, h('code', {}, 'sudo hearth pair'), after),
    h('p', {}, h('a', { href: '/pair', class: 'button-link' }, t('unpaired.pairLink'))),
  );
}
