// Entry module: applies saved preferences, loads the language, draws the
// shell, starts the live connection, the alert banner and the router. Page
// logic lives in pages/, each page's module loaded the first time it is
// shown (householdPages); pure logic in router.js, i18n.js, live.js,
// preferences.js, care/, medications/, notes/ and household/. At /pair
// it shows only the pairing form instead.
import { getJSON, isAwaitingApproval, isConnectionProblem, isUnpaired } from './api.js';
import { paths } from './api-paths.js';
import { PAIR_PATH, isPairingPath, secretFromHash } from './household/pairing.js';
import { createRouter, homePageFor, lazyPage, navLayoutFor, navPagesFor } from './router.js';
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
import { createDisplaySync } from './care/display.js';
import { forgetSavedNotes } from './notes/drafts.js';
import { markCurrentPage, renderNav, translateShell, unpairedNotice, watchNavBar, wireSkipLink } from './shell.js';
import { createAlertBanner } from './care/alert-banner.js';
import { createAlertCenter } from './care/alert-center.js';
import { createTestNotice } from './care/test-notice.js';
import { enableSoundOnFirstTouch } from './care/beep.js';
import { bannerAlerts } from './care/alerts.js';
import { iconWithCount, titleWithCount } from './care/attention.js';
import { createSoundControl } from './sound-control.js';
import { createMe } from './care/me.js';
import { createSOSDock } from './pages/today/sos-dock.js';
import { deviceStorage } from './device-storage.js';

// The pairing secret is read first and taken out of the address bar at once,
// so it is not kept in the history or shown to someone looking over a shoulder.
const pairing = isPairingPath(location.pathname);
const pairingSecret = pairing ? secretFromHash(location.hash) : null;
if (pairing) history.replaceState(null, '', PAIR_PATH);

const root = document.documentElement;
const main = document.getElementById('main');
const pageOutlet = document.getElementById('page');
const problemRegion = document.getElementById('problem');
const navList = document.getElementById('nav-list');
const navToggle = document.getElementById('nav-toggle');
const languageSelect = document.getElementById('language-select');

const storage = deviceStorage();

// "Cannot reach the hub" and "an admin must approve this device" stop being
// true the moment the live connection opens: they go then (see onState).
let problemGoesWhenConnected = false;

const app = {
  t: (key) => key,
  language: 'en',
  preferences: readPreferences(storage),
  live: createLiveConnection(),
  /** True once the hub said this browser is not a paired device. */
  unpaired: false,
  /** True once the hub said this device waits for an admin's approval. */
  awaitingApproval: false,
  showProblem(message) {
    problemRegion.textContent = message;
    problemGoesWhenConnected = false;
  },
  /** Shows a failed API call: "not paired" gets its own message, not an error. */
  reportProblem(problem) {
    if (problem?.name === 'AbortError') return;
    if (isUnpaired(problem)) return showUnpaired();
    if (isAwaitingApproval(problem)) app.awaitingApproval = true;
    app.showProblem(problem?.message ?? app.t('errors.page'));
    problemGoesWhenConnected = isConnectionProblem(problem);
  },
  clearProblem() {
    problemRegion.textContent = '';
    problemGoesWhenConnected = false;
  },
  /** The person's choice of text size or theme: shown at once, kept on the hub for all their devices. */
  setPreference(name, value) {
    showPreference(name, value);
    display.save({ [name]: value });
  },
  setLanguage,
  /** The person's display settings as the hub keeps them (the speaking rate for Listen), once known. */
  display: null,
};

function showPreference(name, value) {
  app.preferences = { ...app.preferences, [name]: value };
  applyPreferences(root, app.preferences);
  const key = name === 'theme' ? THEME_STORAGE_KEY : TEXT_SIZE_STORAGE_KEY;
  writeSaved(storage, key, value);
}

// Set once this browser follows a person's settings on the hub: from then on
// what it keeps is a copy of them, never choices to send up for someone
// else (a tablet paired again for another person).
const DISPLAY_SYNCED_KEY = 'hearth.displayFollowsHub';

// This browser's choices from before the hub kept them, sent up once so
// nothing chosen is lost (care/display.js).
function localChoices() {
  if (readSaved(storage, DISPLAY_SYNCED_KEY) !== null) return { hadChoices: false, choices: {} };
  const choices = {};
  const saved = { textSize: TEXT_SIZE_STORAGE_KEY, theme: THEME_STORAGE_KEY, language: LANGUAGE_STORAGE_KEY };
  for (const [name, key] of Object.entries(saved)) {
    const value = readSaved(storage, key);
    if (value !== null) choices[name] = name === 'language' ? value : app.preferences[name];
  }
  return { hadChoices: Object.keys(choices).length > 0, choices };
}

/** Changes the person's own display settings on the hub (the speaking rate, from Settings). */
app.saveDisplay = (partial) => display.save(partial);

const display = createDisplaySync(app, {
  local: localChoices,
  synced: (personId) => writeSaved(storage, DISPLAY_SYNCED_KEY, personId),
  apply(settings) {
    if (settings.textSize !== app.preferences.textSize) showPreference('textSize', settings.textSize);
    if (settings.theme !== app.preferences.theme) showPreference('theme', settings.theme);
    if (settings.language !== app.language) setLanguage(settings.language, { fromHub: true });
  },
  // Settings shows the choices: draw it again when they were made on another device.
  changedElsewhere: () => { if (router.current?.page === 'settings') router.refresh(); },
});
/** Who is using this browser: { personId, role, name, people, timeZone }. */
app.me = createMe(app);
/** The open alerts this browser may see, kept current from the live stream. */
app.alerts = createAlertCenter(app);
const alertBanner = createAlertBanner(app, {
  container: document.getElementById('alert-banner'),
  announcer: document.getElementById('alert-announcer'),
});
// "Send a test" shows here too, on each of this person's open pages.
const testNotice = createTestNotice(app, {
  container: document.getElementById('test-notice'),
  announcer: document.getElementById('alert-announcer'),
});
const soundControl = createSoundControl(app, { button: document.getElementById('sound-button'), storage });
const sosDock = createSOSDock(app);

/** The navigation for whoever this is: her pages and her layout for a senior, everyone else's for the rest. */
function drawNav(t) {
  const role = app.me.current?.role;
  renderNav(navList, t, navToggle, navPagesFor(role), navLayoutFor(role));
}

/** What depends on who this is: a senior's navigation starts with her panel, and SOS is on every page of hers. */
function showWhoThisIs() {
  drawNav(app.t);
  if (router.current) markCurrentPage(navList, router.current.page, navToggle);
  sosDock.show();
}

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

const pairPage = lazyPage(() => import('./pages/pair.js').then(({ createPairPage }) => safePage(
  createPairPage(app, {
    secret: pairingSecret,
    userAgent: navigator.userAgent,
    goToToday: () => location.replace('/#/today'),
  }),
)));

async function showPairPage() {
  let render;
  try {
    render = pairPage.loaded ?? await pairPage.load();
  } catch (error) {
    console.error('the pairing page could not be loaded', error);
    app.showProblem(app.t('errors.unreachable'));
    return;
  }
  pageOutlet.replaceChildren();
  render(pageOutlet);
  document.title = app.t('app.documentTitle', { page: app.t('pair.title') });
}

// Each page keeps what it last showed across its renders (Today's medicines,
// the Household's people): made afresh when this device leaves the
// household, so none of it is drawn again (forgetTheHousehold). Each page's
// module is fetched the first time it is shown (router.js's lazyPage), so a
// phone loads the shell and the page it opens, not every page there is; the
// SOS dock and the alert banner are the shell's, there from the first paint.
function householdPages() {
  const page = (load) => lazyPage(() => load().then(safePage));
  return {
    panel: page(() => import('./pages/panel/panel.js').then(({ createPanelPage }) => createPanelPage(app))),
    arrange: page(() => import('./pages/panel/panel-editor.js').then(({ createPanelEditorPage }) => createPanelEditorPage(app))),
    games: page(() => import('./pages/games/games.js').then(({ createGamesPage }) => createGamesPage(app))),
    today: page(() => import('./pages/today/today.js').then(({ createTodayPage }) => createTodayPage(app))),
    notes: page(() => import('./pages/notes/notes.js').then(({ createNotesPage }) => createNotesPage(app))),
    medications: page(() => import('./pages/medications/medications.js').then(({ createMedicationsPage }) => createMedicationsPage(app))),
    alerts: page(() => import('./pages/alerts/alerts.js').then(({ createAlertsPage }) => createAlertsPage(app))),
    household: page(() => import('./pages/household/household.js').then(({ createHouseholdPage }) => createHouseholdPage(app))),
    settings: page(() => import('./pages/settings.js').then(({ createSettingsPage }) => createSettingsPage(app))),
    'phone-alerts': page(() => import('./pages/alerts/phone-alerts.js').then(({ createPhoneAlertsPage }) => createPhoneAlertsPage(app))),
  };
}
const pages = householdPages();

const router = createRouter({
  outlet: pageOutlet,
  home: () => homePageFor(app.me.current?.role),
  pages,
  onChange: onPageShown,
  onFailed: pageNotLoaded,
});

// The tab says how many alerts are open, in its title and on its icon.
let pageTitle = document.title;
const tabIcon = document.getElementById('tab-icon');
function showAttention() {
  const me = app.me.current;
  const count = me && !app.unpaired ? bannerAlerts(app.alerts.open, me).length : 0;
  document.title = titleWithCount(pageTitle, count);
  const icon = iconWithCount(count);
  if (tabIcon && tabIcon.getAttribute('href') !== icon) tabIcon.setAttribute('href', icon);
}

let shownRoute = null;
/** The navigation and the tab name the page asked for. */
function nameThePage(route) {
  markCurrentPage(navList, route.page, navToggle);
  pageTitle = app.t('app.documentTitle', { page: app.t(`pages.${route.page}`) });
  showAttention();
}

function onPageShown(route) {
  nameThePage(route);
  const sameRoute = shownRoute && JSON.stringify(shownRoute) === JSON.stringify(route);
  if (!sameRoute) app.clearProblem();
  // Moving focus to the new heading tells screen-reader users the page
  // changed; not on first load, and not on a re-render for a new language.
  if (shownRoute && !sameRoute) pageOutlet.querySelector('h1')?.focus();
  shownRoute = route;
  placeUnpairedNotice();
}

// A page's module that did not arrive (the hub went out of reach between
// two pages): said as the hub out of reach, and the page drawn again when
// the live connection is back.
let pageToLoadAgain = false;
function pageNotLoaded(route, error) {
  console.error(`the ${route.page} page could not be loaded`, error);
  nameThePage(route);
  app.showProblem(app.t('errors.unreachable'));
  problemGoesWhenConnected = true;
  pageToLoadAgain = true;
}

// --- Not paired: one message under every page's heading, slow retries ---

function placeUnpairedNotice() {
  document.getElementById('unpaired')?.remove();
  if (!app.unpaired) return;
  const notice = unpairedNotice(app.t);
  const heading = pageOutlet.querySelector('h1');
  if (heading) heading.after(notice);
  else pageOutlet.prepend(notice);
}

function showUnpaired() {
  if (app.unpaired) return;
  app.unpaired = true;
  sosDock.show();
  forgetTheHousehold();
  app.clearProblem();
  app.live.markUnpaired();
  placeUnpairedNotice();
}

/**
 * A device removed from the household shows nothing of it from that moment,
 * not only after a reload: an open question (a dose's) is closed, the
 * banner and the last thing said to screen readers emptied, and the page
 * drawn again by pages that remember nothing (its loads are now refused).
 */
function forgetTheHousehold() {
  for (const dialog of [...document.querySelectorAll('dialog[open]')].reverse()) dialog.close();
  if (router.current) router.leave();
  // The notes saved for a quick start are the household's words; a device
  // removed from it keeps none of them (only its own unsent typing). After
  // the page is left, since an open note's editor saves it as it closes.
  forgetSavedNotes(storage);
  app.me.clear();
  alertBanner.render();
  document.getElementById('alert-announcer').textContent = '';
  showAttention();
  Object.assign(pages, householdPages());
  if (router.current) router.refresh();
}

/** Let in (paired again, or approved by an admin): who this is is read again, and the page's data. */
function showLetIn() {
  app.unpaired = false;
  app.awaitingApproval = false;
  app.me.forget();
  app.me.load().then(showWhoThisIs, () => {});
  router.refresh();
}

// A live socket that never opened means the hub is away or refused this
// device; one API call tells which.
let checkingPairing = false;
async function checkPairing() {
  if (app.unpaired || checkingPairing) return;
  checkingPairing = true;
  try {
    await getJSON(paths.devices(), { t: app.t });
  } catch (problem) {
    if (isUnpaired(problem)) showUnpaired();
    if (isAwaitingApproval(problem)) app.awaitingApproval = true;
  } finally {
    checkingPairing = false;
  }
}

let languageRequest = 0;
/**
 * Shows the pages in `wanted`. A person's own choice (`save`) is kept in
 * this browser and on the hub, for all their devices; one that came from
 * the hub (`fromHub`) is not sent back.
 */
async function setLanguage(wanted, { save = true, fromHub = false } = {}) {
  const request = ++languageRequest;
  const { language, t } = await loadTranslator(wanted);
  if (request !== languageRequest) return; // a later choice won
  app.t = t;
  app.language = language;
  root.lang = language;
  if (save || fromHub) writeSaved(storage, LANGUAGE_STORAGE_KEY, language);
  if (save && !fromHub && app.display && app.display.language !== language) display.save({ language });
  languageSelect.value = language;
  translateShell(document, t);
  drawNav(t);
  sosDock.show();
  if (pairing) showPairPage();
  else if (router.current) {
    alertBanner.render();
    testNotice.render();
    router.refresh();
  }
}

languageSelect.addEventListener('change', () => setLanguage(languageSelect.value));
wireSkipLink(document.getElementById('skip-link'), main);
watchNavBar(navList.parentElement);
// When the tablet's Wi-Fi comes back, reconnect now rather than after the backoff.
window.addEventListener('online', () => app.live.retryNow());

if (pairing) {
  // Nothing else works before pairing, and the page links would point at /pair.
  document.querySelector('.site-nav').hidden = true;
  // Another pairing link opened in this tab only changes the fragment: start
  // again with its code (the reload reads it and takes it out of the address bar).
  window.addEventListener('hashchange', () => {
    if (secretFromHash(location.hash)) location.reload();
  });
}
const savedLanguage = readSaved(storage, LANGUAGE_STORAGE_KEY);
// Not saved unless chosen, so a browser language change is still followed.
await setLanguage(pickLanguage(savedLanguage, navigator.languages), { save: false });
if (!pairing) {
  app.live.onUnpaired(showUnpaired);
  app.live.onRefused(checkPairing);
  app.live.onState((state) => {
    if (state !== 'connected') return;
    if (problemGoesWhenConnected) app.clearProblem();
    if (pageToLoadAgain) {
      pageToLoadAgain = false;
      router.refresh();
    }
    // Let in (paired again in another tab, or approved): drop the message and reload the page's data.
    if (app.unpaired || app.awaitingApproval) showLetIn();
  });
  // The hub's time was set by hand: every answer says the hub's time
  // (hub-clock.js), so one small question learns it at once.
  app.live.onChange((change) => {
    if (change.entity === 'household' && change.payload?.clockOffsetMs !== undefined) getJSON(paths.health(), { t: app.t }).catch(() => {});
  });
  // A new role or care link changes what this person is shown.
  app.live.onChange((change) => {
    if (change.entity !== 'person' && change.entity !== 'careLink') return;
    app.me.forget();
    app.me.load().then(showWhoThisIs, () => {});
  });
  app.live.start();
  app.alerts.start();
  alertBanner.start();
  testNotice.start();
  app.alerts.subscribe(showAttention);
  enableSoundOnFirstTouch(document);
  soundControl.start();
  // Who this is decides where the device opens (a senior's panel) and the
  // navigation; every page asks the same question, so it is asked once first.
  await app.me.load().catch(() => null);
  showWhoThisIs();
  display.start();
  router.start();
}
