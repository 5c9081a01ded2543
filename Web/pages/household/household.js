// Household: the people and who looks after whom (which the admin changes
// under "Who looks after whom", household-care-links.js), each person's
// phone and "Change…" (their own, or anyone's for an admin), "Archive" and
// the archived people with "Restore" (household-people.js), the admin's
// "Changes to the household" (household-audit.js), the paired devices with
// "Remove", the phones' sign-ins for alerts through the ntfy app with
// "Remove" (household-alert-apps.js), adding a device with a pairing code
// shown on this screen (household-invitation.js), the reminder settings, the
// household's name and time zone and the hub's language
// (household-settings.js). Each is a section a person opens and closes
// (household-sections.js), and only the sections of what a person may do
// or see are drawn (household/sections.js). What a person may not do is not
// offered (household/model.js mirrors the hub's rules), but the hub
// decides: when it refuses, its sentence is shown. Follows the live stream:
// people, care links, devices, alert apps and the household's settings
// changed anywhere show here without a reload.
import { getJSON, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { focusInPlace, h, pageHeading } from '../../dom.js';
import { canManageHousehold, careLinksOf } from '../../household/model.js';
import { peopleShownTo, sectionOfRoute } from '../../household/sections.js';
import { AUDIT_LIMIT } from '../../household/audit.js';
import { auditList } from './household-audit.js';
import { createAwaySection } from './household-away.js';
import { createCareLinksSection } from './household-care-links.js';
import { householdAlertApps, removeHouseholdAlertApp } from './household-alert-apps.js';
import { createInvitationSection } from './household-invitation.js';
import { deviceList, peopleList } from './household-lists.js';
import { archivedList, createPeopleActions } from './household-people.js';
import { createHouseholdSections } from './household-sections.js';
import { createHouseholdSettings } from './household-settings.js';
import { confirmDeviceRemoval } from './remove-device-dialog.js';
import { createAnnouncer, createBusyKeys, createNewestLoader, reloadOnLiveChanges } from '../page-tools.js';
import { hubNow } from '../../hub-clock.js';

// "Last used 5 minutes ago" must not go stale while the page stays open.
const CLOCK_EVERY_MS = 60 * 1000;
// Where the keyboard goes when the button it was on is gone, by the end of its data-focus-key.
const REFOCUS_HEADINGS = [
  [':remove-alert-app', 'household-alert-apps-heading'],
  [':unlink', 'household-care-links-heading'],
  [':link', 'household-care-links-heading'],
  [':archive', 'household-people-heading'],
  [':restore', 'archived-people-heading'],
];
const WATCHED = new Set(['person', 'careLink', 'device', 'alertApp', 'household', 'pairingCode', 'awayChoice']);

export function createHouseholdPage(app) {
  // Kept across renders (a language switch), so nothing blanks or is lost.
  const remembered = { data: null, invitationState: {}, settingsState: {}, careLinkState: {}, awayState: {} };
  return (outlet, route) => renderHousehold(app, remembered, outlet, route);
}

/** Draws the Household page into `outlet`; returns what to call when the page is left. */
function renderHousehold(app, remembered, outlet, route) {
  const { t, live } = app;
  const busy = createBusyKeys(app, { redraw: () => show() });
  let left = false;
  const { element: announcer, announce } = createAnnouncer('household-announcer');
  const slots = {
    name: h('p', { id: 'household-page-name', class: 'household-page-name' }),
    people: h('div', { class: 'household-people-slot' }, h('p', { class: 'loading' }, t('household.loading'))),
    devices: h('div', { class: 'household-devices-slot' }),
    alertApps: h('div', { class: 'household-alert-apps-slot' }),
    archived: h('div', { class: 'household-archived-slot' }),
    audit: h('div', { class: 'household-audit-slot' }),
  };
  const invitation = createInvitationSection(app, remembered.invitationState, { announce, onPaired: () => reloads.soon() });
  const settings = createHouseholdSettings(app, remembered.settingsState, { announce, onSaved: applySaved });
  const careLinks = createCareLinksSection(app, remembered.careLinkState, { announce, reloadSoon: () => reloads.soon(), left: () => left });
  const away = createAwaySection(app, remembered.awayState, { announce, reloadSoon: () => reloads.soon(), left: () => left });
  const sections = createHouseholdSections(app, remembered, {
    contents: {
      people: slots.people,
      archived: slots.archived,
      'care-links': careLinks.element,
      devices: slots.devices,
      'alert-apps': slots.alertApps,
      away: away.element,
      'add-device': invitation.element,
      reminders: settings.remindersElement,
      details: settings.detailsElement,
      language: settings.languageElement,
      audit: slots.audit,
    },
    linked: sectionOfRoute(route?.params),
    extra: () => ({ codeWaiting: Boolean(remembered.invitationState.invitation) && remembered.invitationState.status === 'waiting' }),
  });

  outlet.append(pageHeading(t('pages.household')), slots.name, announcer, sections.element);

  const { load, stop: stopLoading } = createHouseholdLoader(app, remembered, {
    left: () => left, shown: () => show(),
    failed: () => { if (remembered.data === null) slots.people.replaceChildren(); },
  });

  /** A settings form saved: show what the hub answered at once. */
  function applySaved(changes) {
    if (!remembered.data) return;
    remembered.data = { ...remembered.data, ...changes };
    show();
  }

  const removing = { outlet, busy, announce, remembered, left: () => left, reloadSoon: () => reloads.soon() };
  const removeDevice = (device, key) => removeFromHousehold(app, device, key, removing);
  const removeAlertApp = (entry, key) => removeHouseholdAlertApp(app, entry, key, removing);
  const approveDevice = (device, key) => approveInHousehold(app, device, key, removing);
  const people = createPeopleActions(app, { ...removing, show: () => show() });

  // Redrawn only when something shown changed (see Today): a screen
  // reader's place and a half-typed form are not lost to a reload that
  // brought nothing new.
  let shownSignature = null;
  function show() {
    const { data } = remembered;
    if (left || !data) return;
    const signature = JSON.stringify([app.language, data, busy.keys(), Math.floor(hubNow() / CLOCK_EVERY_MS)]);
    if (signature === shownSignature) return;
    shownSignature = signature;
    slots.name.textContent = data.household?.name ?? '';
    const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
    const shown = { ...data, people: peopleShownTo(data.me, data.people, data.links) };
    slots.people.replaceChildren(...peopleList(app, shown, { busy, actions: people }).filter(Boolean));
    const admin = canManageHousehold(data.me);
    slots.archived.replaceChildren(...(admin ? archivedList(app, data, { busy, restore: people.restore }) : []));
    slots.audit.replaceChildren(...(admin ? auditList(app, data) : []));
    careLinks.update(data);
    away.update(data);
    slots.devices.replaceChildren(...deviceList(app, data, { busy, remove: removeDevice, approve: approveDevice }).filter(Boolean));
    slots.alertApps.replaceChildren(...householdAlertApps(app, data, { busy, remove: removeAlertApp }).filter(Boolean));
    invitation.update({ me: data.me, people: data.people });
    settings.update({ me: data.me, household: data.household, reminders: data.reminders });
    sections.show(data);
    if (focusKey && document.activeElement === document.body) refocus(outlet, focusKey);
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
    document.getElementById('remove-alert-app-dialog')?.close();
    document.getElementById('unlink-caregiver-dialog')?.close();
    document.getElementById('person-dialog')?.close();
    document.getElementById('archive-person-dialog')?.close();
  };
}

/** The button that had the keyboard is gone (what it removed is gone): its list's heading, not the top of the page. */
function refocus(outlet, focusKey) {
  const again = outlet.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
  if (again) {
    focusInPlace(again);
    return;
  }
  const heading = REFOCUS_HEADINGS.find(([ending]) => focusKey.endsWith(ending))?.[1] ?? 'household-devices-heading';
  document.getElementById(heading)?.focus();
}

/** Whether a live change is one the page shows; who is who, and the code on screen, are checked again first. */
function householdChanged(app, invitation, change) {
  if (!WATCHED.has(change.entity)) return false;
  if (change.entity === 'person' || change.entity === 'careLink') app.me.forget();
  if (change.entity === 'device' || change.entity === 'pairingCode') invitation.check();
  return true;
}

/**
 * Reads who is using this browser, the household, its people, devices,
 * alert apps and reminder settings (and for an admin the archived people
 * and the latest changes) into `remembered.data`, then `shown()`; only the
 * newest answer counts, and none once the page is `left()`.
 */
function createHouseholdLoader(app, remembered, { left, shown, failed }) {
  const { t } = app;
  return createNewestLoader(app, {
    async read(signal) {
      const me = await app.me.load();
      return [me, ...await Promise.all([
        getJSON(paths.household(), { t, signal }),
        getJSON(paths.people(), { t, signal }),
        getJSON(paths.devices(), { t, signal }),
        getJSON(paths.reminders(), { t, signal }),
        getJSON(paths.alertApps(), { t, signal }),
        adminOnly(me, () => getJSON(paths.people({ archived: true }), { t, signal })),
        adminOnly(me, () => getJSON(paths.householdAudit({ limit: AUDIT_LIMIT }), { t, signal })),
        adminOnly(me, () => getJSON(paths.emergencyContacts(), { t, signal })),
        adminOnly(me, () => getJSON(paths.awayDelays(), { t, signal })),
        // What the hub says of its channels (the month's texts, the modem), for the admin.
        adminOnly(me, () => getJSON(paths.health(), { t, signal })),
      ]).then(async (answers) => [...answers, await adminOnly(me, () => awayOfEach(answers[1], { t, signal }))])];
    },
    shown([me, household, people, devices, reminders, alertApps, archived, audit, contacts, delays, health, away]) {
      if (left()) return;
      remembered.data = {
        me,
        household,
        people: Array.isArray(people) ? people : [],
        devices: Array.isArray(devices) ? devices : [],
        alertApps: Array.isArray(alertApps) ? alertApps : [],
        reminders,
        links: careLinksOf(people),
        archived: Array.isArray(archived) ? archived : [],
        audit: Array.isArray(audit) ? audit : null,
        contacts: Array.isArray(contacts) ? contacts : null,
        delays,
        health,
        away: away ?? {},
      };
      app.clearProblem();
      shown();
    },
    failed,
  });
}

/** Each caregiver's and admin's GET /people/{id}/away, by id (one not read is left out). */
async function awayOfEach(people, { t, signal }) {
  const keepers = (Array.isArray(people) ? people : []).filter((person) => person.role === 'caregiver' || person.role === 'admin');
  const answers = await Promise.all(keepers.map((person) =>
    getJSON(paths.personAway(person.id), { t, signal }).catch((problem) => {
      if (problem?.name === 'AbortError') throw problem;
      return null;
    })));
  return Object.fromEntries(keepers.map((person, index) => [person.id, answers[index]]).filter(([, answer]) => answer));
}

/**
 * What only an admin reads: null for anyone else, and null (said as "could
 * not be read" where it shows) when the hub does not give it, so the rest
 * of the page still shows.
 */
async function adminOnly(me, read) {
  if (!canManageHousehold(me)) return null;
  try {
    return await read();
  } catch (problem) {
    if (problem?.name === 'AbortError') throw problem;
    return null;
  }
}

/**
 * "Remove" on a device: asked in a dialog first, then removed, said aloud,
 * taken off the list at once and the page read again. Nothing more once
 * the page is `left()`.
 */
/** "Approve": from its next request the device acts as its person. */
async function approveInHousehold(app, device, key, { busy, announce, remembered, left, reloadSoon }) {
  const { t } = app;
  if (busy.has(key)) return;
  await busy.run(key, async () => {
    await sendJSON('POST', paths.deviceApproval(device.id), undefined, { t });
    if (left()) return;
    announce(t('household.devices.approved', { name: device.name }));
    const { data } = remembered;
    if (data) remembered.data = { ...data, devices: data.devices.map((d) => (d.id === device.id ? { ...d, awaitingApproval: false } : d)) };
    reloadSoon();
  });
}

async function removeFromHousehold(app, device, key, { outlet, busy, announce, remembered, left, reloadSoon }) {
  const { t } = app;
  if (busy.has(key) || document.getElementById('remove-device-dialog')) return;
  const confirmed = await confirmDeviceRemoval(app, device, {
    returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
      ?? document.getElementById('household-devices-heading'),
  });
  if (!confirmed || left()) return;
  await busy.run(key, async () => {
    await sendJSON('DELETE', paths.device(device.id), undefined, { t });
    announce(t('household.devices.removed', { name: device.name }));
    // This browser's own device: the hub now refuses it, and the app
    // says so on every page (the live stream closes as revoked).
    const { data } = remembered;
    if (!device.current && data) remembered.data = { ...data, devices: data.devices.filter((d) => d.id !== device.id) };
  });
  reloadSoon();
}
