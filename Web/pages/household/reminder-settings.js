// How persistent dose reminders are (Household page): how long after a
// dose's time it counts as missed, and how often it is asked again
// (PUT /household/reminders). A form for admins, the values for everyone
// else. Its own file beside household-details.js; household-settings.js
// says when to draw it.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { GRACE_MINUTES, REPEAT_MINUTES, remindersRequest } from '../../household/model.js';
import { drawSettings, field, saveButton, saveSettingsForm } from '../settings-fields.js';

const REMINDER_FIELDS = { graceMinutes: 'reminder-grace', repeatMinutes: 'reminder-repeat' };

/** `settings` is { app, state, current, announce, onSaved, remindersElement } (see household-settings.js). */
export function drawReminders(settings) {
  const { t } = settings.app;
  const reminders = settings.current.reminders ?? {};
  drawSettings(settings, settings.remindersElement, {
    intro: () => h('p', {}, t('household.reminders.intro')),
    rows: () => [
      [t('household.reminders.grace'), String(reminders.graceMinutes ?? ''), 'reminder-grace-value'],
      [t('household.reminders.repeat'), String(reminders.repeatMinutes ?? ''), 'reminder-repeat-value'],
    ],
    form: () => reminderForm(settings, reminders),
  });
}

function reminderForm(settings, reminders) {
  const { t } = settings.app;
  const form = settings.state.reminders;
  form.typed ??= { graceMinutes: String(reminders.graceMinutes ?? ''), repeatMinutes: String(reminders.repeatMinutes ?? '') };
  return (
    h('form', { id: 'reminders-form', class: 'settings-form', novalidate: true, onsubmit: (event) => saveReminders(settings, event) },
      h('p', {}, t('household.reminders.intro')),
      field({
        form, id: REMINDER_FIELDS.graceMinutes, name: 'graceMinutes', label: t('household.reminders.grace'),
        hint: t('household.reminders.graceHint', GRACE_MINUTES), value: form.typed.graceMinutes,
        inputmode: 'numeric', class: 'short-input', maxlength: '4',
        onInput: (value) => { form.typed.graceMinutes = value; },
      }),
      field({
        form, id: REMINDER_FIELDS.repeatMinutes, name: 'repeatMinutes', label: t('household.reminders.repeat'),
        hint: t('household.reminders.repeatHint', REPEAT_MINUTES), value: form.typed.repeatMinutes,
        inputmode: 'numeric', class: 'short-input', maxlength: '4',
        onInput: (value) => { form.typed.repeatMinutes = value; },
      }),
      saveButton(t, form, 'save-reminders', t('household.reminders.save'))));
}

/** "Save": the minutes checked here first, then kept by the hub. */
function saveReminders(settings, event) {
  const { t } = settings.app;
  event.preventDefault();
  return saveSettingsForm(settings, settings.state.reminders, {
    fieldIds: REMINDER_FIELDS, draw: () => drawReminders(settings), keep: 'reminders',
    check: (form) => inWords(t, remindersRequest(form.typed)),
    send: (body) => sendJSON('PUT', paths.reminders(), body, { t }),
    savedText: () => t('household.reminders.saved'),
  });
}

/** What is wrong with the minutes typed, said with the bounds they must keep to. */
function inWords(t, request) {
  if (!request.errors) return request;
  return { errors: Object.fromEntries(Object.keys(request.errors).map((name) => [name, t(`household.reminders.errors.${name}`, name === 'graceMinutes' ? GRACE_MINUTES : REPEAT_MINUTES)])) };
}
