// Sentences made to be heard, for the Listen controls: "It is time for
// Metformin, one tablet, at 8:00". Amounts are said in words because a
// voice reading "1 tabletka" may not make the number agree with the noun
// (Polish says jedna tabletka but jeden plaster, dwie tabletki but dwa
// plastry, półtorej tabletki but półtora plastra); the nouns' forms are
// words.js's, only the number words, the nouns' genders and "ml" said in
// full live here. The alert's sentence is alerts.js's, with these amounts.
// Pure, for the Node tests.
import { alertMessage } from './alerts.js';
import { UNIT_FORMS, amountText, pluralForm, unitId } from './words.js';
import { readChecklist } from '../notes/checklist.js';
import { hubNow } from '../hub-clock.js';
import { languageOf } from '../i18n.js';

const ONES = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
    'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'],
  pl: ['zero', 'jeden', 'dwa', 'trzy', 'cztery', 'pięć', 'sześć', 'siedem', 'osiem', 'dziewięć', 'dziesięć', 'jedenaście',
    'dwanaście', 'trzynaście', 'czternaście', 'piętnaście', 'szesnaście', 'siedemnaście', 'osiemnaście', 'dziewiętnaście'],
};
const TENS = {
  en: [null, null, 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'],
  pl: [null, null, 'dwadzieścia', 'trzydzieści', 'czterdzieści', 'pięćdziesiąt', 'sześćdziesiąt', 'siedemdziesiąt',
    'osiemdziesiąt', 'dziewięćdziesiąt'],
};
const HUNDREDS_PL = [null, 'sto', 'dwieście', 'trzysta', 'czterysta', 'pięćset', 'sześćset', 'siedemset', 'osiemset', 'dziewięćset'];

/** Polish nouns that are feminine ("jedna tabletka", "dwie krople"); the rest are masculine ("jeden plaster"). */
const FEMININE_PL = new Set(['tablets', 'capsules', 'drops', 'sachets', 'units', 'teaspoons']);

/** "ml" is written short but said in full. */
const SPOKEN_FORMS = {
  ml: {
    en: { one: 'millilitre', other: 'millilitres' },
    pl: { one: 'mililitr', few: 'mililitry', many: 'mililitrów', other: 'mililitra' },
  },
};

/** What a quarter, a half and three quarters are called after a whole number, and alone. */
const PARTS = {
  en: new Map([[0.25, 'a quarter'], [0.5, 'a half'], [0.75, 'three quarters']]),
  pl: new Map([[0.25, 'ćwierć'], [0.5, 'pół'], [0.75, 'trzy czwarte']]),
};

/**
 * A whole number from 0 to 999 in words: 21 → "twenty-one"; in Polish
 * agreeing with a feminine noun when `feminine` ("jedna", "dwie",
 * "dwadzieścia dwie"; a compound keeps "jeden": "dwadzieścia jeden").
 * Null for anything else, which is then said as digits.
 */
export function numberWords(language, n, { feminine = false } = {}) {
  if (!Number.isInteger(n) || n < 0 || n > 999) return null;
  const lang = languageOf(language);
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const words = [];
  if (lang === 'en') {
    if (hundreds > 0) words.push(`${ONES.en[hundreds]} hundred`);
    if (rest > 0 || n === 0) {
      const small = rest < 20 ? ONES.en[rest] : [TENS.en[Math.floor(rest / 10)], rest % 10 ? ONES.en[rest % 10] : null].filter(Boolean).join('-');
      words.push(hundreds > 0 ? `and ${small}` : small);
    }
    return words.join(' ');
  }
  if (hundreds > 0) words.push(HUNDREDS_PL[hundreds]);
  if (rest >= 20) words.push(TENS.pl[Math.floor(rest / 10)]);
  const last = rest < 20 ? rest : rest % 10;
  if (last > 0 || n === 0) words.push(ONES.pl[last]);
  if (feminine) {
    if (n === 1) words[words.length - 1] = 'jedna';
    else if (last === 2) words[words.length - 1] = 'dwie';
  }
  return words.join(' ');
}

/**
 * A dose's amount as it is said: "one tablet", "half a tablet", "one and a
 * half tablets", "10 ml" as "ten millilitres"; "jedna tabletka", "dwie
 * tabletki", "pięć tabletek", "pół tabletki", "półtorej tabletki",
 * "półtora plastra", "dwie i pół tabletki". A unit a caregiver typed, or an
 * amount not in quarters, is said as written ("1,2 tabletki").
 */
export function spokenAmount(language, amount, unit) {
  const lang = languageOf(language);
  const value = Number(amount);
  const id = unitId(unit);
  if (!id || !Number.isFinite(value) || value <= 0) return amountText(lang, amount, unit);
  const whole = Math.floor(value);
  const part = value - whole;
  if (part !== 0 && !PARTS[lang].has(part)) return amountText(lang, amount, unit);
  const forms = SPOKEN_FORMS[id]?.[lang] ?? UNIT_FORMS[id][lang];
  const feminine = lang === 'pl' && FEMININE_PL.has(id);
  const number = numberWords(lang, whole, { feminine });
  if (number === null) return amountText(lang, amount, unit);
  if (part === 0) return `${number} ${pluralForm(lang, whole, forms)}`;
  const partWords = PARTS[lang].get(part);
  if (lang === 'en') {
    if (whole > 0) return `${number} and ${partWords} ${forms.other}`;
    // "half a tablet", "a quarter of an injection"
    const article = /^[aeio]/i.test(forms.one) ? 'an' : 'a';
    return part === 0.5 ? `half ${article} ${forms.one}` : `${partWords} of ${article} ${forms.one}`;
  }
  // A fraction takes the noun's genitive singular, words.js's "other" form.
  if (whole === 0) return `${partWords} ${forms.other}`;
  if (whole === 1 && part === 0.5) return `${feminine ? 'półtorej' : 'półtora'} ${forms.other}`;
  return `${number} i ${partWords} ${forms.other}`;
}

/** "08:00" → "8:00", which a voice says as a time of day; anything else as it is. */
export function spokenTime(time) {
  const match = /^(\d{1,2}):(\d{2})$/.exec(String(time ?? '').trim());
  return match ? `${Number(match[1])}:${match[2]}` : String(time ?? '');
}

/** Ends with a full stop unless it already ends a sentence, so a voice pauses after it. */
export function endSentence(text) {
  const words = String(text ?? '').trim();
  return words === '' || /[.!?…:;]$/.test(words) ? words : `${words}.`;
}

/**
 * What Listen says for one of today's doses, `dose` as GET /today gives it
 * (status, time, amount, unit, medicationName, dose.snoozedUntil): due —
 * "It is time for Metformin, one tablet, at 8:00."; later today, or put
 * off until later — "Later today, at 13:00, it will be time for …"; then
 * what it looks like and how to take it. Null for a dose already answered
 * or missed. `clock` turns an ISO instant into "08:30" in the household's zone.
 */
export function spokenDose(t, language, dose, { now = hubNow(), clock = (iso) => iso } = {}) {
  const params = {
    medication: String(dose?.medicationName ?? dose?.name ?? '').trim(),
    amount: spokenAmount(language, dose?.amount ?? 1, dose?.unit),
    time: spokenTime(dose?.time),
  };
  let sentence;
  if (dose?.status === 'due') {
    sentence = t('readAloud.dose.due', params);
  } else if (dose?.status === 'upcoming') {
    sentence = t('readAloud.dose.later', params);
  } else if (dose?.status === 'snoozed') {
    const until = Date.parse(dose.dose?.snoozedUntil ?? '');
    sentence = Number.isNaN(until) || until <= now
      ? t('readAloud.dose.now', params)
      : t('readAloud.dose.later', { ...params, time: spokenTime(clock(dose.dose.snoozedUntil)) });
  } else {
    return null;
  }
  const appearance = String(dose.appearance ?? '').trim();
  const instructions = String(dose.instructions ?? '').trim();
  return [sentence, appearance ? t('readAloud.dose.looksLike', { appearance: endSentence(appearance) }) : '', endSentence(instructions)]
    .filter(Boolean).join(' ');
}

// The banner's and the Alerts page's sentences that have a dose in them,
// reworded to be heard; the others are read as they are shown.
const SPOKEN_ALERT_KEYS = {
  'alerts.message.doseDueMine': 'readAloud.alert.doseDueMine',
  'alerts.message.doseDue': 'readAloud.alert.doseDue',
  'alerts.message.doseMissed': 'readAloud.alert.doseMissed',
};

/**
 * What Listen says for an alert: for a senior's own dose "It is time for
 * Metformin, one tablet."; for a caregiver "Zosia: it is time for …, at
 * 8:00."; an SOS, low stock or the clock as the banner words them.
 * `helpers` are alertMessage's (time, nameOf, aliasOf).
 */
export function spokenAlert(t, language, alert, me, helpers = {}) {
  const { key, params } = alertMessage(alert, me, { ...helpers, amountText: (amount, unit) => spokenAmount(language, amount, unit) });
  const spoken = SPOKEN_ALERT_KEYS[key];
  return spoken ? t(spoken, { ...params, time: spokenTime(params.time) }) : t(key, params);
}

/** Whether the list's excerpt is only the start of the text: the hub cuts it at 160 characters and adds "…". */
export function isCutExcerpt(excerpt) {
  const text = String(excerpt ?? '');
  return text.endsWith('…') && [...text].length > 160;
}

/**
 * What Listen says for a note in the list: its title, then its text — the
 * whole text when the note has it, else the list's excerpt, stopped at the
 * last whole word and followed by "Open it to hear all of it". A checklist
 * is read as its items, the ticked ones said to be ticked, not as "[x]".
 */
export function spokenNote(t, note) {
  const title = String(note?.title ?? '').trim();
  const whole = typeof note?.text === 'string';
  let text = whole ? note.text : String(note?.excerpt ?? '');
  const cut = !whole && isCutExcerpt(text);
  if (cut) {
    const start = text.slice(0, -1);
    // The hub cuts mid-word: the last, broken word is left out (unless it is the only one).
    text = start.replace(/\s+\S*$/, '') || start;
  }
  const lines = readChecklist(text)
    .filter((line) => line.text.trim() !== '')
    .map((line) => {
      if (!line.isItem) return line.text.trim();
      return line.checked ? t('readAloud.note.ticked', { item: line.label.trim() }) : endSentence(line.label);
    });
  // With no title the list names the note by its first line, which the text says anyway.
  const parts = [title ? endSentence(title) : lines.length === 0 ? endSentence(t('notes.untitled')) : ''];
  parts.push(lines.length > 0 ? lines.join('\n') : t('readAloud.note.empty'));
  if (cut) parts.push(t('readAloud.note.more'));
  return parts.filter(Boolean).join('\n');
}
