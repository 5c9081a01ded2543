// The line under the SOS slider (#sos-status, in the SOS bar, whose height
// the page keeps free): what became of her call for help as it is now,
// followed from the open alerts (care/alert-center.js) and the live stream,
// in the words of care/sos-status.js. "Calling for help…" while the slide is
// being sent; "could not be sent" until she tries again, or, when the hub
// could not be reached or had not yet let this device in, until the live
// connection is back: then it is no longer true. One per SOS bar, kept
// across a change of language.
import { getJSON, isConnectionProblem } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { closedUnheard, currentSOSLine, SOS_ENDED_SHOWN_MS } from '../../care/sos-status.js';
import { isOlderAlert, isOwnSOS } from '../../care/alerts.js';
import { hubNow } from '../../hub-clock.js';

/**
 * How long an ended call is still told, in ms. A test may set
 * `globalThis.hearthSOSEndedShownMs` from its own script (nothing on a page
 * can) to see the line go without waiting a minute.
 */
function endedShownMs() {
  const forTest = globalThis.hearthSOSEndedShownMs;
  return Number.isInteger(forTest) && forTest > 0 ? forTest : SOS_ENDED_SHOWN_MS;
}

export function createSOSStatus(app, { now = () => hubNow() } = {}) {
  const element = h('p', { id: 'sos-status', class: 'sos-status', role: 'status' });
  // Her calls as last heard (closed ones too), when each was seen closing,
  // and the slide under way or failed: { sending } | { failed, untilConnected }.
  const follow = { calls: new Map(), closedAt: new Map(), attempt: null, timer: null, reading: new Set() };

  // The same words again are not written again: a screen reader would say them again.
  const say = (text) => { if (element.textContent !== text) element.textContent = text; };

  function draw() {
    clearTimeout(follow.timer);
    follow.timer = null;
    const { t } = app;
    if (follow.attempt?.sending) {
      say(t('sos.sending'));
      return;
    }
    const shown = currentSOSLine([...follow.calls.values()], app.me.current, {
      now: now(), closedAt: (alert) => follow.closedAt.get(alert.id), shownMs: endedShownMs(),
      nameOf: (id) => app.me.nameOf(id),
    });
    // A call still open is what is true now, whatever became of a later slide.
    if (follow.attempt?.failed && shown?.endsAt !== null) {
      say(t('sos.failed'));
      return;
    }
    say(shown ? t(shown.line.key, shown.line.params) : '');
    if (shown?.endsAt) follow.timer = setTimeout(draw, Math.max(0, shown.endsAt - now()));
  }

  /** Keeps the latest state of one of her calls (an older one arriving late changes nothing). */
  function hear(alert) {
    if (!isOwnSOS(alert, app.me.current)) return;
    const known = follow.calls.get(alert.id);
    if (known && isOlderAlert(alert, known)) return;
    // Seen closing now; one first heard closed (a replay after a long gap) was never on the line.
    if (alert.open === false && known && known.open !== false) follow.closedAt.set(alert.id, now());
    follow.calls.set(alert.id, alert);
    if (alert.open !== false && follow.attempt?.failed) follow.attempt = null;
  }

  /** A call that left the open list without its ending heard: the hub says how it ended. */
  async function readEnding(alert) {
    if (follow.reading.has(alert.id)) return;
    follow.reading.add(alert.id);
    try {
      hear(await getJSON(paths.alert(alert.id), { t: app.t }));
    } catch {
      // Away again, or gone: the next reconnection lists the open ones again.
    } finally {
      follow.reading.delete(alert.id);
      draw();
    }
  }

  const stops = [
    app.alerts.subscribe((open) => {
      for (const alert of open) hear(alert);
      for (const alert of closedUnheard([...follow.calls.values()], open.map((a) => a.id))) readEnding(alert);
      draw();
    }),
    app.live.onChange((change) => {
      if (change.entity !== 'alert' || !change.payload || typeof change.payload !== 'object') return;
      hear(change.payload);
      draw();
    }),
    app.live.onState((state) => {
      // Back in touch with the hub: "could not be sent" for want of it is no longer true.
      if (state === 'connected' && follow.attempt?.untilConnected) {
        follow.attempt = null;
        draw();
      }
    }),
  ];
  for (const alert of app.alerts.open) hear(alert);
  draw();

  return {
    element,
    /** Drawn again in the page's language. */
    draw,
    /** The slide reached the end: the call is on its way to the hub. */
    sending() {
      follow.attempt = { sending: true };
      draw();
    },
    /** The hub took the call: from now on the line follows the alert. */
    sent(alert) {
      follow.attempt = null;
      hear(alert);
      draw();
    },
    /** It was not sent; a problem of reaching the hub goes when the live connection is back. */
    failed(problem) {
      follow.attempt = { failed: true, untilConnected: isConnectionProblem(problem) };
      draw();
    },
    stop() {
      for (const stop of stops) stop();
      clearTimeout(follow.timer);
    },
  };
}
