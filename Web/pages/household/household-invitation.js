// "Add a device" on the Household page: an admin makes a pairing code for
// someone in the household or someone new; a senior, for the phone of
// someone who looks after them, or of someone new who will: a caregiver the
// hub links to her when the code is used (POST /pairing/invitations). The
// code is shown large — the QR code to scan, the address and the 8
// characters to type for those who cannot, and how long it still works —
// until the hub says a device used it (GET /pairing/invitations/{id}) or it
// expired.
// This file holds the section together and makes the code; the form is
// invitation-form.js, the code on screen invitation-code.js, and following
// it until used invitation-watch.js.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, replaceKeepingFocus } from '../../dom.js';
import {
  invitationKinds, invitationNote, invitationRequest, invitationScope, inviteeChoices, newPersonRoles,
} from '../../household/model.js';
import { codePanel, statusText } from './invitation-code.js';
import { invitationForm } from './invitation-form.js';
import { watchCode } from './invitation-watch.js';

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
  state.note ??= null; // invitationNote: what to say beside the code
  const element = h('div', { class: 'invitation' });
  // What this render knows besides `state`: who is asking, the people, and whether a code is being made.
  const section = {
    app, state, element, me: null, people: [], sending: false,
    draw, send: (event) => makeCode(section, event), showErrors: (found) => showErrors(section, found),
  };
  const watch = watchCode(app, state, { element, announce, finished: finish });
  section.watch = watch;
  let shownSignature = null;

  function draw() {
    const { me } = section;
    const scope = invitationScope(me);
    if (!me) return;
    if (!scope) {
      replaceKeepingFocus(element, h('p', { id: 'invite-not-allowed' }, t('household.invite.notAllowed')));
      return;
    }
    const choices = inviteeChoices(me, section.people, app.language);
    if (state.invitation) {
      replaceKeepingFocus(element, codePanel(app, state, again));
    } else {
      replaceKeepingFocus(element, invitationForm(section, scope, choices));
    }
  }

  function again() {
    watch.stopFollowing();
    state.invitation = null;
    state.status = null;
    state.paired = null;
    state.note = null;
    draw();
    element.querySelector('#invite-button, #invite-personId, #invite-name, input[name="invite-who"]:checked')?.focus();
  }

  function finish(status, paired = null) {
    watch.stopFollowing();
    state.status = status;
    state.paired = paired;
    draw();
    announce(statusText(t, state));
    // The keyboard was on "Hide the code", which is gone now.
    if (document.activeElement === document.body) element.querySelector('#pairing-again')?.focus();
    if (status === 'paired') onPaired();
  }

  return {
    element,
    /** Who is asking and the household's people, whenever the page has them anew. */
    update(next) {
      section.me = next.me;
      section.people = next.people;
      const { me, people } = section;
      // The form and the code are drawn from `state`: a reload must not
      // pull the select from under a finger, so redraw only what changed.
      const signature = JSON.stringify([app.language, me?.personId, me?.role, people.map((p) => [p.id, p.name, p.role])]);
      if (signature === shownSignature) return;
      shownSignature = signature;
      draw();
      if (state.status === 'waiting' && !watch.following()) watch.follow();
    },
    check: watch.check,
    stop: watch.stop,
  };
}

/** "Make a code": checked here first, then asked of the hub; the code is shown and followed, or what is wrong said beside its field. */
async function makeCode(section, event) {
  const { app, state, element, draw, showErrors, watch } = section;
  const { t } = app;
  event.preventDefault();
  if (section.sending) return;
  // Only what the form offers this person: a senior's someone new is a
  // caregiver whatever the form holds; the hub checks again.
  const scope = invitationScope(section.me);
  const kinds = invitationKinds(scope);
  if (!kinds.includes(state.form.who)) state.form.who = kinds[0];
  const request = invitationRequest(state.form, { scope });
  if (request.errors) {
    showErrors(Object.fromEntries(Object.entries(request.errors).map(([field, reason]) => [field, t(`household.invite.errors.${reason}`)])));
    return;
  }
  state.errors = {};
  section.sending = true;
  draw();
  try {
    const invitation = await sendJSON('POST', paths.invitations(), request.body, { t });
    section.sending = false;
    app.clearProblem();
    state.invitation = invitation;
    state.status = 'waiting';
    state.paired = null;
    state.note = invitationNote(scope, request.body);
    state.form.name = '';
    watch.newCode();
    draw();
    element.querySelector('#pairing-code-heading')?.focus();
    watch.follow();
  } catch (problem) {
    section.sending = false;
    // The hub's per-field sentences (a name too long) go beside the field
    // shown; a senior is shown no role, so anything about it goes by the name.
    if (problem?.status === 422 && problem.errors) {
      const isNew = state.form.who === 'new';
      const picksRole = newPersonRoles(scope).length > 1;
      showErrors(Object.fromEntries(Object.entries(problem.errors).map(([field, message]) =>
        [isNew ? (picksRole && field.endsWith('role') ? 'role' : 'name') : 'personId', message])));
    } else if (problem?.status === 409 && state.form.who === 'new') {
      showErrors({ name: problem.message });
    } else {
      draw();
      app.reportProblem(problem);
    }
  }
}

/** What is wrong, beside each field; the keyboard goes to the first. */
function showErrors(section, found) {
  const { state, element, draw } = section;
  state.errors = found;
  draw();
  const first = ['personId', 'name', 'role'].find((field) => found[field]);
  const target = first === 'role' ? element.querySelector('input[name="invite-role"]') : element.querySelector(`#invite-${first}`);
  target?.focus();
}
