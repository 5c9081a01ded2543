// What the Household page's two settings forms (reminders; name and time
// zone) are both built from: a text field with its hint and error, the
// values as read-only facts for those who may not change them, the save
// button, and what to do when the hub refuses. One copy, so both forms
// look and behave alike.
import { h, replaceKeepingFocus } from '../dom.js';
import { fieldAria, fieldBox } from '../fields.js';
import { canManageHousehold } from '../household/model.js';

/** A text field; typing in it means the form is no longer "Saved". */
export function field({ form, id, name, label, hint, value, onInput, ...attributes }) {
  const error = form.errors[name];
  return fieldBox({
    id, label, hint, error,
    control: h('input', {
      type: 'text', id, name, value, autocomplete: 'off', ...fieldAria(id, { hint, error }),
      oninput: (event) => {
        form.saved = false;
        onInput(event.target.value);
      },
      ...attributes,
    }),
  });
}

/**
 * One settings form into `element`, drawn again after any change: for an
 * admin, `form()`; for anyone else what the settings are for (`intro()`,
 * or null), their values as [term, value, id] rows (`rows()`) and that
 * only an admin changes them.
 */
export function drawSettings(settings, element, { intro, rows, form }) {
  const { t } = settings.app;
  if (canManageHousehold(settings.current.me)) {
    replaceKeepingFocus(element, form());
    return;
  }
  replaceKeepingFocus(element,
    intro(),
    h('dl', { class: 'household-facts' }, rows().flatMap(([term, value, id]) => [h('dt', {}, term), h('dd', { id }, value)])),
    h('p', { class: 'hint' }, t('household.onlyAdmin')));
}

export function saveButton(t, form, id, label) {
  return h('div', { class: 'form-actions' },
    h('button', { type: 'submit', id, class: 'primary-button', 'aria-disabled': form.saving ? 'true' : null },
      form.saving ? t('household.saving') : label),
    // Seen here; screen readers are told by the page's announcer.
    h('p', { id: `${id}-status`, class: 'save-status' }, form.saved ? t('household.saved') : ''));
}

/** The hub's refusal: its per-field sentences beside the fields, anything else in the page's problem area. */
export function refused(app, form, problem, fieldIds, draw) {
  form.saving = false;
  if (problem?.status === 422 && problem.errors) {
    form.errors = Object.fromEntries(Object.entries(problem.errors).filter(([name]) => fieldIds[name]));
    if (Object.keys(form.errors).length === 0) app.reportProblem(problem);
  } else {
    app.reportProblem(problem);
  }
  draw();
  focusFirstError(form, fieldIds);
}

export function focusFirstError(form, fieldIds) {
  const first = Object.keys(fieldIds).find((name) => form.errors[name]);
  if (first) document.getElementById(fieldIds[first])?.focus();
}

/**
 * Saves one of the forms: what is wrong is said beside its field before
 * anything is sent, nothing changed is not a mistake, the button says it
 * is saving, and once saved the form shows what the hub keeps, the page
 * hears it (`onSaved({ [keep]: answer })`) and screen readers are told
 * `savedText()`. `check(form)` gives { errors } (in words) or { body } (null
 * when nothing changed); `send(body)` asks the hub.
 */
export async function saveSettingsForm(settings, form, { fieldIds, draw, check, send, keep, savedText }) {
  const { app, announce, onSaved } = settings;
  if (form.saving) return;
  const { errors, body } = check(form);
  if (errors) {
    form.errors = errors;
    form.saved = false;
    draw();
    focusFirstError(form, fieldIds);
    return;
  }
  form.errors = {};
  if (body === null) {
    form.saved = true;
    draw();
    return;
  }
  form.saving = true;
  draw();
  try {
    const answer = await send(body);
    app.clearProblem();
    form.saving = false;
    form.saved = true;
    form.typed = null; // show what the hub keeps now
    settings.current = { ...settings.current, [keep]: answer };
    onSaved({ [keep]: answer });
    draw();
    announce(savedText());
  } catch (problem) {
    refused(app, form, problem, fieldIds, draw);
  }
}
