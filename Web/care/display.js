// A person's display settings — text size, theme, language, speaking rate —
// kept on the hub (GET/PUT /people/{id}/display), so a caregiver can give a
// senior larger text from her own phone and every device of the senior's
// follows within a second (the live stream's `displaySettings` change).
// This browser still keeps a copy in localStorage so it starts in the
// right size and language before the hub answers. Pure parts are exported
// for Node tests; the page wiring is createDisplaySync.
import { getJSON, sendJSON } from '../api.js';
import { paths } from '../api-paths.js';
import { LANGUAGES } from '../i18n.js';
import { SPEECH_RATES, TEXT_SIZES, THEMES } from '../preferences.js';

export const SPEECH_RATE_NAMES = Object.freeze(Object.keys(SPEECH_RATES));

/** The settings a hub answer or live change holds, or null when one is missing or unknown. */
export function displayFrom(value) {
  if (value === null || typeof value !== 'object') return null;
  const { textSize, theme, language, speechRate } = value;
  if (!TEXT_SIZES.includes(textSize) || !THEMES.includes(theme) || !LANGUAGES.includes(language)
    || !SPEECH_RATE_NAMES.includes(speechRate)) return null;
  return { textSize, theme, language, speechRate };
}

/** Whether a live change is to this person's display settings. */
export function isMyDisplayChange(change, personId) {
  return change?.entity === 'displaySettings' && personId !== null && change?.payload?.personId === personId;
}

/**
 * What this browser should do when the hub first answers: use the hub's
 * settings when someone chose them; else, when this browser had choices of
 * its own from before the hub kept them, send those up (nothing the person
 * chose is lost); else use the hub's standard ones for the person's role.
 */
export function firstStep(answer, local) {
  const hub = displayFrom(answer);
  if (answer?.chosen === true && hub) return { use: hub, send: null };
  if (local.hadChoices) {
    const send = { ...(hub ?? { speechRate: 'normal' }), ...local.choices };
    return { use: send, send };
  }
  return { use: hub, send: null };
}

/**
 * Keeps this browser's person's settings with the hub. `apply(settings)`
 * shows them (text size and theme on <html>, the language, the rate for
 * Listen); `local()` is { hadChoices, choices } from this browser's storage
 * (none once `synced(personId)` said it follows the hub: what it keeps then
 * is a copy of someone's settings, not choices of its own);
 * `changedElsewhere()` runs after a change made on another device is shown.
 */
export function createDisplaySync(app, { apply, local, synced = () => {}, changedElsewhere = () => {} }) {
  let personId = null;
  let current = null;

  function use(settings) {
    if (!settings) return;
    current = settings;
    app.display = settings;
    apply(settings);
  }

  async function start() {
    const me = await app.me.load();
    personId = me?.personId ?? null;
    if (!personId) return;
    const answer = await getJSON(paths.personDisplay(personId), { t: app.t });
    const { use: shown, send } = firstStep(answer, local());
    use(shown);
    if (send) await save(send);
    synced(personId);
  }

  /** Sends the person's settings with `partial` changed; shown at once, put back if the hub refuses. */
  async function save(partial) {
    const before = current;
    const next = { ...(current ?? { textSize: 'normal', theme: 'system', language: app.language, speechRate: 'normal' }), ...partial };
    use(next);
    if (!personId) return;
    try {
      const answer = await sendJSON('PUT', paths.personDisplay(personId), next, { t: app.t });
      use(displayFrom(answer) ?? next);
    } catch (problem) {
      if (before) use(before);
      app.reportProblem(problem);
    }
  }

  app.live.onChange((change) => {
    if (!isMyDisplayChange(change, personId)) return;
    const settings = displayFrom(change.payload);
    if (!settings || JSON.stringify(settings) === JSON.stringify(current)) return;
    use(settings);
    changedElsewhere();
  });

  return {
    start: () => start().catch((problem) => app.reportProblem(problem)),
    save,
    get current() {
      return current;
    },
  };
}
