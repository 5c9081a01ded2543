// Adding or changing a medication (#/medications/new, #/medications/<id>):
// what it is, its stock, and its schedules, each read back as a sentence
// while it is edited ("1 tablet at 08:00 and 20:00 every day"). Mistakes
// are listed above the form with links to each field, and shown beside the
// field; the hub's own per-field messages are shown the same way. Saving
// an edit sends only the schedules that changed.
import { getJSON, sendJSON } from '../api.js';
import { h, pageHeading } from '../dom.js';
import { pageHref } from '../router.js';
import { caredForSeniors } from '../care/me.js';
import { UNIT_IDS, unitId, unitName } from '../care/words.js';
import {
  emptyScheduleForm, formToSchedule, readNumber, scheduleChanges, scheduleToForm,
} from '../medications/schedule-form.js';
import { createScheduleEditor, scheduleFieldId } from './schedule-editor.js';

// A sentence the form leaves for the list to announce after saving.
let flashMessage = null;
export function takeFlash() {
  const text = flashMessage;
  flashMessage = null;
  return text;
}

const MEDICATION_FIELDS = {
  name: 'med-name', strength: 'med-strength', unit: 'med-unit', form: 'med-form', appearance: 'med-appearance',
  instructions: 'med-instructions', stock: 'med-stock', packageSize: 'med-package', lowStockDays: 'med-low', personId: 'med-person',
};

/** The hub's field name for a schedule → the form's. */
function formField(field, kind) {
  if (field === 'interval') return kind === 'everyNHours' ? 'everyHours' : 'everyDays';
  if (field === 'minimumIntervalMinutes') return 'minimumIntervalHours';
  return field;
}

export function createMedicationFormPage(app) {
  return function renderForm(outlet, medicationId) {
    const { t } = app;
    const isNew = medicationId === null;
    const heading = pageHeading(isNew ? t('medications.form.newTitle') : t('medications.form.editLoading'));
    const body = h('div', { class: 'medication-form-slot' }, h('p', { class: 'loading' }, t('medications.loading')));
    outlet.append(
      h('p', { class: 'back-link' }, h('a', { href: pageHref('medications'), id: 'medications-back' }, t('medications.form.back'))),
      heading, body);

    let seniors = [];
    let original = null;
    let state = null;
    let errors = {};
    let saving = false;
    const request = new AbortController();

    async function load() {
      try {
        const [people, medication] = await Promise.all([
          caredForSeniors(app, request.signal),
          isNew ? null : getJSON(`/medications/${encodeURIComponent(medicationId)}`, { t, signal: request.signal }),
        ]);
        seniors = people;
        original = medication;
        state = medication
          ? {
            personId: medication.personId, name: medication.name, strength: medication.strength, unit: medication.unit,
            form: medication.form, appearance: medication.appearance, instructions: medication.instructions,
            stock: text(medication.stock), packageSize: text(medication.packageSize), lowStockDays: text(medication.lowStockDays),
            schedules: (medication.schedules ?? []).map(scheduleToForm),
          }
          : {
            personId: seniors[0]?.personId ?? null, name: '', strength: '', unit: 'tablets', form: '', appearance: '',
            instructions: '', stock: '', packageSize: '', lowStockDays: '', schedules: [emptyScheduleForm()],
          };
        if (medication) heading.textContent = t('medications.form.editTitle', { name: medication.name });
        draw();
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        body.replaceChildren();
        app.reportProblem(problem);
      }
    }

    const text = (value) => (value === null || value === undefined ? '' : String(value));

    // --- Drawing (the whole form; focus and caret are put back by id) ---

    function draw({ focus = null } = {}) {
      const active = focus ?? document.activeElement?.id ?? null;
      const caret = document.activeElement?.selectionStart ?? null;
      body.replaceChildren(form());
      if (active) {
        const element = document.getElementById(active);
        if (element) {
          element.focus();
          try {
            if (caret !== null && !focus) element.setSelectionRange(caret, caret);
          } catch {
            // not a text field
          }
        }
      }
    }

    function form() {
      if (seniors.length === 0) return h('p', { class: 'empty' }, t('medications.nobody'));
      const errorList = Object.entries(errors);
      return h('form', { id: 'medication-form', class: 'medication-form', novalidate: true, onsubmit: save },
        errorList.length > 0
          ? h('section', { id: 'form-errors', class: 'form-errors', tabindex: '-1', 'aria-labelledby': 'form-errors-heading' },
            h('h2', { id: 'form-errors-heading' }, t('medications.form.fix')),
            h('ul', {}, errorList.map(([id, message]) => h('li', {},
              h('a', { href: `#${id}`, onclick: (event) => { event.preventDefault(); document.getElementById(id)?.focus(); } }, message)))))
          : null,
        personField(),
        h('fieldset', { class: 'form-group' },
          h('legend', {}, t('medications.form.about')),
          field('name', t('medications.form.name'), { required: true, maxlength: 100, hint: t('medications.form.nameHint') }),
          field('strength', t('medications.form.strength'), { maxlength: 40, hint: t('medications.form.strengthHint') }),
          unitField(),
          field('form', t('medications.form.form'), { maxlength: 40, hint: t('medications.form.formHint') }),
          field('appearance', t('medications.form.appearance'), { maxlength: 200, hint: t('medications.form.appearanceHint') }),
          field('instructions', t('medications.form.instructions'), { maxlength: 500, hint: t('medications.form.instructionsHint') })),
        h('fieldset', { class: 'form-group' },
          h('legend', {}, t('medications.form.stockGroup')),
          field('stock', t('medications.form.stock'), { inputmode: 'decimal', hint: t('medications.form.stockHint') }),
          field('packageSize', t('medications.form.packageSize'), { inputmode: 'decimal', hint: t('medications.form.packageSizeHint') }),
          field('lowStockDays', t('medications.form.lowStockDays'), { inputmode: 'numeric', hint: t('medications.form.lowStockDaysHint') })),
        h('h2', { id: 'schedules-heading' }, t('medications.form.schedules')),
        state.schedules.length === 0 ? h('p', { class: 'hint' }, t('medications.form.noSchedules')) : null,
        state.schedules.map((schedule, index) => editor.fieldset(schedule, index)),
        h('p', {}, h('button', { type: 'button', id: 'add-schedule', class: 'secondary-button', onclick: addSchedule }, t('medications.form.addSchedule'))),
        h('div', { class: 'form-actions' },
          h('button', { type: 'submit', id: 'save-medication', class: 'primary-button', 'aria-disabled': saving ? 'true' : null },
            saving ? t('medications.form.saving') : t('medications.form.save')),
          h('a', { href: pageHref('medications'), class: 'button-link secondary' }, t('medications.form.cancel'))));
    }

    function describedBy(id, hint) {
      return [hint ? `${id}-hint` : null, errors[id] ? `${id}-error` : null].filter(Boolean).join(' ') || null;
    }

    function errorText(id) {
      return errors[id] ? h('p', { id: `${id}-error`, class: 'field-error' }, errors[id]) : null;
    }

    function field(name, label, { hint = null, required = false, maxlength = null, inputmode = null } = {}) {
      const id = MEDICATION_FIELDS[name];
      return h('div', { class: 'field' },
        h('label', { for: id }, label),
        hint ? h('p', { id: `${id}-hint`, class: 'hint' }, hint) : null,
        errorText(id),
        h('input', {
          id, name, type: 'text', value: state[name] ?? '', autocomplete: 'off', maxlength, inputmode,
          required, 'aria-required': required ? 'true' : null, 'aria-invalid': errors[id] ? 'true' : null,
          'aria-describedby': describedBy(id, hint),
          oninput: (event) => { state[name] = event.target.value; },
        }));
    }

    function personField() {
      const id = MEDICATION_FIELDS.personId;
      if (!isNew || seniors.length === 1) {
        const name = seniors.find((s) => s.personId === state.personId)?.name ?? '';
        return h('p', { class: 'medication-for' }, t('medications.form.for', { name }));
      }
      return h('div', { class: 'field' },
        h('label', { for: id }, t('medications.form.person')),
        h('select', { id, name: 'personId', onchange: (event) => { state.personId = event.target.value; } },
          seniors.map((senior) => h('option', { value: senior.personId, selected: senior.personId === state.personId }, senior.name))));
    }

    function unitField() {
      const id = MEDICATION_FIELDS.unit;
      const known = unitId(state.unit);
      const choices = [...UNIT_IDS];
      return h('div', { class: 'field' },
        h('label', { for: id }, t('medications.form.unit')),
        h('p', { id: `${id}-hint`, class: 'hint' }, t('medications.form.unitHint')),
        h('select', {
          id, name: 'unit', 'aria-describedby': `${id}-hint`,
          onchange: (event) => {
            state.unit = event.target.value;
            state.schedules.forEach((_, index) => editor.updateSummary(index, { now: true }));
          },
        },
        choices.map((unit) => h('option', { value: unit, selected: unit === known }, unitName(app.language, unit))),
        known ? null : h('option', { value: state.unit, selected: true }, state.unit)));
    }

    // --- The schedules (schedule-editor.js) ---

    const editor = createScheduleEditor({
      app, draw, getState: () => state, getErrors: () => errors, describedBy, errorText, onRemove: removeSchedule,
    });

    function addSchedule() {
      state.schedules.push(emptyScheduleForm());
      draw({ focus: `schedule-${state.schedules.length - 1}-kind-weekly` });
    }

    function removeSchedule(index) {
      state.schedules.splice(index, 1);
      errors = {};
      const previous = Math.max(0, index - 1);
      draw({ focus: state.schedules.length > 0 ? `schedule-${previous}-kind-${state.schedules[previous].kind}` : 'add-schedule' });
    }

    // --- Checking and saving ---

    function medicationBody() {
      const number = (value) => readNumber(value);
      const payload = {
        name: state.name.trim(), strength: state.strength.trim(), unit: state.unit, form: state.form.trim(),
        appearance: state.appearance.trim(), instructions: state.instructions.trim(),
        stock: number(state.stock), packageSize: number(state.packageSize), lowStockDays: number(state.lowStockDays),
      };
      return payload;
    }

    function check() {
      const found = {};
      const payload = medicationBody();
      if (payload.name === '') found[MEDICATION_FIELDS.name] = t('medications.errors.nameMissing');
      if (payload.stock !== null && !(payload.stock >= 0 && payload.stock <= 100000)) found[MEDICATION_FIELDS.stock] = t('medications.errors.stock');
      if (payload.packageSize !== null && !(payload.packageSize > 0 && payload.packageSize <= 100000)) {
        found[MEDICATION_FIELDS.packageSize] = t('medications.errors.packageSize');
      }
      if (payload.lowStockDays !== null && !(Number.isInteger(payload.lowStockDays) && payload.lowStockDays <= 365)) {
        found[MEDICATION_FIELDS.lowStockDays] = t('medications.errors.lowStockDays');
      }
      const schedules = state.schedules.map((schedule, index) => {
        const { body: scheduleBody, errors: problems } = formToSchedule(schedule);
        for (const [name, key] of Object.entries(problems)) found[scheduleFieldId(index, name)] = t(key);
        return { id: schedule.id, body: scheduleBody };
      });
      return { payload, schedules, found };
    }

    /** The hub's { field: message } → { element id: message }. */
    function hubErrors(fields, scheduleIndex = null) {
      const found = {};
      for (const [name, message] of Object.entries(fields ?? {})) {
        const match = /^schedules\.(\d+)\.(.+)$/.exec(name);
        if (match) {
          const index = Number(match[1]);
          found[scheduleFieldId(index, formField(match[2], state.schedules[index]?.kind))] = message;
        } else if (scheduleIndex !== null) {
          found[scheduleFieldId(scheduleIndex, formField(name, state.schedules[scheduleIndex]?.kind))] = message;
        } else {
          found[MEDICATION_FIELDS[name] ?? MEDICATION_FIELDS.name] = message;
        }
      }
      return found;
    }

    function showErrors(found) {
      errors = found;
      draw({ focus: 'form-errors' });
    }

    async function save(event) {
      event.preventDefault();
      if (saving) return;
      const { payload, schedules, found } = check();
      if (Object.keys(found).length > 0) {
        showErrors(found);
        return;
      }
      saving = true;
      errors = {};
      draw({ focus: 'save-medication' });
      let scheduleIndex = null;
      try {
        if (isNew) {
          await sendJSON('POST', '/medications', { personId: state.personId, ...payload, schedules: schedules.map((s) => s.body) }, { t });
        } else {
          // Only what was changed here: the stock moves with every dose
          // taken meanwhile and must not be set back to what the form loaded.
          const changed = Object.fromEntries(Object.entries(payload).filter(([name, value]) => value !== (original[name] ?? null)));
          if (Object.keys(changed).length > 0) {
            await sendJSON('PATCH', `/medications/${encodeURIComponent(medicationId)}`, changed, { t });
          }
          const changes = scheduleChanges(original.schedules ?? [], schedules);
          const base = `/medications/${encodeURIComponent(medicationId)}/schedules`;
          for (const id of changes.remove) await sendJSON('DELETE', `${base}/${encodeURIComponent(id)}`, undefined, { t });
          for (const { id, body: scheduleBody } of changes.replace) {
            scheduleIndex = schedules.findIndex((s) => s.id === id);
            await sendJSON('PUT', `${base}/${encodeURIComponent(id)}`, scheduleBody, { t });
          }
          for (const scheduleBody of changes.create) {
            scheduleIndex = schedules.findIndex((s) => s.body === scheduleBody);
            await sendJSON('POST', base, scheduleBody, { t });
          }
        }
        app.clearProblem();
        flashMessage = t('medications.announce.saved', { name: payload.name });
        location.hash = pageHref('medications');
      } catch (problem) {
        saving = false;
        if (problem?.status === 422 && problem.errors) {
          showErrors(hubErrors(problem.errors, scheduleIndex));
        } else {
          draw();
          app.reportProblem(problem);
        }
      }
    }

    load();

    return function leaveForm() {
      request.abort();
      editor.stop();
    };
  };
}
