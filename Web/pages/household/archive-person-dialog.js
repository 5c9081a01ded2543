// "Archive" on the Household page asks first, naming the person, and says
// what it costs: their devices and phone alerts stop working at once (the
// hub revokes them), while what they did stays in the history and they
// can be restored.
import { confirmDialog } from '../../dialog.js';

/** Resolves with true to archive `person`, false when cancelled. */
export function confirmArchivePerson(app, person, { returnFocus }) {
  const { t } = app;
  const names = { name: person.name };
  return confirmDialog({
    name: 'archive-person',
    buttons: 'archive',
    title: t('household.archive.title', names),
    lines: [
      { id: 'archive-person-text', text: t('household.archive.text', names), warning: true },
      { id: 'archive-person-restore', text: t('household.archive.restoreNote', names) },
    ],
    confirm: t('household.archive.confirm'),
    cancel: t('household.archive.cancel'),
    returnFocus,
  });
}
