// Alerts on this phone (#/phone-alerts, linked from Settings and Household):
// how to get Hearth's alerts as notifications through the ntfy app on an
// Android phone. The steps, a form that makes a sign-in for the person this
// browser is paired as (its password shown once, with Copy, and the
// server address as a QR code), the topics, the person's sign-ins with
// "Remove", a Test that says which phones and open pages got it, and what
// works without the Internet. Follows the live stream: a sign-in made or
// removed anywhere shows here. The parts are drawn by alert-app-form.js,
// alert-app-made.js, alert-app-list.js, alert-app-test.js and
// phone-alerts-guide.js.
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, pageHeading, replaceKeepingFocus } from '../../dom.js';
import { alertAppEntries } from '../../household/alert-apps.js';
import { alertAppForm, makeAlertApp } from './alert-app-form.js';
import { alertAppList, removeAlertApp } from './alert-app-list.js';
import { madePanel } from './alert-app-made.js';
import { sendTest, testSection } from './alert-app-test.js';
import { limitsText, stepsList, topicsList } from './phone-alerts-guide.js';
import { createAnnouncer, createBusyKeys, createNewestLoader, reloadOnLiveChanges } from '../page-tools.js';
import { hubNow } from '../../hub-clock.js';

// "Last seen 5 minutes ago" must not go stale while the page stays open.
const CLOCK_EVERY_MS = 60 * 1000;

export function createPhoneAlertsPage(app) {
  // Kept across renders (a language switch): what was typed, the sign-in
  // just made (its password is in no other place), the last test's answer.
  const state = {
    me: null, apps: null, typed: null, errors: {}, sending: false, made: null, copied: {}, testing: false, test: null,
  };
  return (outlet) => renderPhoneAlerts(app, state, outlet);
}

function section(id, heading, ...content) {
  return h('section', { id, class: 'phone-alerts-section', 'aria-labelledby': `${id}-heading` },
    h('h2', { id: `${id}-heading`, tabindex: '-1' }, heading), ...content);
}

/** Draws the page into `outlet`; returns what to call when the page is left. */
function renderPhoneAlerts(app, state, outlet) {
  const { t, live } = app;
  const { element: announcer, announce } = createAnnouncer('phone-alerts-announcer');
  const slots = {
    steps: h('div', { class: 'phone-alerts-steps' }),
    make: h('div', { class: 'phone-alerts-make' }),
    list: h('div', { class: 'phone-alerts-list' }, h('p', { class: 'loading' }, t('phoneAlerts.loading'))),
    test: h('div', { class: 'phone-alerts-test' }),
  };
  let left = false;
  const page = { app, state, slots, outlet, announce, left: () => left };
  page.busy = createBusyKeys(app, { redraw: () => drawList(page) });
  page.reloads = reloadOnLiveChanges(live, () => page.loader.load(), (change) => change.entity === 'alertApp');
  page.loader = createPhoneAlertsLoader(page);

  outlet.append(
    pageHeading(t('pages.phone-alerts')),
    h('p', { class: 'page-intro' }, t('phoneAlerts.intro')),
    announcer,
    section('phone-alerts-steps', t('phoneAlerts.steps.heading'), slots.steps),
    section('phone-alerts-make', t('phoneAlerts.make.heading'), slots.make),
    section('phone-alerts-topics', t('phoneAlerts.topics.heading'), topicsList(t)),
    section('phone-alerts-mine', t('phoneAlerts.mine.heading'), slots.list),
    section('phone-alerts-test', t('phoneAlerts.test.heading'), slots.test),
    section('phone-alerts-limits', t('phoneAlerts.limits.heading'), limitsText(t)),
  );
  drawMake(page);
  drawTest(page);
  if (state.apps !== null) drawList(page);
  page.loader.load();
  const clock = setInterval(() => drawList(page), CLOCK_EVERY_MS);

  return function leavePhoneAlerts() {
    left = true;
    page.reloads.stop();
    page.loader.stop();
    clearInterval(clock);
    document.getElementById('remove-alert-app-dialog')?.close();
  };
}

/**
 * Reads who is using this browser and the sign-ins it may see; only the
 * newest answer counts. A sign-in on screen that the hub no longer lists
 * was removed elsewhere: its password is of no use, so it goes too.
 */
function createPhoneAlertsLoader(page) {
  const { app, state, slots } = page;
  const { t } = app;
  return createNewestLoader(app, {
    async read(signal) {
      const me = await app.me.load();
      return [me, await getJSON(paths.alertApps(), { t, signal })];
    },
    shown([me, apps]) {
      if (page.left()) return;
      const whoChanged = JSON.stringify([state.me?.personId, state.me?.name]) !== JSON.stringify([me?.personId, me?.name]);
      state.me = me;
      state.apps = Array.isArray(apps) ? apps : [];
      app.clearProblem();
      if (state.made && !state.apps.some((listed) => listed.id === state.made.id)) forgetMade(page);
      else if (whoChanged) drawMake(page);
      drawList(page);
    },
    failed: () => { if (state.apps === null) slots.list.replaceChildren(); },
  });
}

/** The steps and the form, or the sign-in just made in the form's place. */
function drawMake(page) {
  const { app, state, slots } = page;
  slots.steps.replaceChildren(stepsList(app.t, state.made));
  const form = {
    app, state, announce: page.announce,
    draw: () => drawMake(page),
    make: (event) => makeAlertApp(form, event),
    made: () => page.loader.load(),
  };
  replaceKeepingFocus(slots.make, state.made
    ? madePanel(app, state, { onCopy: (id, result) => copied(page, id, result), hide: () => forgetMade(page) })
    : alertAppForm(form));
}

/** A Copy press: said beside the button and aloud. */
function copied(page, id, result) {
  const { app, state } = page;
  state.copied = { ...state.copied, [id]: result };
  drawMake(page);
  page.announce(app.t(result === 'copied' ? 'phoneAlerts.copy.copied' : 'phoneAlerts.copy.selected'));
}

/** Takes the password off the screen ("Hide the password", or removed elsewhere); the form comes back. */
function forgetMade(page) {
  const { state, slots } = page;
  const wasInside = slots.make.contains(document.activeElement);
  state.made = null;
  state.copied = {};
  drawMake(page);
  if (wasInside || document.activeElement === document.body) document.getElementById('alert-app-name')?.focus();
}

/** This person's sign-ins, drawn again only when something shown changed (see Household). */
function drawList(page) {
  const { app, state, slots, outlet, busy } = page;
  if (page.left() || state.apps === null) return;
  const me = state.me;
  const entries = alertAppEntries(state.apps, me?.people, { meId: me?.personId, language: app.language, only: 'mine' });
  const signature = JSON.stringify([app.language, entries, busy.keys(), Math.floor(hubNow() / CLOCK_EVERY_MS)]);
  if (page.shownSignature === signature) return;
  page.shownSignature = signature;
  const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
  slots.list.replaceChildren(alertAppList(app, entries, {
    listId: 'my-alert-app-list', emptyText: app.t('phoneAlerts.mine.none'), me, timeZone: me?.timeZone ?? null,
    showOwner: false, busy, remove: (entry, key) => remove(page, entry, key),
  }));
  if (focusKey && document.activeElement === document.body) {
    // The button is gone (its sign-in was removed): the list's heading, not the top of the page.
    (outlet.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)
      ?? document.getElementById('phone-alerts-mine-heading'))?.focus();
  }
}

/** "Remove" on one of this person's sign-ins; the one on screen goes with it. */
async function remove(page, entry, key) {
  const { app, state, outlet, busy, announce } = page;
  await removeAlertApp(app, entry, key, {
    busy, announce, left: page.left,
    returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
      ?? document.getElementById('phone-alerts-mine-heading'),
    removed: () => {
      state.apps = (state.apps ?? []).filter((listed) => listed.id !== entry.id);
      if (state.made?.id === entry.id) forgetMade(page);
    },
  });
  page.reloads.soon();
}

/** The Test section, from the state of the last test. */
function drawTest(page) {
  const { app, state, slots } = page;
  const timeZone = () => state.me?.timeZone ?? null;
  replaceKeepingFocus(slots.test, testSection(app, state, {
    timeZone: timeZone(),
    send: () => sendTest(app, state, { draw: () => drawTest(page), announce: page.announce, timeZone, left: page.left }),
  }));
}
