// "Remove" on a phone's sign-in for the ntfy app (Alerts on this phone, and
// the Household page's list) asks first, naming it, as removing a device
// does (remove-device-dialog.js): the phone stops getting alerts at once.
// "Cancel" has the keyboard first, so a stray Enter removes nothing.
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';

/** Resolves with true to remove, false when cancelled. */
export function confirmAlertAppRemoval(app, alertApp, { returnFocus }) {
  const { t } = app;
  return showDialog({
    id: 'remove-alert-app-dialog',
    className: 'remove-device-dialog',
    labelledBy: 'remove-alert-app-title',
    describedBy: 'remove-alert-app-text',
    returnFocus,
    build: (close) => [
      h('h2', { id: 'remove-alert-app-title' }, t('alertApps.confirm.title', { name: alertApp.name })),
      h('p', { id: 'remove-alert-app-text' }, t('alertApps.confirm.text', { name: alertApp.name })),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', id: 'remove-alert-app-confirm', class: 'primary-button danger-button', onclick: () => close(true) },
          t('alertApps.confirm.remove')),
        h('button', { type: 'button', id: 'remove-alert-app-cancel', class: 'secondary-button', autofocus: true, onclick: () => close(false) },
          t('alertApps.confirm.cancel'))),
    ],
  }).then((answer) => answer === true);
}
