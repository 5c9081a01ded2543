// The two lists of the Household page: its people (with who looks after
// whom, their phone number to call, what this person calls a senior they
// look after — "You call her: Mama" under her real name — and "Change…"
// and "Archive" where this person may) and its paired devices (with "Remove" where this person may).
// Kept apart from household.js, which loads, follows the live stream and
// removes a device, and household-people.js, which changes a person, so
// each file does one job.
import { h } from '../../dom.js';
import { dateTime, timeAgo } from '../../care/format.js';
import { joinList } from '../../care/words.js';
import { canApproveDevice, canRemoveDevice, householdDevices, householdPeople, roleName } from '../../household/model.js';
import { mayArrangeScreen, mayChangePerson, personPermissions, telHref } from '../../household/people.js';
import { pageHref } from '../../router.js';
import { aliasOf } from '../../care/me.js';

/**
 * The people, each with their role, whom they look after or are looked
 * after by, their phone number, and "Change…" and "Archive" where this
 * person may (`actions` from household-people.js; `busy` says which
 * archiving is under way).
 */
export function peopleList(app, data, { busy, actions }) {
  const { t, language } = app;
  const people = householdPeople(data.people, data.links, { meId: data.me?.personId, language });
  const listed = new Map((data.people ?? []).map((person) => [person.id, person]));
  if (people.length === 0) return [h('p', { class: 'empty' }, t('household.people.none'))];
  return [
    h('ul', { id: 'people-list', class: 'people-list' }, people.map((person) => {
      const nameId = `person-${person.id}-name`;
      return h('li', { class: 'person-item', 'data-person-id': person.id, 'data-role': person.role, 'data-me': String(person.isMe) },
        h('article', { 'aria-labelledby': nameId },
          h('h3', { id: nameId }, person.isMe ? t('household.people.nameYou', { name: person.name }) : person.name),
          h('p', { class: 'person-role' }, roleName(t, person.role) ?? ''),
          person.looksAfter.length > 0
            ? h('p', { class: 'person-link' }, t('household.people.looksAfter', { names: joinList(language, person.looksAfter) }))
            : null,
          person.lookedAfterBy.length > 0
            ? h('p', { class: 'person-link' }, t('household.people.lookedAfterBy', { names: joinList(language, person.lookedAfterBy) }))
            : null,
          aliasLine(t, listed.get(person.id)),
          phoneLine(t, listed.get(person.id)),
          personActions(t, data.me, listed.get(person.id), nameId, { busy, actions })));
    })),
    // "Below, under Who looks after whom" is only for whom that section is drawn.
    h('p', { class: 'hint' }, t(data.me?.role === 'admin' ? 'household.people.linksHint' : 'household.people.linksHintOthers')),
  ];
}

/** "You call her: Mama": this person's own name for her, which only they see; nothing when none. */
function aliasLine(t, person) {
  const alias = aliasOf(person);
  if (alias === null) return null;
  return h('p', { class: 'person-alias', id: `person-${person.id}-alias` }, t('household.people.alias', { alias }));
}

/** "Phone: +48 601 234 567" as a link that calls it; said plainly when none is saved. */
function phoneLine(t, person) {
  const phone = typeof person?.phone === 'string' ? person.phone.trim() : '';
  const href = telHref(phone);
  if (phone === '') return h('p', { class: 'person-phone' }, t('household.people.noPhone'));
  return h('p', { class: 'person-phone' }, `${t('household.people.phone')} `,
    href ? h('a', { href, class: 'person-phone-link', id: `person-${person.id}-phone` }, phone) : phone);
}

/**
 * "Change…" for themself, for an admin anyone, and for a senior this person
 * looks after (their own name for her, at least); "Archive" for an admin,
 * never on themself.
 */
function personActions(t, me, person, nameId, { busy, actions }) {
  if (!person) return null;
  const allowed = personPermissions(me, person);
  const changes = mayChangePerson(allowed);
  const arranges = mayArrangeScreen(me, person);
  if (!changes && !allowed.archive && !arranges) return null;
  const archiveKey = `${person.id}:archive`;
  const archiving = busy.has(archiveKey);
  return h('div', { class: 'device-actions person-actions' },
    changes
      ? h('button', {
        type: 'button', id: `person-${person.id}-change`, class: 'secondary-button person-change', 'data-action': 'change',
        'data-focus-key': `${person.id}:change`, 'aria-describedby': nameId, 'aria-haspopup': 'dialog',
        onclick: () => actions.change(person, `${person.id}:change`),
      }, t('household.people.change'))
      : null,
    allowed.archive
      ? h('button', {
        type: 'button', id: `person-${person.id}-archive`, class: 'secondary-button person-archive', 'data-action': 'archive',
        'data-focus-key': archiveKey, 'aria-describedby': nameId, 'aria-haspopup': 'dialog',
        'aria-disabled': archiving ? 'true' : null,
        onclick: () => actions.archive(person, archiveKey),
      }, archiving ? t('household.people.archiving') : t('household.people.archive'))
      : null,
    // Her tiles and text size, from afar (pages/panel/panel-editor.js).
    arranges
      ? h('a', { href: pageHref('arrange', person.id), id: `person-${person.id}-arrange`, class: 'button-link secondary person-arrange',
        'aria-describedby': nameId }, t('household.people.arrange'))
      : null);
}

/**
 * The paired devices: whose, when last used and paired, and "Remove"
 * where this person may (`busy` says which removal is under way,
 * `remove(device, key)` asks and removes).
 */
export function deviceList(app, data, { busy, remove, approve }) {
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
          device.awaitingApproval
            ? h('p', { class: 'device-awaiting' }, h('strong', {}, t('household.devices.awaitingApproval')))
            : null,
          canApproveDevice(me, device) ? approveButton(t, device, nameId, { busy, approve }) : null,
          canRemoveDevice(me, device) ? removeButton(t, device, nameId, { busy, remove }) : null));
    })),
    note,
  ];
}

/** "Approve": a device a senior's tablet paired, waiting for an admin. */
function approveButton(t, device, nameId, { busy, approve }) {
  const key = `${device.id}:approve`;
  return h('div', { class: 'device-actions' },
    h('button', {
      type: 'button', id: `device-${device.id}-approve`, class: 'primary-button device-approve', 'data-action': 'approve',
      'data-focus-key': key, 'aria-describedby': nameId, 'aria-disabled': busy.has(key) ? 'true' : null,
      onclick: () => approve(device, key),
    }, t('household.devices.approve')));
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
