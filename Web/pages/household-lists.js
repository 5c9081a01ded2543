// The two lists of the Household page: its people (with who looks after
// whom) and its paired devices (with "Remove" where this person may).
// Kept apart from household.js, which loads, follows the live stream and
// removes a device, so each file does one job.
import { h } from '../dom.js';
import { dateTime, timeAgo } from '../care/format.js';
import { joinList } from '../care/words.js';
import { canRemoveDevice, householdDevices, householdPeople } from '../household/model.js';

function roleName(t, role) {
  return ['senior', 'caregiver', 'admin'].includes(role) ? t(`household.roles.${role}`) : String(role ?? '');
}

/** The people, each with their role and whom they look after or are looked after by. */
export function peopleList(app, data) {
  const { t, language } = app;
  const people = householdPeople(data.people, data.links, { meId: data.me?.personId, language });
  if (people.length === 0) return [h('p', { class: 'empty' }, t('household.people.none'))];
  return [
    h('ul', { id: 'people-list', class: 'people-list' }, people.map((person) => {
      const nameId = `person-${person.id}-name`;
      return h('li', { class: 'person-item', 'data-person-id': person.id, 'data-role': person.role, 'data-me': String(person.isMe) },
        h('article', { 'aria-labelledby': nameId },
          h('h3', { id: nameId }, person.isMe ? t('household.people.nameYou', { name: person.name }) : person.name),
          h('p', { class: 'person-role' }, roleName(t, person.role)),
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

/**
 * The paired devices: whose, when last used and paired, and "Remove"
 * where this person may (`busy` says which removal is under way,
 * `remove(device, key)` asks and removes).
 */
export function deviceList(app, data, { busy, remove }) {
  const { t, language } = app;
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
          canRemoveDevice(me, device) ? removeButton(t, device, nameId, { busy, remove }) : null));
    })),
    note,
  ];
}

function removeButton(t, device, nameId, { busy, remove }) {
  const key = `${device.id}:remove`;
  return h('div', { class: 'device-actions' },
    h('button', {
      type: 'button', class: 'secondary-button device-remove', 'data-action': 'remove', 'data-focus-key': key,
      'aria-describedby': nameId, 'aria-haspopup': 'dialog', 'aria-disabled': busy.has(key) ? 'true' : null,
      onclick: () => remove(device, key),
    }, t('household.devices.remove')));
}
