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

/**
 * Creates the nav links on first call (and again when `pages` differ: a
 * senior's navigation starts with her panel), renames them afterwards. A
 * phone shows them behind one "Menu" button (`toggle`), which names the
 * page that is open; a wider screen shows them all in a row and no button.
 */
export function renderNav(list, t, toggle = null, pages = PAGE_NAMES) {
  const shown = [...list.querySelectorAll('a[data-page]')].map((link) => link.getAttribute('data-page'));
  if (shown.join() !== pages.join()) {
    const first = list.children.length === 0;
    list.replaceChildren(
      ...pages.map((page) =>
        h('li', {}, h('a', { href: pageHref(page), class: 'nav-link', 'data-page': page, onclick: () => openMenu(toggle, false) },
          icon(PAGE_ICONS[page] ?? 'grid-fill'), h('span', { class: 'nav-label' }))),
      ),
    );
    if (toggle && first) {
      toggle.querySelector('.nav-toggle-icon')?.replaceChildren(icon('list'));
      toggle.addEventListener('click', () => openMenu(toggle, toggle.getAttribute('aria-expanded') !== 'true'));
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
    const current = list.querySelector('a[aria-current]')?.textContent ?? '';
    toggle.querySelector('.nav-toggle-label').textContent = t('shell.menu');
    toggle.querySelector('.nav-toggle-page').textContent = current;
  }
}

/** Opens or closes the phone's menu. */
function openMenu(toggle, open) {
  if (!toggle) return;
  toggle.setAttribute('aria-expanded', String(open));
  toggle.parentElement.dataset.open = String(open);
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
    toggle.querySelector('.nav-toggle-page').textContent = list.querySelector('a[aria-current]')?.textContent ?? '';
    openMenu(toggle, false);
  }
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
