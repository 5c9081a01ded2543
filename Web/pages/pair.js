// The pairing page at /pair: a phone scanned the QR code of `hearth pair`
// (the secret is in the URL fragment, already removed from the address bar
// by app.js), or a person types the 8-character code. Either way we ask for
// a name for this device, exchange the code for the device cookie and open
// Today. The form keeps what was typed when the language changes.
import { h, pageHeading } from '../dom.js';
import { fieldAria, fieldBox } from '../fields.js';
import {
  DEVICE_NAME_MAX_LENGTH,
  deviceKind,
  exchangePairingCode,
  pairingFailureMessage,
  pairingRequest,
} from '../household/pairing.js';

/**
 * `secret` is the code from the URL (null to ask for the typed code);
 * `goToToday` leaves the page once paired (location.replace in the app).
 */
export function createPairPage(app, { secret, userAgent, goToToday }) {
  // Outlives the page's renders (a language switch): what was typed, and where pairing stands.
  const pairing = { typed: { shortCode: '', deviceName: '' }, nameEdited: false, busy: false, paired: false };
  return (outlet) => renderPair(app, pairing, { secret, userAgent, goToToday }, outlet);
}

/** Draws the pairing form into `outlet`. */
function renderPair(app, pairing, { secret, userAgent, goToToday }, outlet) {
  const { t } = app;
  const { typed } = pairing;
  // A suggested name follows the language until the person changes it.
  if (!pairing.nameEdited) typed.deviceName = t(`pair.deviceKinds.${deviceKind(userAgent)}`);

  const shortCode = secret ? null : field(t, typed, 'short-code', 'shortCode', {
    autocapitalize: 'characters', inputmode: 'text', maxlength: '20', class: 'short-code-input',
  });
  const deviceName = field(t, typed, 'device-name', 'deviceName', {
    maxlength: String(DEVICE_NAME_MAX_LENGTH), required: true,
  }, () => { pairing.nameEdited = true; });
  const button = h('button', { id: 'pair-button', type: 'submit', class: 'primary-button' });
  const status = h('p', { id: 'pair-status', class: 'pair-status', role: 'status' });

  function showBusy() {
    button.textContent = pairing.busy ? t('pair.pairing') : t('pair.button');
    button.setAttribute('aria-disabled', pairing.busy ? 'true' : 'false');
    status.textContent = pairing.paired ? t('pair.paired') : '';
  }

  const form = { app, pairing, secret, goToToday, shortCode, deviceName, showBusy };
  outlet.append(
    pageHeading(t('pair.title')),
    h('p', {}, secret ? t('pair.introWithCode') : t('pair.introWithoutCode')),
    h(
      'form',
      { id: 'pair-form', class: 'pair-form', novalidate: true, onsubmit: (event) => submitPairing(form, event) },
      shortCode?.wrapper,
      deviceName.wrapper,
      button,
    ),
    status,
    secret
      ? h('p', { class: 'pair-help' }, h('a', { href: '/pair' }, t('pair.typeCodeInstead')))
      : h('p', { class: 'pair-help' }, t('pair.whereIsTheCode')),
  );
  showBusy();
}

/**
 * A text field with its label and hint (`pair.<key>`, `pair.<key>Hint`),
 * showing and keeping `typed[key]`; `edited()` hears each change. Typing
 * in it takes away the mark of a refused value.
 */
function field(t, typed, id, key, attributes, edited = () => {}) {
  const hint = t(`pair.${key}Hint`);
  const input = h('input', {
    id,
    name: id,
    type: 'text',
    value: typed[key],
    autocomplete: 'off',
    spellcheck: 'false',
    ...fieldAria(id, { hint }),
    oninput: (event) => {
      input.removeAttribute('aria-invalid');
      typed[key] = event.target.value;
      edited();
    },
    ...attributes,
  });
  const wrapper = fieldBox({ id, label: t(`pair.${key}`), hint, control: input });
  return { wrapper, input };
}

function refuse(app, input, message) {
  app.showProblem(message);
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
}

/** "Pair": checked here first, then the code exchanged for the device cookie, and Today opened. */
async function submitPairing(form, event) {
  const { app, pairing, secret, goToToday, shortCode, deviceName, showBusy } = form;
  const { t } = app;
  const { typed } = pairing;
  event.preventDefault();
  if (pairing.busy || pairing.paired) return;
  const request = pairingRequest({ secret, shortCode: typed.shortCode, deviceName: typed.deviceName, nameChosen: pairing.nameEdited });
  if (!request.body) {
    const input = request.field === 'shortCode' ? shortCode?.input : deviceName.input;
    refuse(app, input, t(`pair.errors.${request.error}`));
    return;
  }
  app.clearProblem();
  pairing.busy = true;
  showBusy();
  try {
    await exchangePairingCode(request.body, { t });
    pairing.paired = true;
    pairing.busy = false;
    showBusy();
    goToToday();
  } catch (problem) {
    pairing.busy = false;
    showBusy();
    // Put the keyboard where the fix is: the name the hub refused, or a
    // typed code it did not know. A scanned code cannot be corrected.
    let input = null;
    if (problem?.status === 422) input = deviceName.input;
    else if (problem?.status === 404 && shortCode) input = shortCode.input;
    refuse(app, input, pairingFailureMessage(problem, t));
  }
}
