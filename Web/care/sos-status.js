// What the line under a senior's SOS slider says about her call for help,
// from the alert as it is now, never from the moment she slid it: "Help has
// been called" while it waits, "Ania is on the way." once a caregiver
// answers, and for one minute after it closes that it was answered, or
// "Call for help cancelled." when she called it off herself. Then nothing:
// a line that stayed covered the page under the SOS bar and went on saying
// help was coming long after it came. Pure, for the Node tests.
import { cancelledByHer, isOwnSOS } from './alerts.js';

/** How long the line says how her call ended before it goes. */
export const SOS_ENDED_SHOWN_MS = 60 * 1000;

/**
 * The sentence for one of her SOS alerts as it is now: { key, params } for
 * t(). `nameOf` finds who answered when the alert does not name them.
 */
export function sosLine(alert, me, { nameOf = () => null } = {}) {
  if (alert.open === false) {
    return { key: cancelledByHer(alert, me) ? 'sos.cancelled' : 'sos.answered', params: {} };
  }
  if (!alert.respondedAt) return { key: 'sos.sent', params: {} };
  const name = alert.details?.respondedByName || nameOf(alert.respondedBy) || '';
  return name ? { key: 'sos.onTheWay', params: { name } } : { key: 'sos.helpOnTheWay', params: {} };
}

/**
 * Which of her calls the line speaks of at `now`, and what it says:
 * { alert, line, endsAt } or null for an empty line. The newest call still
 * open wins (endsAt null: it stays while it is true); else the call seen
 * closing last, for `shownMs` from `closedAt(alert)` (when this page learned
 * it closed, in its own clock: the hub's may differ). `calls` are the latest
 * states heard of her alerts; others' alerts are left out.
 */
export function currentSOSLine(calls, me, { now, closedAt, shownMs = SOS_ENDED_SHOWN_MS, nameOf } = {}) {
  const own = (calls ?? []).filter((alert) => isOwnSOS(alert, me));
  const open = own.filter((alert) => alert.open !== false)
    .sort((a, b) => String(b.raisedAt ?? '').localeCompare(String(a.raisedAt ?? '')));
  if (open.length > 0) return { alert: open[0], line: sosLine(open[0], me, { nameOf }), endsAt: null };
  const ended = own
    .map((alert) => ({ alert, endsAt: (closedAt(alert) ?? -Infinity) + shownMs }))
    .filter(({ endsAt }) => endsAt > now)
    .sort((a, b) => b.endsAt - a.endsAt);
  if (ended.length === 0) return null;
  const [{ alert, endsAt }] = ended;
  return { alert, line: sosLine(alert, me, { nameOf }), endsAt };
}

/**
 * The alerts she was following that are no longer in the open list while
 * the last she heard of them was open: how each ended is read from the hub
 * (the live stream may have missed it while the hub was away).
 */
export function closedUnheard(calls, openIds) {
  const stillOpen = new Set(openIds);
  return (calls ?? []).filter((alert) => alert.open !== false && !stillOpen.has(alert.id));
}
