// The household's settings on the Household page: how persistent dose
// reminders are (PUT /household/reminders) and the household's name and
// time zone (PATCH /household). Admins get forms; everyone else reads the
// values. A form keeps what is being typed when the values change
// elsewhere (the live stream), and takes the new values once it is saved
// or was not touched.
import { sendJSON } from '../api.js';
import { h, replaceKeepingFocus } from '../dom.js';
import {
  GRACE_MINUTES, HOUSEHOLD_NAME_MAX_LENGTH, REPEAT_MINUTES, canManageHousehold, householdPatch, remindersRequest, timeZoneGroups,
} from '../household/model.js';

/**
 * `state` outlives the page's renders. `onSaved(changes)` hands what the
 * hub answered ({ reminders } or { household }) back to the page.
 */
export function createHouseholdSettings(app, state, { announce, onSaved }) {
  const { t } = app;
  state.reminders ??= { typed: null, errors: {}, saving: false, saved: false };
  state.details ??= { typed: null, errors: {}, saving: false, saved: false };
  const remindersElement = h('div', { class: 'household-settings' });
  const detailsElement = h('div', { class: 'household-settings' });
  let current = null;

  // --- Shared pieces ---

  function field({ form, id, name, label, hint, value, onInput, ...attributes }) {
    const error = form.errors[name];
    return h('div', { class: 'field' },
      h('label', { for: id }, label),
      hint ? h('p', { id: `${id}-hint`, class: 'hint' }, hint) : null,
      error ? h('p', { id: `${id}-error`, class: 'field-error' }, error) : null,
      h('input', {
        type: 'text', id, name, value, autocomplete: 'off', 'aria-invalid': error ? 'true' : null,
        'aria-describedby': [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || null,
        oninput: (event) => {
          form.saved = false;
          onInput(event.target.value);
        },
        ...attributes,
      }));
  }

  function facts(rows) {
    return h('dl', { class: 'household-facts' }, rows.flatMap(([term, value, id]) => [h('dt', {}, term), h('dd', { id }, value)]));
  }

  function saveButton(form, id, label) {
    return h('div', { class: 'form-actions' },
      h('button', { type: 'submit', id, class: 'primary-button', 'aria-disabled': form.saving ? 'true' : null },
        form.saving ? t('household.saving') : label),
      // Seen here; screen readers are told by the page's announcer.
      h('p', { id: `${id}-status`, class: 'save-status' }, form.saved ? t('household.saved') : ''));
  }

  /** The hub's refusal: its per-field sentences beside the fields, anything else in the page's problem area. */
  function refused(form, problem, fieldIds, draw) {
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

  function focusFirstError(form, fieldIds) {
    const first = Object.keys(fieldIds).find((name) => form.errors[name]);
    if (first) document.getElementById(fieldIds[first])?.focus();
  }

  // --- Reminders ---

  const REMINDER_FIELDS = { graceMinutes: 'reminder-grace', repeatMinutes: 'reminder-repeat' };

  function drawReminders() {
    const reminders = current.reminders ?? {};
    if (!canManageHousehold(current.me)) {
      replaceKeepingFocus(remindersElement,
        h('p', {}, t('household.reminders.intro')),
        facts([
          [t('household.reminders.grace'), String(reminders.graceMinutes ?? ''), 'reminder-grace-value'],
          [t('household.reminders.repeat'), String(reminders.repeatMinutes ?? ''), 'reminder-repeat-value'],
        ]),
        h('p', { class: 'hint' }, t('household.onlyAdmin')));
      return;
    }
    const form = state.reminders;
    form.typed ??= { graceMinutes: String(reminders.graceMinutes ?? ''), repeatMinutes: String(reminders.repeatMinutes ?? '') };
    replaceKeepingFocus(remindersElement,
      h('form', { id: 'reminders-form', class: 'settings-form', novalidate: true, onsubmit: saveReminders },
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
        saveButton(form, 'save-reminders', t('household.reminders.save'))));
  }

  async function saveReminders(event) {
    event.preventDefault();
    const form = state.reminders;
    if (form.saving) return;
    const request = remindersRequest(form.typed);
    if (request.errors) {
      form.errors = Object.fromEntries(Object.keys(request.errors).map((name) => [name, t(`household.reminders.errors.${name}`, name === 'graceMinutes' ? GRACE_MINUTES : REPEAT_MINUTES)]));
      form.saved = false;
      drawReminders();
      focusFirstError(form, REMINDER_FIELDS);
      return;
    }
    form.saving = true;
    form.errors = {};
    drawReminders();
    try {
      const reminders = await sendJSON('PUT', '/household/reminders', request.body, { t });
      app.clearProblem();
      form.saving = false;
      form.saved = true;
      form.typed = null; // show what the hub keeps now
      current = { ...current, reminders };
      onSaved({ reminders });
      drawReminders();
      announce(t('household.reminders.saved'));
    } catch (problem) {
      refused(form, problem, REMINDER_FIELDS, drawReminders);
    }
  }

  // --- Name and time zone ---

  const DETAIL_FIELDS = { name: 'household-name-input', timeZone: 'household-time-zone' };

  function drawDetails() {
    const household = current.household ?? {};
    if (!canManageHousehold(current.me)) {
      replaceKeepingFocus(detailsElement,
        facts([
          [t('household.details.name'), household.name ?? '', 'household-name-value'],
          [t('household.details.timeZone'), household.timeZone ?? '', 'household-time-zone-value'],
        ]),
        h('p', { class: 'hint' }, t('household.onlyAdmin')));
      return;
    }
    const form = state.details;
    form.typed ??= { name: household.name ?? '', timeZone: household.timeZone ?? '' };
    const zoneError = form.errors.timeZone;
    replaceKeepingFocus(detailsElement,
      h('form', { id: 'household-form', class: 'settings-form', novalidate: true, onsubmit: saveDetails },
        field({
          form, id: DETAIL_FIELDS.name, name: 'name', label: t('household.details.name'), value: form.typed.name,
          maxlength: String(HOUSEHOLD_NAME_MAX_LENGTH), required: true, 'aria-required': 'true',
          onInput: (value) => { form.typed.name = value; },
        }),
        h('div', { class: 'field' },
          h('label', { for: DETAIL_FIELDS.timeZone }, t('household.details.timeZone')),
          h('p', { id: `${DETAIL_FIELDS.timeZone}-hint`, class: 'hint' }, t('household.details.timeZoneHint')),
          zoneError ? h('p', { id: `${DETAIL_FIELDS.timeZone}-error`, class: 'field-error' }, zoneError) : null,
          // Over 400 zones: a few letters narrow the list below.
          h('label', { for: `${DETAIL_FIELDS.timeZone}-search`, class: 'zone-search-label' }, t('household.details.timeZoneSearch')),
          h('input', {
            type: 'search', id: `${DETAIL_FIELDS.timeZone}-search`, class: 'zone-search', autocomplete: 'off',
            value: form.zoneQuery ?? '', 'aria-controls': DETAIL_FIELDS.timeZone,
            oninput: (event) => {
              form.zoneQuery = event.target.value;
              const select = document.getElementById(DETAIL_FIELDS.timeZone);
              select?.replaceChildren(...zoneOptions(form));
            },
          }),
          h('select', {
            id: DETAIL_FIELDS.timeZone, name: 'timeZone', 'aria-invalid': zoneError ? 'true' : null,
            'aria-describedby': [`${DETAIL_FIELDS.timeZone}-hint`, zoneError ? `${DETAIL_FIELDS.timeZone}-error` : null].filter(Boolean).join(' '),
            onchange: (event) => {
              form.typed.timeZone = event.target.value;
              form.saved = false;
            },
          }, zoneOptions(form))),
        saveButton(form, 'save-household', t('household.details.save'))));
  }

  /** The zones as groups: the household's and this device's first, then by region. */
  function zoneOptions(form) {
    return timeZoneGroups(form.typed.timeZone, { query: form.zoneQuery ?? '' }).map((group) => h('optgroup', {
      label: t(`household.details.zoneRegions.${group.region}`),
    }, group.zones.map((zone) => h('option', { value: zone.value, selected: zone.value === form.typed.timeZone }, zone.label))));
  }

  async function saveDetails(event) {
    event.preventDefault();
    const form = state.details;
    if (form.saving) return;
    const patch = householdPatch(current.household, form.typed);
    if (patch.errors) {
      form.errors = { name: t(`household.details.errors.${patch.errors.name}`) };
      form.saved = false;
      drawDetails();
      focusFirstError(form, DETAIL_FIELDS);
      return;
    }
    form.errors = {};
    if (patch.body === null) {
      form.saved = true; // nothing to change is not a mistake
      drawDetails();
      return;
    }
    form.saving = true;
    drawDetails();
    try {
      const household = await sendJSON('PATCH', '/household', patch.body, { t });
      app.clearProblem();
      form.saving = false;
      form.saved = true;
      form.typed = null;
      current = { ...current, household };
      onSaved({ household });
      drawDetails();
      announce(t('household.saved'));
    } catch (problem) {
      refused(form, problem, DETAIL_FIELDS, drawDetails);
    }
  }

  return {
    remindersElement,
    detailsElement,
    /** The household, its reminders and who is asking, whenever the page has them anew. */
    update(next) {
      const before = current;
      current = next;
      // Values changed elsewhere replace those in a form nobody has touched.
      const touched = (form, saved) => form.typed !== null && JSON.stringify(form.typed) !== JSON.stringify(saved);
      if (!before || JSON.stringify([before.reminders, before.me]) !== JSON.stringify([next.reminders, next.me])) {
        const saved = before?.reminders ?? {};
        if (!touched(state.reminders, { graceMinutes: String(saved.graceMinutes ?? ''), repeatMinutes: String(saved.repeatMinutes ?? '') })) {
          state.reminders.typed = null;
        }
        drawReminders();
      }
      if (!before || JSON.stringify([before.household, before.me]) !== JSON.stringify([next.household, next.me])) {
        const saved = before?.household ?? {};
        if (!touched(state.details, { name: saved.name ?? '', timeZone: saved.timeZone ?? '' })) state.details.typed = null;
        drawDetails();
      }
    },
  };
}
