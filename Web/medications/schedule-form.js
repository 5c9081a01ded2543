// The schedule editor's values ↔ the API's schedule body. The form keeps
// what was typed (text, so "0,5" and an empty field survive a re-render);
// the body is what the hub reads. Each wrong field is named with the key of
// a translated message, checked as the hub checks it, so a caregiver hears
// what to fix before anything is sent. Pure, for the Node tests.

export const SCHEDULE_KINDS = Object.freeze(['weekly', 'everyNDays', 'cyclic', 'everyNHours', 'asNeeded']);
export const ALL_WEEKDAYS = Object.freeze([1, 2, 3, 4, 5, 6, 7]);

/** A new schedule's starting values: one tablet at 08:00 every day. */
export function emptyScheduleForm() {
  return {
    id: null,
    kind: 'weekly',
    amount: '1',
    times: ['08:00'],
    weekdays: [...ALL_WEEKDAYS],
    everyDays: '2',
    daysOn: '21',
    daysOff: '7',
    everyHours: '8',
    from: '08:00',
    until: '20:00',
    minimumIntervalHours: '',
    dailyMaximum: '',
    startDate: '',
    endDate: '',
  };
}

const text = (value) => (value === null || value === undefined ? '' : String(value));

/** The form values for a schedule the hub sent. */
export function scheduleToForm(schedule) {
  const form = emptyScheduleForm();
  const s = schedule ?? {};
  form.id = s.id ?? null;
  form.kind = SCHEDULE_KINDS.includes(s.kind) ? s.kind : 'weekly';
  form.amount = text(s.amount ?? 1);
  if (Array.isArray(s.times) && s.times.length > 0) form.times = [...s.times];
  if (Array.isArray(s.weekdays) && s.weekdays.length > 0) form.weekdays = [...s.weekdays];
  if (s.kind === 'everyNDays') form.everyDays = text(s.interval);
  if (s.kind === 'everyNHours') form.everyHours = text(s.interval);
  if (s.daysOn) form.daysOn = text(s.daysOn);
  if (s.daysOff) form.daysOff = text(s.daysOff);
  if (s.from) form.from = s.from;
  if (s.until) form.until = s.until;
  if (s.minimumIntervalMinutes) form.minimumIntervalHours = text(Math.round((s.minimumIntervalMinutes / 60) * 100) / 100);
  if (s.dailyMaximum) form.dailyMaximum = text(s.dailyMaximum);
  form.startDate = text(s.startDate);
  form.endDate = text(s.endDate);
  return form;
}

/** "0,5" or "0.5" → 0.5; empty → null; not a number → NaN. */
export function readNumber(value) {
  const trimmed = text(value).trim().replace(',', '.');
  if (trimmed === '') return null;
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
}

const isTime = (value) => /^([01]\d|2[0-3]):[0-5]\d$/.test(text(value));
const isDate = (value) => /^\d{4}-\d{2}-\d{2}$/.test(text(value));

function wholeNumber(value, min, max) {
  const n = readNumber(value);
  return n !== null && Number.isInteger(n) && n >= min && n <= max ? n : null;
}

/**
 * { body, errors }: the schedule body to send (without its id), and
 * field → message key for everything wrong (empty when it can be sent).
 */
export function formToSchedule(form) {
  const errors = {};
  const body = { kind: form.kind };

  const amount = readNumber(form.amount);
  if (!(amount > 0 && amount <= 1000)) errors.amount = 'medications.errors.amount';
  else body.amount = amount;

  const needsTimes = ['weekly', 'everyNDays', 'cyclic'].includes(form.kind);
  if (needsTimes) {
    const times = (form.times ?? []).map((t) => text(t).trim()).filter((t) => t !== '');
    if (times.length === 0) errors.times = 'medications.errors.timesMissing';
    else if (!times.every(isTime)) errors.times = 'medications.errors.timesInvalid';
    else if (new Set(times).size !== times.length) errors.times = 'medications.errors.timesTwice';
    else body.times = [...times].sort();
  }

  switch (form.kind) {
    case 'weekly': {
      const days = [...new Set((form.weekdays ?? []).map(Number))].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
      if (days.length === 0) errors.weekdays = 'medications.errors.weekdays';
      else body.weekdays = days;
      break;
    }
    case 'everyNDays': {
      const interval = wholeNumber(form.everyDays, 1, 365);
      if (interval === null) errors.everyDays = 'medications.errors.days';
      else body.interval = interval;
      break;
    }
    case 'cyclic': {
      const on = wholeNumber(form.daysOn, 1, 365);
      const off = wholeNumber(form.daysOff, 1, 365);
      if (on === null) errors.daysOn = 'medications.errors.days';
      else body.daysOn = on;
      if (off === null) errors.daysOff = 'medications.errors.days';
      else body.daysOff = off;
      break;
    }
    case 'everyNHours': {
      const interval = wholeNumber(form.everyHours, 1, 23);
      if (interval === null) errors.everyHours = 'medications.errors.hours';
      else body.interval = interval;
      if (!isTime(form.from)) errors.from = 'medications.errors.time';
      else body.from = form.from;
      if (!isTime(form.until)) errors.until = 'medications.errors.time';
      else if (isTime(form.from) && form.until < form.from) errors.until = 'medications.errors.untilBeforeFrom';
      else body.until = form.until;
      break;
    }
    case 'asNeeded': {
      if (text(form.minimumIntervalHours).trim() !== '') {
        const hours = readNumber(form.minimumIntervalHours);
        const minutes = Math.round((hours ?? NaN) * 60);
        if (!(minutes >= 1 && minutes <= 10080)) errors.minimumIntervalHours = 'medications.errors.minimumInterval';
        else body.minimumIntervalMinutes = minutes;
      }
      if (text(form.dailyMaximum).trim() !== '') {
        const maximum = wholeNumber(form.dailyMaximum, 1, 48);
        if (maximum === null) errors.dailyMaximum = 'medications.errors.dailyMaximum';
        else body.dailyMaximum = maximum;
      }
      break;
    }
    default:
      errors.kind = 'medications.errors.kind';
  }

  if (text(form.startDate).trim() !== '') {
    if (!isDate(form.startDate)) errors.startDate = 'medications.errors.date';
    else body.startDate = form.startDate;
  }
  if (text(form.endDate).trim() !== '') {
    if (!isDate(form.endDate)) errors.endDate = 'medications.errors.date';
    else if (body.startDate && form.endDate < body.startDate) errors.endDate = 'medications.errors.endBeforeStart';
    else body.endDate = form.endDate;
  }
  return { body, errors };
}

/** Whether two schedule bodies plan the same doses (so an unchanged one is not re-sent). */
export function sameSchedule(a, b) {
  const fields = ['kind', 'amount', 'times', 'weekdays', 'interval', 'daysOn', 'daysOff', 'from', 'until',
    'minimumIntervalMinutes', 'dailyMaximum', 'startDate', 'endDate'];
  const norm = (v) => (v === undefined ? null : Array.isArray(v) ? JSON.stringify([...v].sort()) : v);
  return fields.every((field) => {
    // A start date left empty keeps the schedule's own on the hub.
    if (field === 'startDate' && (a[field] === undefined || b[field] === undefined)) return true;
    if (field === 'weekdays' && a.kind !== 'weekly') return true;
    return norm(a[field]) === norm(b[field]);
  });
}

/**
 * What to send for a medication's schedules after editing: the schedules
 * on the hub (with ids) against the edited forms' bodies (with the id they
 * came from, or null for a new one).
 * → { create: [body], replace: [{ id, body }], remove: [id] }
 */
export function scheduleChanges(current, edited) {
  const create = [];
  const replace = [];
  const kept = new Set();
  for (const { id, body } of edited) {
    const existing = id ? current.find((s) => s.id === id) : null;
    if (!existing) {
      create.push(body);
      continue;
    }
    kept.add(id);
    if (!sameSchedule(existing, body)) replace.push({ id, body });
  }
  const remove = current.filter((s) => !kept.has(s.id)).map((s) => s.id);
  return { create, replace, remove };
}
