// "Read aloud": the browser's own speech (speechSynthesis), in the language
// the page is shown in, so a Polish note is not read with an English voice.

const SPEECH_LANGUAGES = { pl: 'pl-PL', en: 'en-GB' };

/** The BCP 47 tag to speak in for a UI language ("pl" → "pl-PL"). */
export function speechLanguage(language) {
  return SPEECH_LANGUAGES[language] ?? SPEECH_LANGUAGES.en;
}

/**
 * The best voice for `language` among `voices` (speechSynthesis.getVoices()):
 * the exact regional voice (pl-PL, en-GB), else any of the same language,
 * a local one first; null lets the browser choose by `lang`.
 */
export function pickVoice(voices, language) {
  const wanted = speechLanguage(language).toLowerCase();
  const primary = wanted.split('-')[0];
  const tag = (voice) => String(voice?.lang ?? '').toLowerCase().replace('_', '-');
  const ranked = (list) => [...list].sort((a, b) => Number(b.localService === true) - Number(a.localService === true));
  return ranked(voices.filter((v) => tag(v) === wanted))[0]
    ?? ranked(voices.filter((v) => tag(v).split('-')[0] === primary))[0]
    ?? null;
}

/**
 * Reads `text` aloud; returns false when this browser cannot speak.
 * `onEnd` runs when it finishes or is stopped.
 */
export function readAloud(text, language, { speech = globalThis.speechSynthesis, Utterance = globalThis.SpeechSynthesisUtterance, onEnd = () => {}, rate = 1 } = {}) {
  if (!speech || typeof Utterance !== 'function') return false;
  speech.cancel();
  const utterance = new Utterance(text);
  utterance.lang = speechLanguage(language);
  utterance.rate = rate;
  const voice = pickVoice(speech.getVoices?.() ?? [], language);
  if (voice) utterance.voice = voice;
  utterance.onend = onEnd;
  utterance.onerror = onEnd;
  speech.speak(utterance);
  return true;
}

export function stopReading(speech = globalThis.speechSynthesis) {
  speech?.cancel();
}

/**
 * Whether this browser can read `language` in a voice of that language:
 * "no" (no speech at all), "no-voice" (speech, but no voice for it — the
 * control says so rather than reading Polish with an English voice), "yes".
 */
export function voiceState(language, speech = globalThis.speechSynthesis, Utterance = globalThis.SpeechSynthesisUtterance) {
  if (!speech || typeof Utterance !== 'function') return 'no';
  return pickVoice(speech.getVoices?.() ?? [], language) ? 'yes' : 'no-voice';
}

export const canReadAloud = () => Boolean(globalThis.speechSynthesis && globalThis.SpeechSynthesisUtterance);
