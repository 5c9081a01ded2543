// Numbers and counted words in English and Polish: "1 tablet", "2 tabletki",
// "5 tabletek", "½ tabletki". Polish nouns take one of three forms after a
// number (CLDR plural categories one/few/many, and "other" for fractions),
// which i18n's one-string-per-key dictionaries cannot express, so the forms
// live here. Pure: used by the schedule sentence, Today and the Node tests.

import { languageOf } from '../i18n.js';

/**
 * The CLDR plural category of `n` in `language`:
 * en: one (exactly 1) | other;
 * pl: one (1) | few (2–4, 22–24, … but not 12–14) | many (0, 5–21, 25, …) | other (fractions).
 */
export function pluralCategory(language, n) {
  const value = Math.abs(Number(n));
  const integer = Number.isInteger(value);
  if (language === 'pl') {
    if (!integer) return 'other';
    if (value === 1) return 'one';
    const last = value % 10;
    const lastTwo = value % 100;
    if (last >= 2 && last <= 4 && !(lastTwo >= 12 && lastTwo <= 14)) return 'few';
    return 'many';
  }
  return integer && value === 1 ? 'one' : 'other';
}

/** Picks the form for `n` from { one, few, many, other } (missing ones fall back to other, then many). */
export function pluralForm(language, n, forms) {
  const category = pluralCategory(language, n);
  return forms[category] ?? forms.other ?? forms.many ?? forms.one;
}

const FRACTIONS = new Map([[0.5, '½'], [0.25, '¼'], [0.75, '¾']]);

/** 1 → "1", 0.5 → "½", 1.5 → "1.5" (en) or "1,5" (pl); at most two decimals. */
export function formatNumber(language, n) {
  const value = Number(n);
  if (!Number.isFinite(value)) return String(n ?? '');
  if (FRACTIONS.has(value)) return FRACTIONS.get(value);
  const rounded = Math.round(value * 100) / 100;
  const text = String(rounded);
  return language === 'pl' ? text.replace('.', ',') : text;
}

/**
 * Units a medication is counted in, by the id stored on the hub (the
 * English plural, as the hub's default "tablets"). Anything else a
 * caregiver typed is shown as typed.
 */
export const UNIT_FORMS = Object.freeze({
  tablets: { en: { one: 'tablet', other: 'tablets' }, pl: { one: 'tabletka', few: 'tabletki', many: 'tabletek', other: 'tabletki' } },
  capsules: { en: { one: 'capsule', other: 'capsules' }, pl: { one: 'kapsułka', few: 'kapsułki', many: 'kapsułek', other: 'kapsułki' } },
  ml: { en: { one: 'ml', other: 'ml' }, pl: { one: 'ml', few: 'ml', many: 'ml', other: 'ml' } },
  drops: { en: { one: 'drop', other: 'drops' }, pl: { one: 'kropla', few: 'krople', many: 'kropli', other: 'kropli' } },
  puffs: { en: { one: 'puff', other: 'puffs' }, pl: { one: 'wdech', few: 'wdechy', many: 'wdechów', other: 'wdechu' } },
  sachets: { en: { one: 'sachet', other: 'sachets' }, pl: { one: 'saszetka', few: 'saszetki', many: 'saszetek', other: 'saszetki' } },
  patches: { en: { one: 'patch', other: 'patches' }, pl: { one: 'plaster', few: 'plastry', many: 'plastrów', other: 'plastra' } },
  injections: { en: { one: 'injection', other: 'injections' }, pl: { one: 'zastrzyk', few: 'zastrzyki', many: 'zastrzyków', other: 'zastrzyku' } },
  units: { en: { one: 'unit', other: 'units' }, pl: { one: 'jednostka', few: 'jednostki', many: 'jednostek', other: 'jednostki' } },
  teaspoons: { en: { one: 'teaspoon', other: 'teaspoons' }, pl: { one: 'łyżeczka', few: 'łyżeczki', many: 'łyżeczek', other: 'łyżeczki' } },
});

export const UNIT_IDS = Object.freeze(Object.keys(UNIT_FORMS));

/** The unit id for what is stored ("tablets", "Tablet", "tabletki" → "tablets"), or null. */
export function unitId(unit) {
  const text = String(unit ?? '').trim().toLowerCase();
  if (text === '') return 'tablets';
  if (Object.hasOwn(UNIT_FORMS, text)) return text;
  for (const [id, languages] of Object.entries(UNIT_FORMS)) {
    for (const forms of Object.values(languages)) {
      if (Object.values(forms).includes(text)) return id;
    }
  }
  return null;
}

/** The unit's name in a list of choices: "tablets", "tabletki". */
export function unitName(language, unit) {
  const id = unitId(unit);
  if (!id) return String(unit);
  const forms = UNIT_FORMS[id][language] ?? UNIT_FORMS[id].en;
  return language === 'pl' ? forms.few : forms.other;
}

/** "1 tablet", "2 tabletki", "5 tabletek", "½ tabletki", "10 ml"; an unknown unit as typed. */
export function amountText(language, amount, unit) {
  const number = formatNumber(language, amount);
  const id = unitId(unit);
  if (!id) return `${number} ${String(unit).trim()}`;
  const forms = UNIT_FORMS[id][language] ?? UNIT_FORMS[id].en;
  // English labels say "½ tablet", not "½ tablets".
  const value = Number(amount);
  if (language !== 'pl' && value > 0 && value < 1) return `${number} ${forms.one}`;
  return `${number} ${pluralForm(language, value, forms)}`;
}

/** "A", "A and B", "A, B and C" (pl: "i"). */
export function joinList(language, items) {
  const list = items.map(String);
  if (list.length <= 1) return list.join('');
  const and = language === 'pl' ? ' i ' : ' and ';
  return `${list.slice(0, -1).join(', ')}${and}${list.at(-1)}`;
}

/** A counted noun with its number: countText('pl', 5, {one:'dzień', many:'dni'}) → "5 dni". */
export function countText(language, n, forms) {
  return `${formatNumber(language, n)} ${pluralForm(language, n, forms)}`;
}

const DAY_FORMS = { en: { one: 'day', other: 'days' }, pl: { one: 'dzień', few: 'dni', many: 'dni', other: 'dnia' } };

/** "1 day", "12 days"; "1 dzień", "5 dni". */
export function daysText(language, n) {
  return countText(language, n, DAY_FORMS[languageOf(language)]);
}
