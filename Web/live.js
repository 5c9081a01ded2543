// The live connection to WS /api/v1/live. The hub sends
//   {"type":"hello","seq":N}   first, N = last seq in its change log,
//   {"type":"change","seq":…,"entity":…,…} for every committed change,
//   {"type":"test","id":…,"title":…,"message":…} (no seq) when this person
//   pressed "Send a test", so they see that alerts reach this open page too,
// and closes with 4000 "resync" when this client fell behind. We keep the
// last seq we saw and always reconnect with ?since=<it>, so the hub replays
// what we missed and nobody's view silently goes stale.
// Only paired devices may listen: the hub closes with 4401 when this device
// is revoked, and refuses the upgrade of an unpaired one (which a browser
// sees only as a socket that never opened). Then there is no point knocking
// every second: we retry once a minute, in case it was paired in another tab.
// Pure parts are exported for Node tests; the socket and timers are injected.
import { API_BASE, paths } from './api-paths.js';

export const RESYNC_CLOSE_CODE = 4000;
// The hub refused our cursor: it is not a number (4400) or it is newer than
// the hub's log (4409, e.g. after a restore). Start again from "now" and reload.
export const INVALID_CURSOR_CLOSE_CODE = 4400;
export const CURSOR_AHEAD_CLOSE_CODE = 4409;
export const REVOKED_CLOSE_CODE = 4401;
export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 30000;
export const UNPAIRED_RETRY_MS = 60000;

/** ws://host/api/v1/live?since=N (wss: when the page came over https:). */
export function liveURL(location, since = null) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const resume = Number.isInteger(since) && since >= 0 ? { since } : {};
  return new URL(`${scheme}//${location.host}${API_BASE}${paths.live(resume)}`).toString();
}

/** Wait before retry number `attempt` (0-based): 1 s, 2 s, 4 s … capped at 30 s. */
export function retryDelay(attempt) {
  const n = Math.max(0, Math.floor(attempt));
  return Math.min(FIRST_RETRY_MS * 2 ** Math.min(n, 30), MAX_RETRY_MS);
}

/**
 * Reads one frame given the last seq we saw (null before the first hello).
 * Returns { lastSeq, hello, change, reset, test }:
 * - hello on a fresh start adopts the hub's seq; on a resume it keeps ours,
 *   because the hub is about to replay everything after it;
 * - a hello below our seq means the hub's log restarted (restore from
 *   backup): adopt it and report `reset` so pages reload their data;
 * - a change at or below lastSeq is a duplicate from the replay and ignored;
 * - a test (with an id) is not in the change log: it has no seq, is never
 *   replayed, and leaves the cursor where it was.
 */
export function readFrame(lastSeq, text) {
  const nothing = { lastSeq, hello: false, change: null, reset: false, test: null };
  let frame;
  try {
    frame = typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    return nothing;
  }
  if (frame?.type === 'test') {
    return typeof frame.id === 'string' && frame.id !== '' ? { ...nothing, test: frame } : nothing;
  }
  const seq = frame?.seq;
  if (!Number.isInteger(seq)) return nothing;

  if (frame.type === 'hello') {
    if (lastSeq === null || seq < lastSeq) {
      return { ...nothing, lastSeq: seq, hello: true, reset: lastSeq !== null };
    }
    return { ...nothing, hello: true };
  }
  if (frame.type === 'change' && (lastSeq === null || seq > lastSeq)) {
    return { ...nothing, lastSeq: seq, change: frame };
  }
  return nothing;
}

/**
 * What to do after the socket closed: a resync reconnects at once (the hub
 * asked for it); a revoked device (4401), or one already known to be
 * unpaired, shows "disconnected" and retries only slowly; anything else
 * shows "disconnected" and backs off. `unpaired` in the plan is whether this
 * device is now known not to be paired.
 */
export function planReconnect(code, reason, attempt, unpaired = false) {
  if (code === RESYNC_CLOSE_CODE) {
    return { state: 'connecting', delay: 0, attempt: 0, forget: false, unpaired };
  }
  if (code === INVALID_CURSOR_CLOSE_CODE || code === CURSOR_AHEAD_CLOSE_CODE) {
    return { state: 'connecting', delay: 0, attempt: 0, forget: true, unpaired };
  }
  const nowUnpaired = unpaired || code === REVOKED_CLOSE_CODE;
  return {
    state: 'disconnected',
    delay: nowUnpaired ? UNPAIRED_RETRY_MS : retryDelay(attempt),
    attempt: attempt + 1,
    forget: false,
    unpaired: nowUnpaired,
  };
}

/**
 * Opens and keeps open the live connection.
 * subscribe with onState(fn) ("connecting" | "connected" | "disconnected")
 * and onChange(fn) (one change frame); both return an unsubscribe function.
 * onReset(fn) fires when the hub's log restarted and data should be reloaded.
 * onTest(fn) gets a test frame ({ id, title, message }) when this person
 * pressed "Send a test" (care/test-notice.js shows it).
 * onUnpaired(fn) fires when the hub closed because this device was revoked;
 * onRefused(fn) when a socket closed without ever opening (hub away, or this
 * device not paired: the app asks the API which). markUnpaired() slows the
 * retries down once the app knows this device is not paired.
 */
export function createLiveConnection({
  location = globalThis.location,
  WebSocketImpl = globalThis.WebSocket,
  setTimer = (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimer = (id) => globalThis.clearTimeout(id),
} = {}) {
  const listeners = createListeners('state', 'change', 'reset', 'unpaired', 'refused', 'test');
  // Where the connection stands, and what it is given; the functions below change it.
  const live = {
    state: 'connecting', unpaired: false, lastSeq: null, attempt: 0, socket: null, timer: null, stopped: true,
    location, WebSocketImpl, setTimer, clearTimer, listeners,
  };

  return {
    get state() {
      return live.state;
    },
    get lastSeq() {
      return live.lastSeq;
    },
    start() {
      if (!live.stopped) return;
      live.stopped = false;
      open(live);
    },
    /** Try now instead of waiting out the backoff (e.g. the network came back). */
    retryNow() {
      if (live.stopped || live.state === 'connected') return;
      closeSocket(live);
      open(live);
    },
    stop() {
      live.stopped = true;
      closeSocket(live);
    },
    get unpaired() {
      return live.unpaired;
    },
    /**
     * The API said this device is not paired: stop knocking every second.
     * The next attempt waits a minute (the one in flight, if any, still ends).
     */
    markUnpaired() {
      if (live.unpaired) return;
      live.unpaired = true;
      if (live.stopped || live.state === 'connected') return;
      setState(live, 'disconnected');
      if (live.timer !== null) {
        clearTimer(live.timer);
        live.timer = setTimer(() => open(live), UNPAIRED_RETRY_MS);
      }
    },
    onState: (fn) => listeners.add('state', fn),
    onChange: (fn) => listeners.add('change', fn),
    onTest: (fn) => listeners.add('test', fn),
    onReset: (fn) => listeners.add('reset', fn),
    onUnpaired: (fn) => listeners.add('unpaired', fn),
    onRefused: (fn) => listeners.add('refused', fn),
  };
}

/** Listeners by kind; `add` returns what removes the listener again. */
function createListeners(...kinds) {
  const sets = Object.fromEntries(kinds.map((kind) => [kind, new Set()]));
  return {
    add(kind, fn) {
      sets[kind].add(fn);
      return () => sets[kind].delete(fn);
    },
    // A page's listener that throws must not take the connection down with it.
    notify(kind, ...args) {
      for (const fn of sets[kind]) {
        try {
          fn(...args);
        } catch (error) {
          console.error('live listener failed', error);
        }
      }
    },
  };
}

function setState(live, next) {
  if (next === live.state) return;
  live.state = next;
  live.listeners.notify('state', live.state);
}

function scheduleAfterClose(live, code, reason) {
  const plan = planReconnect(code, reason, live.attempt, live.unpaired);
  live.attempt = plan.attempt;
  if (plan.forget) {
    live.lastSeq = null;
    live.listeners.notify('reset');
  }
  const becameUnpaired = plan.unpaired && !live.unpaired;
  live.unpaired = plan.unpaired;
  setState(live, plan.state);
  live.timer = live.setTimer(() => open(live), plan.delay);
  if (becameUnpaired) live.listeners.notify('unpaired');
}

/** Opens a socket and follows what it says until it closes; then plans the next one. */
function open(live) {
  live.timer = null;
  if (live.stopped) return;
  let ws;
  try {
    ws = new live.WebSocketImpl(liveURL(live.location, live.lastSeq));
  } catch {
    scheduleAfterClose(live, 1006, ''); // treat like a dropped connection
    return;
  }
  live.socket = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
  };
  ws.onmessage = (event) => {
    if (ws !== live.socket) return;
    opened = true;
    const result = readFrame(live.lastSeq, event.data);
    live.lastSeq = result.lastSeq;
    if (result.hello) {
      live.attempt = 0; // the hub answered: the next failure starts at 1 s again
      live.unpaired = false; // it let us in, so this device is paired (again)
      setState(live, 'connected');
    }
    if (result.reset) live.listeners.notify('reset');
    if (result.change) live.listeners.notify('change', result.change);
    if (result.test) live.listeners.notify('test', result.test);
  };
  // Errors are always followed by close; deciding there keeps one path.
  ws.onerror = () => {};
  ws.onclose = (event) => {
    if (ws !== live.socket) return;
    live.socket = null;
    if (live.stopped) return;
    scheduleAfterClose(live, event.code, event.reason);
    if (!opened) live.listeners.notify('refused');
  };
}

function closeSocket(live) {
  if (live.timer !== null) live.clearTimer(live.timer);
  live.timer = null;
  const ws = live.socket;
  live.socket = null;
  if (ws) ws.close(1000, 'bye');
}
