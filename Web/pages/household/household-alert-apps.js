// The Household page's list of phones' sign-ins for alerts through the ntfy
// app, beside the devices: an admin sees everyone's (whose, user name, last
// seen) and removes any; anyone else sees and removes their own, as with
// devices. Each phone is set up on Alerts on this phone, linked from here.
// household.js loads the list and follows the live stream.
import { h } from '../../dom.js';
import { alertAppEntries } from '../../household/alert-apps.js';
import { pageHref } from '../../router.js';
import { alertAppList, removeAlertApp } from '../alerts/alert-app-list.js';

/** What goes in the section: what it is, the link to set a phone up, the list, and whose it shows. */
export function householdAlertApps(app, data, { busy, remove }) {
  const { t, language } = app;
  const me = data.me;
  const entries = alertAppEntries(data.alertApps, data.people, { meId: me?.personId, language });
  return [
    h('p', {}, t('household.alertApps.intro')),
    h('p', {}, h('a', { href: pageHref('phone-alerts'), id: 'household-phone-alerts-link' }, t('pages.phone-alerts'))),
    alertAppList(app, entries, {
      listId: 'alert-app-list', emptyText: t('household.alertApps.none'), me,
      timeZone: data.household?.timeZone ?? me?.timeZone ?? null, showOwner: true, busy, remove,
    }),
    me?.role === 'admin' ? null : h('p', { class: 'hint' }, t('household.alertApps.onlyYours')),
  ];
}

/**
 * "Remove" on a sign-in (asked first): taken off the list at once and the
 * page read again. Nothing more once the page is `left()`.
 */
export function removeHouseholdAlertApp(app, entry, key, { outlet, busy, announce, remembered, left, reloadSoon }) {
  return removeAlertApp(app, entry, key, {
    busy, announce, left,
    returnFocus: () => outlet.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
      ?? document.getElementById('household-alert-apps-heading'),
    removed: () => {
      const { data } = remembered;
      if (data) remembered.data = { ...data, alertApps: data.alertApps.filter((listed) => listed.id !== entry.id) };
    },
  }).then(reloadSoon);
}
