// The open alerts this browser may see, kept current from the live stream,
// shared by the banner (every page), Today and the Alerts page. "OK", "I'm
// on my way" and a reminder's Taken, Skip and Later go through here, so the
// banner and the pages agree.
import { getJSON, isUnpaired, sendJSON } from '../api.js';
import { paths } from '../api-paths.js';
import { isCancelledSOS, isOlderAlert, reminderDoseKey, upsertAlert } from './alerts.js';
import { hubDate } from '../hub-clock.js';

/** How many alerts' latest states are remembered, closed ones too, to tell a late answer from news. */
const REMEMBERED = 500;

export function createAlertCenter(app) {
  // What this browser heard, and who hears about it; the functions below change it.
  // `known` holds the latest state heard of each alert, closed ones too, so
  // an older state arriving late (a request's answer, a list fetched before a
  // live change) cannot undo a newer one.
  // `cancelled`: SOS calls heard open here and then called off by their
  // senior, until OK on this page: the banner says all is well.
  const center = { app, alerts: [], known: new Map(), cancelled: new Map(), loaded: false, request: null, listeners: new Set() };
  const load = () => loadAlerts(center);
  const take = (alert) => takeAlert(center, alert);

  return {
    start() {
      app.live.onChange((change) => {
        if (change.entity === 'alert' && change.payload && typeof change.payload === 'object') take(change.payload);
        if (change.entity === 'person' || change.entity === 'careLink') {
          // Who this is, and what they call the people in alerts, may have changed: read them again first.
          app.me.forget();
          load();
        }
      });
      app.live.onState((state) => {
        if (state === 'connected') load(); // after a gap, what happened meanwhile
      });
      app.live.onReset(load);
      load();
    },
    load,
    get loaded() {
      return center.loaded;
    },
    /** Open alerts, as last heard. */
    get open() {
      return center.alerts;
    },
    /** SOS calls cancelled by their senior since this page heard them, the newest first. */
    get cancelled() {
      return [...center.cancelled.values()].reverse();
    },
    /** OK on "she cancelled: all is well": this page only (nothing to close on the hub). */
    dismissCancelled(id) {
      if (center.cancelled.delete(id)) notify(center);
    },
    /** fn(alerts) after every change; returns an unsubscribe function. */
    subscribe(fn) {
      center.listeners.add(fn);
      return () => center.listeners.delete(fn);
    },
    /** "OK": closes the alert on every device. */
    async acknowledge(id) {
      take(await sendJSON('POST', paths.alertAck(id), undefined, { t: app.t }));
    },
    /** "I'm on my way": the senior's screen shows who is coming. */
    async respond(id) {
      take(await sendJSON('POST', paths.alertRespond(id), undefined, { t: app.t }));
    },
    /**
     * A reminder answered where it appears: 'taken', 'skipped' (with an
     * optional reason) or 'snoozed' (Later: the household's reminder
     * interval), recorded as the Today buttons record it. The hub closes
     * the reminder on every device; here at once. Resolves with the dose.
     */
    async answerDose(alert, status, { reason = null } = {}) {
      let key = reminderDoseKey(alert);
      if (!key && alert.doseId) {
        // A reminder raised before reminders named their dose.
        key = (await getJSON(paths.dose(alert.doseId), { t: app.t }))?.key ?? null;
      }
      if (!key) throw new Error(app.t('errors.page'));
      const body = { key, status };
      if (reason) body.reason = reason;
      const dose = await sendJSON('POST', paths.doses(), body, { t: app.t });
      take({ ...alert, open: false, resolvedAt: hubDate().toISOString() });
      return dose;
    },
    /** The hub sent this alert (e.g. the SOS just raised here). */
    take,
  };
}

function notify(center) {
  for (const fn of center.listeners) {
    try {
      fn(center.alerts);
    } catch (error) {
      console.error('alert listener failed', error);
    }
  }
}

async function loadAlerts(center) {
  const { app } = center;
  center.request?.controller.abort();
  // What the live stream brings while the list is on its way is newer than the list.
  const thisRequest = { controller: new AbortController(), taken: new Set() };
  center.request = thisRequest;
  try {
    // Who this is decides which alerts are theirs: known before the banner draws.
    await app.me.load();
    const list = await getJSON(paths.alerts({ open: true, limit: 200 }), { t: app.t, signal: thisRequest.controller.signal });
    if (center.request !== thisRequest) return;
    center.request = null;
    const loaded = (Array.isArray(list) ? list : []).filter((alert) => alert?.id);
    const listed = new Set(loaded.map((alert) => alert.id));
    const merged = loaded.map((alert) => (isOlderAlert(alert, center.known.get(alert.id)) ? center.known.get(alert.id) : alert));
    for (const id of thisRequest.taken) {
      if (!listed.has(id)) merged.push(center.known.get(id)); // raised after the list was read
    }
    for (const alert of merged) remember(center, alert);
    center.alerts = merged.filter((alert) => alert.open !== false);
    center.loaded = true;
    notify(center);
  } catch (problem) {
    if (problem?.name === 'AbortError') return;
    // The banner is no place for errors: the page says what is wrong; a
    // device that is not paired is told by the app.
    if (isUnpaired(problem)) app.reportProblem(problem);
  }
}

function remember(center, alert) {
  center.known.delete(alert.id);
  center.known.set(alert.id, alert);
  if (center.known.size > REMEMBERED) center.known.delete(center.known.keys().next().value);
}

function takeAlert(center, alert) {
  const before = center.known.get(alert?.id);
  if (!alert?.id || isOlderAlert(alert, before)) return;
  if (isCancelledSOS(alert) && before && before.open !== false) center.cancelled.set(alert.id, alert);
  remember(center, alert);
  center.request?.taken.add(alert.id);
  center.alerts = upsertAlert(center.alerts, alert).filter((a) => a.open !== false);
  notify(center);
}
