// The SOS slider in the SOS bar on every page of a senior's (sos-dock.js). It sends only when the red
// button is dragged all the way to the right (a tap does nothing), or — by
// keyboard — when the focused slider is moved to the end with the right
// arrow key or End; its label says so. The rules are in care/sos-slider.js;
// the line under it (`status`, pages/today/sos-status.js) follows the call after.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { SOS_MAX, SOS_MIN, sends, valueAfterKey, valueFromDrag, valueState } from '../../care/sos-slider.js';

const RESET_AFTER_MS = 1500;

export function createSOSControl(app, { status, onSent = () => {} }) {
  const { t } = app;
  // Where the slider is, whether the SOS is being sent, and the drag under way.
  const slider = { value: SOS_MIN, sending: false, drag: null, resetTimer: null };

  const thumb = h('div', {
    id: 'sos-slider', class: 'sos-thumb', role: 'slider', tabindex: '0',
    'aria-label': t('sos.sliderLabel'), 'aria-describedby': 'sos-hint',
    'aria-valuemin': String(SOS_MIN), 'aria-valuemax': String(SOS_MAX), 'aria-orientation': 'horizontal',
  }, h('span', { 'aria-hidden': 'true' }, t('sos.thumb')));
  const track = h('div', { class: 'sos-track', id: 'sos-track' },
    h('span', { class: 'sos-track-label', 'aria-hidden': 'true' }, t('sos.trackLabel')),
    thumb);
  const section = h('section', { id: 'sos', class: 'sos-section', 'aria-labelledby': 'sos-heading' },
    h('h2', { id: 'sos-heading' }, t('sos.heading')),
    h('p', { id: 'sos-hint', class: 'hint sos-hint' }, t('sos.hint')),
    track,
    status.element);

  function show(next, { animate = false } = {}) {
    slider.value = next;
    const { value } = slider;
    track.classList.toggle('sos-returning', animate);
    track.style.setProperty('--sos-progress', String(value / SOS_MAX));
    thumb.setAttribute('aria-valuenow', String(Math.round(value)));
    thumb.setAttribute('aria-valuetext', slider.sending ? t('sos.value.sending') : t(`sos.value.${valueState(value)}`, { percent: Math.round(value) }));
    track.dataset.value = String(Math.round(value));
  }

  async function send() {
    if (slider.sending) return;
    slider.sending = true;
    show(SOS_MAX);
    status.sending();
    try {
      const alert = await sendJSON('POST', paths.sos(), {}, { t });
      app.clearProblem();
      status.sent(alert);
      app.alerts.take(alert);
      onSent(alert);
    } catch (problem) {
      status.failed(problem);
      app.reportProblem(problem);
    } finally {
      slider.sending = false;
      clearTimeout(slider.resetTimer);
      slider.resetTimer = setTimeout(() => show(SOS_MIN, { animate: true }), RESET_AFTER_MS);
    }
  }

  followKeys(slider, thumb, { show, send });
  followPointer(slider, { thumb, track }, { show, send });
  show(SOS_MIN);

  return {
    element: section,
    stop() {
      clearTimeout(slider.resetTimer);
    },
  };
}

/** The keyboard: the arrow keys and Home/End move it; at the end it sends. Leaving it half-moved springs it back. */
function followKeys(slider, thumb, { show, send }) {
  thumb.addEventListener('keydown', (event) => {
    if (slider.sending) return;
    const next = valueAfterKey(event.key, slider.value);
    if (next === null) return;
    event.preventDefault();
    show(next);
    if (sends(next)) send();
  });
  // A half-moved slider does not wait for the next person to finish it.
  thumb.addEventListener('blur', () => {
    if (!slider.sending && !slider.drag && slider.value > SOS_MIN) show(SOS_MIN, { animate: true });
  });
}

/** A finger or the mouse: dragged all the way it sends; let go before the end it springs back. */
function followPointer(slider, { thumb, track }, { show, send }) {
  thumb.addEventListener('pointerdown', (event) => {
    if (slider.sending || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    thumb.focus();
    try {
      thumb.setPointerCapture(event.pointerId);
    } catch {
      // an already-released pointer: the move events still arrive on the thumb
    }
    slider.drag = { startX: event.clientX, startValue: slider.value, travel: track.clientWidth - thumb.offsetWidth };
    track.classList.add('sos-dragging');
  });
  thumb.addEventListener('pointermove', (event) => {
    const { drag } = slider;
    if (!drag) return;
    show(valueFromDrag(drag.startValue, event.clientX - drag.startX, drag.travel));
  });
  function release() {
    if (!slider.drag) return;
    slider.drag = null;
    track.classList.remove('sos-dragging');
    if (sends(slider.value, { dragging: true })) send();
    else show(SOS_MIN, { animate: true }); // springs back: not sent
  }
  thumb.addEventListener('pointerup', release);
  thumb.addEventListener('pointercancel', () => {
    slider.drag = null;
    track.classList.remove('sos-dragging');
    if (!slider.sending) show(SOS_MIN, { animate: true });
  });
  thumb.addEventListener('lostpointercapture', release);
}
