// "Stop looking after" on the Household page asks first, naming both
// people, and says what it costs: the caregiver stops seeing the senior's
// medicines and getting her alerts at once, on every device and phone.
import { confirmDialog } from '../../dialog.js';

/** Resolves with true to unlink `caregiver` from `senior`, false when cancelled. */
export function confirmUnlinkCaregiver(app, { caregiver, senior }, { returnFocus }) {
  const { t } = app;
  const names = { caregiver: caregiver.name, senior: senior.name };
  return confirmDialog({
    name: 'unlink-caregiver',
    title: t('household.careLinks.confirm.title', names),
    lines: [{ id: 'unlink-caregiver-text', text: t('household.careLinks.confirm.text', names), warning: true }],
    confirm: t('household.careLinks.confirm.unlink'),
    cancel: t('household.careLinks.confirm.cancel'),
    returnFocus,
  });
}
