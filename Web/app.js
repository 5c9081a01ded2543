// Entry module: applies saved preferences, loads the language, draws the
// shell, starts the live connection and the router. Page logic lives in
// pages/, pure logic in router.js, i18n.js, live.js and preferences.js.
import { createRouter } from './router.js';
import { LANGUAGE_STORAGE_KEY, loadTranslator, pickLanguage } from './i18n.js';
import { createLiveConnection } from './live.js';
import {
  TEXT_SIZE_STORAGE_KEY,
  THEME_STORAGE_KEY,
  applyPreferences,
  readPreferences,
  readSaved,
  writeSaved,
} from './preferences.js';
import { markCurrentPage, renderNav, translateShell, wireSkipLink } from './shell.js';
import { createComingSoonPage } from './pages/coming-soon.js';
import { createTodayPage } from './pages/today.js';
import { createSettingsPage } from './pages/settings.js';

const root = document.documentElement;
const main = document.getElementById('main');
const pageOutlet = document.getElementById('page');
const problemRegion = document.getElementById('problem');
const navList = document.getElementById('nav-list');
const languageSelect = document.getElementById('language-select');

// Even reading window.localStorage can throw when storage is blocked.
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
})();

const app = {
  t: (key) => key,
  language: 'en',
  preferences: readPreferences(storage),
  live: createLiveConnection(),
  showProblem(message) {
    problemRegion.textContent = message;
  },
  clearProblem() {
    problemRegion.textContent = '';
  },
  setPreference(name, value) {
    app.preferences = { ...app.preferences, [name]: value };
    applyPreferences(root, app.preferences);
    const key = name === 'theme' ? THEME_STORAGE_KEY : TEXT_SIZE_STORAGE_KEY;
    writeSaved(storage, key, value);
  },
  setLanguage,
};

applyPreferences(root, app.preferences);

// A page that throws shows a message instead of leaving a blank screen.
function safePage(render) {
  return (outlet, route) => {
    try {
      return render(outlet, route);
    } catch (error) {
      console.error('page failed', error);
      app.showProblem(app.t('errors.page'));
      return null;
    }
  };
}

const router = createRouter({
  outlet: pageOutlet,
  pages: {
    today: safePage(createTodayPage(app)),
    notes: safePage(createComingSoonPage(app, 'notes')),
    medications: safePage(createComingSoonPage(app, 'medications')),
    alerts: safePage(createComingSoonPage(app, 'alerts')),
    household: safePage(createComingSoonPage(app, 'household')),
    settings: safePage(createSettingsPage(app)),
  },
  onChange: onPageShown,
});

let shownRoute = null;
function onPageShown(route) {
  markCurrentPage(navList, route.page);
  document.title = app.t('app.documentTitle', { page: app.t(`pages.${route.page}`) });
  const sameRoute = shownRoute && JSON.stringify(shownRoute) === JSON.stringify(route);
  if (!sameRoute) app.clearProblem();
  // Moving focus to the new heading tells screen-reader users the page
  // changed; not on first load, and not on a re-render for a new language.
  if (shownRoute && !sameRoute) pageOutlet.querySelector('h1')?.focus();
  shownRoute = route;
}

let languageRequest = 0;
async function setLanguage(wanted, { save = true } = {}) {
  const request = ++languageRequest;
  const { language, t } = await loadTranslator(wanted);
  if (request !== languageRequest) return; // a later choice won
  app.t = t;
  app.language = language;
  root.lang = language;
  if (save) writeSaved(storage, LANGUAGE_STORAGE_KEY, language);
  languageSelect.value = language;
  translateShell(document, t);
  renderNav(navList, t);
  if (router.current) router.refresh();
}

languageSelect.addEventListener('change', () => setLanguage(languageSelect.value));
wireSkipLink(document.getElementById('skip-link'), main);
// When the tablet's Wi-Fi comes back, reconnect now rather than after the backoff.
window.addEventListener('online', () => app.live.retryNow());

const savedLanguage = readSaved(storage, LANGUAGE_STORAGE_KEY);
// Not saved unless chosen, so a browser language change is still followed.
await setLanguage(pickLanguage(savedLanguage, navigator.languages), { save: false });
app.live.start();
router.start();
