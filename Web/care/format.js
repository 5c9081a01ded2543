// Dates and times as the household reads them: clock times in the
// household's time zone (a caregiver's phone abroad still shows the
// senior's 08:00 as 08:00), in 24-hour form in both languages.

import { hubNow } from '../hub-clock.js';
import { localeOf } from '../i18n.js';

function formatter(language, timeZone, options) {
  try {
    return new Intl.DateTimeFormat(localeOf(language), { ...options, ...(timeZone ? { timeZone } : {}) });
  } catch {
    return new Intl.DateTimeFormat(localeOf(language), options); // an unknown zone: the device's own
  }
}

/** An ISO instant → "08:03" in the household's zone; '' for nothing. */
export function clockTime(iso, { language = 'en', timeZone = null } = {}) {
  const date = new Date(iso ?? '');
  if (!iso || Number.isNaN(date.getTime())) return '';
  return formatter(language, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
}

/** An ISO instant → "22 Nov 2026, 08:03". */
export function dateTime(iso, { language = 'en', timeZone = null } = {}) {
  const date = new Date(iso ?? '');
  if (!iso || Number.isNaN(date.getTime())) return '';
  return formatter(language, timeZone, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }).format(date);
}

/** "2026-11-22" → "Sunday, 22 November 2026" (a calendar day: no zone shift). */
export function longDate(day, { language = 'en', weekday = true } = {}) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(day ?? ''));
  if (!match) return String(day ?? '');
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(localeOf(language), {
    ...(weekday ? { weekday: 'long' } : {}), day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC',
  }).format(date);
}

/** "2026-11" → "November 2026" / "listopad 2026". */
export function monthName({ year, month }, language = 'en') {
  return new Intl.DateTimeFormat(localeOf(language), { month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(Date.UTC(year, month - 1, 1)));
}

/** Short weekday names, Monday first. */
export function weekdayNames(language = 'en', style = 'short') {
  const format = new Intl.DateTimeFormat(localeOf(language), { weekday: style, timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}

/** An ISO instant → the household's calendar day, YYYY-MM-DD. */
export function localDay(iso, timeZone = null) {
  const date = new Date(iso ?? '');
  if (Number.isNaN(date.getTime())) return null;
  let parts;
  try {
    parts = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...(timeZone ? { timeZone } : {}) })
      .formatToParts(date);
  } catch {
    parts = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  }
  const get = (type) => parts.find((p) => p.type === type)?.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The household's wall-clock reading of an instant: [year, month, day, hour, minute], or null. */
function wallClock(ms, timeZone) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone,
  }).formatToParts(new Date(ms));
  const get = (type) => Number(parts.find((p) => p.type === type)?.value);
  return [get('year'), get('month'), get('day'), get('hour'), get('minute')];
}

/**
 * The instant a wall-clock time is on a day in the household's time zone
 * ("2026-11-25", "08:10", "Europe/Warsaw" → an ISO string), or null. Found
 * by correcting a first guess by the zone's offset, twice, so a day when the
 * clocks change still comes out right.
 */
export function wallClockInstant(day, time, timeZone) {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(day ?? ''));
  const clock = /^(\d{2}):(\d{2})$/.exec(String(time ?? ''));
  if (!date || !clock) return null;
  const wanted = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]), Number(clock[1]), Number(clock[2]));
  let guess = wanted;
  try {
    for (let i = 0; i < 2; i += 1) {
      const [y, mo, d, h, mi] = wallClock(guess, timeZone);
      guess += wanted - Date.UTC(y, mo - 1, d, h, mi);
    }
  } catch {
    return null;
  }
  return new Date(guess).toISOString();
}

/**
 * How long ago an ISO instant was: "now", "5 minutes ago", "yesterday" (pl:
 * "teraz", "5 minut temu", "wczoraj"); from a week on, the date and time.
 * '' for nothing. A time a little ahead (clocks differ) counts as now.
 */
export function timeAgo(iso, { language = 'en', timeZone = null, now = hubNow() } = {}) {
  const date = new Date(iso ?? '');
  if (!iso || Number.isNaN(date.getTime())) return '';
  const relative = new Intl.RelativeTimeFormat(localeOf(language), { numeric: 'auto' });
  const minutes = Math.floor((now - date.getTime()) / 60_000);
  if (minutes < 1) return relative.format(0, 'second');
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 7) return relative.format(-days, 'day');
  return dateTime(iso, { language, timeZone });
}
