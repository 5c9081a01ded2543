// The hub's time on this device. A tablet's own clock may be wrong (an
// offline home Wi-Fi has no NTP) and the hub's may have been set by hand
// ("use this phone's time"); every "due", "late" and "in 5 minutes" is the
// hub's, so pages read the time here, never the device's clock. The hub
// says its time on every API answer (the `Hearth-Time` header, ms since
// 1970); api.js hands it here. Until the first answer this is the device's
// clock.

const state = { offsetMs: 0 };

/** The hub's time now, in ms since 1970 (what Date.now() would be on the hub). */
export function hubNow() {
  return Date.now() + state.offsetMs;
}

/** The hub's time now as a Date. */
export function hubDate() {
  return new Date(hubNow());
}

/**
 * Learns the hub's time from a `Hearth-Time` header value read at
 * `receivedAt` (this device's ms). Anything but a whole number of ms is
 * ignored. The answer's own travel time (a few ms on a home network) is
 * not worth estimating: nothing here is finer than a minute.
 */
export function learnHubTime(header, receivedAt = Date.now()) {
  const text = String(header ?? '').trim();
  if (!/^\d{1,16}$/.test(text)) return false;
  state.offsetMs = Number(text) - receivedAt;
  return true;
}

/** How far the hub's time is ahead of this device's, in ms (negative: behind). */
export function hubOffsetMs() {
  return state.offsetMs;
}
