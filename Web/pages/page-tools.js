// What the pages share: a status line that screen readers announce, and
// reading a page's data again shortly after a live change it shows, or
// after a gap in the live connection (changes may have been missed).
import { h } from '../dom.js';

/** A burst of changes (a dose taken moves its stock too) is read once. */
export const RELOAD_DELAY_MS = 150;

/**
 * A polite status line (`element`, to put on the page) and `announce(text)`.
 * Emptied first, so the same sentence twice is announced twice.
 */
export function createAnnouncer(id) {
  const element = h('p', { id, class: 'visually-hidden', role: 'status' });
  return {
    element,
    announce(text) {
      element.textContent = '';
      setTimeout(() => { element.textContent = text; }, 50);
    },
  };
}

/**
 * Calls `load` shortly after a live change that `matters(change)` says the
 * page shows, when the live connection comes back, and when it was reset.
 * Returns { soon, stop }: `soon()` asks for a reload by hand; `stop()` ends
 * it all, for when the page is left.
 */
export function reloadOnLiveChanges(live, load, matters, delay = RELOAD_DELAY_MS) {
  let timer = null;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(load, delay);
  };
  const stops = [
    live.onChange((change) => { if (matters(change)) soon(); }),
    live.onState((state) => { if (state === 'connected') soon(); }),
    live.onReset(soon),
  ];
  return {
    soon,
    stop() {
      for (const stop of stops) stop();
      clearTimeout(timer);
    },
  };
}
