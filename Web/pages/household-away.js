// "Away from home" on the Household page, for the admin: how each person
// who looks after someone is told when she is not at home (household/
// away.js words it: by text to her number, by push through the Internet,
// or plainly why not: "no phone number", "the hub has no modem"), and the
// household's emergency contacts (a neighbour), texted when an SOS has gone
// ten minutes unanswered: a small form of up to five names and numbers,
// saved at once with PUT /household/emergency-contacts, the hub's refusal
// shown beside the field it names. household.js loads the answers and
// follows the live stream (awayChoice, household).
import { HubProblem, isUnpaired, problemMessage, sendJSON } from '../api.js';
import { h, replaceKeepingFocus } from '../dom.js';
import { MOST_CONTACTS, awayReach, contactsRequest } from '../household/away.js';
import { canManageHousehold } from '../household/model.js';

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
    h('ul', { id: 'away-reach', class: 'away-reach' }, reach.map((entry) => reachItem(t, entry))),
    h('h3', { id: 'emergency-contacts-heading' }, t('household.away.contacts.heading')),
    h('p', { id: 'emergency-contacts-hint', class: 'hint' }, t('household.away.contacts.hint')),
    possible.textsPossible === false ? h('p', { class: 'away-warning' }, t('household.away.contacts.noModem')) : null,
    contactsForm(section, state.rows ?? (Array.isArray(data.contacts) ? data.contacts : [])));
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
    h('button', { type: 'submit', id: 'emergency-contacts-save', 'aria-disabled': String(state.saving) },
      state.saving ? t('household.away.contacts.saving') : t('household.away.contacts.save'))),
  h('p', { id: 'emergency-contacts-problem', class: 'field-error', hidden: !state.errors.form }, state.errors.form ?? ''));
  return form;
}

function field(t, state, index, name, row, keep) {
  const id = `emergency-contact-${index}-${name}`;
  const problem = state.errors[`[${index}].${name}`];
  return h('div', { class: 'field' },
    h('label', { for: id }, t(`household.away.contacts.${name}`)),
    problem ? h('p', { id: `${id}-error`, class: 'field-error' }, problem) : null,
    h('input', {
      type: name === 'phone' ? 'tel' : 'text', id, name, value: row[name], autocomplete: name === 'phone' ? 'tel' : 'name',
      'aria-invalid': problem ? 'true' : undefined, 'aria-describedby': problem ? `${id}-error` : undefined,
      oninput: (event) => { row[name] = event.target.value; keep(); },
    }));
}

async function save(section, typed) {
  const { app, state, announce } = section;
  const { t } = app;
  if (state.saving) return;
  state.saving = true;
  state.errors = {};
  draw(section);
  try {
    const saved = await sendJSON('PUT', '/household/emergency-contacts', contactsRequest(typed), { t });
    state.rows = null;
    if (section.data) section.data = { ...section.data, contacts: saved };
    announce(t('household.away.contacts.saved', { count: saved.length }));
    section.reloadSoon();
  } catch (problem) {
    if (!(problem instanceof HubProblem) || isUnpaired(problem)) {
      app.reportProblem(problem);
    } else {
      state.errors = problem.status === 422 && problem.errors ? { ...problem.errors } : { form: problemMessage(problem) };
      announce(t('household.away.contacts.failed', { problem: problemMessage(problem) }));
    }
  } finally {
    state.saving = false;
    if (!section.left()) draw(section);
  }
}
