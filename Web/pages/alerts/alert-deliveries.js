// "Where it went" under each alert of the history: a button that unfolds
// where the alert reached (GET /alerts/{id}/deliveries), read the first
// time it is unfolded and again only when the alert itself changed (a
// reminder repeated, an answer, a close), since only then is there more to
// say. What is unfolded and what was read are kept here, not in the list's
// elements, because the history is drawn again from scratch on every live
// change of an alert. Care/deliveries.js puts it in words.
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { deliveryLines, deliveryTime } from '../../care/deliveries.js';

/** What of an alert, when it changes, can mean it went somewhere again or was answered from somewhere. */
function alertVersion(alert) {
  return JSON.stringify([alert.open, alert.acknowledgedAt ?? null, alert.respondedAt ?? null, alert.repeats ?? 0]);
}

/**
 * The disclosures of one drawing of the page. `redraw()` draws the page
 * again (whose signature includes `signature()`); `announce(text)` says
 * on its status line that the deliveries are being read, or could not be.
 */
export function createAlertDeliveries(app, { redraw, announce }) {
  const { t } = app;
  const unfolded = new Set(); // alert ids
  const read = new Map(); // alert id → { version, answer, problem, request }

  async function readDeliveries(alert) {
    const before = read.get(alert.id);
    before?.request?.abort();
    // Read again after a change, the lines already shown stay until the new ones come.
    const entry = { version: alertVersion(alert), answer: before?.answer ?? null, problem: null, request: new AbortController() };
    read.set(alert.id, entry);
    if (!entry.answer) announce(t('alerts.deliveries.loading'));
    redraw();
    try {
      entry.answer = await getJSON(paths.alertDeliveries(alert.id), { t, signal: entry.request.signal });
    } catch (problem) {
      if (problem?.name === 'AbortError') return;
      entry.answer = null;
      entry.problem = problem;
      announce(t('alerts.deliveries.failed', { problem: problem?.message ?? '' }));
    }
    entry.request = null;
    if (read.get(alert.id) === entry) redraw();
  }

  function toggle(alert) {
    if (unfolded.delete(alert.id)) {
      redraw();
      return;
    }
    unfolded.add(alert.id);
    const entry = read.get(alert.id);
    // Unfolding again shows what was read, unless it failed or the alert has changed since.
    if (!entry || entry.problem || entry.version !== alertVersion(alert)) readDeliveries(alert);
    else redraw();
  }

  return {
    /** The button and what it unfolds, for the alert's item (see disclosure). */
    view(alert, me, { labelId, describedBy }) {
      const open = unfolded.has(alert.id);
      const content = open ? panelContent(app, alert, read.get(alert.id), me) : null;
      return disclosure(app, alert, { open, content, labelId, describedBy, toggle });
    },

    /** After the list was read again: an unfolded alert that changed is read again, a folded one forgotten. */
    follow(alerts) {
      for (const alert of alerts) {
        const entry = read.get(alert.id);
        if (!entry || entry.version === alertVersion(alert)) continue;
        if (unfolded.has(alert.id)) {
          readDeliveries(alert);
        } else {
          entry.request?.abort();
          read.delete(alert.id);
        }
      }
    },

    /** What is unfolded and read, for the page's "has anything shown changed". */
    signature() {
      return [[...unfolded], [...read].map(([id, e]) => [id, e.version, e.request !== null, e.answer, e.problem?.message ?? null])];
    },

    stop() {
      for (const entry of read.values()) entry.request?.abort();
    },
  };
}

/**
 * "Where it went" and the panel it unfolds. Its name is "Where it went"
 * and the alert's kind and time (`labelId`), so each of many is told
 * apart; `describedBy` is the alert's sentence.
 */
function disclosure(app, alert, { open, content, labelId, describedBy, toggle }) {
  const buttonId = `alert-${alert.id}-where`;
  const panelId = `alert-${alert.id}-deliveries`;
  return h('div', { class: 'alert-deliveries' },
    h('button', {
      type: 'button', id: buttonId, class: 'secondary-button', 'data-action': 'deliveries', 'data-focus-key': `${alert.id}:deliveries`,
      'aria-expanded': String(open), 'aria-controls': panelId, 'aria-labelledby': `${buttonId} ${labelId}`, 'aria-describedby': describedBy,
      onclick: () => toggle(alert),
    }, app.t('alerts.deliveries.toggle')),
    h('div', { id: panelId, class: 'alert-deliveries-panel', hidden: !open }, content));
}

/** The panel's content: being read, could not be read, or the lines. */
function panelContent(app, alert, entry, me) {
  const { t, language } = app;
  if (entry?.problem) return h('p', { class: 'alert-deliveries-error' }, t('alerts.deliveries.failed', { problem: entry.problem.message ?? '' }));
  if (!entry?.answer) return h('p', { class: 'alert-deliveries-loading' }, t('alerts.deliveries.loading'));
  const time = (iso) => deliveryTime(iso, { language, timeZone: me?.timeZone ?? null, raisedAt: alert.raisedAt });
  return h('ul', { class: 'alert-delivery-list' },
    deliveryLines(entry.answer, { language, time }).map((line) => h('li', { 'data-line': line.kind }, t(line.key, line.params))));
}
