// The alert banner above every page: open alerts meant for this person, in
// large type (an SOS or a missed dose for a caregiver kept in view wherever
// the page is scrolled: it sticks to the top of the screen; and lent to any
// open dialog, which would otherwise make it inert), one at a time with
// "More alerts: N" for the rest, with a short beep when one arrives (or repeats) — for an SOS a
// two-tone call repeated until someone answers — announced to
// screen readers, and staying until someone presses "OK" — which closes it
// on every device through the live stream. An SOS for a caregiver also has
// "I'm on my way" and, when the senior's phone number is known, "Call
// Zosia" (a tel: link: on a phone one tap rings her); a senior's own SOS
// shows who is coming. A senior's
// reminder that a dose is due has no "OK" (it recorded nothing, and the
// dose was then counted missed): it is answered there, Taken, Skip (asking
// why, as Today does) or Later, and that answer closes it. Each alert has
// "Listen" first, which reads its sentence aloud ("It is time for
// Metformin, one tablet"). An SOS or a missed dose for a caregiver takes
// the keyboard when it arrives, so it is read out and answered at once; once
// it is gone the keyboard goes back where she was (the note she was typing
// in keeps its text and its place).
import { h } from '../dom.js';
import { icon } from '../icon.js';
import {
  ALERT_KINDS, alertMedication, alertMessage, answersDose, bannerAlerts, canRespond, isForMe, isOwnSOS, newSounds,
  offersCall, ringsUntilAnswered, soundKey, staysInView, takesFocus,
} from './alerts.js';
import { keepInEveryDialog } from '../dialog.js';
import { telHref } from '../household/people.js';
import { listenButton } from '../pages/listen-button.js';
import { askSkipReason } from '../pages/today/skip-reason-dialog.js';
import { confirmTakenNow } from '../pages/today/early-dose-dialog.js';
import { beep, sosCall } from './beep.js';
import { spokenAlert } from './spoken.js';

/** How often an unanswered SOS calls again. */
const SOS_REPEAT_MS = 4000;
import { clockTime } from './format.js';
import { amountText } from './words.js';
import { announceIn, createBusyKeys } from '../pages/page-tools.js';

/** How an alert's sentence finds times and names: in the household's zone, by what this person calls them. */
function sentenceHelpers(app, me) {
  return {
    time: (iso) => clockTime(iso, { language: app.language, timeZone: me?.timeZone }),
    nameOf: (personId) => app.me.nameOf(personId),
    aliasOf: (personId) => app.me.aliasOf(personId),
  };
}

/** The alert's sentence in the page's language. */
export function describeAlert(app, alert, me) {
  const { key, params } = alertMessage(alert, me, {
    ...sentenceHelpers(app, me),
    amountText: (amount, unit) => amountText(app.language, amount, unit),
  });
  return app.t(key, params);
}

/**
 * "Listen" on an alert (`id` its own on the page): reads the sentence as
 * it is said, a dose's amount in words; named with the alert's kind and
 * medicine, described by its sentence (`describedBy`).
 */
export function alertListenButton(app, alert, me, { id, focusKey, describedBy }) {
  return listenButton(app, {
    id,
    label: [alertKindName(app, alert.kind), alertMedication(alert)].filter(Boolean).join(', '),
    text: () => spokenAlert(app.t, app.language, alert, me, sentenceHelpers(app, me)),
    attributes: { 'data-focus-key': focusKey, 'aria-describedby': describedBy },
  });
}

/** The alert's kind in words; a kind this page does not know yet is named generally, not by its key. */
export function alertKindName(app, kind) {
  return ALERT_KINDS.includes(kind) ? app.t(`alerts.kinds.${kind}`) : app.t('alerts.kindOther');
}

export function createAlertBanner(app, { container, announcer }) {
  const heard = new Set();
  const busy = createBusyKeys(app, { redraw: () => render() });
  let shownSignature = null;
  let calling = null; // the interval repeating an unanswered SOS's call
  let unfolded = false; // all the banners rather than the first and a count
  let returnTo = null; // where the keyboard was before an alert took it

  const announce = (text) => announceIn(announcer, text);
  // What each alert's buttons need of the banner.
  const banner = { app, busy, announce, container };

  function render() {
    const me = app.me.current;
    if (!me) {
      container.replaceChildren();
      container.hidden = true;
      container.dataset.urgent = 'false';
      if (calling !== null) clearInterval(calling);
      calling = null;
      return;
    }
    const shown = bannerAlerts(app.alerts.open, me);
    const fresh = newSounds(shown, heard);
    for (const alert of shown) heard.add(soundKey(alert));
    // An SOS its senior called off: her caregivers are told she is all right.
    const cancelled = app.alerts.cancelled.filter((alert) => isForMe(alert, me) && !isOwnSOS(alert, me));
    const freshCancelled = cancelled.filter((alert) => !heard.has(`cancelled:${alert.id}`));
    for (const alert of cancelled) heard.add(`cancelled:${alert.id}`);
    const count = shown.length + cancelled.length;
    const ringing = ringsUntilAnswered(shown, me);
    let grabbing = null; // the alert that takes the keyboard now
    if (fresh.length > 0) {
      const freshAlerts = shown.filter((alert) => fresh.includes(soundKey(alert)));
      grabbing = freshAlerts.find((alert) => takesFocus(alert, me)) ?? null;
      if (ringing) sosCall();
      else beep();
      announce(freshAlerts.map((alert) => describeAlert(app, alert, me)).join(' '));
    }
    if (freshCancelled.length > 0) {
      if (fresh.length === 0) beep();
      announce(freshCancelled.map((alert) => cancelledSentence(app, alert)).join(' '));
    }
    if (ringing && calling === null) calling = setInterval(sosCall, SOS_REPEAT_MS);
    if (!ringing && calling !== null) {
      clearInterval(calling);
      calling = null;
    }
    container.dataset.calling = ringing ? 'true' : 'false';

    // Redrawn only when something shown changed (see Today).
    const phones = shown.map((alert) => (offersCall(alert, me) ? app.me.phoneOf(alert.personId) : null));
    // The names too: a caregiver's own name for her senior changes the sentence, not the alert.
    const names = shown.map((alert) => app.me.nameOf(alert.personId));
    const signature = JSON.stringify([app.language, me.personId, shown, cancelled.map((alert) => alert.id), phones, names, busy.keys(), unfolded]);
    if (signature === shownSignature && !grabbing) return;
    shownSignature = signature;
    const hadFocus = container.contains(document.activeElement);
    const focusKey = hadFocus ? document.activeElement.getAttribute('data-focus-key') : null;
    if (grabbing && !hadFocus) {
      const active = document.activeElement;
      returnTo = active && active !== document.body ? active : null;
    }
    if (count < 2) unfolded = false;
    // The first (an SOS, else the newest) and how many more: one alert at a
    // time keeps the page under it usable, and the count says there is more.
    const fold = count > 1
      ? h('button', {
        type: 'button', id: 'alert-banner-more', class: 'secondary-button alert-more', 'data-focus-key': 'alert-banner-more',
        'aria-expanded': String(unfolded),
        onclick: () => { unfolded = !unfolded; render(); },
      }, unfolded ? app.t('alerts.fewer') : app.t('alerts.more', { count: count - 1 }))
      : null;
    container.replaceChildren(
      ...shown.map((alert) => alertItem(banner, alert, me)),
      ...cancelled.map((alert) => cancelledItem(app, alert)),
      ...(fold ? [fold] : []),
    );
    container.dataset.folded = String(count > 1 && !unfolded);
    // Only what a caregiver must not miss (an SOS, a missed dose) follows her
    // down the page; a senior's own call and reminders stay at the top, so
    // her screen is not half banner above the SOS bar.
    container.dataset.urgent = String(cancelled.length > 0 || shown.some((alert) => staysInView(alert, me)));
    container.hidden = count === 0;
    if (grabbing) {
      const item = container.querySelector(`[data-alert-id="${CSS.escape(grabbing.id)}"]`);
      const target = item?.checkVisibility?.() === false ? container.querySelector('.alert-item') : item;
      // On the page it sticks in view already; in a dialog it heads the dialog's content.
      target?.focus({ preventScroll: !target.closest('dialog') });
    } else if (focusKey) {
      const again = container.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      const back = returnTo?.isConnected && !returnTo.closest('[inert]') ? returnTo : null;
      const next = again ?? (count === 0 ? back : null) ?? container.querySelector('button') ?? back ?? document.querySelector('#page h1');
      // The banner is in view already (it sticks): scrolling to it would take
      // her page back to where the banner sits in it, and her place with it.
      const inBanner = Boolean(next && container.contains(next));
      next?.focus({ preventScroll: inBanner ? !next.closest('dialog') : next === back });
    }
    if (count === 0) returnTo = null;
  }

  // What the keyboard or a tap brings into view is never left under the banner.
  if (globalThis.ResizeObserver) new ResizeObserver(() => {
    document.documentElement.style.setProperty('--alert-banner-height', `${container.hidden ? 0 : container.offsetHeight}px`);
  }).observe(container);

  return {
    start() {
      keepInEveryDialog(container, 'alerts');
      // Its sentence is announced from a dialog too: the page behind one is inert.
      if (announcer) keepInEveryDialog(announcer, 'alert-announcer');
      app.alerts.subscribe(render);
      app.me.load().then(render, () => {});
    },
    render,
  };
}

/** One alert: its kind, its sentence, Listen, and its answers (OK, "I'm on my way", or a dose's Taken, Skip, Later). */
function alertItem(banner, alert, me) {
  const { app } = banner;
  const { t } = app;
  const titleId = `banner-${alert.id}-title`;
  const textId = `banner-${alert.id}-text`;
  const own = isOwnSOS(alert, me);
  const listen = alertListenButton(app, alert, me, { id: `alert-${alert.id}-listen`, focusKey: `${alert.id}:listen`, describedBy: textId });
  const buttons = [];
  if (answersDose(alert, me)) {
    buttons.push(listen, ...doseAnswers(banner, alert, textId));
  } else {
    // Someone else's SOS: calling her back and "I'm on my way" come first,
    // where a phone's small screen shows them without scrolling.
    const call = callLink(app, alert, me);
    if (call) buttons.push(call); else buttons.push(listen);
    if (canRespond(alert, me)) {
      buttons.push(alertButton(banner, alert, 'respond', t('alerts.onMyWay'), textId, () => app.alerts.respond(alert.id)));
    }
    const okLabel = own && !alert.respondedAt ? t('alerts.cancelSOS') : t('alerts.ok');
    buttons.push(alertButton(banner, alert, 'ack', okLabel, textId, () => app.alerts.acknowledge(alert.id)));
    if (call) buttons.push(listen);
  }
  return h(
    'section',
    { class: 'alert-item', tabindex: '-1', 'data-focus-key': `${alert.id}:item`, 'aria-describedby': textId, 'data-kind': alert.kind, 'data-alert-id': alert.id, 'data-responded': alert.respondedAt ? 'true' : 'false', 'aria-labelledby': titleId },
    h('p', { class: 'alert-kind', id: titleId }, icon(ALERT_ICONS[alert.kind] ?? 'bell-fill', 'alert-icon'), alertKindName(app, alert.kind)),
    h('p', { class: 'alert-text', id: textId }, describeAlert(app, alert, me)),
    h('div', { class: 'alert-actions' }, buttons),
  );
}

/** "Babcia Zosia cancelled the SOS: all is well." */
function cancelledSentence(app, alert) {
  const person = app.me.aliasOf(alert.personId) || alert.details?.personName || app.me.nameOf(alert.personId) || app.t('alerts.someone');
  return app.t('alerts.message.sosCancelledBy', { person, time: clockTime(alert.acknowledgedAt, { language: app.language, timeZone: app.me.current?.timeZone }) });
}

/** What an alert's kind looks like beside its name: an SOS is a warning, a dose its capsule. */
const ALERT_ICONS = Object.freeze({ sos: 'exclamation-triangle-fill', 'dose-missed': 'capsule', 'dose-due': 'capsule' });

/** The news that an SOS was called off, calm, with OK to put it away on this page. */
function cancelledItem(app, alert) {
  const titleId = `banner-${alert.id}-cancelled-title`;
  const textId = `banner-${alert.id}-cancelled-text`;
  return h(
    'section',
    { class: 'alert-item', tabindex: '-1', 'data-kind': 'sos-cancelled', 'data-alert-id': alert.id, 'aria-labelledby': titleId, 'aria-describedby': textId },
    h('p', { class: 'alert-kind', id: titleId }, icon('check-circle-fill', 'alert-icon'), app.t('alerts.cancelledTitle')),
    h('p', { class: 'alert-text', id: textId }, cancelledSentence(app, alert)),
    h('div', { class: 'alert-actions' }, h('button', {
      type: 'button', class: 'primary-button alert-ack', 'data-action': 'ack', 'data-focus-key': `${alert.id}:cancelled-ok`,
      'aria-describedby': textId, onclick: () => app.alerts.dismissCancelled(alert.id),
    }, app.t('alerts.ok'))),
  );
}

/** Taken, Skip and Later on the senior's own reminder. */
function doseAnswers(banner, alert, textId) {
  const { app, announce, container } = banner;
  const { t } = app;
  const medication = alertMedication(alert);
  const answered = (status) => announce(t(`today.announce.${status}`, { medication }));
  const skipKey = `${alert.id}:skip`;
  return [
    alertButton(banner, alert, 'taken', t('today.taken'), textId, async () => {
      // More than an hour before its time (a reminder snoozed and reopened
      // early, say): the same question as Today and the panel.
      const d = alert.details ?? {};
      const sure = await confirmTakenNow(app, {
        dueAt: d.dueAt, time: d.plannedTime, medication,
        returnFocus: () => container.querySelector(`[data-focus-key="${CSS.escape(`${alert.id}:taken`)}"]`) ?? document.querySelector('#page h1'),
      });
      if (!sure) return;
      await app.alerts.answerDose(alert, 'taken');
      answered('taken');
    }, 'primary-button alert-taken'),
    alertButton(banner, alert, 'skip', t('today.skip'), textId, async () => {
      const choice = await askSkipReason(app, {
        medication,
        returnFocus: () => container.querySelector(`[data-focus-key="${CSS.escape(skipKey)}"]`) ?? document.querySelector('#page h1'),
      });
      if (choice === null) return;
      await app.alerts.answerDose(alert, 'skipped', { reason: choice.reason });
      answered('skipped');
    }, 'secondary-button alert-skip', { 'aria-haspopup': 'dialog' }),
    alertButton(banner, alert, 'later', t('today.later'), textId, async () => {
      await app.alerts.answerDose(alert, 'snoozed');
      answered('snoozed');
    }, 'secondary-button alert-later'),
  ];
}

/** "Call Zosia" on someone else's SOS when her number is known; null otherwise. */
function callLink(app, alert, me) {
  if (!offersCall(alert, me)) return null;
  const href = telHref(app.me.phoneOf(alert.personId));
  if (!href) return null;
  const name = app.me.aliasOf(alert.personId) || alert.details?.personName || app.me.nameOf(alert.personId) || app.t('alerts.someone');
  return h('a', { href, class: 'primary-button alert-call', 'data-focus-key': `${alert.id}:call` }, app.t('alerts.call', { name }));
}

function alertButton(banner, alert, action, label, describedBy, run, className = null, extra = {}) {
  const { busy } = banner;
  const key = `${alert.id}:${action}`;
  return h('button', {
    type: 'button', class: className ?? (action === 'respond' ? 'primary-button alert-respond' : 'primary-button alert-ack'),
    'data-action': action, 'data-focus-key': key, 'aria-describedby': describedBy,
    'aria-disabled': busy.has(key) ? 'true' : null, ...extra,
    onclick: () => busy.run(key, run),
  }, label);
}
