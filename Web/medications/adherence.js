// The History page's data, without the page: a month as weeks of days
// (Monday first), each day's recorded doses of one medication summed up as
// taken / taken late / skipped / missed, and the doses as CSV for a
// spreadsheet or the doctor. Pure, for the Node tests.

const pad = (n) => String(n).padStart(2, '0');

/** "2026-11" → { year: 2026, month: 11 } (month 1–12), or null. */
export function parseMonth(text) {
  const match = /^(\d{4})-(\d{2})$/.exec(String(text ?? ''));
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? { year, month } : null;
}

export function monthKey({ year, month }) {
  return `${year}-${pad(month)}`;
}

/** The month before or after: shiftMonth({2026, 1}, -1) → {2025, 12}. */
export function shiftMonth({ year, month }, by) {
  const index = year * 12 + (month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function daysInMonth({ year, month }) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** First and last day as YYYY-MM-DD, for the doses request. */
export function monthRange(m) {
  return { from: `${monthKey(m)}-01`, to: `${monthKey(m)}-${pad(daysInMonth(m))}` };
}

/** Weeks (Monday first) of seven cells: a YYYY-MM-DD date, or null outside the month. */
export function monthWeeks(m) {
  const first = new Date(Date.UTC(m.year, m.month - 1, 1)).getUTCDay(); // 0 = Sunday
  const lead = (first + 6) % 7; // days before the 1st in a Monday-first week
  const cells = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= daysInMonth(m); day += 1) cells.push(`${monthKey(m)}-${pad(day)}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/**
 * The day a recorded dose belongs to: its planned date, or for an
 * as-needed dose the day it was taken (`localDate` turns an instant into
 * the household's YYYY-MM-DD).
 */
export function doseDay(dose, localDate = (iso) => String(iso ?? '').slice(0, 10)) {
  if (dose.plannedDate) return dose.plannedDate;
  const when = dose.takenAt ?? dose.dueAt ?? dose.createdAt;
  return when ? localDate(when) : null;
}

/**
 * What History calls a recorded dose: its status, or "late" for one taken
 * late. The hub decides that (`takenLate`: taken after it would have counted
 * as missed, by the household's grace minutes; HearthCore's
 * `ReminderSettings.isTakenLate`, the same rule as the alert history's
 * "Taken late"), so the page never judges it by a rule of its own.
 */
export function historyState(dose) {
  return dose?.status === 'taken' && dose.takenLate === true ? 'late' : dose?.status;
}

/**
 * Map of YYYY-MM-DD → { taken, skipped, missed } for one medication (all
 * when medicationId is null): `taken` those taken on time, and `late`,
 * once any dose of the day was taken late, those.
 */
export function summariseDays(doses, medicationId = null, localDate) {
  const days = new Map();
  for (const dose of doses ?? []) {
    if (medicationId && dose.medicationId !== medicationId) continue;
    if (!['taken', 'skipped', 'missed'].includes(dose.status)) continue;
    const day = doseDay(dose, localDate);
    if (!day) continue;
    if (!days.has(day)) days.set(day, { taken: 0, skipped: 0, missed: 0 });
    const summary = days.get(day);
    const state = historyState(dose);
    summary[state] = (summary[state] ?? 0) + 1;
  }
  return days;
}

/**
 * One word for a day's colour: "missed" if any dose was missed, else
 * "skipped" if any was skipped, else "late" if any was taken late, else
 * "taken"; "none" without doses.
 */
export function dayState(summary) {
  if (!summary) return 'none';
  if (summary.missed > 0) return 'missed';
  if (summary.skipped > 0) return 'skipped';
  if (summary.late > 0) return 'late';
  if (summary.taken > 0) return 'taken';
  return 'none';
}

/** Whether a medicine is only taken as needed: no schedule of it plans a dose. */
export function isAsNeededOnly(medication) {
  const schedules = medication?.schedules ?? [];
  return schedules.length > 0 && schedules.every((schedule) => schedule.kind === 'asNeeded');
}

/**
 * The line above a medicine's month, { key, params } for t(): the share of
 * planned doses taken, and of those taken late when any were ("Taken on
 * time: 75% of doses, late: 25%": a dose missed and taken hours later is
 * not 100% on time), or for a medicine taken only as needed how often it
 * was (nothing was due, so "Taken: 100%" said nothing true).
 */
export function adherenceLine(medication, days) {
  if (isAsNeededOnly(medication)) {
    let taken = 0;
    for (const summary of days.values()) taken += summary.taken + (summary.late ?? 0);
    return taken === 0
      ? { key: 'medications.history.nothing', params: {} }
      : { key: 'medications.history.asNeededTaken', params: { count: taken } };
  }
  const percent = adherencePercent(days);
  if (percent === null) return { key: 'medications.history.nothing', params: {} };
  const late = latePercent(days);
  return late === null
    ? { key: 'medications.history.percent', params: { percent } }
    : { key: 'medications.history.percentLate', params: { percent, late } };
}

/** How many doses were due, and how many of them were taken late. */
function dueAndLate(days) {
  let all = 0;
  let late = 0;
  for (const summary of days.values()) {
    late += summary.late ?? 0;
    all += summary.taken + (summary.late ?? 0) + summary.skipped + summary.missed;
  }
  return { all, late };
}

/** Share of doses taken on time among those that were due (null without any), 0–100. */
export function adherencePercent(days) {
  let taken = 0;
  for (const summary of days.values()) taken += summary.taken;
  const { all } = dueAndLate(days);
  return all === 0 ? null : Math.round((taken / all) * 100);
}

/** Share of doses taken late among those that were due, 0–100; null when none was late. */
export function latePercent(days) {
  const { all, late } = dueAndLate(days);
  return late === 0 ? null : Math.round((late / all) * 100);
}

/** One CSV cell: quoted when needed; a leading =, +, - or @ is defused for spreadsheets. */
export function csvCell(value, separator = ',') {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (text.includes(separator) || /["\r\n]/.test(text)) text = `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** Rows (arrays) → CSV text with CRLF line ends, as spreadsheets expect. */
export function toCSV(rows, separator = ',') {
  return rows.map((row) => row.map((cell) => csvCell(cell, separator)).join(separator)).join('\r\n') + '\r\n';
}

/**
 * The recorded doses as rows for toCSV: a header (labels in the page's
 * language) then one row per dose, oldest first. `describe(dose)` gives
 * { person, medication, strength, amount, unit, status, takenAt, reason? }
 * in words (the stored reason when it gives none).
 */
export function doseRows(doses, header, describe, localDate) {
  // Ordered by the local day and time each happened: the planned time, or
  // for a dose taken as needed the local time it was taken ("2026-11-25
  // 21:02", the form `describe` gives). Never the stored UTC time: beside
  // a local "21:04" it would sort by its digits, not its hour.
  const rows = (doses ?? []).map((dose) => {
    const words = describe(dose);
    const day = doseDay(dose, localDate) ?? '';
    const when = dose.plannedTime ? `${day} ${dose.plannedTime}` : (words.takenAt || day);
    return { when, row: [day, dose.plannedTime ?? '', words.person, words.medication, words.strength,
      words.amount, words.unit, words.status, words.takenAt ?? '', words.reason ?? dose.reason ?? ''] };
  });
  rows.sort((a, b) => a.when.localeCompare(b.when));
  return [header, ...rows.map(({ row }) => row)];
}
