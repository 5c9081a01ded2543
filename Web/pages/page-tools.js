// What the pages (and the alert banner above them) share: a status line
// that screen readers announce; buttons that send one request at a time
// and say so while it runs; and reading a page's data again shortly after
// a live change it shows, or after a gap in the live connection (changes
// may have been missed); loading a page's data so that only the newest
// answer is shown; and redrawing only once a finger has lifted, so a tap
// is never lost to a redraw. One copy each, so every page behaves the same.
import { h } from '../dom.js';

/** A burst of changes (a dose taken moves its stock too) is read once. */
export const RELOAD_DELAY_MS = 150;

/**
 * A polite status line (`element`, to put on the page) and `announce(text)`.
 * Emptied first, so the same sentence twice is announced twice.
 */
export function createAnnouncer(id) {
  const element = h('p', { id, class: 'visually-hidden', role: 'status' });
  return { element, announce: (text) => announceIn(element, text) };
}

/**
 * Puts `text` in a live region already on the page (the alert banner's
 * #alert-announcer), emptied first and filled a moment later, so the same
 * sentence twice is heard twice.
 */
export function announceIn(element, text) {
  element.textContent = '';
  setTimeout(() => { element.textContent = text; }, 50);
}

/**
 * Buttons, each known by a key ("<dose>|taken", "<alert>:ack"), whose
 * request runs once at a time: a second press while it runs does nothing
 * (a double tap records once). The page draws a busy key's button with
 * aria-disabled, and `redraw()` is called as a request starts and ends.
 * `run(key, action)` reports the action's problem (or clears the last one
 * when it succeeds) and returns what the action returned, or undefined
 * when it failed or was already running.
 */
export function createBusyKeys(app, { redraw = () => {} } = {}) {
  const running = new Set();
  return {
    has: (key) => running.has(key),
    /** The busy keys, for a page's "has anything shown changed" signature. */
    keys: () => [...running],
    async run(key, action) {
      if (running.has(key)) return undefined;
      running.add(key);
      redraw();
      try {
        const result = await action();
        app.clearProblem();
        return result;
      } catch (problem) {
        app.reportProblem(problem);
        return undefined;
      } finally {
        running.delete(key);
        redraw();
      }
    },
  };
}

/**
 * A form's one button while its request runs: aria-disabled, saying what
 * it does ("Creating…"), and its own label again afterwards. A press while
 * it runs does nothing. Problems are the caller's (they go on through).
 */
export async function whileBusy(button, busyLabel, action) {
  if (button.getAttribute('aria-disabled') === 'true') return;
  const label = button.textContent;
  button.setAttribute('aria-disabled', 'true');
  button.textContent = busyLabel;
  try {
    await action();
  } finally {
    button.removeAttribute('aria-disabled');
    button.textContent = label;
  }
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

/**
 * A page's load where only the newest answer counts: each `load(...args)`
 * aborts the one before, so a slow answer to an older question (the list
 * before a search was typed) never replaces a newer one. `read(signal,
 * ...args)` asks the hub; `shown(answer)` keeps and draws what it said;
 * `failed()` runs before a problem is reported (a "Loading…" that would
 * never end is taken away). An aborted load says nothing. `stop()` aborts
 * the load under way, for when the page is left.
 */
export function createNewestLoader(app, { read, shown, failed = () => {} }) {
  let request = null;
  return {
    async load(...args) {
      request?.abort();
      const thisRequest = new AbortController();
      request = thisRequest;
      try {
        const answer = await read(thisRequest.signal, ...args);
        if (request !== thisRequest) return;
        shown(answer);
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        failed();
        app.reportProblem(problem);
      }
    },
    stop() {
      request?.abort();
    },
  };
}

/** How long a finger resting on the screen may hold a page's redraw back. */
export const TAP_HOLDS_REDRAW_MS = 3000;

/**
 * `redraw`, put off while a finger (or a mouse button) is down on `root`
 * and done just after it lifts, once its tap has been handled. Redrawn under
 * the finger, the press began on the old button and ends on the new one (or
 * on whatever moved to its place), and the browser gives the tap to
 * neither: she tapped "Skip" as a live change came, and nothing happened.
 * A finger resting on the screen holds the page still for `longest` ms at
 * most. `lifts` hears the finger lift anywhere (the window). Returns
 * { redraw, stop }.
 */
export function redrawAfterTaps(root, redraw, { lifts = globalThis, longest = TAP_HOLDS_REDRAW_MS } = {}) {
  let pressed = false;
  let waiting = false;
  let limit = null;
  const drawNow = () => {
    clearTimeout(limit);
    limit = null;
    waiting = false;
    redraw();
  };
  const press = () => { pressed = true; };
  // The click follows pointerup in the same task: the redraw comes after it.
  const lift = () => {
    if (!pressed) return;
    pressed = false;
    setTimeout(() => { if (waiting && !pressed) drawNow(); }, 0);
  };
  root.addEventListener('pointerdown', press, true);
  lifts.addEventListener('pointerup', lift, true);
  lifts.addEventListener('pointercancel', lift, true);
  return {
    redraw() {
      if (!pressed) {
        drawNow();
        return;
      }
      waiting = true;
      limit ??= setTimeout(() => {
        pressed = false;
        drawNow();
      }, longest);
    },
    stop() {
      root.removeEventListener('pointerdown', press, true);
      lifts.removeEventListener('pointerup', lift, true);
      lifts.removeEventListener('pointercancel', lift, true);
      clearTimeout(limit);
      limit = null;
      waiting = false;
    },
  };
}
