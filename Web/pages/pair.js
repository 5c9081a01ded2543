// The pairing page at /pair: a phone scanned the QR code of `hearth pair`
// (the secret is in the URL fragment, already removed from the address bar
// by app.js), or a person types the 8-character code. Either way we ask for
// a name for this device, exchange the code for the device cookie and open
// Today. The form keeps what was typed when the language changes.
import { h, pageHeading } from '../dom.js';
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
  const typed = { shortCode: '', deviceName: '' };
  let nameEdited = false;
  let busy = false;
  let paired = false;

  return function renderPair(outlet) {
    const { t } = app;
    // A suggested name follows the language until the person changes it.
    if (!nameEdited) typed.deviceName = t(`pair.deviceKinds.${deviceKind(userAgent)}`);

    const field = ({ id, label, hint, value, onInput, ...attributes }) => {
      const input = h('input', {
        id,
        name: id,
        type: 'text',
        value,
        autocomplete: 'off',
        spellcheck: 'false',
        'aria-describedby': `${id}-hint`,
        oninput: (event) => {
          input.removeAttribute('aria-invalid');
          onInput(event.target.value);
        },
        ...attributes,
      });
      const wrapper = h(
        'div',
        { class: 'field' },
        h('label', { for: id }, label),
        h('p', { id: `${id}-hint`, class: 'hint' }, hint),
        input,
      );
      return { wrapper, input };
    };

    const shortCode = secret
      ? null
      : field({
          id: 'short-code',
          label: t('pair.shortCode'),
          hint: t('pair.shortCodeHint'),
          value: typed.shortCode,
          onInput: (value) => {
            typed.shortCode = value;
          },
          autocapitalize: 'characters',
          inputmode: 'text',
          maxlength: '20',
          class: 'short-code-input',
        });
    const deviceName = field({
      id: 'device-name',
      label: t('pair.deviceName'),
      hint: t('pair.deviceNameHint'),
      value: typed.deviceName,
      onInput: (value) => {
        typed.deviceName = value;
        nameEdited = true;
      },
      maxlength: String(DEVICE_NAME_MAX_LENGTH),
      required: true,
    });
    const button = h('button', { id: 'pair-button', type: 'submit', class: 'primary-button' });
    const status = h('p', { id: 'pair-status', class: 'pair-status', role: 'status' });

    function showBusy() {
      button.textContent = busy ? t('pair.pairing') : t('pair.button');
      button.setAttribute('aria-disabled', busy ? 'true' : 'false');
      status.textContent = paired ? t('pair.paired') : '';
    }

    function refuse(input, message) {
      app.showProblem(message);
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
    }

    async function submit(event) {
      event.preventDefault();
      if (busy || paired) return;
      const request = pairingRequest({ secret, shortCode: typed.shortCode, deviceName: typed.deviceName });
      if (!request.body) {
        const input = request.field === 'shortCode' ? shortCode?.input : deviceName.input;
        refuse(input, t(`pair.errors.${request.error}`));
        return;
      }
      app.clearProblem();
      busy = true;
      showBusy();
      try {
        await exchangePairingCode(request.body, { t });
        paired = true;
        busy = false;
        showBusy();
        goToToday();
      } catch (problem) {
        busy = false;
        showBusy();
        // Put the keyboard where the fix is: the name the hub refused, or a
        // typed code it did not know. A scanned code cannot be corrected.
        let input = null;
        if (problem?.status === 422) input = deviceName.input;
        else if (problem?.status === 404 && shortCode) input = shortCode.input;
        refuse(input, pairingFailureMessage(problem, t));
      }
    }

    outlet.append(
      pageHeading(t('pair.title')),
      h('p', {}, secret ? t('pair.introWithCode') : t('pair.introWithoutCode')),
      h(
        'form',
        { id: 'pair-form', class: 'pair-form', novalidate: true, onsubmit: submit },
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
  };
}
