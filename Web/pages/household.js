// Household: the people and who looks after whom, the paired devices with
// "Remove", adding a device with a pairing code shown on this screen
// (household-invitation.js), the reminder settings and the household's name
// and time zone (household-settings.js). What a person may not do is not
// offered (household/model.js mirrors the hub's rules), but the hub decides:
// when it refuses, its sentence is shown. Follows the live stream: people,
// care links, devices and the household's settings changed anywhere show
// here without a reload.
import { getJSON, sendJSON } from '../api.js';
import { h, pageHeading } from '../dom.js';
import { dateTime, timeAgo } from '../care/format.js';
import { joinList } from '../care/words.js';
import { canRemoveDevice, householdDevices, householdPeople, careLinksOf } from '../household/model.js';
import { createInvitationSection } from './household-invitation.js';
import { createHouseholdSettings } from './household-settings.js';
import { confirmDeviceRemoval } from './remove-device-dialog.js';
import { createAnnouncer, createBusyKeys, reloadOnLiveChanges } from './page-tools.js';

// "Last used 5 minutes ago" must not go stale while the page stays open.
const CLOCK_EVERY_MS = 60 * 1000;
const WATCHED = new Set(['person', 'careLink', 'device', 'household', 'pairingCode']);

export function createHouseholdPage(app) {
  // Kept across renders (a language switch), so nothing blanks or is lost.
  let data = null;
  const invitationState = {};
  const settingsState = {};

  return function renderHousehold(outlet) {
    const { t, live } = app;
    const busy = createBusyKeys(app, { redraw: () => show() });
    let left = false;
    let request = null;
    const { element: announcer, announce } = createAnnouncer('household-announcer');
    const nameLine = h('p', { id: 'household-page-name', class: 'household-page-name' });
    const peopleSlot = h('div', { class: 'household-people-slot' }, h('p', { class: 'loading' }, t('household.loading')));
    const devicesSlot = h('div', { class: 'household-devices-slot' });
    const invitation = createInvitationSection(app, invitationState, { announce, onPaired: () => reloads.soon() });
    const settings = createHouseholdSettings(app, settingsState, { announce, onSaved: applySaved });

    outlet.append(
      pageHeading(t('pages.household')), nameLine, announcer,
      section('household-people', t('household.people.heading'), peopleSlot),
      section('household-devices', t('household.devices.heading'), devicesSlot),
      section('household-add-device', t('household.invite.heading'), invitation.element),
      section('household-reminders', t('household.reminders.heading'), settings.remindersElement),
      section('household-details', t('household.details.heading'), settings.detailsElement),
    );

    function section(id, heading, ...content) {
      return h('section', { id, class: 'household-section', 'aria-labelledby': `${id}-heading` },
        h('h2', { id: `${id}-heading`, tabindex: '-1' }, heading), ...content);
    }

    // --- Loading ---

    async function load() {
      request?.abort();
      const thisRequest = new AbortController();
      request = thisRequest;
      const signal = thisRequest.signal;
      try {
        const me = await app.me.load();
        const [household, people, devices, reminders] = await Promise.all([
          getJSON('/household', { t, signal }),
          getJSON('/people', { t, signal }),
          getJSON('/devices', { t, signal }),
          getJSON('/household/reminders', { t, signal }),
        ]);
        if (request !== thisRequest || left) return;
        data = {
          me,
          household,
          people: Array.isArray(people) ? people : [],
          devices: Array.isArray(devices) ? devices : [],
          reminders,
          links: careLinksOf(people),
        };
        app.clearProblem();
        show();
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        if (data === null) peopleSlot.replaceChildren();
        app.reportProblem(problem);
      }
    }


    /** A settings form saved: show what the hub answered at once. */
    function applySaved(changes) {
      if (!data) return;
      data = { ...data, ...changes };
      show();
    }

    // --- Drawing ---

    // Redrawn only when something shown changed (see Today): a screen
    // reader's place and a half-typed form are not lost to a reload that
    // brought nothing new.
    let shownSignature = null;
    function show() {
      if (left || !data) return;
      const signature = JSON.stringify([app.language, data, busy.keys(), Math.floor(Date.now() / CLOCK_EVERY_MS)]);
      if (signature === shownSignature) return;
      shownSignature = signature;
      nameLine.textContent = data.household?.name ?? '';
      const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
      peopleSlot.replaceChildren(...peopleList().filter(Boolean));
      devicesSlot.replaceChildren(...deviceList().filter(Boolean));
      invitation.update({ me: data.me, people: data.people });
      settings.update({ me: data.me, household: data.household, reminders: data.reminders });
      if (focusKey && document.activeElement === document.body) {
        // The button is gone (its device was removed): the list's heading, not the top of the page.
        (outlet.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)
          ?? document.getElementById('household-devices-heading'))?.focus();
      }
    }

    function roleName(role) {
      return ['senior', 'caregiver', 'admin'].includes(role) ? t(`household.roles.${role}`) : String(role ?? '');
    }

    function peopleList() {
      const { language } = app;
      const people = householdPeople(data.people, data.links, { meId: data.me?.personId, language });
      if (people.length === 0) return [h('p', { class: 'empty' }, t('household.people.none'))];
      return [
        h('ul', { id: 'people-list', class: 'people-list' }, people.map((person) => {
          const nameId = `person-${person.id}-name`;
          return h('li', { class: 'person-item', 'data-person-id': person.id, 'data-role': person.role, 'data-me': String(person.isMe) },
            h('article', { 'aria-labelledby': nameId },
              h('h3', { id: nameId }, person.isMe ? t('household.people.nameYou', { name: person.name }) : person.name),
              h('p', { class: 'person-role' }, roleName(person.role)),
              person.looksAfter.length > 0
                ? h('p', { class: 'person-link' }, t('household.people.looksAfter', { names: joinList(language, person.looksAfter) }))
                : null,
              person.lookedAfterBy.length > 0
                ? h('p', { class: 'person-link' }, t('household.people.lookedAfterBy', { names: joinList(language, person.lookedAfterBy) }))
                : null));
        })),
        h('p', { class: 'hint' }, t('household.people.linksHint')),
      ];
    }

    function deviceList() {
      const { language } = app;
      const me = data.me;
      const timeZone = data.household?.timeZone ?? me?.timeZone ?? null;
      const devices = householdDevices(data.devices, data.people, { meId: me?.personId, language });
      const note = me?.role === 'admin' ? null : h('p', { class: 'hint' }, t('household.devices.onlyYours'));
      if (devices.length === 0) return [h('p', { class: 'empty' }, t('household.devices.none')), note];
      return [
        h('ul', { id: 'device-list', class: 'device-list' }, devices.map((device) => {
          const nameId = `device-${device.id}-name`;
          const seen = timeAgo(device.lastSeenAt, { language, timeZone });
          return h('li', { class: 'device-item', 'data-device-id': device.id, 'data-current': String(device.current === true) },
            h('article', { 'aria-labelledby': nameId },
              h('h3', { id: nameId }, device.name),
              device.current ? h('p', { class: 'device-current' }, h('strong', {}, t('household.devices.thisDevice'))) : null,
              h('p', { class: 'device-owner' }, device.ownerName
                ? t('household.devices.owner', { name: device.ownerName })
                : t('household.devices.ownerUnknown')),
              h('p', { class: 'device-seen' }, seen ? t('household.devices.lastSeen', { when: seen }) : t('household.devices.neverSeen')),
              h('p', { class: 'device-paired' }, t('household.devices.pairedOn', { date: dateTime(device.createdAt, { language, timeZone }) })),
              device.addedByName
                ? h('p', { class: 'device-added-by' }, t('household.devices.addedBy', { name: device.addedByName }))
                : null,
              canRemoveDevice(me, device) ? removeButton(device, nameId) : null));
        })),
        note,
      ];
    }

    function removeButton(device, nameId) {
      const key = `${device.id}:remove`;
      return h('div', { class: 'device-actions' },
        h('button', {
          type: 'button', class: 'secondary-button device-remove', 'data-action': 'remove', 'data-focus-key': key,
          'aria-describedby': nameId, 'aria-haspopup': 'dialog', 'aria-disabled': busy.has(key) ? 'true' : null,
          onclick: () => removeDevice(device, key),
        }, t('household.devices.remove')));
    }

    // --- Removing a device ---

    async function removeDevice(device, key) {
      if (busy.has(key) || document.getElementById('remove-device-dialog')) return;
      const confirmed = await confirmDeviceRemoval(app, device, {
        returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
          ?? document.getElementById('household-devices-heading'),
      });
      if (!confirmed || left) return;
      await busy.run(key, async () => {
        await sendJSON('DELETE', `/devices/${encodeURIComponent(device.id)}`, undefined, { t });
        announce(t('household.devices.removed', { name: device.name }));
        // This browser's own device: the hub now refuses it, and the app
        // says so on every page (the live stream closes as revoked).
        if (!device.current && data) data = { ...data, devices: data.devices.filter((d) => d.id !== device.id) };
      });
      reloads.soon();
    }

    // --- Live ---

    const reloads = reloadOnLiveChanges(live, load, (change) => {
      if (!WATCHED.has(change.entity)) return false;
      if (change.entity === 'person' || change.entity === 'careLink') app.me.forget();
      if (change.entity === 'device' || change.entity === 'pairingCode') invitation.check();
      return true;
    });
    const clock = setInterval(show, CLOCK_EVERY_MS);

    if (data) show();
    load();

    return function leaveHousehold() {
      left = true;
      reloads.stop();
      clearInterval(clock);
      request?.abort();
      invitation.stop();
      document.getElementById('remove-device-dialog')?.close();
    };
  };
}
