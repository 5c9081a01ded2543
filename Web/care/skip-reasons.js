// Why a dose was skipped. The hub keeps the reason as text (Dose.reason),
// so the other caregivers, the CLI and the history read it in words; the
// ready-made reasons are stored in the language of whoever chose them and
// shown in the reader's language, which needs every language's wording at
// once — so, like the units in words.js, they live here and not in the
// one-language i18n dictionaries. Anything typed is shown as typed.
// Pure, for the Node tests.

/** The hub refuses longer reasons (Dose.maximumReasonLength). */
export const REASON_MAX_LENGTH = 500;

export const SKIP_REASONS = Object.freeze({
  unwell: { en: 'Felt unwell', pl: 'Złe samopoczucie' },
  ranOut: { en: 'Ran out', pl: 'Skończył się lek' },
  doctorPause: { en: 'Doctor said to pause', pl: 'Lekarz zalecił przerwę' },
});

export const SKIP_REASON_IDS = Object.freeze(Object.keys(SKIP_REASONS));

const wording = (text) => String(text ?? '').trim().toLocaleLowerCase();

/** A ready-made reason's words in `language` (English for a language not here). */
export function skipReasonLabel(language, id) {
  const reason = SKIP_REASONS[id];
  if (!reason) return '';
  return reason[language] ?? reason.en;
}

/** The id of a ready-made reason written in any language, or null. */
export function skipReasonId(text) {
  const wanted = wording(text);
  if (wanted === '') return null;
  for (const [id, languages] of Object.entries(SKIP_REASONS)) {
    if (Object.values(languages).some((words) => wording(words) === wanted)) return id;
  }
  return null;
}

/** A stored reason as the reader should see it: a ready-made one in their language, else as typed; '' for none. */
export function skipReasonText(language, stored) {
  const id = skipReasonId(stored);
  return id ? skipReasonLabel(language, id) : String(stored ?? '').trim();
}

/**
 * The reason to send for what was chosen in the dialog: a ready-made one
 * in the chooser's language, or the typed text trimmed; null for "without
 * a reason" (or nothing typed). { reason } | { error: "tooLong" }.
 */
export function chosenReason(language, { id = null, typed = '' } = {}) {
  if (id && SKIP_REASONS[id]) return { reason: skipReasonLabel(language, id) };
  const text = String(typed ?? '').trim();
  if (text === '') return { reason: null };
  if ([...text].length > REASON_MAX_LENGTH) return { error: 'tooLong' };
  return { reason: text };
}
