// "Stop looking after" on the Household page asks first, naming both
// people, and says what it costs: the caregiver stops seeing the senior's
// medicines and getting her alerts at once, on every device and phone.
// "Cancel" has the keyboard first, so a stray Enter unlinks no one
// (as remove-device-dialog.js).
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';

/** Resolves with true to unlink `caregiver` from `senior`, false when cancelled. */
export function confirmUnlinkCaregiver(app, { caregiver, senior }, { returnFocus }) {
  const { t } = app;
  const names = { caregiver: caregiver.name, senior: senior.name };
  return showDialog({
    id: 'unlink-caregiver-dialog',
    className: 'remove-device-dialog',
    labelledBy: 'unlink-caregiver-title',
    describedBy: 'unlink-caregiver-text',
    returnFocus,
    build: (close) => [
      h('h2', { id: 'unlink-caregiver-title' }, t('household.careLinks.confirm.title', names)),
      h('p', { id: 'unlink-caregiver-text', class: 'dialog-warning' }, t('household.careLinks.confirm.text', names)),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', id: 'unlink-caregiver-confirm', class: 'primary-button danger-button', onclick: () => close(true) },
          t('household.careLinks.confirm.unlink')),
        h('button', { type: 'button', id: 'unlink-caregiver-cancel', class: 'secondary-button', autofocus: true, onclick: () => close(false) },
          t('household.careLinks.confirm.cancel'))),
    ],
  }).then((answer) => answer === true);
}
