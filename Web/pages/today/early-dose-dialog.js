// "Taken" more than an hour before a dose's time asks once whether it was
// really taken now: a tap on the evening's dose in the morning would else
// be recorded, and the evening's reminder never come. "Not yet" has the
// keyboard first, so a stray Enter records nothing. What counts as early is
// care/early-dose.js's one rule; every "Taken" of a planned dose asks here.
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';
import { isTakenEarly } from '../../care/early-dose.js';
import { hubNow } from '../../hub-clock.js';

/**
 * Whether to record a planned dose as taken now: true at once when it is
 * not early, else the question's answer (false for "Not yet" or Escape, and
 * then nothing is recorded). `dueAt` is its planned instant, `time` its
 * planned time of day ("20:00"), `medication` its name.
 */
export function confirmTakenNow(app, { dueAt, time, medication, returnFocus }, now = hubNow()) {
  if (!isTakenEarly(dueAt, now)) return Promise.resolve(true);
  return confirmEarlyDose(app, { medication, time, returnFocus });
}

/**
 * Resolves with true to record the doses as taken now, false when not.
 * `medication` names the dose (or "Take all"'s count), `time` its planned time.
 */
export function confirmEarlyDose(app, { medication, time, returnFocus }) {
  const { t } = app;
  return showDialog({
    id: 'early-dose-dialog',
    className: 'early-dose-dialog',
    labelledBy: 'early-dose-title',
    describedBy: 'early-dose-text',
    returnFocus,
    build: (close) => [
      h('h2', { id: 'early-dose-title' }, t('today.early.title', { medication })),
      h('p', { id: 'early-dose-text' }, t('today.early.text', { time })),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', id: 'early-dose-confirm', class: 'primary-button', onclick: () => close(true) },
          t('today.early.confirm')),
        h('button', { type: 'button', id: 'early-dose-cancel', class: 'secondary-button', autofocus: true, onclick: () => close(false) },
          t('today.early.cancel'))),
    ],
  }).then((answer) => answer === true);
}
