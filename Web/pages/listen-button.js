// "Listen": one large control that reads something aloud in the page's
// language at the person's speaking rate, and "Stop" while it reads. Used
// wherever reading helps a senior: the panel's note, the notes list, a
// due dose, alerts, a game's rules. A browser with no voice for the page's
// language shows the control saying so (disabled) rather than reading
// Polish with an English voice.
import { h } from '../dom.js';
import { icon } from '../icon.js';
import { readAloud, stopReading, voiceState } from '../notes/read-aloud.js';
import { speechRateOf } from '../preferences.js';

// Which control is reading, by id, and which time it was pressed: a list
// redrawn while it reads (a live change) draws that control as "Stop" again,
// and the end of an earlier reading, stopped for this one, changes nothing.
let readingId = null;
let readingTurn = 0;

/**
 * `text()` is read when pressed (so it says what is on screen then), or
 * resolves to what to read (a whole note fetched first);
 * `label` names what is read for screen readers ("Listen: Metformin");
 * `attributes` go on the button too (data-focus-key, aria-describedby).
 */
export function listenButton(app, { id, text, label = null, attributes = {} }) {
  const { t } = app;
  const word = h('span', { class: 'listen-word' });
  const button = h('button', { ...attributes, id, type: 'button', class: 'listen-button', onclick: toggle },
    icon('volume-up-fill', 'listen-icon'), word);

  function draw() {
    const state = voiceState(app.language);
    const usable = state === 'yes';
    const reading = usable && readingId === id;
    button.setAttribute('data-reading', String(reading));
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
    if (readingId === id) {
      readingId = null;
      stopReading();
      draw();
      return;
    }
    const given = text();
    const later = typeof given?.then === 'function';
    if (!later && !String(given ?? '').trim()) return;
    const turn = ++readingTurn;
    const before = readingId;
    readingId = id;
    const speak = (words) => readAloud(words, app.language, {
      rate: speechRateOf(app.display?.speechRate),
      onEnd: () => {
        if (turn === readingTurn) readingId = null;
        redrawById(id);
      },
    });
    if (later) {
      // Words still to be fetched (a whole note): some browsers let a page
      // speak only from the press itself, so speech starts now, silent, and
      // the words follow — unless another press came first.
      readAloud(' ', app.language, {});
      given.then((words) => String(words ?? '').trim(), () => '').then((words) => {
        if (turn !== readingTurn || readingId !== id) return;
        if (!words || !speak(words)) {
          readingId = null;
          redrawById(id);
        }
      });
    } else if (!speak(String(given).trim())) {
      readingId = null;
    }
    if (before !== null) redrawById(before);
    draw();
  }

  redraws.set(button, draw);
  draw();
  return button;
}

// Chromium lists its voices a moment after the page loads: every Listen
// control on the page looks again then (one listener, not one a button).
const redraws = new WeakMap();
// The control now on the page with that id, which may have been redrawn since it was pressed.
const redrawById = (id) => {
  const button = globalThis.document?.getElementById?.(id);
  if (button) redraws.get(button)?.();
};
globalThis.speechSynthesis?.addEventListener?.('voiceschanged', () => {
  for (const button of globalThis.document?.querySelectorAll('.listen-button') ?? []) redraws.get(button)?.();
});
