// The person's display choices: text size and theme (language lives in
// i18n.js). Saved in localStorage so a tablet keeps large type after a
// reload, and applied as attributes on <html> that style.css reacts to.

export const TEXT_SIZE_STORAGE_KEY = 'hearth.textSize';
export const THEME_STORAGE_KEY = 'hearth.theme';

export const TEXT_SIZES = Object.freeze(['normal', 'large', 'x-large']);
/** "system" follows prefers-color-scheme; it is stored as no attribute. */
export const THEMES = Object.freeze(['system', 'light', 'dark']);

/** How fast things are read aloud: the hub keeps the word, speech takes the rate. */
export const SPEECH_RATES = Object.freeze({ slower: 0.6, slow: 0.8, normal: 1, fast: 1.25 });

/** The rate to speak at for a person's `speechRate` ("slow" → 0.8); unknown is normal. */
export function speechRateOf(word) {
  return Object.hasOwn(SPEECH_RATES, word) ? SPEECH_RATES[word] : 1;
}

/** A stored value if it is one we know, else the default. */
export function validChoice(value, allowed) {
  return allowed.includes(value) ? value : allowed[0];
}

/**
 * localStorage can be missing or throw (private browsing, storage full);
 * the choice then lasts until reload instead of breaking the page.
 */
export function readSaved(storage, key) {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeSaved(storage, key, value) {
  try {
    storage?.setItem(key, value);
  } catch {
    // ignored on purpose, see readSaved
  }
}

export function readPreferences(storage) {
  return {
    textSize: validChoice(readSaved(storage, TEXT_SIZE_STORAGE_KEY), TEXT_SIZES),
    theme: validChoice(readSaved(storage, THEME_STORAGE_KEY), THEMES),
  };
}

/** Sets data-text-size and data-theme on the <html> element. */
export function applyPreferences(root, { textSize, theme }) {
  root.setAttribute('data-text-size', validChoice(textSize, TEXT_SIZES));
  if (theme === 'light' || theme === 'dark') {
    root.setAttribute('data-theme', theme);
  } else {
    root.removeAttribute('data-theme');
  }
}
