// Alerts: the history of alerts about the seniors this person looks after
// (and the hub's own, for caregivers and admins), newest first, filtered by
// kind and by "open only"; "Listen" and "OK" on an open one, "I'm on my
// way" on an unanswered SOS; "Where it went" under each; older ones page
// in with "Show older". Follows the live stream: a new or closed alert
// updates the list.
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { focusInPlace, h, pageHeading } from '../../dom.js';
import { fieldBox } from '../../fields.js';
import { ALERT_KINDS, answeredState, canAcknowledge, canRespond, isCancelledSOS } from '../../care/alerts.js';
import { clockTime, dateTime } from '../../care/format.js';
import { alertKindName, alertListenButton, describeAlert } from '../../care/alert-banner.js';
import { createAlertDeliveries } from './alert-deliveries.js';
import { createAnnouncer, createBusyKeys, createNewestLoader, reloadOnLiveChanges } from '../page-tools.js';

const PAGE_SIZE = 50;

export function createAlertsPage(app) {
  // Kept across a language switch.
  const chosen = { kind: '', openOnly: false };
  return (outlet) => renderAlerts(app, chosen, outlet);
}

/** Draws the alerts' history into `outlet`; returns what to call when the page is left. */
function renderAlerts(app, chosen, outlet) {
  const { t, live } = app;
  const { element: announcer, announce } = createAnnouncer('alerts-announcer');
  const listHeading = h('h2', { id: 'alert-list-heading' }, t('alerts.history'));
  const listSlot = h('div', { class: 'alert-list-slot' });
  const more = h('p', {});
  let alerts = null;
  let complete = false;
  const busy = createBusyKeys(app);
  const deliveries = createAlertDeliveries(app, { redraw: () => show(), announce });

  outlet.append(pageHeading(t('pages.alerts')), announcer, filters(app, chosen, () => load()),
    h('section', { 'aria-labelledby': 'alert-list-heading' }, listHeading, listSlot, more));

  const { load, stop: stopLoading } = createNewestLoader(app, {
    async read(signal, { older = false } = {}) {
      await app.me.load();
      const before = older && alerts?.length ? alerts.at(-1).raisedAt : null;
      return { older, page: await getJSON(alertsQuery(chosen, before), { t, signal }) };
    },
    shown({ older, page }) {
      const list = Array.isArray(page) ? page : [];
      complete = list.length < PAGE_SIZE;
      alerts = older ? [...alerts, ...list.filter((a) => !alerts.some((b) => b.id === a.id))] : list;
      app.clearProblem();
      deliveries.follow(alerts);
      show();
    },
    failed: () => { if (alerts === null) listSlot.replaceChildren(); },
  });

  let shownSignature = null;
  function show() {
    const me = app.me.current;
    // Redrawn only when something shown changed (see Today).
    const signature = JSON.stringify([app.language, me?.personId, alerts, complete, busy.keys(), deliveries.signature()]);
    if (signature === shownSignature) return;
    shownSignature = signature;
    const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
    listHeading.textContent = t('alerts.count', { count: alerts.length });
    listSlot.replaceChildren(alerts.length === 0
      ? h('p', { id: 'alerts-empty', class: 'empty' }, t('alerts.none'))
      : h('ul', { id: 'alert-list', class: 'alert-list' }, alerts.map((alert) => alertItem(app, alert, me, button, deliveries))));
    more.replaceChildren(complete ? '' : h('button', {
      type: 'button', id: 'alerts-older', class: 'secondary-button', 'data-focus-key': 'older',
      onclick: () => load({ older: true }),
    }, t('alerts.older')));
    if (focusKey) {
      const again = outlet.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again) focusInPlace(again);
      else if (document.activeElement === document.body) listHeading.focus();
    }
  }

  const button = (...rest) => answerButton({ t, busy, announce }, ...rest);

  const reloads = reloadOnLiveChanges(live, () => load(), (change) => change.entity === 'alert');

  listSlot.replaceChildren(h('p', { class: 'loading' }, t('alerts.loading')));
  load();

  return function leaveAlerts() {
    reloads.stop();
    stopLoading();
    deliveries.stop();
  };
}

/** An answer's button on an alert (OK, "I'm on my way"), held busy while it runs. */
function answerButton({ t, busy, announce }, alert, action, label, describedBy, run) {
  const key = `${alert.id}:${action}`;
  return h('button', {
    type: 'button', class: 'secondary-button', 'data-action': action, 'data-focus-key': key, 'aria-describedby': describedBy,
    'aria-disabled': busy.has(key) ? 'true' : null,
    onclick: () => busy.run(key, async () => {
      await run();
      announce(t(action === 'ack' ? 'alerts.announce.acknowledged' : 'alerts.announce.responded'));
    }),
  }, label);
}

/**
 * One alert of the history: what, when, its state now, Listen, OK or "I'm
 * on my way" while it is open, and where it went. Listen's id is apart
 * from the banner's, which shows the same open alert above the page.
 */
function alertItem(app, alert, me, button, deliveries) {
  const { t, language } = app;
  const timeZone = me?.timeZone ?? null;
  const kindId = `alert-${alert.id}-kind`;
  const textId = `alert-${alert.id}-text`;
  // A dose's alert closed by an answer says which, when and by whom.
  const answered = answeredState(alert, {
    time: (iso) => dateTime(iso, { language, timeZone }), clock: (iso) => clockTime(iso, { language, timeZone }),
  });
  const closedAt = alert.acknowledgedAt ? dateTime(alert.acknowledgedAt, { language, timeZone }) : null;
  const state = alert.open
    ? t('alerts.state.open')
    : isCancelledSOS(alert)
      ? t('alerts.state.cancelled', { time: closedAt, name: app.me.nameOf(alert.personId) ?? alert.details?.personName ?? t('alerts.someone') })
      : alert.acknowledgedAt
      ? t('alerts.state.acknowledged', { time: dateTime(alert.acknowledgedAt, { language, timeZone }), name: app.me.nameOf(alert.acknowledgedBy) ?? t('alerts.someone') })
      : answered ? t(answered.key, answered.params) : t('alerts.state.resolved');
  const buttons = [];
  if (alert.open) {
    // Its own focus key too: the banner's Listen keeps the keyboard when this list is drawn again.
    buttons.push(alertListenButton(app, alert, me, { id: `alert-item-${alert.id}-listen`, focusKey: `${alert.id}:item-listen`, describedBy: textId }));
  }
  if (alert.open && canRespond(alert, me)) buttons.push(button(alert, 'respond', t('alerts.onMyWay'), textId, () => app.alerts.respond(alert.id)));
  if (canAcknowledge(alert)) buttons.push(button(alert, 'ack', t('alerts.ok'), textId, () => app.alerts.acknowledge(alert.id)));
  return h('li', { class: 'alert-history-item', 'data-alert-id': alert.id, 'data-kind': alert.kind, 'data-open': String(alert.open) },
    h('p', { id: kindId, class: 'alert-history-kind' }, h('strong', {}, alertKindName(app, alert.kind)), ` · ${dateTime(alert.raisedAt, { language, timeZone })}`),
    h('p', { id: textId }, describeAlert(app, alert, me)),
    h('p', { class: 'alert-history-state' }, state),
    buttons.length > 0 ? h('div', { class: 'alert-actions' }, buttons) : null,
    deliveries.view(alert, me, { labelId: kindId, describedBy: textId }));
}

/** The kind and "open only" filters; a change reads the list again. */
function filters(app, chosen, load) {
  const { t } = app;
  return h('form', { class: 'alert-filters', role: 'search', 'aria-label': t('alerts.filters'), onsubmit: (e) => e.preventDefault() },
    fieldBox({
      id: 'alert-kind', label: t('alerts.kindFilter'),
      control: h('select', { id: 'alert-kind', onchange: (event) => { chosen.kind = event.target.value; load(); } },
        h('option', { value: '', selected: chosen.kind === '' }, t('alerts.allKinds')),
        ALERT_KINDS.map((k) => h('option', { value: k, selected: chosen.kind === k }, t(`alerts.kinds.${k}`)))),
    }),
    h('div', { class: 'checkbox-field' },
      h('input', { type: 'checkbox', id: 'alert-open-only', checked: chosen.openOnly, onchange: (event) => { chosen.openOnly = event.target.checked; load(); } }),
      h('label', { for: 'alert-open-only' }, t('alerts.openOnly'))));
}

/** The page of alerts asked for: PAGE_SIZE of them, as chosen, older than `before` when given. */
function alertsQuery(chosen, before = null) {
  return paths.alerts({ limit: PAGE_SIZE, kind: chosen.kind, open: chosen.openOnly, before });
}
