// Adding or changing a medication (#/medications/new, #/medications/<id>):
// what it is, its stock, and its schedules, each read back as a sentence
// while it is edited ("1 tablet at 08:00 and 20:00 every day"). Mistakes
// are listed above the form with links to each field, and shown beside the
// field; the hub's own per-field messages are shown the same way. Saving
// an edit sends only the schedules that changed.
// This file loads the medication and redraws the form; its fields are
// medication-fields.js, saving medication-save.js, a schedule
// schedule-editor.js.
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, pageHeading } from '../../dom.js';
import { pageHref } from '../../router.js';
import { caredForSeniors } from '../../care/me.js';
import { emptyScheduleForm, scheduleToForm } from '../../medications/schedule-form.js';
import { medicationForm } from './medication-fields.js';
import { saveMedication } from './medication-save.js';
import { createScheduleEditor } from './schedule-editor.js';

export function createMedicationFormPage(app) {
  return (outlet, medicationId) => renderForm(app, outlet, medicationId);
}

const text = (value) => (value === null || value === undefined ? '' : String(value));

/** What the form starts with: the medication's values, or a new one's for the first senior. */
function formState(medication, seniors) {
  return medication
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
}

/** Draws the form for `medicationId` (null: a new one) into `outlet`; returns what to call when the page is left. */
function renderForm(app, outlet, medicationId) {
  const { t } = app;
  const isNew = medicationId === null;
  const heading = pageHeading(isNew ? t('medications.form.newTitle') : t('medications.form.editLoading'));
  const body = h('div', { class: 'medication-form-slot' }, h('p', { class: 'loading' }, t('medications.loading')));
  outlet.append(
    h('p', { class: 'back-link' }, h('a', { href: pageHref('medications'), id: 'medications-back' }, t('medications.form.back'))),
    heading, body);

  // What the form is drawn from; medication-save.js changes errors and saving.
  const page = {
    app, isNew, medicationId, seniors: [], original: null, state: null, errors: {}, saving: false,
    draw, addSchedule, save: (event) => saveMedication(page, event),
  };
  const request = new AbortController();

  async function load() {
    try {
      const [people, medication] = await Promise.all([
        caredForSeniors(app, request.signal),
        isNew ? null : getJSON(paths.medication(medicationId), { t, signal: request.signal }),
      ]);
      page.seniors = people;
      page.original = medication;
      page.state = formState(medication, page.seniors);
      if (medication) heading.textContent = t('medications.form.editTitle', { name: medication.name });
      draw();
    } catch (problem) {
      if (problem?.name === 'AbortError') return;
      body.replaceChildren();
      app.reportProblem(problem);
    }
  }

  // The whole form is drawn again; focus and caret are put back by id.
  function draw({ focus = null } = {}) {
    const active = focus ?? document.activeElement?.id ?? null;
    const caret = document.activeElement?.selectionStart ?? null;
    body.replaceChildren(medicationForm(page));
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

  page.editor = createScheduleEditor({
    app, draw, getState: () => page.state, getErrors: () => page.errors, onRemove: removeSchedule,
  });

  function addSchedule() {
    page.state.schedules.push(emptyScheduleForm());
    draw({ focus: `schedule-${page.state.schedules.length - 1}-kind-weekly` });
  }

  function removeSchedule(index) {
    const { state } = page;
    state.schedules.splice(index, 1);
    page.errors = {};
    const previous = Math.max(0, index - 1);
    draw({ focus: state.schedules.length > 0 ? `schedule-${previous}-kind-${state.schedules[previous].kind}` : 'add-schedule' });
  }

  load();

  return function leaveForm() {
    request.abort();
    page.editor.stop();
  };
}
