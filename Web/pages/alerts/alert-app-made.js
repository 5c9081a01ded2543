// A sign-in just made for the ntfy app (Alerts on this phone): the server
// address, user name and password to type into the app, each with Copy;
// the warning that the password is never shown again (the hub keeps only
// its hash); and the server address as a QR code, for a phone's camera to
// read rather than typing a long address. Drawn from the page's state;
// phone-alerts.js decides when.
import { h } from '../../dom.js';
import { qrDrawing } from '../../household/qr-drawing.js';
import { copyableValue } from '../copy-button.js';
import { qrImage } from '../household/qr-image.js';

/**
 * The panel. `state.made` is the hub's 201 answer, `state.copied` what each
 * Copy press came to ({ [id]: "copied" | "selected" }). `onCopy(id, result)`
 * hears a press; `hide()` takes the password off the screen.
 */
export function madePanel(app, state, { onCopy, hide }) {
  const { t } = app;
  const { made } = state;
  const copied = state.copied ?? {};
  const value = (id, what, value, hint = null) => copyableValue(t, {
    id, label: t(`phoneAlerts.made.${what}`), hint, value, copyName: t(`phoneAlerts.copy.${what}`), copied: copied[id] ?? null, onCopy,
  });
  return h('section', { id: 'alert-app-made', class: 'alert-app-made', 'aria-labelledby': 'alert-app-made-heading' },
    h('h3', { id: 'alert-app-made-heading', tabindex: '-1' }, t('phoneAlerts.made.heading', { name: made.name })),
    h('p', { id: 'alert-app-password-warning', class: 'dialog-warning' }, h('strong', {}, t('phoneAlerts.made.onlyNow'))),
    h('dl', { class: 'credential-list' },
      value('alert-app-server', 'server', made.server, t('phoneAlerts.made.serverHint')),
      value('alert-app-username', 'username', made.username),
      value('alert-app-password', 'password', made.password ?? '')),
    serverCode(t, made),
    h('div', { class: 'pairing-actions' },
      h('button', { type: 'button', id: 'alert-app-hide', class: 'secondary-button', onclick: hide }, t('phoneAlerts.made.hide'))));
}

/** The server address as a QR code with what it is for; nothing when the hub's drawing cannot be read. */
function serverCode(t, made) {
  const drawing = qrDrawing(made.svg);
  if (!drawing) return null;
  return h('figure', { class: 'alert-app-qr pairing-qr' },
    qrImage(drawing, t('phoneAlerts.made.qrLabel', { server: made.server }), 'alert-app-qr'),
    h('figcaption', { id: 'alert-app-qr-caption' }, t('phoneAlerts.made.qrCaption')));
}
