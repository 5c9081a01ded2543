// Hash router for the single page. Hash routes (#/notes) keep every URL
// served by index.html and survive reloads without server routing rules.
// resolveRoute is pure so Node tests can check it without a DOM.

/** Pages in the order the navigation shows them; the first is the default. */
export const PAGE_NAMES = Object.freeze([
  'today',
  'notes',
  'medications',
  'alerts',
  'games',
  'household',
  'settings',
]);

export const DEFAULT_PAGE = PAGE_NAMES[0];

/**
 * A senior's own page of large tiles (her panel): first in her navigation
 * and where her device opens; the others have no link to it.
 */
export const SENIOR_HOME = 'panel';

/**
 * A senior's navigation: her panel and the pages she uses most, few enough
 * for one row of large type on a tablet (her medicines are on Today, her
 * household one link away from Settings).
 */
export const SENIOR_PAGES = Object.freeze([SENIOR_HOME, 'today', 'notes', 'games', 'alerts', 'settings']);

/** The navigation's pages for a person of this role. */
export function navPagesFor(role) {
  return role === 'senior' ? [...SENIOR_PAGES] : [...PAGE_NAMES];
}

/**
 * How a phone shows the navigation: a bar of icons at the bottom of the
 * screen, or, for a senior (whose SOS bar keeps the bottom), one "Menu"
 * button at the top.
 */
export function navLayoutFor(role) {
  return role === 'senior' ? 'menu' : 'bar';
}

/** Where a device opens when no page is asked for: a senior's panel, else Today. */
export function homePageFor(role) {
  return role === 'senior' ? SENIOR_HOME : DEFAULT_PAGE;
}

/**
 * Pages reached from a link on another page rather than from the
 * navigation, each with the navigation's page it belongs under (marked in
 * the navigation while it is open, so a phone's menu still says where one is).
 */
export const LINKED_PAGES = Object.freeze({ 'phone-alerts': 'settings', arrange: 'household' });

/** The navigation's page a page is shown under: itself, or the one it is linked from. */
export function navPageOf(page) {
  return Object.hasOwn(LINKED_PAGES, page) ? LINKED_PAGES[page] : page;
}

function isPage(page) {
  return PAGE_NAMES.includes(page) || page === SENIOR_HOME || Object.hasOwn(LINKED_PAGES, page);
}

/** The href a link to a page uses, e.g. "#/notes". */
export function pageHref(page, ...params) {
  const rest = params.map((p) => '/' + encodeURIComponent(p)).join('');
  return `#/${page}${rest}`;
}

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed %-escape should not break navigation
  }
}

/**
 * "#/notes/abc" → { page: "notes", params: ["abc"] }.
 * Empty, unknown or malformed hashes land on `home` (Today, or a senior's
 * panel), so a stale bookmark still opens something useful.
 */
export function resolveRoute(hash, home = DEFAULT_PAGE) {
  const path = String(hash ?? '')
    .replace(/^#/, '')
    .split(/[?#]/)[0];
  const [page, ...params] = path.split('/').filter((s) => s !== '').map(decodeSegment);
  if (!isPage(page)) {
    return { page: home, params: [] };
  }
  return { page, params };
}

/**
 * A page whose module is loaded the first time it is shown, not with the
 * app: a phone on the home Wi-Fi fetches the shell and the page it opens
 * (about 60 modules for Today) instead of every page's (about 150).
 * `load()` resolves with the page's render(outlet, route), once; after a
 * failure (the hub out of reach) the next visit tries again.
 */
export function lazyPage(load) {
  let loading = null;
  const page = {
    /** The render function once loaded, else null. */
    loaded: null,
    load() {
      loading ??= Promise.resolve().then(load).then(
        (render) => (page.loaded = render),
        (error) => {
          loading = null;
          throw error;
        },
      );
      return loading;
    },
  };
  return page;
}

/**
 * Renders the page for the current hash into `outlet` and again on every
 * hashchange. `pages` maps a page name to render(outlet, route), which may
 * return a cleanup function (unsubscribe from live changes, cancel
 * fetches), or to a lazyPage, drawn once its module is loaded: the outlet
 * is empty and aria-busy meanwhile, and only the page last asked for is
 * drawn. `onChange(route)` runs when a page has been drawn,
 * `onFailed(route, error)` when its module could not be loaded.
 * `win` is injectable for tests.
 */
export function createRouter({
  pages, outlet, onChange = () => {}, onFailed = () => {}, win = globalThis.window, home = () => DEFAULT_PAGE,
}) {
  let cleanup = null;
  let current = null;
  // Counts what was asked for: a module that arrives after the person went
  // elsewhere (or the page was left) draws nothing.
  let visits = 0;

  function leaveShown() {
    if (typeof cleanup === 'function') cleanup();
    cleanup = null;
  }

  function draw(render, route) {
    outlet.removeAttribute?.('aria-busy');
    outlet.replaceChildren();
    cleanup = render(outlet, route) ?? null;
    onChange(route);
  }

  function show(route) {
    const visit = ++visits;
    leaveShown();
    current = route;
    const page = pages[route.page] ?? pages[DEFAULT_PAGE];
    const render = typeof page === 'function' ? page : page.loaded;
    if (render) return draw(render, route);
    outlet.replaceChildren();
    outlet.setAttribute?.('aria-busy', 'true');
    page.load().then(
      (loaded) => { if (visit === visits) draw(loaded, route); },
      (error) => {
        if (visit !== visits) return;
        outlet.removeAttribute?.('aria-busy');
        onFailed(route, error);
      },
    );
  }

  const onHashChange = () => show(resolveRoute(win.location.hash, home()));

  return {
    start() {
      win.addEventListener('hashchange', onHashChange);
      onHashChange();
    },
    /**
     * Leaves the current page: what it does when left runs (an open note's
     * editor saves and closes) and the outlet is emptied; refresh() draws
     * it again.
     */
    leave() {
      visits += 1;
      leaveShown();
      outlet.replaceChildren();
    },
    /** Re-render the current page, e.g. after the language changed. */
    refresh() {
      show(current ?? resolveRoute(win.location.hash, home()));
    },
    get current() {
      return current;
    },
    stop() {
      visits += 1;
      win.removeEventListener('hashchange', onHashChange);
      leaveShown();
    },
  };
}
