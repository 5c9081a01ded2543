// Household: the people and who looks after whom, the paired devices with
// "Remove", adding a device with a pairing code shown on this screen
// (household-invitation.js), the reminder settings, the household's name
// and time zone and the hub's language (household-settings.js). What a
// person may not do is not offered (household/model.js mirrors the hub's
// rules), but the hub decides: when it refuses, its sentence is shown.
// Follows the live stream: people, care links, devices and the household's
// settings changed anywhere show here without a reload.
import { getJSON, sendJSON } from '../api.js';
import { h, pageHeading } from '../dom.js';
import { careLinksOf } from '../household/model.js';
import { createInvitationSection } from './household-invitation.js';
import { deviceList, peopleList } from './household-lists.js';
import { createHouseholdSettings } from './household-settings.js';
import { confirmDeviceRemoval } from './remove-device-dialog.js';
import { createAnnouncer, createBusyKeys, createNewestLoader, reloadOnLiveChanges } from './page-tools.js';

// "Last used 5 minutes ago" must not go stale while the page stays open.
const CLOCK_EVERY_MS = 60 * 1000;
const WATCHED = new Set(['person', 'careLink', 'device', 'household', 'pairingCode']);

export function createHouseholdPage(app) {
  // Kept across renders (a language switch), so nothing blanks or is lost.
  const remembered = { data: null, invitationState: {}, settingsState: {} };
  return (outlet) => renderHousehold(app, remembered, outlet);
}

function section(id, heading, ...content) {
  return h('section', { id, class: 'household-section', 'aria-labelledby': `${id}-heading` },
    h('h2', { id: `${id}-heading`, tabindex: '-1' }, heading), ...content);
}

/** Draws the Household page into `outlet`; returns what to call when the page is left. */
function renderHousehold(app, remembered, outlet) {
  const { t, live } = app;
  const busy = createBusyKeys(app, { redraw: () => show() });
  let left = false;
  const { element: announcer, announce } = createAnnouncer('household-announcer');
  const nameLine = h('p', { id: 'household-page-name', class: 'household-page-name' });
  const peopleSlot = h('div', { class: 'household-people-slot' }, h('p', { class: 'loading' }, t('household.loading')));
  const devicesSlot = h('div', { class: 'household-devices-slot' });
  const invitation = createInvitationSection(app, remembered.invitationState, { announce, onPaired: () => reloads.soon() });
  const settings = createHouseholdSettings(app, remembered.settingsState, { announce, onSaved: applySaved });

  outlet.append(
    pageHeading(t('pages.household')), nameLine, announcer,
    section('household-people', t('household.people.heading'), peopleSlot),
    section('household-devices', t('household.devices.heading'), devicesSlot),
    section('household-add-device', t('household.invite.heading'), invitation.element),
    section('household-reminders', t('household.reminders.heading'), settings.remindersElement),
    section('household-details', t('household.details.heading'), settings.detailsElement),
    section('household-language', t('household.language.heading'), settings.languageElement),
  );

  const { load, stop: stopLoading } = createHouseholdLoader(app, remembered, {
    left: () => left, shown: () => show(),
    failed: () => { if (remembered.data === null) peopleSlot.replaceChildren(); },
  });

  /** A settings form saved: show what the hub answered at once. */
  function applySaved(changes) {
    if (!remembered.data) return;
    remembered.data = { ...remembered.data, ...changes };
    show();
  }

  // Redrawn only when something shown changed (see Today): a screen
  // reader's place and a half-typed form are not lost to a reload that
  // brought nothing new.
  let shownSignature = null;
  function show() {
    const { data } = remembered;
    if (left || !data) return;
    const signature = JSON.stringify([app.language, data, busy.keys(), Math.floor(Date.now() / CLOCK_EVERY_MS)]);
    if (signature === shownSignature) return;
    shownSignature = signature;
    nameLine.textContent = data.household?.name ?? '';
    const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
    peopleSlot.replaceChildren(...peopleList(app, data).filter(Boolean));
    devicesSlot.replaceChildren(...deviceList(app, data, { busy, remove: removeDevice }).filter(Boolean));
    invitation.update({ me: data.me, people: data.people });
    settings.update({ me: data.me, household: data.household, reminders: data.reminders });
    if (focusKey && document.activeElement === document.body) {
      // The button is gone (its device was removed): the list's heading, not the top of the page.
      (outlet.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)
        ?? document.getElementById('household-devices-heading'))?.focus();
    }
  }

  function removeDevice(device, key) {
    return removeFromHousehold(app, device, key, {
      outlet, busy, announce, remembered, left: () => left, reloadSoon: () => reloads.soon(),
    });
  }

  const reloads = reloadOnLiveChanges(live, load, (change) => householdChanged(app, invitation, change));
  const clock = setInterval(show, CLOCK_EVERY_MS);

  if (remembered.data) show();
  load();

  return function leaveHousehold() {
    left = true;
    reloads.stop();
    clearInterval(clock);
    stopLoading();
    invitation.stop();
    document.getElementById('remove-device-dialog')?.close();
  };
}

/** Whether a live change is one the page shows; who is who, and the code on screen, are checked again first. */
function householdChanged(app, invitation, change) {
  if (!WATCHED.has(change.entity)) return false;
  if (change.entity === 'person' || change.entity === 'careLink') app.me.forget();
  if (change.entity === 'device' || change.entity === 'pairingCode') invitation.check();
  return true;
}

/**
 * Reads who is using this browser, the household, its people, devices and
 * reminder settings into `remembered.data`, then `shown()`; only the newest
 * answer counts, and none once the page is `left()`.
 */
function createHouseholdLoader(app, remembered, { left, shown, failed }) {
  const { t } = app;
  return createNewestLoader(app, {
    async read(signal) {
      const me = await app.me.load();
      return [me, ...await Promise.all([
        getJSON('/household', { t, signal }),
        getJSON('/people', { t, signal }),
        getJSON('/devices', { t, signal }),
        getJSON('/household/reminders', { t, signal }),
      ])];
    },
    shown([me, household, people, devices, reminders]) {
      if (left()) return;
      remembered.data = {
        me,
        household,
        people: Array.isArray(people) ? people : [],
        devices: Array.isArray(devices) ? devices : [],
        reminders,
        links: careLinksOf(people),
      };
      app.clearProblem();
      shown();
    },
    failed,
  });
}

/**
 * "Remove" on a device: asked in a dialog first, then removed, said aloud,
 * taken off the list at once and the page read again. Nothing more once
 * the page is `left()`.
 */
async function removeFromHousehold(app, device, key, { outlet, busy, announce, remembered, left, reloadSoon }) {
  const { t } = app;
  if (busy.has(key) || document.getElementById('remove-device-dialog')) return;
  const confirmed = await confirmDeviceRemoval(app, device, {
    returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
      ?? document.getElementById('household-devices-heading'),
  });
  if (!confirmed || left()) return;
  await busy.run(key, async () => {
    await sendJSON('DELETE', `/devices/${encodeURIComponent(device.id)}`, undefined, { t });
    announce(t('household.devices.removed', { name: device.name }));
    // This browser's own device: the hub now refuses it, and the app
    // says so on every page (the live stream closes as revoked).
    const { data } = remembered;
    if (!device.current && data) remembered.data = { ...data, devices: data.devices.filter((d) => d.id !== device.id) };
  });
  reloadSoon();
}
