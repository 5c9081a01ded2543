// The push half of "When you are not at home" (pages/household/away-choice.js):
// offered only when the hub pushes through an Internet ntfy server
// (`pushPossible`). Chosen, it shows her secret topic's address to
// subscribe to in the ntfy app: a tap on the phone (ntfy's own `ntfy://`
// link opens the app's subscribe screen), a QR code for a phone's camera
// when the page is open on a computer, and the address to copy. "Make a
// new link" makes the topic anew, so a lost phone or a link shared by
// mistake hears nothing more. It says plainly what the Internet server
// reads: the kind of alert and whom to call, or (the household's choice)
// the whole sentence.
import { h } from '../../dom.js';
import { qrDrawing } from '../../household/qr-drawing.js';
import { qrImage } from './qr-image.js';

/** ntfy's link that opens its app on the topic: `ntfy://<host><path>` (ntfy docs, "Subscribe via deep link"). */
export function ntfyAppLink(pushUrl) {
  try {
    const url = new URL(pushUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return `ntfy://${url.host}${url.pathname}${url.protocol === 'http:' ? '?secure=false' : ''}`;
  } catch {
    return null;
  }
}

/** The push checkbox and, when chosen, how to subscribe; `minutes` the household's wait for a missed dose; `save(changes)` PUTs the choice. */
export function awayPush(app, away, minutes, save) {
  const { t } = app;
  const box = h('input', {
    type: 'checkbox', id: 'away-push', checked: away.push === true, 'aria-describedby': 'away-push-hint',
    onchange: () => save({ push: box.checked }, box),
  });
  const reads = away.pushContent === 'full' ? t('settings.away.push.readsFull') : t('settings.away.push.readsKind');
  return [
    h('label', { class: 'choice away-choice', for: 'away-push' }, box, h('span', {}, t('settings.away.push.label'))),
    h('p', { id: 'away-push-hint', class: 'hint' }, t('settings.away.push.hint', { minutes }), ' ', reads),
    away.push === true && away.pushUrl ? subscribe(app, away, save) : null,
  ];
}

function subscribe(app, away, save) {
  const { t } = app;
  const link = ntfyAppLink(away.pushUrl);
  const drawing = qrDrawing(away.pushSvg);
  const renew = h('button', {
    type: 'button', id: 'away-push-renew', class: 'secondary-button',
    onclick: () => save({ push: true, newPushTopic: true }, renew),
  }, t('settings.away.push.renew'));
  return h('div', { id: 'away-push-subscribe', class: 'away-push-subscribe' },
    h('p', {}, t('settings.away.push.subscribe')),
    link ? h('p', {}, h('a', { href: link, id: 'away-push-app-link', class: 'button-link' }, t('settings.away.push.openApp'))) : null,
    drawing ? h('figure', { class: 'pairing-qr away-push-qr' },
      qrImage(drawing, t('settings.away.push.qrLabel'), 'away-push-qr'),
      h('figcaption', {}, t('settings.away.push.qrCaption'))) : null,
    h('p', {}, t('settings.away.push.address'), ' ', h('code', { id: 'away-push-url', class: 'away-push-url' }, away.pushUrl)),
    h('p', { class: 'hint' }, t('settings.away.push.renewHint')),
    h('p', {}, renew));
}
