// The alert banner above every page: open alerts meant for this person, in
// large type, with a short beep when one arrives (or repeats) — for an SOS a
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
// Metformin, one tablet").
import { h } from '../dom.js';
import {
  ALERT_KINDS, alertMedication, alertMessage, answersDose, bannerAlerts, canRespond, isOwnSOS, newSounds,
  offersCall, ringsUntilAnswered, soundKey,
} from './alerts.js';
import { telHref } from '../household/people.js';
import { listenButton } from '../pages/listen-button.js';
import { askSkipReason } from '../pages/skip-reason-dialog.js';
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
  let unfolded = false; // on a phone, all the banners rather than the first and a count

  const announce = (text) => announceIn(announcer, text);
  // What each alert's buttons need of the banner.
  const banner = { app, busy, announce, container };

  function render() {
    const me = app.me.current;
    if (!me) {
      container.replaceChildren();
      if (calling !== null) clearInterval(calling);
      calling = null;
      return;
    }
    const shown = bannerAlerts(app.alerts.open, me);
    const fresh = newSounds(shown, heard);
    for (const alert of shown) heard.add(soundKey(alert));
    const ringing = ringsUntilAnswered(shown, me);
    if (fresh.length > 0) {
      const freshAlerts = shown.filter((alert) => fresh.includes(soundKey(alert)));
      if (ringing) sosCall();
      else beep();
      announce(freshAlerts.map((alert) => describeAlert(app, alert, me)).join(' '));
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
    const signature = JSON.stringify([app.language, me.personId, shown, phones, names, busy.keys(), unfolded]);
    if (signature === shownSignature) return;
    shownSignature = signature;
    const focusKey = container.contains(document.activeElement) ? document.activeElement.getAttribute('data-focus-key') : null;
    if (shown.length < 2) unfolded = false;
    // A phone shows the first (an SOS, else the newest) and how many more;
    // the CSS folds them only on a narrow screen.
    const fold = shown.length > 1
      ? h('button', {
        type: 'button', id: 'alert-banner-more', class: 'secondary-button alert-more', 'data-focus-key': 'alert-banner-more',
        'aria-expanded': String(unfolded),
        onclick: () => { unfolded = !unfolded; render(); },
      }, unfolded ? app.t('alerts.fewer') : app.t('alerts.more', { count: shown.length - 1 }))
      : null;
    container.replaceChildren(...shown.map((alert) => alertItem(banner, alert, me)), ...(fold ? [fold] : []));
    container.dataset.folded = String(shown.length > 1 && !unfolded);
    container.hidden = shown.length === 0;
    if (focusKey) {
      const again = container.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      const next = again ?? container.querySelector('button') ?? document.querySelector('#page h1');
      next?.focus();
    }
  }

  return {
    start() {
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
  const buttons = [alertListenButton(app, alert, me, { id: `alert-${alert.id}-listen`, focusKey: `${alert.id}:listen`, describedBy: textId })];
  if (answersDose(alert, me)) {
    buttons.push(...doseAnswers(banner, alert, textId));
  } else {
    if (canRespond(alert, me)) {
      buttons.push(alertButton(banner, alert, 'respond', t('alerts.onMyWay'), textId, () => app.alerts.respond(alert.id)));
    }
    const okLabel = own && !alert.respondedAt ? t('alerts.cancelSOS') : t('alerts.ok');
    buttons.push(alertButton(banner, alert, 'ack', okLabel, textId, () => app.alerts.acknowledge(alert.id)));
    buttons.push(callLink(app, alert, me));
  }
  return h(
    'section',
    { class: 'alert-item', 'data-kind': alert.kind, 'data-alert-id': alert.id, 'data-responded': alert.respondedAt ? 'true' : 'false', 'aria-labelledby': titleId },
    h('p', { class: 'alert-kind', id: titleId }, h('span', { class: 'alert-icon', 'aria-hidden': 'true' }, alert.kind === 'sos' ? '!' : '•'), alertKindName(app, alert.kind)),
    h('p', { class: 'alert-text', id: textId }, describeAlert(app, alert, me)),
    h('div', { class: 'alert-actions' }, buttons),
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
