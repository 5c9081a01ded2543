// Following a pairing code on screen until a device uses it or it expires:
// the countdown each second (said aloud at a few moments), and asking the
// hub every two seconds (GET /pairing/invitations/{id}). Its own file as it
// runs on timers, apart from drawing; household-invitation.js starts it.
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { clockCountdown, secondsLeft, spokenCountdown, worthAnnouncing } from '../../household/countdown.js';

const POLL_EVERY_MS = 2000;

/**
 * Follows `state.invitation` while `state.status` is "waiting";
 * `finished(status, answer)` hears "paired" (with the hub's answer) or
 * "expired". The countdown is written into `element`'s #pairing-countdown.
 */
export function watchCode(app, state, { element, announce, finished }) {
  const { t } = app;
  let stopped = false;
  let tick = null;
  let pollTimer = null;
  let lastLeft = null;

  function follow() {
    stopFollowing();
    if (stopped || state.status !== 'waiting') return;
    tick = setInterval(countDown, 1000);
    pollTimer = setTimeout(poll, POLL_EVERY_MS);
  }

  function stopFollowing() {
    clearInterval(tick);
    clearTimeout(pollTimer);
    tick = null;
    pollTimer = null;
  }

  function countDown() {
    if (state.status !== 'waiting') return;
    const left = secondsLeft(state.invitation.expiresAt);
    const shown = element.querySelector('#pairing-countdown');
    if (shown) shown.textContent = t('household.invite.expiresIn', { time: clockCountdown(left) });
    if (lastLeft !== null && worthAnnouncing(lastLeft, left)) {
      announce(t('household.invite.timeLeft', { time: spokenCountdown(app.language, left) }));
    }
    lastLeft = left;
    // Out of time here: ask the hub now rather than at the next poll.
    if (left === 0) {
      clearTimeout(pollTimer);
      poll();
    }
  }

  async function poll() {
    pollTimer = null;
    const invitation = state.invitation;
    if (stopped || !invitation || state.status !== 'waiting') return;
    try {
      const answer = await getJSON(paths.invitation(invitation.id), { t });
      if (state.invitation !== invitation) return;
      if (answer?.status === 'paired') finished('paired', answer);
      else if (answer?.status === 'expired') finished('expired');
    } catch (problem) {
      if (state.invitation !== invitation) return;
      if (problem?.status === 404) finished('expired');
      // Anything else (the hub away for a moment): ask again at the next poll.
    }
    if (!stopped && state.invitation === invitation && state.status === 'waiting' && pollTimer === null) {
      pollTimer = setTimeout(poll, POLL_EVERY_MS);
    }
  }

  return {
    follow,
    stopFollowing,
    /** Whether the countdown runs (a redraw starts it for a code shown before). */
    following: () => tick !== null,
    /** A new code: no countdown said yet. */
    newCode() { lastLeft = null; },
    /** A device was paired, or a code used, somewhere: ask now rather than at the next poll. */
    check() {
      if (state.status === 'waiting') {
        clearTimeout(pollTimer);
        poll();
      }
    },
    stop() {
      stopped = true;
      stopFollowing();
    },
  };
}
