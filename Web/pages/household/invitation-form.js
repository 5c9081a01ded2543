// The form of "Add a device" (Household): for whom the pairing code is —
// someone in the household, or someone new with their name and role; a
// senior's is only ever for someone new (a name only, always a caregiver
// who will look after her) — and the button that makes it. Drawn again from `state` each time,
// so what was typed survives a redraw; household-invitation.js sends it.
import { h } from '../../dom.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { invitationKinds, newPersonRoles, PERSON_NAME_MAX_LENGTH, ROLES, roleName } from '../../household/model.js';

/**
 * The form. `section` is { app, state, sending, draw, send }: `draw()`
 * redraws the whole section (choosing "someone new" changes the fields),
 * `send(event)` makes the code.
 */
export function invitationForm(section, scope, choices) {
  const { app, state, sending, draw, send } = section;
  const { t } = app;
  const { form: typed } = state;
  if (!choices.some((person) => person.id === typed.personId)) typed.personId = choices[0]?.id ?? '';
  const kinds = invitationKinds(scope);
  if (!kinds.includes(typed.who)) typed.who = kinds[0];
  const isNew = typed.who === 'new';
  return h('form', { id: 'invite-form', class: 'invite-form', novalidate: true, onsubmit: send },
    h('p', { id: 'invite-intro' }, t(scope === 'anyone' ? 'household.invite.intro' : 'household.invite.introSenior')),
    kinds.length > 1 ? radioGroup({
      name: 'invite-who', legend: t('household.invite.who'), values: kinds, selected: typed.who,
      label: (value) => t(`household.invite.${value}`),
      onPick: (value) => { typed.who = value; state.errors = {}; draw(); },
    }) : null,
    isNew ? newPersonFields(app, state, scope) : personField(app, state, choices),
    h('button', { type: 'submit', id: 'invite-button', class: 'primary-button', 'aria-disabled': sending ? 'true' : null },
      sending ? t('household.invite.making') : t('household.invite.button')));
}

function fieldError(state, field) {
  const reason = state.errors[field];
  return reason ? h('p', { id: `invite-${field}-error`, class: 'field-error' }, reason) : null;
}

function personField(app, state, choices) {
  const { t } = app;
  const error = state.errors.personId;
  return fieldBox({
    id: 'invite-personId', label: t('household.invite.person'), error,
    control: h('select', {
      id: 'invite-personId', name: 'personId', ...fieldAria('invite-personId', { error }),
      onchange: (event) => { state.form.personId = event.target.value; },
    }, choices.map((person) => h('option', { value: person.id, selected: person.id === state.form.personId },
      t('household.invite.personOption', { name: person.name, role: roleName(t, person.role) ?? '' })))),
  });
}

function newPersonFields(app, state, scope) {
  const { t } = app;
  // A senior gives a name only: whoever she asks for is a caregiver.
  const picksRole = newPersonRoles(scope).length > 1;
  const hint = picksRole ? t('household.invite.nameHint') : t('household.invite.nameHintSenior');
  const error = state.errors.name;
  return [
    fieldBox({
      id: 'invite-name', label: t('household.invite.name'), hint, error,
      control: h('input', {
        type: 'text', id: 'invite-name', name: 'name', value: state.form.name, autocomplete: 'off', maxlength: String(PERSON_NAME_MAX_LENGTH),
        required: true, 'aria-required': 'true', ...fieldAria('invite-name', { hint, error }),
        oninput: (event) => { state.form.name = event.target.value; },
      }),
    }),
    picksRole ? radioGroup({
      name: 'invite-role', legend: t('household.invite.role'), values: ROLES, selected: state.form.role, error: fieldError(state, 'role'),
      label: (role) => roleName(t, role), hint: (role) => t(`household.roleHints.${role}`),
      onPick: (role) => { state.form.role = role; },
    }) : null,
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
