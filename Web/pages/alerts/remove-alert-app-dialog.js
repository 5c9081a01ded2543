// "Remove" on a phone's sign-in for the ntfy app (Alerts on this phone, and
// the Household page's list) asks first, naming it, as removing a device
// does (remove-device-dialog.js): the phone stops getting alerts at once.
import { confirmDialog } from '../../dialog.js';

/** Resolves with true to remove, false when cancelled. */
export function confirmAlertAppRemoval(app, alertApp, { returnFocus }) {
  const { t } = app;
  return confirmDialog({
    name: 'remove-alert-app',
    title: t('alertApps.confirm.title', { name: alertApp.name }),
    lines: [{ id: 'remove-alert-app-text', text: t('alertApps.confirm.text', { name: alertApp.name }) }],
    confirm: t('alertApps.confirm.remove'),
    cancel: t('alertApps.confirm.cancel'),
    returnFocus,
  });
}
