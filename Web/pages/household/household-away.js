// "Away from home" on the Household page, for the admin: how each person
// who looks after someone is told when she is not at home (household/
// away.js words it: by text to her number, by push through the Internet,
// or plainly why not: "no phone number", "the hub has no modem"), and the
// household's emergency contacts (a neighbour), texted when an SOS has gone
// ten minutes unanswered: a small form of up to five names and numbers,
// saved at once with PUT /household/emergency-contacts, the hub's refusal
// shown beside the field it names; and how long a missed dose and an
// unanswered SOS wait at home first (PUT /household/away-delays).
// household.js loads the answers and follows the live stream (awayChoice,
// household).
import { HubProblem, isUnpaired, problemMessage, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, replaceKeepingFocus } from '../../dom.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { MOST_CONTACTS, awayReach, contactsRequest, hubAwayLines } from '../../household/away.js';
import { canManageHousehold } from '../../household/model.js';

/**
 * `state` outlives the page's renders: the rows being typed (null: as the
 * hub has them), the hub's refusal by field, and whether a save runs.
 */
export function createAwaySection(app, state, { announce, reloadSoon, left }) {
  state.rows ??= null;
  state.errors ??= {};
  state.saving ??= false;
  const element = h('div', { class: 'household-away' });
  const section = { app, state, announce, reloadSoon, left, element, data: null };
  return {
    element,
    update(data) {
      section.data = data;
      draw(section);
    },
  };
}

function draw(section) {
  const { app, data, element, state } = section;
  const { t, language } = app;
  if (section.left()) return;
  if (!data || !canManageHousehold(data.me)) {
    element.replaceChildren();
    return;
  }
  const reach = awayReach(data.people, data.away, { language });
  const possible = Object.values(data.away ?? {})[0] ?? {};
  replaceKeepingFocus(element,
    h('p', {}, t('household.away.intro')),
    hubAwayLines(data.health?.alerts?.sms).map((line) =>
      h('p', { class: line.warning ? 'away-warning away-hub' : 'away-hub', 'data-line': line.key }, t(line.key, line.params))),
    h('ul', { id: 'away-reach', class: 'away-reach' }, reach.map((entry) => reachItem(t, entry))),
    h('h3', { id: 'emergency-contacts-heading' }, t('household.away.contacts.heading')),
    h('p', { id: 'emergency-contacts-hint', class: 'hint' },
      t('household.away.contacts.hint', { minutes: data.delays?.contactsAfterMinutes ?? 10 })),
    possible.textsPossible === false ? h('p', { class: 'away-warning' }, t('household.away.contacts.noModem')) : null,
    contactsForm(section, state.rows ?? (Array.isArray(data.contacts) ? data.contacts : [])),
    data.delays ? delaysForm(section, data.delays) : null);
}

/** The two waits, in minutes, saved together. */
function delaysForm(section, delays) {
  const { app, state } = section;
  const { t } = app;
  state.delays ??= { ...delays };
  const typed = state.delays;
  const number = (name, label, hint) => {
    const id = `away-delay-${name}`;
    const problem = state.errors[name];
    const hintText = t(hint);
    return fieldBox({
      id, label: t(label), hint: hintText, error: problem,
      control: h('input', {
        // Text with a number keypad, as Reminders: a browser's number field would drop what is not a number before the hub could name it.
        type: 'text', id, name, class: 'short-input', inputmode: 'numeric', maxlength: '4', value: String(typed[name] ?? ''),
        ...fieldAria(id, { hint: hintText, error: problem }),
        oninput: (event) => { typed[name] = event.target.value; },
      }),
    });
  };
  return h('form', {
    id: 'away-delays-form', class: 'away-delays-form', 'aria-labelledby': 'away-delays-heading', novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      saveDelays(section, typed);
    },
  },
  h('h3', { id: 'away-delays-heading' }, t('household.away.delays.heading')),
  number('missedDoseAwayAfterMinutes', 'household.away.delays.missed', 'household.away.delays.missedHint'),
  number('contactsAfterMinutes', 'household.away.delays.contacts', 'household.away.delays.contactsHint'),
  h('p', { class: 'form-actions' }, h('button', { type: 'submit', id: 'away-delays-save', class: 'primary-button' }, t('household.away.delays.save'))));
}

async function saveDelays(section, typed) {
  const { app, state, announce } = section;
  const { t } = app;
  // What is not a whole number goes as typed, for the hub to refuse by name.
  const whole = (value) => (/^\s*\d+\s*$/.test(String(value)) ? Number(value) : value);
  try {
    const saved = await sendJSON('PUT', paths.awayDelays(), {
      missedDoseAwayAfterMinutes: whole(typed.missedDoseAwayAfterMinutes), contactsAfterMinutes: whole(typed.contactsAfterMinutes),
    }, { t });
    state.delays = null;
    state.errors = {};
    if (section.data) section.data = { ...section.data, delays: saved };
    announce(t('household.away.delays.saved', { missed: saved.missedDoseAwayAfterMinutes, contacts: saved.contactsAfterMinutes }));
    section.reloadSoon();
  } catch (problem) {
    refused(section, problem, 'household.away.delays.failed');
  }
  if (!section.left()) draw(section);
}

function reachItem(t, entry) {
  if (entry.reachedBy.length === 0) {
    const reasons = entry.reasons.map((reason) => t(`household.away.reasons.${reason}`)).join('; ');
    return h('li', { class: 'away-warning', 'data-person-id': entry.id }, t('household.away.notTold', { name: entry.name, reasons }));
  }
  const ways = entry.reachedBy.map((way) => (way === 'sms' ? t('household.away.bySms', { phone: entry.phone }) : t('household.away.byPush')));
  return h('li', { 'data-person-id': entry.id }, t('household.away.told', { name: entry.name, ways: ways.join(t('household.away.and')) }));
}

function contactsForm(section, rows) {
  const { app, state } = section;
  const { t } = app;
  const typed = rows.map((row) => ({ name: row.name ?? '', phone: row.phone ?? '' }));
  const keep = () => { state.rows = typed; };
  const redraw = () => draw(section);
  const form = h('form', {
    id: 'emergency-contacts-form', class: 'emergency-contacts-form', 'aria-labelledby': 'emergency-contacts-heading', novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      save(section, typed);
    },
  },
  typed.length === 0 ? h('p', { class: 'empty', id: 'emergency-contacts-none' }, t('household.away.contacts.none')) : null,
  typed.map((row, index) => h('fieldset', { class: 'emergency-contact', 'data-index': String(index) },
    h('legend', {}, t('household.away.contacts.legend', { number: index + 1 })),
    field(t, state, index, 'name', row, keep),
    field(t, state, index, 'phone', row, keep),
    h('button', {
      type: 'button', class: 'secondary-button', id: `emergency-contact-${index}-remove`, 'data-focus-key': `contact:${index}:remove`,
      onclick: () => {
        typed.splice(index, 1);
        state.rows = typed;
        state.errors = {};
        redraw();
        document.getElementById('emergency-contacts-add')?.focus();
      },
    }, t('household.away.contacts.remove')))),
  h('p', { class: 'form-actions' },
    typed.length < MOST_CONTACTS ? h('button', {
      type: 'button', class: 'secondary-button', id: 'emergency-contacts-add',
      onclick: () => {
        typed.push({ name: '', phone: '' });
        state.rows = typed;
        redraw();
        document.getElementById(`emergency-contact-${typed.length - 1}-name`)?.focus();
      },
    }, t('household.away.contacts.add')) : null,
    h('button', { type: 'submit', id: 'emergency-contacts-save', class: 'primary-button', 'aria-disabled': String(state.saving) },
      state.saving ? t('household.away.contacts.saving') : t('household.away.contacts.save'))),
  h('p', { id: 'emergency-contacts-problem', class: 'field-error', hidden: !state.errors.form }, state.errors.form ?? ''));
  return form;
}

function field(t, state, index, name, row, keep) {
  const id = `emergency-contact-${index}-${name}`;
  const problem = state.errors[`[${index}].${name}`];
  return fieldBox({
    id, label: t(`household.away.contacts.${name}`), error: problem,
    control: h('input', {
      type: name === 'phone' ? 'tel' : 'text', id, name, value: row[name], autocomplete: name === 'phone' ? 'tel' : 'name',
      ...fieldAria(id, { error: problem }),
      oninput: (event) => { row[name] = event.target.value; keep(); },
    }),
  });
}

async function save(section, typed) {
  const { app, state, announce } = section;
  const { t } = app;
  if (state.saving) return;
  state.saving = true;
  state.errors = {};
  draw(section);
  try {
    const saved = await sendJSON('PUT', paths.emergencyContacts(), contactsRequest(typed), { t });
    state.rows = null;
    if (section.data) section.data = { ...section.data, contacts: saved };
    announce(t('household.away.contacts.saved', { count: saved.length }));
    section.reloadSoon();
  } catch (problem) {
    refused(section, problem, 'household.away.contacts.failed');
  } finally {
    state.saving = false;
    if (!section.left()) draw(section);
  }
}

/**
 * The hub said no: each field it names gets its sentence beside it (422),
 * anything else one line under the form; said aloud as `failedKey`. A
 * device no longer paired, or no hub, is the app's to say.
 */
function refused(section, problem, failedKey) {
  const { app, state, announce } = section;
  if (!(problem instanceof HubProblem) || isUnpaired(problem)) {
    app.reportProblem(problem);
    return;
  }
  state.errors = problem.status === 422 && problem.errors ? { ...problem.errors } : { form: problemMessage(problem) };
  announce(app.t(failedKey, { problem: problemMessage(problem) }));
}
