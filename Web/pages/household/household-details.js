// The household's name and time zone (Household page, PATCH /household):
// a form for admins, with a search that narrows the 400-odd zones; the
// values for everyone else. Its own file beside reminder-settings.js;
// household-settings.js says when to draw it.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { HOUSEHOLD_NAME_MAX_LENGTH, householdPatch, timeZoneGroups } from '../../household/model.js';
import { drawSettings, field, saveButton, saveSettingsForm } from '../settings-fields.js';

const DETAIL_FIELDS = { name: 'household-name-input', timeZone: 'household-time-zone' };

/** `settings` is { app, state, current, announce, onSaved, detailsElement } (see household-settings.js). */
export function drawDetails(settings) {
  const { t } = settings.app;
  const household = settings.current.household ?? {};
  drawSettings(settings, settings.detailsElement, {
    intro: () => null,
    rows: () => [
      [t('household.details.name'), household.name ?? '', 'household-name-value'],
      [t('household.details.timeZone'), household.timeZone ?? '', 'household-time-zone-value'],
    ],
    form: () => detailsForm(settings, household),
  });
}

function detailsForm(settings, household) {
  const { t } = settings.app;
  const form = settings.state.details;
  form.typed ??= { name: household.name ?? '', timeZone: household.timeZone ?? '' };
  return (
    h('form', { id: 'household-form', class: 'settings-form', novalidate: true, onsubmit: (event) => saveDetails(settings, event) },
      field({
        form, id: DETAIL_FIELDS.name, name: 'name', label: t('household.details.name'), value: form.typed.name,
        maxlength: String(HOUSEHOLD_NAME_MAX_LENGTH), required: true, 'aria-required': 'true',
        onInput: (value) => { form.typed.name = value; },
      }),
      timeZoneField(t, form),
      saveButton(t, form, 'save-household', t('household.details.save'))));
}

function timeZoneField(t, form) {
  const zoneError = form.errors.timeZone;
  const hint = t('household.details.timeZoneHint');
  return fieldBox({
    id: DETAIL_FIELDS.timeZone, label: t('household.details.timeZone'), hint, error: zoneError,
    control: [
      // Over 400 zones: a few letters narrow the list below.
      h('label', { for: `${DETAIL_FIELDS.timeZone}-search`, class: 'zone-search-label' }, t('household.details.timeZoneSearch')),
      h('input', {
        type: 'search', id: `${DETAIL_FIELDS.timeZone}-search`, class: 'zone-search', autocomplete: 'off',
        value: form.zoneQuery ?? '', 'aria-controls': DETAIL_FIELDS.timeZone,
        oninput: (event) => {
          form.zoneQuery = event.target.value;
          const select = document.getElementById(DETAIL_FIELDS.timeZone);
          select?.replaceChildren(...zoneOptions(t, form));
        },
      }),
      h('select', {
        id: DETAIL_FIELDS.timeZone, name: 'timeZone', ...fieldAria(DETAIL_FIELDS.timeZone, { hint, error: zoneError }),
        onchange: (event) => {
          form.typed.timeZone = event.target.value;
          form.saved = false;
        },
      }, zoneOptions(t, form)),
    ],
  });
}

/** The zones as groups: the household's and this device's first, then by region. */
function zoneOptions(t, form) {
  return timeZoneGroups(form.typed.timeZone, { query: form.zoneQuery ?? '' }).map((group) => h('optgroup', {
    label: t(`household.details.zoneRegions.${group.region}`),
  }, group.zones.map((zone) => h('option', { value: zone.value, selected: zone.value === form.typed.timeZone }, zone.label))));
}

/** "Save": only what changed is sent (nothing, when nothing did); a name is needed. */
function saveDetails(settings, event) {
  const { t } = settings.app;
  event.preventDefault();
  return saveSettingsForm(settings, settings.state.details, {
    fieldIds: DETAIL_FIELDS, draw: () => drawDetails(settings), keep: 'household',
    check(form) {
      const patch = householdPatch(settings.current.household, form.typed);
      return patch.errors ? { errors: { name: t(`household.details.errors.${patch.errors.name}`) } } : patch;
    },
    send: (body) => sendJSON('PATCH', paths.household(), body, { t }),
    savedText: () => t('household.saved'),
  });
}
