// When "Taken" asks first. A planned dose recorded as taken more than an
// hour before its time is more often a tap on the wrong dose (the evening's,
// in the morning) than a dose really taken early, and once it is recorded
// its reminder never comes. One rule for every "Taken" of a planned dose —
// Today's, the panel's next-dose tile, a reminder's on the banner — so no
// two places disagree about what is early. Pure, for the Node tests.

import { hubNow } from '../hub-clock.js';

/** "Taken" more than this long before a dose's planned time asks first. */
export const EARLY_ASK_MS = 60 * 60 * 1000;

/**
 * Whether "Taken" at `now` would record the dose planned for `dueAt` (an ISO
 * instant: a planned dose's `dueAt`, a reminder's `details.dueAt`) more than
 * an hour early. A dose with no planned time (as needed) never asks.
 */
export function isTakenEarly(dueAt, now = hubNow()) {
  const due = Date.parse(dueAt ?? '');
  return !Number.isNaN(due) && due - now > EARLY_ASK_MS;
}
