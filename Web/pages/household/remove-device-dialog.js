// "Remove" on the Household page asks first, naming the device, and says
// plainly when it is the very device in use: removing it locks this browser
// out until it is paired again. "Cancel" has the keyboard first, so a
// stray Enter removes nothing.
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';

/** Resolves with true to remove, false when cancelled. */
export function confirmDeviceRemoval(app, device, { returnFocus }) {
  const { t } = app;
  return showDialog({
    id: 'remove-device-dialog',
    className: 'remove-device-dialog',
    labelledBy: 'remove-device-title',
    describedBy: device.current ? 'remove-device-text remove-device-current' : 'remove-device-text',
    returnFocus,
    build: (close) => [
      h('h2', { id: 'remove-device-title' }, t('household.devices.confirm.title', { name: device.name })),
      h('p', { id: 'remove-device-text' }, t('household.devices.confirm.text', { name: device.name })),
      device.current
        ? h('p', { id: 'remove-device-current', class: 'dialog-warning' }, h('strong', {}, t('household.devices.confirm.current')))
        : null,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', id: 'remove-device-confirm', class: 'primary-button danger-button', onclick: () => close(true) },
          device.current ? t('household.devices.confirm.removeThis') : t('household.devices.confirm.remove')),
        h('button', { type: 'button', id: 'remove-device-cancel', class: 'secondary-button', autofocus: true, onclick: () => close(false) },
          t('household.devices.confirm.cancel'))),
    ],
  }).then((answer) => answer === true);
}
