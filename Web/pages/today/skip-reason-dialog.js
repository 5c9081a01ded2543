// "Skip" on Today asks why before anything is recorded: a few large
// ready-made reasons (one tap records the skip with it), "Other…" with a
// line to type, "Skip without a reason", and "Cancel" (or Escape), which
// records nothing. The reason is kept with the dose for the caregivers and
// the history; giving one is never required.
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';
import { REASON_MAX_LENGTH, SKIP_REASON_IDS, chosenReason, skipReasonLabel } from '../../care/skip-reasons.js';

/**
 * Resolves with { reason } (null for "without a reason") or null when
 * cancelled. `medication` names the dose in the question; `returnFocus()`
 * gives the element to put the keyboard back on (the Skip button as it is
 * on the page by then).
 */
export function askSkipReason(app, { medication, returnFocus }) {
  const { t, language } = app;
  return showDialog({
    id: 'skip-dialog',
    className: 'skip-dialog',
    labelledBy: 'skip-dialog-title',
    describedBy: 'skip-dialog-hint',
    returnFocus,
    build(close) {
      const error = h('p', { id: 'skip-other-error', class: 'field-error', hidden: true });
      const input = h('input', {
        type: 'text', id: 'skip-other-text', name: 'reason', maxlength: String(REASON_MAX_LENGTH), autocomplete: 'off',
        'aria-describedby': 'skip-other-hint',
        oninput: () => showError(null),
        // Enter sends what was typed, as in any one-line form.
        onkeydown: (event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            sendTyped();
          }
        },
      });
      const other = h('div', { id: 'skip-other', class: 'field skip-other', hidden: true },
        h('label', { for: 'skip-other-text' }, t('today.skipDialog.otherLabel')),
        h('p', { id: 'skip-other-hint', class: 'hint' }, t('today.skipDialog.otherHint')),
        error,
        input,
        h('button', { type: 'button', id: 'skip-with-reason', class: 'primary-button', onclick: sendTyped }, t('today.skipDialog.skipWithReason')));
      const otherButton = h('button', {
        type: 'button', id: 'skip-reason-other', class: 'secondary-button reason-choice', 'data-reason': 'other',
        'aria-expanded': 'false', 'aria-controls': 'skip-other', onclick: toggleOther,
      }, t('today.skipDialog.other'));

      function toggleOther() {
        const opening = other.hidden;
        other.hidden = !opening;
        otherButton.setAttribute('aria-expanded', String(opening));
        if (opening) input.focus();
      }

      function showError(key) {
        error.hidden = key === null;
        error.textContent = key === null ? '' : t(key);
        if (key === null) {
          input.removeAttribute('aria-invalid');
          input.setAttribute('aria-describedby', 'skip-other-hint');
        } else {
          input.setAttribute('aria-invalid', 'true');
          input.setAttribute('aria-describedby', 'skip-other-hint skip-other-error');
          input.focus();
        }
      }

      function sendTyped() {
        const choice = chosenReason(language, { typed: input.value });
        if (choice.error) showError('today.skipDialog.tooLong');
        else if (choice.reason === null) showError('today.skipDialog.otherEmpty');
        else close({ reason: choice.reason });
      }

      return [
        h('h2', { id: 'skip-dialog-title' }, t('today.skipDialog.title', { medication })),
        h('p', { id: 'skip-dialog-hint' }, t('today.skipDialog.hint')),
        h('fieldset', { class: 'reason-choices' },
          h('legend', {}, t('today.skipDialog.why')),
          SKIP_REASON_IDS.map((id, index) => h('button', {
            type: 'button', class: 'secondary-button reason-choice', 'data-reason': id, autofocus: index === 0,
            onclick: () => close({ reason: chosenReason(language, { id }).reason }),
          }, skipReasonLabel(language, id))),
          otherButton),
        other,
        h('div', { class: 'dialog-actions' },
          h('button', { type: 'button', id: 'skip-without-reason', class: 'secondary-button', onclick: () => close({ reason: null }) },
            t('today.skipDialog.withoutReason')),
          h('button', { type: 'button', id: 'skip-cancel', class: 'secondary-button', onclick: () => close(null) },
            t('today.skipDialog.cancel'))),
      ];
    },
  });
}
