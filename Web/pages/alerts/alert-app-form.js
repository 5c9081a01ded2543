// Making a sign-in for the ntfy app on this phone (Alerts on this phone):
// a name for it, suggested from whose phone it is, and the button. The hub
// makes it for the person this browser is paired as and answers with the
// password, once; then the panel of alert-app-made.js takes the form's place
// and the keyboard goes to its heading, so the next thing read is what to
// copy. Drawn from the page's state, so what was typed survives a redraw.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { ALERT_APP_NAME_MAX_LENGTH, alertAppRequest, suggestedAlertAppName } from '../../household/alert-apps.js';

const NAME_FIELD = 'alert-app-name';

/** The name shown in the field: what was typed, else "<name>'s phone" for the person using this browser. */
export function nameInField(t, state) {
  if (state.typed !== null) return state.typed;
  const name = state.me?.name;
  return suggestedAlertAppName(name ? t('phoneAlerts.make.suggestedName', { name }) : t('phoneAlerts.make.suggestedNameNobody'));
}

/** The form. `page` is { app, state, draw, make }: `make(event)` sends it. */
export function alertAppForm(page) {
  const { app, state, make } = page;
  const { t } = app;
  const error = state.errors.name;
  const hint = t('phoneAlerts.make.nameHint');
  return h('form', { id: 'alert-app-form', class: 'alert-app-form', novalidate: true, onsubmit: make },
    h('p', {}, t('phoneAlerts.make.intro')),
    fieldBox({
      id: NAME_FIELD, label: t('phoneAlerts.make.name'), hint, error,
      control: h('input', {
        type: 'text', id: NAME_FIELD, name: 'name', value: nameInField(t, state), autocomplete: 'off',
        maxlength: String(ALERT_APP_NAME_MAX_LENGTH), required: true, 'aria-required': 'true',
        ...fieldAria(NAME_FIELD, { hint, error }),
        oninput: (event) => { state.typed = event.target.value; },
      }),
    }),
    h('div', { class: 'form-actions' },
      h('button', { type: 'submit', id: 'make-alert-app', class: 'primary-button', 'aria-disabled': state.sending ? 'true' : null },
        state.sending ? t('phoneAlerts.make.making') : t('phoneAlerts.make.button'))));
}

/**
 * "Make a sign-in": the name checked here first, then made by the hub. On
 * success the panel with the password is drawn, the keyboard moved to it and
 * the page told (`made(answer)`); a name the hub refuses is said beside the
 * field; anything else in the page's problem area.
 */
export async function makeAlertApp(page, event) {
  const { app, state, draw, announce, made } = page;
  const { t } = app;
  event.preventDefault();
  if (state.sending) return;
  const request = alertAppRequest(nameInField(t, state));
  if (request.errors) {
    showNameError(page, t(`phoneAlerts.make.errors.${request.errors.name}`, { max: ALERT_APP_NAME_MAX_LENGTH }));
    return;
  }
  state.errors = {};
  state.sending = true;
  draw();
  try {
    const answer = await sendJSON('POST', paths.alertApps(), request.body, { t });
    state.sending = false;
    app.clearProblem();
    state.made = answer;
    state.copied = {};
    state.typed = null;
    draw();
    document.getElementById('alert-app-made-heading')?.focus();
    announce(t('phoneAlerts.made.announce', { name: answer.name }));
    made(answer);
  } catch (problem) {
    state.sending = false;
    if (problem?.status === 422 && problem.errors?.name) {
      showNameError(page, problem.errors.name);
    } else {
      draw();
      app.reportProblem(problem);
    }
  }
}

function showNameError(page, sentence) {
  page.state.errors = { name: sentence };
  page.draw();
  document.getElementById(NAME_FIELD)?.focus();
}
