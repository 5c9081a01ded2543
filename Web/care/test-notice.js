// "Test from Hearth: alerts reach this screen." When this person presses
// "Send a test" (Alerts on this phone) the hub sends the test to their open
// pages too, over the live stream (live.js onTest), so a caregiver or a
// senior learns that an alert would reach the tablet on the shelf, not only
// their phone. It shows above the page next to the alert banner, with one
// short beep as an alert would have (silent until the browser lets the page
// make sound, as for the banner), is announced to screen readers, and goes
// with "OK" or by itself after a minute: it asks nothing of anyone.
// Its own container, not the banner's: the banner redraws all of its own.
import { h } from '../dom.js';
import { announceIn } from '../pages/page-tools.js';
import { beep } from './beep.js';

/** How long the notice stays when nobody presses OK: long enough to walk to the tablet. */
export const TEST_NOTICE_MS = 60 * 1000;

/**
 * `container` is where the notice goes (#test-notice), `announcer` the
 * alert banner's live region. Sound and timers can be given (Node tests).
 */
export function createTestNotice(app, {
  container,
  announcer,
  sound = beep,
  setTimer = (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimer = (id) => globalThis.clearTimeout(id),
}) {
  let shownId = null; // the test on screen, or null
  let lastId = null; // a test already shown is not shown (or beeped) again
  let timer = null;

  const keyboardInside = () => container.contains(document.activeElement);

  function render() {
    if (shownId === null) {
      container.replaceChildren();
      container.hidden = true;
      return;
    }
    const hadKeyboard = keyboardInside();
    const { t } = app;
    // Shaped like an alert in the banner (same classes), so it reads as one.
    container.replaceChildren(h('section', { class: 'alert-item', 'data-kind': 'test', 'aria-labelledby': 'test-notice-text' },
      h('p', { class: 'alert-text', id: 'test-notice-text' }, t('alerts.testNotice.text')),
      h('div', { class: 'alert-actions' },
        h('button', {
          type: 'button', id: 'test-notice-ok', class: 'primary-button alert-ack', 'aria-describedby': 'test-notice-text',
          onclick: dismiss,
        }, t('alerts.testNotice.ok')))));
    container.hidden = false;
    // Redrawn for a new language: the keyboard stays on OK.
    if (hadKeyboard) container.querySelector('button')?.focus();
  }

  function dismiss() {
    if (timer !== null) clearTimer(timer);
    timer = null;
    if (shownId === null) return;
    const hadKeyboard = keyboardInside();
    shownId = null;
    render();
    // The button is gone: the keyboard goes on to the page, not to the top of the document.
    if (hadKeyboard) (document.querySelector('#page h1') ?? document.getElementById('main'))?.focus();
  }

  /** A test frame from the live stream ({ id, title, message }). */
  function show(frame) {
    if (!frame?.id || frame.id === lastId) return;
    lastId = frame.id;
    shownId = frame.id;
    if (timer !== null) clearTimer(timer);
    timer = setTimer(dismiss, TEST_NOTICE_MS);
    render();
    sound();
    // Our own words in the page's language, not the hub's title and message,
    // which are in the household's.
    if (announcer) announceIn(announcer, app.t('alerts.testNotice.text'));
  }

  return {
    /** Listens to the live stream; returns what stops it. */
    start: () => app.live.onTest(show),
    render,
    show,
    dismiss,
    get shown() {
      return shownId;
    },
  };
}
