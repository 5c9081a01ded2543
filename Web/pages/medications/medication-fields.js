// The medication form's fields (#/medications/new, #/medications/<id>):
// what it is, its stock, its schedules (schedule-editor.js), and the list
// of mistakes above them with links to each field. Drawn whole from
// `page` each time; medication-form.js decides when, medication-save.js
// checks and sends it.
import { h } from '../../dom.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { pageHref } from '../../router.js';
import { UNIT_IDS, unitId, unitName } from '../../care/words.js';

export const MEDICATION_FIELDS = {
  name: 'med-name', strength: 'med-strength', unit: 'med-unit', form: 'med-form', appearance: 'med-appearance',
  instructions: 'med-instructions', stock: 'med-stock', packageSize: 'med-package', lowStockDays: 'med-low', personId: 'med-person',
};

/**
 * The whole form. `page` is { app, isNew, seniors, state, errors, saving,
 * editor, save, addSchedule } (see medication-form.js).
 */
export function medicationForm(page) {
  const { app, seniors, state, errors, saving, editor } = page;
  const { t } = app;
  if (seniors.length === 0) return h('p', { class: 'empty' }, t('medications.nobody'));
  const errorList = Object.entries(errors);
  return h('form', { id: 'medication-form', class: 'medication-form', novalidate: true, onsubmit: page.save },
    errorList.length > 0
      ? h('section', { id: 'form-errors', class: 'form-errors', tabindex: '-1', 'aria-labelledby': 'form-errors-heading' },
        h('h2', { id: 'form-errors-heading' }, t('medications.form.fix')),
        h('ul', {}, errorList.map(([id, message]) => h('li', {},
          h('a', { href: `#${id}`, onclick: (event) => { event.preventDefault(); document.getElementById(id)?.focus(); } }, message)))))
      : null,
    personField(page),
    h('fieldset', { class: 'form-group' },
      h('legend', {}, t('medications.form.about')),
      field(page, 'name', t('medications.form.name'), { required: true, maxlength: 100, hint: t('medications.form.nameHint') }),
      field(page, 'strength', t('medications.form.strength'), { maxlength: 40, hint: t('medications.form.strengthHint') }),
      unitField(page),
      field(page, 'form', t('medications.form.form'), { maxlength: 40, hint: t('medications.form.formHint') }),
      field(page, 'appearance', t('medications.form.appearance'), { maxlength: 200, hint: t('medications.form.appearanceHint') }),
      field(page, 'instructions', t('medications.form.instructions'), { maxlength: 500, hint: t('medications.form.instructionsHint') })),
    h('fieldset', { class: 'form-group' },
      h('legend', {}, t('medications.form.stockGroup')),
      field(page, 'stock', t('medications.form.stock'), { inputmode: 'decimal', hint: t('medications.form.stockHint') }),
      field(page, 'packageSize', t('medications.form.packageSize'), { inputmode: 'decimal', hint: t('medications.form.packageSizeHint') }),
      field(page, 'lowStockDays', t('medications.form.lowStockDays'), { inputmode: 'numeric', hint: t('medications.form.lowStockDaysHint') })),
    h('h2', { id: 'schedules-heading' }, t('medications.form.schedules')),
    state.schedules.length === 0 ? h('p', { class: 'hint' }, t('medications.form.noSchedules')) : null,
    state.schedules.map((schedule, index) => editor.fieldset(schedule, index)),
    h('p', {}, h('button', { type: 'button', id: 'add-schedule', class: 'secondary-button', onclick: page.addSchedule }, t('medications.form.addSchedule'))),
    h('div', { class: 'form-actions' },
      h('button', { type: 'submit', id: 'save-medication', class: 'primary-button', 'aria-disabled': saving ? 'true' : null },
        saving ? t('medications.form.saving') : t('medications.form.save')),
      h('a', { href: pageHref('medications'), class: 'button-link secondary' }, t('medications.form.cancel'))));
}

function field(page, name, label, { hint = null, required = false, maxlength = null, inputmode = null } = {}) {
  const { state, errors } = page;
  const id = MEDICATION_FIELDS[name];
  const error = errors[id];
  return fieldBox({
    id, label, hint, error,
    control: h('input', {
      id, name, type: 'text', value: state[name] ?? '', autocomplete: 'off', maxlength, inputmode,
      required, 'aria-required': required ? 'true' : null, ...fieldAria(id, { hint, error }),
      oninput: (event) => { state[name] = event.target.value; },
    }),
  });
}

/** Whom it is for: chosen when adding for one of several seniors, else said. */
function personField(page) {
  const { app, isNew, seniors, state } = page;
  const { t } = app;
  const id = MEDICATION_FIELDS.personId;
  if (!isNew || seniors.length === 1) {
    const name = seniors.find((s) => s.personId === state.personId)?.name ?? '';
    return h('p', { class: 'medication-for' }, t('medications.form.for', { name }));
  }
  return fieldBox({
    id, label: t('medications.form.person'),
    control: h('select', { id, name: 'personId', onchange: (event) => { state.personId = event.target.value; } },
      seniors.map((senior) => h('option', { value: senior.personId, selected: senior.personId === state.personId }, senior.name))),
  });
}

/** The unit; the schedules' sentences say it, so they are read again at once when it changes. */
function unitField(page) {
  const { app, state, editor } = page;
  const { t } = app;
  const id = MEDICATION_FIELDS.unit;
  const known = unitId(state.unit);
  const choices = [...UNIT_IDS];
  const hint = t('medications.form.unitHint');
  return fieldBox({
    id, label: t('medications.form.unit'), hint,
    control: h('select', {
      id, name: 'unit', ...fieldAria(id, { hint }),
      onchange: (event) => {
        state.unit = event.target.value;
        state.schedules.forEach((_, index) => editor.updateSummary(index, { now: true }));
      },
    },
    choices.map((unit) => h('option', { value: unit, selected: unit === known }, unitName(app.language, unit))),
    known ? null : h('option', { value: state.unit, selected: true }, state.unit)),
  });
}
