// "Remove" on the Household page asks first, naming the device, and says
// plainly when it is the very device in use: removing it locks this browser
// out until it is paired again.
import { confirmDialog } from '../../dialog.js';

/** Resolves with true to remove, false when cancelled. */
export function confirmDeviceRemoval(app, device, { returnFocus }) {
  const { t } = app;
  return confirmDialog({
    name: 'remove-device',
    title: t('household.devices.confirm.title', { name: device.name }),
    lines: [
      { id: 'remove-device-text', text: t('household.devices.confirm.text', { name: device.name }) },
      device.current
        ? { id: 'remove-device-current', text: t('household.devices.confirm.current'), warning: true, strong: true }
        : null,
    ],
    confirm: device.current ? t('household.devices.confirm.removeThis') : t('household.devices.confirm.remove'),
    cancel: t('household.devices.confirm.cancel'),
    returnFocus,
  });
}
