// Phones' sign-ins for the ntfy app as a list: the name, whose it is (on
// the Household page, where an admin sees everyone's), the user name, when
// it was made and last seen, and "Remove" where this person may. Alerts on
// this phone lists the person's own with it, the Household page everyone's
// it may see; removing asks first (remove-alert-app-dialog.js) and goes the
// same way on both.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { dateTime, timeAgo } from '../../care/format.js';
import { canRemoveAlertApp } from '../../household/alert-apps.js';
import { confirmAlertAppRemoval } from './remove-alert-app-dialog.js';

/** The focus key of a sign-in's Remove button, so a redraw puts the keyboard back on it. */
export function removeKey(entry) {
  return `${entry.id}:remove-alert-app`;
}

/**
 * The list (`listId` on the <ul>) of `entries` (from alertAppEntries), or
 * `emptyText` when there are none. `busy` says which removal runs,
 * `remove(entry, key)` asks and removes; `showOwner` names whose each is.
 */
export function alertAppList(app, entries, { listId, emptyText, me, timeZone, showOwner, busy, remove }) {
  if (entries.length === 0) return h('p', { id: `${listId}-empty`, class: 'empty' }, emptyText);
  return h('ul', { id: listId, class: 'device-list alert-app-list' }, entries.map((entry) =>
    alertAppItem(app, entry, { me, timeZone, showOwner, busy, remove })));
}

function alertAppItem(app, entry, { me, timeZone, showOwner, busy, remove }) {
  const { t, language } = app;
  const nameId = `alert-app-${entry.id}-name`;
  const seen = timeAgo(entry.lastSeenAt, { language, timeZone });
  const key = removeKey(entry);
  return h('li', { class: 'device-item alert-app-item', 'data-alert-app-id': entry.id, 'data-mine': String(entry.isMine) },
    h('article', { 'aria-labelledby': nameId },
      h('h3', { id: nameId }, entry.name),
      showOwner
        ? h('p', { class: 'device-owner' }, entry.ownerName
          ? t('household.devices.owner', { name: entry.ownerName })
          : t('household.devices.ownerUnknown'))
        : null,
      h('p', { class: 'alert-app-username' }, t('alertApps.username'), ' ', h('code', {}, entry.username)),
      h('p', { class: 'alert-app-created' }, t('alertApps.madeOn', { date: dateTime(entry.createdAt, { language, timeZone }) })),
      h('p', { class: 'device-seen alert-app-seen' }, seen ? t('alertApps.lastSeen', { when: seen }) : t('alertApps.neverSeen')),
      canRemoveAlertApp(me, entry)
        ? h('div', { class: 'device-actions' },
          h('button', {
            type: 'button', class: 'secondary-button alert-app-remove', 'data-action': 'remove', 'data-focus-key': key,
            'aria-describedby': nameId, 'aria-haspopup': 'dialog', 'aria-disabled': busy.has(key) ? 'true' : null,
            onclick: () => remove(entry, key),
          }, t('alertApps.remove')))
        : null));
}

/**
 * "Remove" on a sign-in: asked in a dialog first, then revoked (the phone's
 * open streams end at once), said aloud and handed to `removed(entry)` to
 * take off the list. Nothing more once the page is `left()`; `returnFocus()`
 * is where the keyboard goes when the dialog closes.
 */
export async function removeAlertApp(app, entry, key, { busy, announce, returnFocus, left, removed }) {
  const { t } = app;
  if (busy.has(key) || document.getElementById('remove-alert-app-dialog')) return;
  const confirmed = await confirmAlertAppRemoval(app, entry, { returnFocus });
  if (!confirmed || left()) return;
  await busy.run(key, async () => {
    await sendJSON('DELETE', paths.alertApp(entry.id), undefined, { t });
    announce(t('alertApps.removed', { name: entry.name }));
    removed(entry);
  });
}
