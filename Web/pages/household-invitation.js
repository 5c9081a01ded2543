// "Add a device" on the Household page: an admin makes a pairing code for
// someone in the household or someone new; a senior, for the phone of
// someone who looks after them (POST /pairing/invitations). The code is
// shown large — the QR code to scan, the address and the 8 characters to
// type for those who cannot, and how long it still works — until the hub
// says a device used it (GET /pairing/invitations/{id}) or it expired.
import { getJSON, sendJSON } from '../api.js';
import { h, replaceKeepingFocus } from '../dom.js';
import { clockCountdown, secondsLeft, spokenCountdown, worthAnnouncing } from '../household/countdown.js';
import { PERSON_NAME_MAX_LENGTH, ROLES, invitationRequest, invitationScope, inviteeChoices } from '../household/model.js';
import { qrDrawing, spelledCode } from '../household/qr-drawing.js';

const POLL_EVERY_MS = 2000;
const SVG = 'http://www.w3.org/2000/svg';

/**
 * `state` outlives the page's renders (a language switch keeps what was
 * typed and the code on screen). `onPaired` reloads the lists once a
 * device used the code; `announce` speaks to screen readers.
 */
export function createInvitationSection(app, state, { announce, onPaired }) {
  const { t } = app;
  state.form ??= { who: 'existing', personId: '', name: '', role: 'caregiver' };
  state.errors ??= {};
  state.invitation ??= null; // the hub's 201 answer
  state.status ??= null; // "waiting" | "paired" | "expired"
  state.paired ??= null; // { deviceName, personName, role }
  const element = h('div', { class: 'invitation' });
  let me = null;
  let people = [];
  let sending = false;
  let stopped = false;
  let tick = null;
  let pollTimer = null;
  let lastLeft = null;
  let shownSignature = null;

  function roleName(role) {
    return ROLES.includes(role) ? t(`household.roles.${role}`) : String(role ?? '');
  }

  // --- Drawing ---

  function draw() {
    const scope = invitationScope(me);
    if (!me) return;
    if (!scope) {
      replaceKeepingFocus(element, h('p', { id: 'invite-not-allowed' }, t('household.invite.notAllowed')));
      return;
    }
    const choices = inviteeChoices(me, people, app.language);
    if (state.invitation) {
      replaceKeepingFocus(element, codePanel());
    } else if (scope === 'caregivers' && choices.length === 0) {
      replaceKeepingFocus(element, h('p', { id: 'invite-nobody' }, t('household.invite.nobodyToInvite')));
    } else {
      replaceKeepingFocus(element, form(scope, choices));
    }
  }

  function fieldError(field) {
    const reason = state.errors[field];
    return reason ? h('p', { id: `invite-${field}-error`, class: 'field-error' }, reason) : null;
  }

  function describedBy(field, hint) {
    return [hint ? `invite-${field}-hint` : null, state.errors[field] ? `invite-${field}-error` : null].filter(Boolean).join(' ') || null;
  }

  function form(scope, choices) {
    const { form: typed } = state;
    if (!choices.some((person) => person.id === typed.personId)) typed.personId = choices[0]?.id ?? '';
    const isNew = scope === 'anyone' && typed.who === 'new';
    return h('form', { id: 'invite-form', class: 'invite-form', novalidate: true, onsubmit: send },
      h('p', {}, scope === 'anyone' ? t('household.invite.intro') : t('household.invite.introSenior')),
      scope === 'anyone' ? radioGroup({
        name: 'invite-who', legend: t('household.invite.who'), values: ['existing', 'new'], selected: typed.who,
        label: (value) => t(`household.invite.${value}`),
        onPick: (value) => { typed.who = value; state.errors = {}; draw(); },
      }) : null,
      isNew ? newPersonFields() : personField(scope, choices),
      h('button', { type: 'submit', id: 'invite-button', class: 'primary-button', 'aria-disabled': sending ? 'true' : null },
        sending ? t('household.invite.making') : t('household.invite.button')));
  }

  function personField(scope, choices) {
    const hint = scope === 'caregivers' ? t('household.invite.personSeniorHint') : null;
    return h('div', { class: 'field' },
      h('label', { for: 'invite-personId' }, scope === 'caregivers' ? t('household.invite.personSenior') : t('household.invite.person')),
      hint ? h('p', { id: 'invite-personId-hint', class: 'hint' }, hint) : null,
      fieldError('personId'),
      h('select', {
        id: 'invite-personId', name: 'personId', 'aria-describedby': describedBy('personId', hint),
        'aria-invalid': state.errors.personId ? 'true' : null,
        onchange: (event) => { state.form.personId = event.target.value; },
      }, choices.map((person) => h('option', { value: person.id, selected: person.id === state.form.personId },
        t('household.invite.personOption', { name: person.name, role: roleName(person.role) })))));
  }

  function newPersonFields() {
    return [
      h('div', { class: 'field' },
        h('label', { for: 'invite-name' }, t('household.invite.name')),
        h('p', { id: 'invite-name-hint', class: 'hint' }, t('household.invite.nameHint')),
        fieldError('name'),
        h('input', {
          type: 'text', id: 'invite-name', name: 'name', value: state.form.name, autocomplete: 'off', maxlength: String(PERSON_NAME_MAX_LENGTH),
          required: true, 'aria-required': 'true', 'aria-invalid': state.errors.name ? 'true' : null,
          'aria-describedby': describedBy('name', true),
          oninput: (event) => { state.form.name = event.target.value; },
        })),
      radioGroup({
        name: 'invite-role', legend: t('household.invite.role'), values: ROLES, selected: state.form.role, error: fieldError('role'),
        label: (role) => roleName(role), hint: (role) => t(`household.roleHints.${role}`),
        onPick: (role) => { state.form.role = role; },
      }),
    ];
  }

  function radioGroup({ name, legend, values, selected, label, hint = null, error = null, onPick }) {
    return h('fieldset', { class: 'choices', id: `${name}-group` },
      h('legend', {}, legend),
      error,
      values.map((value) => h('label', { class: 'choice', for: `${name}-${value}` },
        h('input', {
          type: 'radio', id: `${name}-${value}`, name, value, checked: value === selected,
          'aria-describedby': hint ? `${name}-${value}-hint` : null,
          onchange: () => onPick(value),
        }),
        h('span', {}, label(value),
          hint ? h('span', { id: `${name}-${value}-hint`, class: 'choice-hint' }, hint(value)) : null))));
  }

  function codePanel() {
    const invitation = state.invitation;
    const waiting = state.status === 'waiting';
    return h('section', { id: 'pairing-code', class: 'pairing-code', 'data-status': state.status, 'aria-labelledby': 'pairing-code-heading' },
      h('h3', { id: 'pairing-code-heading', tabindex: '-1' }, t('household.invite.codeFor', { name: invitation.personName })),
      waiting ? codeToUse(invitation) : null,
      h('p', { id: 'pairing-status', class: 'pairing-status' }, statusText()),
      h('div', { class: 'pairing-actions' },
        waiting ? null : h('button', { type: 'button', id: 'pairing-again', class: 'primary-button', onclick: again },
          state.status === 'paired' ? t('household.invite.another') : t('household.invite.newCode')),
        waiting ? h('button', { type: 'button', id: 'pairing-hide', class: 'secondary-button', onclick: again }, t('household.invite.hide')) : null));
  }

  function codeToUse(invitation) {
    const drawing = qrDrawing(invitation.svg);
    const left = secondsLeft(invitation.expiresAt);
    return [
      h('p', {}, t('household.invite.scan')),
      drawing
        ? h('div', { class: 'pairing-qr' }, qrImage(drawing, t('household.invite.qrLabel', { name: invitation.personName })))
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

  /** The QR code drawn again from its size and path (see qr-drawing.js), as large as the screen allows. */
  function qrImage({ size, path }, label) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
    svg.setAttribute('shape-rendering', 'crispEdges');
    svg.id = 'pairing-qr';
    const background = document.createElementNS(SVG, 'rect');
    background.setAttribute('width', String(size));
    background.setAttribute('height', String(size));
    background.setAttribute('fill', '#fff'); // white around the code even in the dark theme, or phones cannot read it
    const modules = document.createElementNS(SVG, 'path');
    modules.setAttribute('fill', '#000');
    modules.setAttribute('d', path);
    svg.append(background, modules);
    return svg;
  }

  /** Where to type the code: the pairing page at the address the QR code points to. */
  function pairAddress(url) {
    try {
      return `${new URL(url).origin}/pair`;
    } catch {
      return `${location.origin}/pair`;
    }
  }

  function statusText() {
    switch (state.status) {
      case 'paired':
        return t('household.invite.paired', { device: state.paired?.deviceName ?? '', name: state.paired?.personName ?? state.invitation.personName });
      case 'expired':
        return t('household.invite.expired');
      default:
        return t('household.invite.waiting');
    }
  }

  // --- Making a code ---

  async function send(event) {
    event.preventDefault();
    if (sending) return;
    // Someone new is for an admin only (the choice is not offered to others).
    if (invitationScope(me) !== 'anyone') state.form.who = 'existing';
    const request = invitationRequest(state.form);
    if (request.errors) {
      showErrors(Object.fromEntries(Object.entries(request.errors).map(([field, reason]) => [field, t(`household.invite.errors.${reason}`)])));
      return;
    }
    sending = true;
    state.errors = {};
    draw();
    try {
      const invitation = await sendJSON('POST', '/pairing/invitations', request.body, { t });
      sending = false;
      app.clearProblem();
      state.invitation = invitation;
      state.status = 'waiting';
      state.paired = null;
      state.form.name = '';
      lastLeft = null;
      draw();
      element.querySelector('#pairing-code-heading')?.focus();
      follow();
    } catch (problem) {
      sending = false;
      // The hub's per-field sentences (a name too long) go beside the field shown.
      if (problem?.status === 422 && problem.errors) {
        const isNew = state.form.who === 'new';
        showErrors(Object.fromEntries(Object.entries(problem.errors).map(([field, message]) =>
          [isNew ? (field.endsWith('role') ? 'role' : 'name') : 'personId', message])));
      } else if (problem?.status === 409 && state.form.who === 'new') {
        showErrors({ name: problem.message });
      } else {
        draw();
        app.reportProblem(problem);
      }
    }
  }

  function showErrors(found) {
    state.errors = found;
    draw();
    const first = ['personId', 'name', 'role'].find((field) => found[field]);
    const target = first === 'role' ? element.querySelector('input[name="invite-role"]') : element.querySelector(`#invite-${first}`);
    target?.focus();
  }

  function again() {
    stopFollowing();
    state.invitation = null;
    state.status = null;
    state.paired = null;
    draw();
    element.querySelector('#invite-button, #invite-personId, input[name="invite-who"]:checked')?.focus();
  }

  // --- Following the code until it is used or expires ---

  function follow() {
    stopFollowing();
    if (stopped || state.status !== 'waiting') return;
    tick = setInterval(countDown, 1000);
    pollTimer = setTimeout(poll, POLL_EVERY_MS);
  }

  function stopFollowing() {
    clearInterval(tick);
    clearTimeout(pollTimer);
    tick = null;
    pollTimer = null;
  }

  function countDown() {
    if (state.status !== 'waiting') return;
    const left = secondsLeft(state.invitation.expiresAt);
    const shown = element.querySelector('#pairing-countdown');
    if (shown) shown.textContent = t('household.invite.expiresIn', { time: clockCountdown(left) });
    if (lastLeft !== null && worthAnnouncing(lastLeft, left)) {
      announce(t('household.invite.timeLeft', { time: spokenCountdown(app.language, left) }));
    }
    lastLeft = left;
    // Out of time here: ask the hub now rather than at the next poll.
    if (left === 0) {
      clearTimeout(pollTimer);
      poll();
    }
  }

  async function poll() {
    pollTimer = null;
    const invitation = state.invitation;
    if (stopped || !invitation || state.status !== 'waiting') return;
    try {
      const answer = await getJSON(`/pairing/invitations/${encodeURIComponent(invitation.id)}`, { t });
      if (state.invitation !== invitation) return;
      if (answer?.status === 'paired') finish('paired', answer);
      else if (answer?.status === 'expired') finish('expired');
    } catch (problem) {
      if (state.invitation !== invitation) return;
      if (problem?.status === 404) finish('expired');
      // Anything else (the hub away for a moment): ask again at the next poll.
    }
    if (!stopped && state.invitation === invitation && state.status === 'waiting' && pollTimer === null) {
      pollTimer = setTimeout(poll, POLL_EVERY_MS);
    }
  }

  function finish(status, paired = null) {
    stopFollowing();
    state.status = status;
    state.paired = paired;
    draw();
    announce(statusText());
    // The keyboard was on "Hide the code", which is gone now.
    if (document.activeElement === document.body) element.querySelector('#pairing-again')?.focus();
    if (status === 'paired') onPaired();
  }

  return {
    element,
    /** Who is asking and the household's people, whenever the page has them anew. */
    update(next) {
      me = next.me;
      people = next.people;
      // The form and the code are drawn from `state`: a reload must not
      // pull the select from under a finger, so redraw only what changed.
      const signature = JSON.stringify([app.language, me?.personId, me?.role, people.map((p) => [p.id, p.name, p.role])]);
      if (signature === shownSignature) return;
      shownSignature = signature;
      draw();
      if (state.status === 'waiting' && tick === null) follow();
    },
    /** A device was paired, or a code used, somewhere: ask now rather than at the next poll. */
    check() {
      if (state.status === 'waiting') {
        clearTimeout(pollTimer);
        poll();
      }
    },
    stop() {
      stopped = true;
      stopFollowing();
    },
  };
}
