// One schedule in the medication form: how often (weekdays, every N days,
// cycles, every N hours, as needed), how much, at what times, from when to
// when — with the schedule read back as a sentence while it is edited
// ("2 tablets at 08:00 and 20:00 every day"), updated after a short pause
// so a screen reader is not talked over at every key press.
import { h } from '../../dom.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { weekdayNames } from '../../care/format.js';
import { unitName } from '../../care/words.js';
import { SCHEDULE_KINDS, formToSchedule } from '../../medications/schedule-form.js';
import { scheduleSentence } from '../../medications/schedule-sentence.js';

const SUMMARY_DELAY_MS = 600;

/** Element id of a schedule field, for labels, errors and focus. */
export const scheduleFieldId = (index, field) => `schedule-${index}-${{
  kind: 'kind-weekly', amount: 'amount', times: 'time-0', weekdays: 'weekday-1', everyDays: 'every-days', daysOn: 'days-on',
  daysOff: 'days-off', everyHours: 'every-hours', from: 'from', until: 'until', minimumIntervalHours: 'min-interval',
  dailyMaximum: 'daily-max', startDate: 'start', endDate: 'end',
}[field] ?? 'amount'}`;

/**
 * The schedule fieldsets of a form. `getState()` is the form's state (its
 * unit and schedules), `getErrors()` its { element id: message };
 * `draw({ focus })` redraws the form; `onRemove(index)` removes a schedule.
 */
export function createScheduleEditor({ app, draw, getState, getErrors, onRemove }) {
  const summaryTimers = new Map();
  // What each part of a schedule's fieldset needs of the form.
  const form = { app, draw, getState, getErrors, onRemove, updateSummary };

  function updateSummary(index, { now = false } = {}) {
    clearTimeout(summaryTimers.get(index));
    const apply = () => {
      const element = document.getElementById(`schedule-${index}-summary`);
      const schedule = getState().schedules[index];
      if (element && schedule) element.textContent = sentenceFor(form, schedule);
    };
    if (now) apply();
    else summaryTimers.set(index, setTimeout(apply, SUMMARY_DELAY_MS));
  }

  return {
    fieldset: (schedule, index) => scheduleFieldset(form, schedule, index),
    updateSummary,
    stop() {
      for (const timer of summaryTimers.values()) clearTimeout(timer);
    },
  };
}

/** The fields of one kind of schedule, besides the amount and the dates. */
function kindFields(form, schedule, index) {
  const { t } = form.app;
  return {
    weekly: [timesGroup(form, schedule, index), weekdaysGroup(form, schedule, index)],
    everyNDays: [scheduleInput(form, schedule, index, 'everyDays', t('medications.form.everyDays'), { inputmode: 'numeric' }), timesGroup(form, schedule, index)],
    cyclic: [
      scheduleInput(form, schedule, index, 'daysOn', t('medications.form.daysOn'), { inputmode: 'numeric' }),
      scheduleInput(form, schedule, index, 'daysOff', t('medications.form.daysOff'), { inputmode: 'numeric' }),
      timesGroup(form, schedule, index)],
    everyNHours: [
      scheduleInput(form, schedule, index, 'everyHours', t('medications.form.everyHours'), { inputmode: 'numeric' }),
      scheduleInput(form, schedule, index, 'from', t('medications.form.from'), { type: 'time' }),
      scheduleInput(form, schedule, index, 'until', t('medications.form.until'), { type: 'time' })],
    asNeeded: [
      scheduleInput(form, schedule, index, 'minimumIntervalHours', t('medications.form.minimumInterval'), { inputmode: 'decimal', hint: t('medications.form.optional') }),
      scheduleInput(form, schedule, index, 'dailyMaximum', t('medications.form.dailyMaximum'), { inputmode: 'numeric', hint: t('medications.form.optional') })],
  }[schedule.kind] ?? [];
}

function scheduleFieldset(form, schedule, index) {
  const { app, draw, getState, onRemove } = form;
  const { t } = app;
  const legendId = `schedule-${index}-legend`;
  const fields = kindFields(form, schedule, index);
  return h('fieldset', { class: 'schedule', 'data-index': String(index), 'aria-labelledby': legendId },
    h('legend', { id: legendId }, t('medications.form.scheduleNumber', { number: index + 1 })),
    h('p', { class: 'schedule-summary', id: `schedule-${index}-summary`, 'aria-live': 'polite' }, sentenceFor(form, schedule)),
    h('fieldset', { class: 'choices schedule-kinds' },
      h('legend', {}, t('medications.form.howOften')),
      SCHEDULE_KINDS.map((kind) => h('label', { class: 'choice', for: `schedule-${index}-kind-${kind}` },
        h('input', {
          type: 'radio', id: `schedule-${index}-kind-${kind}`, name: `schedule-${index}-kind`, value: kind, checked: schedule.kind === kind,
          onchange: () => { schedule.kind = kind; draw({ focus: `schedule-${index}-kind-${kind}` }); },
        }),
        h('span', {}, t(`medications.kinds.${kind}`))))),
    scheduleInput(form, schedule, index, 'amount', t('medications.form.amount', { unit: unitName(app.language, getState().unit) }), { inputmode: 'decimal' }),
    fields,
    scheduleInput(form, schedule, index, 'startDate', t('medications.form.startDate'), { type: 'date', hint: t('medications.form.startDateHint') }),
    scheduleInput(form, schedule, index, 'endDate', t('medications.form.endDate'), { type: 'date', hint: t('medications.form.optional') }),
    h('p', {}, h('button', {
      type: 'button', class: 'secondary-button', id: `schedule-${index}-remove`, 'aria-describedby': legendId,
      onclick: () => onRemove(index),
    }, t('medications.form.removeSchedule'))));
}

function scheduleInput(form, schedule, index, name, label, { type = 'text', inputmode = null, hint = null } = {}) {
  const { getErrors, updateSummary } = form;
  const id = scheduleFieldId(index, name);
  const error = getErrors()[id];
  return fieldBox({
    id, label, hint, error,
    control: h('input', {
      id, type, inputmode, value: schedule[name] ?? '', autocomplete: 'off', class: type === 'text' ? 'short-input' : null,
      ...fieldAria(id, { hint, error }),
      oninput: (event) => { schedule[name] = event.target.value; updateSummary(index); },
    }),
  });
}

function timesGroup(form, schedule, index) {
  const { app, draw, getErrors, updateSummary } = form;
  const { t } = app;
  const errorId = scheduleFieldId(index, 'times');
  return h('fieldset', { class: 'form-group times-group' },
    h('legend', {}, t('medications.form.times')),
    getErrors()[errorId] ? h('p', { id: `${errorId}-error`, class: 'field-error' }, getErrors()[errorId]) : null,
    schedule.times.map((time, j) => {
      const id = `schedule-${index}-time-${j}`;
      return h('div', { class: 'time-row' },
        h('label', { for: id }, t('medications.form.time', { number: j + 1 })),
        h('input', {
          id, type: 'time', value: time, 'aria-invalid': getErrors()[errorId] ? 'true' : null,
          'aria-describedby': getErrors()[errorId] ? `${errorId}-error` : null,
          oninput: (event) => { schedule.times[j] = event.target.value; updateSummary(index); },
        }),
        schedule.times.length > 1
          ? h('button', {
            type: 'button', class: 'secondary-button', id: `${id}-remove`,
            onclick: () => {
              schedule.times.splice(j, 1);
              draw({ focus: `schedule-${index}-time-${Math.max(0, j - 1)}` });
            },
          }, t('medications.form.removeTime', { number: j + 1 }))
          : null);
    }),
    h('button', {
      type: 'button', class: 'secondary-button', id: `schedule-${index}-add-time`,
      onclick: () => {
        schedule.times.push(suggestTime(schedule.times));
        draw({ focus: `schedule-${index}-time-${schedule.times.length - 1}` });
      },
    }, t('medications.form.addTime')));
}

function weekdaysGroup(form, schedule, index) {
  const { app, getErrors, updateSummary } = form;
  const { t } = app;
  const errorId = scheduleFieldId(index, 'weekdays');
  const names = weekdayNames(app.language, 'long');
  return h('fieldset', { class: 'choices weekdays' },
    h('legend', {}, t('medications.form.weekdays')),
    getErrors()[errorId] ? h('p', { id: `${errorId}-error`, class: 'field-error' }, getErrors()[errorId]) : null,
    names.map((name, i) => {
      const day = i + 1;
      const id = `schedule-${index}-weekday-${day}`;
      return h('label', { class: 'choice', for: id },
        h('input', {
          type: 'checkbox', id, value: String(day), checked: schedule.weekdays.includes(day),
          onchange: (event) => {
            schedule.weekdays = event.target.checked
              ? [...new Set([...schedule.weekdays, day])].sort((a, b) => a - b)
              : schedule.weekdays.filter((d) => d !== day);
            updateSummary(index, { now: true });
          },
        }),
        h('span', {}, name));
    }));
}

/** A second time is most often twelve hours after the first: 08:00 → 20:00. */
function suggestTime(times) {
  const last = [...times].filter(Boolean).sort().at(-1) ?? '08:00';
  const hour = (Number(last.slice(0, 2)) + 12) % 24;
  return `${String(hour).padStart(2, '0')}:${last.slice(3, 5) || '00'}`;
}

function sentenceFor(form, schedule) {
  const { app, getState } = form;
  const { t } = app;
  const { body, errors: problems } = formToSchedule(schedule);
  if (Object.keys(problems).length > 0 && !body.amount) return t('medications.form.summaryIncomplete');
  return scheduleSentence({ ...body, times: body.times ?? schedule.times.filter(Boolean) }, { language: app.language, unit: getState().unit });
}
