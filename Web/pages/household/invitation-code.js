// A pairing code on screen (Household, "Add a device"): the QR code to
// scan, the address and the 8 characters to type for those who cannot,
// how long it still works, and what became of it. Drawn from `state`;
// household-invitation.js decides when.
import { h } from '../../dom.js';
import { clockCountdown, secondsLeft } from '../../household/countdown.js';
import { qrDrawing, spelledCode } from '../../household/qr-drawing.js';
import { qrImage } from './qr-image.js';

/** The code and its state; `again()` hides it (or makes way for another). */
export function codePanel(app, state, again) {
  const { t } = app;
  const invitation = state.invitation;
  const waiting = state.status === 'waiting';
  return h('section', { id: 'pairing-code', class: 'pairing-code', 'data-status': state.status, 'aria-labelledby': 'pairing-code-heading' },
    h('h3', { id: 'pairing-code-heading', tabindex: '-1' }, t('household.invite.codeFor', { name: invitation.personName })),
    // A senior's code for someone new: whoever uses it will look after her.
    waiting && state.note === 'newCaregiverOfMe' ? h('p', { id: 'pairing-new-caregiver' }, t('household.invite.newCaregiverOfMe')) : null,
    waiting ? codeToUse(t, invitation) : null,
    h('p', { id: 'pairing-status', class: 'pairing-status' }, statusText(t, state)),
    h('div', { class: 'pairing-actions' },
      waiting ? null : h('button', { type: 'button', id: 'pairing-again', class: 'primary-button', onclick: again },
        state.status === 'paired' ? t('household.invite.another') : t('household.invite.newCode')),
      waiting ? h('button', { type: 'button', id: 'pairing-hide', class: 'secondary-button', onclick: again }, t('household.invite.hide')) : null));
}

/** Waiting, paired (with which device, for whom) or expired: shown, and said aloud when it changes. */
export function statusText(t, state) {
  switch (state.status) {
    case 'paired':
      return t('household.invite.paired', { device: state.paired?.deviceName ?? '', name: state.paired?.personName ?? state.invitation.personName });
    case 'expired':
      return t('household.invite.expired');
    default:
      return t('household.invite.waiting');
  }
}

function codeToUse(t, invitation) {
  const drawing = qrDrawing(invitation.svg);
  const left = secondsLeft(invitation.expiresAt);
  return [
    h('p', {}, t('household.invite.scan')),
    drawing
      ? h('div', { class: 'pairing-qr' }, qrImage(drawing, t('household.invite.qrLabel', { name: invitation.personName }), 'pairing-qr'))
      : h('p', { class: 'hint' }, t('household.invite.noQr')),
    h('p', {}, t('household.invite.cannotScan', { address: pairAddress(invitation.url) })),
    h('p', { class: 'pairing-short-code' },
      // Shown as "7K3M-Q9TX"; read out a character at a time.
      h('span', { id: 'pairing-short-code', 'aria-hidden': 'true' }, invitation.shortCode),
      h('span', { class: 'visually-hidden' }, spelledCode(invitation.shortCode))),
    // A timer is not read out every second; the announcer says it at a few moments.
    h('p', { id: 'pairing-countdown', class: 'pairing-countdown', role: 'timer' }, t('household.invite.expiresIn', { time: clockCountdown(left) })),
  ];
}

/** Where to type the code: the pairing page at the address the QR code points to. */
function pairAddress(url) {
  try {
    return `${new URL(url).origin}/pair`;
  } catch {
    return `${location.origin}/pair`;
  }
}
