// "Archive" on the Household page asks first, naming the person, and says
// what it costs: their devices and phone alerts stop working at once (the
// hub revokes them), while what they did stays in the history and they
// can be restored. "Cancel" has the keyboard first, so a stray Enter
// archives no one (as remove-device-dialog.js).
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';

/** Resolves with true to archive `person`, false when cancelled. */
export function confirmArchivePerson(app, person, { returnFocus }) {
  const { t } = app;
  const names = { name: person.name };
  return showDialog({
    id: 'archive-person-dialog',
    className: 'remove-device-dialog',
    labelledBy: 'archive-person-title',
    describedBy: 'archive-person-text archive-person-restore',
    returnFocus,
    build: (close) => [
      h('h2', { id: 'archive-person-title' }, t('household.archive.title', names)),
      h('p', { id: 'archive-person-text', class: 'dialog-warning' }, t('household.archive.text', names)),
      h('p', { id: 'archive-person-restore' }, t('household.archive.restoreNote', names)),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', id: 'archive-confirm', class: 'primary-button danger-button', onclick: () => close(true) },
          t('household.archive.confirm')),
        h('button', { type: 'button', id: 'archive-cancel', class: 'secondary-button', autofocus: true, onclick: () => close(false) },
          t('household.archive.cancel'))),
    ],
  }).then((answer) => answer === true);
}
