// Saving the medication form: checked here first (each mistake beside its
// field), then sent — a new medication whole; an edit only what changed,
// and only the schedules that changed — with the hub's own per-field
// sentences shown the same way. Its own file beside the form's drawing
// (medication-fields.js).
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { pageHref } from '../../router.js';
import { formToSchedule, readNumber, scheduleChanges } from '../../medications/schedule-form.js';
import { MEDICATION_FIELDS } from './medication-fields.js';
import { scheduleFieldId } from './schedule-editor.js';

// A sentence the form leaves for the list to announce after saving.
let flashMessage = null;
export function takeFlash() {
  const text = flashMessage;
  flashMessage = null;
  return text;
}

/** The hub's field name for a schedule → the form's. */
function formField(field, kind) {
  if (field === 'interval') return kind === 'everyNHours' ? 'everyHours' : 'everyDays';
  if (field === 'minimumIntervalMinutes') return 'minimumIntervalHours';
  return field;
}

/**
 * "Save". `page` is the form's (see medication-form.js): its `state`,
 * `errors` and `saving` change here, and `draw({ focus })` shows them.
 */
export async function saveMedication(page, event) {
  const { app, isNew, medicationId, state, draw } = page;
  const { t } = app;
  event.preventDefault();
  if (page.saving) return;
  const { payload, schedules, found } = check(t, state);
  if (Object.keys(found).length > 0) {
    showErrors(page, found);
    return;
  }
  page.saving = true;
  page.errors = {};
  draw({ focus: 'save-medication' });
  let scheduleIndex = null;
  try {
    if (isNew) {
      await sendJSON('POST', paths.medications(), { personId: state.personId, ...payload, schedules: schedules.map((s) => s.body) }, { t });
    } else {
      const { original } = page;
      // Only what was changed here: the stock moves with every dose
      // taken meanwhile and must not be set back to what the form loaded.
      const changed = Object.fromEntries(Object.entries(payload).filter(([name, value]) => value !== (original[name] ?? null)));
      if (Object.keys(changed).length > 0) {
        await sendJSON('PATCH', paths.medication(medicationId), changed, { t });
      }
      const changes = scheduleChanges(original.schedules ?? [], schedules);
      for (const id of changes.remove) await sendJSON('DELETE', paths.medicationSchedule(medicationId, id), undefined, { t });
      for (const { id, body: scheduleBody } of changes.replace) {
        scheduleIndex = schedules.findIndex((s) => s.id === id);
        await sendJSON('PUT', paths.medicationSchedule(medicationId, id), scheduleBody, { t });
      }
      for (const scheduleBody of changes.create) {
        scheduleIndex = schedules.findIndex((s) => s.body === scheduleBody);
        await sendJSON('POST', paths.medicationSchedules(medicationId), scheduleBody, { t });
      }
    }
    app.clearProblem();
    flashMessage = t('medications.announce.saved', { name: payload.name });
    location.hash = pageHref('medications');
  } catch (problem) {
    page.saving = false;
    if (problem?.status === 422 && problem.errors) {
      showErrors(page, hubErrors(state, problem.errors, scheduleIndex));
    } else {
      draw();
      app.reportProblem(problem);
    }
  }
}

function showErrors(page, found) {
  page.errors = found;
  page.draw({ focus: 'form-errors' });
}

function medicationBody(state) {
  const number = (value) => readNumber(value);
  const payload = {
    name: state.name.trim(), strength: state.strength.trim(), unit: state.unit, form: state.form.trim(),
    appearance: state.appearance.trim(), instructions: state.instructions.trim(),
    stock: number(state.stock), packageSize: number(state.packageSize), lowStockDays: number(state.lowStockDays),
  };
  return payload;
}

function check(t, state) {
  const found = {};
  const payload = medicationBody(state);
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
function hubErrors(state, fields, scheduleIndex = null) {
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
