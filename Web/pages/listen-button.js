// "Listen": one large control that reads something aloud in the page's
// language at the person's speaking rate, and "Stop" while it reads. Used
// wherever reading helps a senior: the panel's note, the notes list, a
// due dose, alerts, a game's rules. A browser with no voice for the page's
// language shows the control saying so (disabled) rather than reading
// Polish with an English voice.
import { h } from '../dom.js';
import { readAloud, stopReading, voiceState } from '../notes/read-aloud.js';
import { speechRateOf } from '../preferences.js';

/**
 * `text()` is read when pressed (so it says what is on screen then);
 * `label` names what is read for screen readers ("Listen: Metformin").
 */
export function listenButton(app, { id, text, label = null }) {
  const { t } = app;
  const word = h('span', { class: 'listen-word' });
  const button = h('button', { id, type: 'button', class: 'listen-button', onclick: toggle },
    h('span', { class: 'listen-icon', 'aria-hidden': 'true' }, '🔊'), word);
  let reading = false;

  function draw() {
    const state = voiceState(app.language);
    const usable = state === 'yes';
    button.classList.toggle('listen-unavailable', !usable);
    if (usable) button.removeAttribute('aria-disabled');
    else button.setAttribute('aria-disabled', 'true');
    word.textContent = !usable
      ? t(state === 'no' ? 'listen.cannot' : 'listen.noVoice', { language: t(`listen.language.${app.language}`) })
      : reading ? t('listen.stop') : t('listen.listen');
    if (label && usable && !reading) button.setAttribute('aria-label', `${t('listen.listen')}: ${label}`);
    else button.removeAttribute('aria-label');
  }

  function toggle() {
    if (button.getAttribute('aria-disabled') === 'true') return;
    if (reading) {
      stopReading();
      reading = false;
      draw();
      return;
    }
    const words = String(text() ?? '').trim();
    if (!words) return;
    reading = readAloud(words, app.language, {
      rate: speechRateOf(app.display?.speechRate),
      onEnd: () => { reading = false; if (button.isConnected) draw(); },
    });
    draw();
  }

  redraws.set(button, draw);
  draw();
  return button;
}

// Chromium lists its voices a moment after the page loads: every Listen
// control on the page looks again then (one listener, not one a button).
const redraws = new WeakMap();
globalThis.speechSynthesis?.addEventListener?.('voiceschanged', () => {
  for (const button of globalThis.document?.querySelectorAll('.listen-button') ?? []) redraws.get(button)?.();
});
