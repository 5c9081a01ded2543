// The household's names in the reader's alphabetical order: in Polish
// "Świątek" comes after "Szymański" (Ś is a letter of its own), in English
// before; case alone never decides ("ania" and "Ania" are one name).

import { languageOf } from './i18n.js';

/** A comparator of two names (strings; missing ones sort as empty). */
export function nameOrder(language) {
  const collator = new Intl.Collator(languageOf(language), { sensitivity: 'base' });
  return (a, b) => collator.compare(String(a ?? ''), String(b ?? ''));
}
