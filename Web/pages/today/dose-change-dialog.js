// "Change" on a dose already answered: taken or skipped, the time it was
// taken, or "Not answered after all", which takes the answer back. The hub
// keeps who first recorded it and who changed it, and the stock follows.
// "Cancel" (or Escape) has the keyboard first and changes nothing. A missed
// dose, or an as-needed one, has no answer to take back (`canWithdraw`).
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';

/**
 * Resolves with { status: 'taken', time: 'HH:MM' }, { status: 'skipped' },
 * { withdraw: true }, or null when cancelled. `time` is the taken time shown
 * first (as recorded, or now).
 */
export function askDoseChange(app, { medication, status, time, returnFocus, canWithdraw = true }) {
  const { t } = app;
  return showDialog({
    id: 'dose-change-dialog',
    className: 'dose-change-dialog',
    labelledBy: 'dose-change-title',
    returnFocus,
    build(close) {
      const timeField = h('div', { class: 'field dose-change-time' },
        h('label', { for: 'dose-change-time' }, t('today.change.takenAt')),
        h('input', { type: 'time', id: 'dose-change-time', value: time, required: true }));
      const choice = (value) => h('label', { class: 'choice', for: `dose-change-${value}` },
        h('input', {
          type: 'radio', id: `dose-change-${value}`, name: 'dose-change-status', value, checked: status === value,
          onchange: () => { timeField.hidden = value !== 'taken'; },
        }),
        h('span', {}, t(`today.change.${value}`)));
      timeField.hidden = status !== 'taken';
      const save = (event) => {
        event.preventDefault();
        const chosen = document.querySelector('input[name="dose-change-status"]:checked')?.value ?? status;
        const at = document.getElementById('dose-change-time')?.value ?? '';
        if (chosen === 'taken' && !/^\d{2}:\d{2}$/.test(at)) {
          document.getElementById('dose-change-time')?.focus();
          return;
        }
        close(chosen === 'taken' ? { status: 'taken', time: at } : { status: 'skipped' });
      };
      return [
        h('h2', { id: 'dose-change-title' }, t('today.change.title', { medication })),
        h('form', { id: 'dose-change-form', onsubmit: save },
          h('fieldset', { class: 'choices' }, h('legend', {}, t('today.change.what')), choice('taken'), choice('skipped')),
          timeField,
          h('div', { class: 'dialog-actions' },
            h('button', { type: 'submit', id: 'dose-change-save', class: 'primary-button' }, t('today.change.save')),
            canWithdraw
              ? h('button', { type: 'button', id: 'dose-change-withdraw', class: 'secondary-button', onclick: () => close({ withdraw: true }) },
                t('today.change.withdraw'))
              : null,
            h('button', { type: 'button', id: 'dose-change-cancel', class: 'secondary-button', autofocus: true, onclick: () => close(null) },
              t('today.change.cancel')))),
      ];
    },
  });
}
