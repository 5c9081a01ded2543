// Translation helpers. Dictionaries are nested JSON (nav.today, live.connected);
// a missing string falls back to English and then to the key itself, so a
// forgotten translation shows something readable instead of breaking a page.

export const LANGUAGES = Object.freeze(['en', 'pl']);
export const FALLBACK_LANGUAGE = 'en';
/**
 * Each language's name written in itself, so either can be found whichever
 * language is showing now (the header's switch, Settings, the hub's language).
 */
export const LANGUAGE_NAMES = Object.freeze({ en: 'English', pl: 'Polski' });
/** localStorage key that remembers the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'hearth.language';

/** Looks up "a.b.c" in a nested dictionary; undefined unless it is a string. */
export function lookup(dict, key) {
  let node = dict;
  for (const part of String(key).split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) {
      return undefined;
    }
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Replaces {name} placeholders; unknown placeholders are left visible. */
export function fillPlaceholders(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) && params[name] != null ? String(params[name]) : whole,
  );
}

/** Returns t(key, params) for one language with English as the fallback. */
export function createTranslator(dict, fallbackDict = {}) {
  return function t(key, params) {
    const text = lookup(dict, key) ?? lookup(fallbackDict, key) ?? String(key);
    return fillPlaceholders(text, params);
  };
}

/** "pl-PL" → "pl"; anything we do not ship → null. */
export function normalizeLanguage(tag) {
  const primary = String(tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(primary) ? primary : null;
}

/**
 * The language whose words to use for `language` (a language we ship, else
 * English): the one check the pages and the pure modules make.
 */
export function languageOf(language) {
  return normalizeLanguage(language) ?? FALLBACK_LANGUAGE;
}

/**
 * The locale dates, numbers and alphabetical order are written in: Polish as
 * in Poland, English as in Britain (day before month, a 24-hour clock).
 */
export function localeOf(language) {
  return languageOf(language) === 'pl' ? 'pl-PL' : 'en-GB';
}

/**
 * The language to start with: the saved choice, else the first browser
 * language we have, else English.
 */
export function pickLanguage(saved, navigatorLanguages = []) {
  const fromSaved = normalizeLanguage(saved);
  if (fromSaved) return fromSaved;
  for (const tag of navigatorLanguages ?? []) {
    const found = normalizeLanguage(tag);
    if (found) return found;
  }
  return FALLBACK_LANGUAGE;
}

/** Every dotted key of a nested dictionary, sorted (used by the parity test). */
export function flattenKeys(dict, prefix = '') {
  return Object.entries(dict)
    .flatMap(([name, value]) =>
      value !== null && typeof value === 'object'
        ? flattenKeys(value, `${prefix}${name}.`)
        : [`${prefix}${name}`],
    )
    .sort();
}

/**
 * Fetches /i18n/<language>.json plus English and returns { language, t }.
 * If the chosen dictionary cannot be loaded the page still works in English;
 * if nothing loads, t() shows keys rather than a blank screen.
 */
export async function loadTranslator(language, fetchImpl = globalThis.fetch) {
  const load = async (lang) => {
    try {
      const response = await fetchImpl(`/i18n/${lang}.json`);
      return response.ok ? await response.json() : null;
    } catch {
      return null;
    }
  };
  const english = (await load(FALLBACK_LANGUAGE)) ?? {};
  if (language === FALLBACK_LANGUAGE) {
    return { language, t: createTranslator(english) };
  }
  const chosen = await load(language);
  return chosen
    ? { language, t: createTranslator(chosen, english) }
    : { language: FALLBACK_LANGUAGE, t: createTranslator(english) };
}
