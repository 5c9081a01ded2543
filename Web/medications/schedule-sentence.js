// A dose schedule read out as one sentence in the page's language:
//   "1 tablet at 08:00 and 20:00 every day"
//   "1 tablet every 2 days at 09:00"
//   "2 tabletki o 08:00 we wtorki i czwartki"
// Grammar differs too much between English and Polish for fill-in-the-blank
// dictionary strings (Polish counts in three forms and changes "w" to "we"
// before "wtorki"), so each language builds its own sentence here. Pure.
import { amountText, countText, joinList } from '../care/words.js';
import { languageOf } from '../i18n.js';

const WEEKDAYS = {
  en: ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'],
  pl: ['poniedziałki', 'wtorki', 'środy', 'czwartki', 'piątki', 'soboty', 'niedziele'],
};

const MONTHS = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  pl: ['stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia'],
};

const DAYS = { en: { one: 'day', other: 'days' }, pl: { one: 'dzień', few: 'dni', many: 'dni', other: 'dnia' } };
const HOURS = { en: { one: 'hour', other: 'hours' }, pl: { one: 'godzinę', few: 'godziny', many: 'godzin', other: 'godziny' } };
const MINUTES = { en: { one: 'minute', other: 'minutes' }, pl: { one: 'minutę', few: 'minuty', many: 'minut', other: 'minuty' } };

/** "2026-12-31" → "31 December 2026" / "31 grudnia 2026"; anything else as given. */
export function formatDay(lang, isoDate) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(isoDate ?? ''));
  if (!match) return String(isoDate ?? '');
  const [, year, month, day] = match;
  return `${Number(day)} ${MONTHS[languageOf(lang)][Number(month) - 1]} ${year}`;
}

function sortedTimes(times) {
  return [...new Set((times ?? []).map(String))].sort();
}

function atTimes(lang, times) {
  const list = sortedTimes(times);
  if (list.length === 0) return '';
  return `${lang === 'pl' ? 'o' : 'at'} ${joinList(lang, list)}`;
}

function onWeekdays(lang, weekdays) {
  const days = [...new Set((weekdays ?? [1, 2, 3, 4, 5, 6, 7]).map(Number))]
    .filter((d) => d >= 1 && d <= 7)
    .sort((a, b) => a - b);
  const key = days.join(',');
  if (days.length === 0 || key === '1,2,3,4,5,6,7') return lang === 'pl' ? 'codziennie' : 'every day';
  if (key === '1,2,3,4,5') return lang === 'pl' ? 'w dni robocze' : 'on weekdays';
  if (key === '6,7') return lang === 'pl' ? 'w weekendy' : 'at weekends';
  const names = days.map((d) => WEEKDAYS[lang][d - 1]);
  if (lang === 'pl') {
    // "we wtorki", but "w poniedziałki": Polish adds a vowel before "w" + consonant.
    return `${days[0] === 2 ? 'we' : 'w'} ${joinList(lang, names)}`;
  }
  return `on ${joinList(lang, names)}`;
}

function everyDays(lang, n) {
  if (Number(n) === 1) return lang === 'pl' ? 'codziennie' : 'every day';
  return lang === 'pl' ? `co ${countText(lang, n, DAYS[lang])}` : `every ${countText(lang, n, DAYS[lang])}`;
}

function everyHours(lang, n) {
  if (Number(n) === 1) return lang === 'pl' ? 'co godzinę' : 'every hour';
  return lang === 'pl' ? `co ${countText(lang, n, HOURS[lang])}` : `every ${countText(lang, n, HOURS[lang])}`;
}

/** 240 → "4 hours", 90 → "90 minutes"; Polish in the accusative ("4 godziny", "1 godzinę"). */
function duration(lang, minutes) {
  const m = Number(minutes);
  if (m === 60) return lang === 'pl' ? 'godzinę' : '1 hour';
  if (m % 60 === 0) return countText(lang, m / 60, HOURS[lang]);
  return countText(lang, m, MINUTES[lang]);
}

function timesADay(lang, n) {
  const count = Number(n);
  if (lang === 'pl') return count === 1 ? 'raz dziennie' : `${count} razy dziennie`;
  if (count === 1) return 'once a day';
  if (count === 2) return 'twice a day';
  return `${count} times a day`;
}

function words(...parts) {
  return parts.filter((p) => p !== '' && p !== null && p !== undefined).join(' ');
}

/**
 * The sentence for one schedule (the API's shape: kind, times, weekdays,
 * interval, daysOn, daysOff, from, until, minimumIntervalMinutes,
 * dailyMaximum, amount, startDate, endDate). `unit` is the medication's;
 * `today` (YYYY-MM-DD), when given, adds "from <date>" to a schedule that
 * has not started yet.
 */
export function scheduleSentence(schedule, { language: wanted = 'en', unit = 'tablets', today = null } = {}) {
  const lang = languageOf(wanted);
  const s = schedule ?? {};
  const amount = amountText(lang, s.amount ?? 1, unit);
  let sentence;
  switch (s.kind) {
    case 'weekly':
      sentence = words(amount, atTimes(lang, s.times), onWeekdays(lang, s.weekdays));
      break;
    case 'everyNDays':
      sentence = words(amount, everyDays(lang, s.interval ?? 1), atTimes(lang, s.times));
      break;
    case 'cyclic': {
      const on = countText(lang, s.daysOn ?? 1, DAYS[lang]);
      const off = countText(lang, s.daysOff ?? 1, DAYS[lang]);
      sentence = lang === 'pl'
        ? `${words(amount, atTimes(lang, s.times), 'codziennie')} przez ${on}, potem ${off} przerwy`
        : `${words(amount, atTimes(lang, s.times), 'every day')} for ${on}, then ${off} off`;
      break;
    }
    case 'everyNHours':
      sentence = lang === 'pl'
        ? words(amount, everyHours(lang, s.interval ?? 1), `od ${s.from} do ${s.until}`)
        : words(amount, everyHours(lang, s.interval ?? 1), `from ${s.from} to ${s.until}`);
      break;
    case 'asNeeded': {
      const parts = [words(amount, lang === 'pl' ? 'w razie potrzeby' : 'when needed')];
      if (s.minimumIntervalMinutes) {
        parts.push(lang === 'pl'
          ? `nie częściej niż co ${duration(lang, s.minimumIntervalMinutes)}`
          : `at least ${duration(lang, s.minimumIntervalMinutes)} apart`);
      }
      if (s.dailyMaximum) {
        parts.push(`${lang === 'pl' ? 'najwyżej' : 'at most'} ${timesADay(lang, s.dailyMaximum)}`);
      }
      sentence = parts.join(', ');
      break;
    }
    default:
      sentence = amount;
  }
  if (today && s.startDate && s.startDate > today) {
    sentence += `, ${lang === 'pl' ? 'od' : 'from'} ${formatDay(lang, s.startDate)}`;
  }
  if (s.endDate) {
    sentence += `, ${lang === 'pl' ? 'do' : 'until'} ${formatDay(lang, s.endDate)}`;
  }
  return sentence;
}

/** When in the day a schedule starts, for putting the earlier one first. */
function firstTime(schedule) {
  return sortedTimes(schedule.times)[0] ?? schedule.from ?? '99:99';
}

/** Every schedule of a medication, one sentence each, earliest first, joined with "; ". */
export function medicationScheduleSentence(medication, options = {}) {
  const schedules = [...(medication?.schedules ?? [])].sort((a, b) => firstTime(a).localeCompare(firstTime(b)));
  return schedules
    .map((schedule) => scheduleSentence(schedule, { ...options, unit: medication?.unit ?? 'tablets' }))
    .join('; ');
}
