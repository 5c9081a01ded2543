// "Change…" on the Household page: a person's name and phone number, and
// for an admin their role, in a dialog. Anyone changes their own; an admin
// anyone's (household/people.js says who may change what). For a senior
// this person looks after, also their own name for her ("Mama"), which
// only they see: a caregiver who may not change her name gets that field
// alone. The dialog stays open while the hub is asked, so what it refuses
// is said where it applies: a 422's sentences beside their fields,
// anything else (a 409: the household would lose its last admin, or a care
// link stands in the way) above the buttons. The role of the household's only admin is shown
// but cannot be picked, with the reason; the hub decides anyway.
import { HubProblem, isUnpaired, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { showDialog } from '../../dialog.js';
import { PERSON_ALIAS_MAX_LENGTH, PERSON_NAME_MAX_LENGTH, ROLES, roleName } from '../../household/model.js';
import { isLastAdmin, personPatch, personPermissions } from '../../household/people.js';
import { whileBusy } from '../page-tools.js';

const FIELD_IDS = Object.freeze({ name: 'person-name', phone: 'person-phone', role: 'person-role', alias: 'person-alias' });

/**
 * Resolves with the person as the hub now keeps them, or null when
 * cancelled or nothing changed. `me` is who is using this browser;
 * `people` the household (to know the last admin).
 */
export function changePersonDetails(app, person, { me, people, returnFocus }) {
  const { t } = app;
  const allowed = personPermissions(me, person);
  const isMe = person.id === me?.personId;
  const roleLocked = allowed.role && isLastAdmin(people, person);
  // Only their own name for her: her name and phone are not theirs to change.
  const aliasOnly = allowed.alias && !allowed.name;
  return showDialog({
    id: 'person-dialog',
    className: 'person-dialog',
    labelledBy: 'person-dialog-title',
    returnFocus,
    build(close) {
      const errors = {};
      const problem = h('p', { id: 'person-dialog-problem', class: 'dialog-warning', role: 'alert', hidden: true });
      const nameField = allowed.name ? textField(t, errors, {
        name: 'name', type: 'text', label: t('household.personDialog.name'), value: person.name ?? '',
        hint: t('household.personDialog.nameHint', { max: PERSON_NAME_MAX_LENGTH }),
        attributes: { maxlength: String(PERSON_NAME_MAX_LENGTH), required: true, 'aria-required': 'true', autocomplete: 'off', autofocus: true },
      }) : null;
      const aliasField = allowed.alias ? textField(t, errors, {
        name: 'alias', type: 'text', label: t('household.personDialog.alias'), value: person.alias ?? '',
        hint: t('household.personDialog.aliasHint', { max: PERSON_ALIAS_MAX_LENGTH }),
        attributes: { maxlength: String(PERSON_ALIAS_MAX_LENGTH), autocomplete: 'off', autofocus: aliasOnly },
      }) : null;
      const phoneField = allowed.phone ? textField(t, errors, {
        name: 'phone', type: 'tel', label: t('household.personDialog.phone'), value: person.phone ?? '',
        hint: t('household.personDialog.phoneHint'),
        // Someone else's number: the browser must not offer this person's own.
        attributes: { autocomplete: isMe ? 'tel' : 'off', maxlength: '32' },
      }) : null;
      const roleField = allowed.role ? roleSelect(t, errors, person, roleLocked) : null;
      const ownMedicines = allowed.role && person.role === 'senior' ? ownMedicinesField(t, person) : null;

      async function save(event) {
        event.preventDefault();
        // A second Enter while the hub is asked: the first answer decides.
        if (document.getElementById('person-save')?.getAttribute('aria-disabled') === 'true') return;
        const typed = {
          name: document.getElementById(FIELD_IDS.name)?.value,
          phone: document.getElementById(FIELD_IDS.phone)?.value,
          alias: aliasField ? document.getElementById(FIELD_IDS.alias)?.value : undefined,
          role: roleField && !roleLocked ? document.getElementById(FIELD_IDS.role)?.value : undefined,
          managesOwnMedications: ownMedicines ? document.getElementById('person-own-medicines')?.checked === true : undefined,
        };
        const patch = personPatch(person, typed, { ...allowed, role: allowed.role && !roleLocked });
        showProblem(problem, null);
        if (patch.errors) {
          showErrors(errors, Object.fromEntries(Object.entries(patch.errors)
            .map(([field, reason]) => [field, t(`household.personDialog.errors.${reason}`, {
              max: field === 'alias' ? PERSON_ALIAS_MAX_LENGTH : PERSON_NAME_MAX_LENGTH,
            })])));
          return;
        }
        showErrors(errors, {});
        if (patch.body === null) {
          close(null);
          return;
        }
        await whileBusy(document.getElementById('person-save'), t('household.saving'), async () => {
          try {
            const answer = await sendJSON('PATCH', paths.person(person.id), patch.body, { t });
            app.clearProblem();
            const saved = answer ?? { ...person, ...patch.body };
            // The alias is the caller's own: kept as sent when the answer does not say it.
            close(Object.hasOwn(patch.body, 'alias') && !Object.hasOwn(saved, 'alias') ? { ...saved, alias: patch.body.alias } : saved);
          } catch (refusal) {
            refused(app, refusal, { errors, problem, close });
          }
        });
      }

      return [
        h('h2', { id: 'person-dialog-title' }, dialogTitle(t, person, { isMe, aliasOnly })),
        h('form', { id: 'person-form', novalidate: true, onsubmit: save },
          nameField, aliasField, phoneField, roleField, ownMedicines, problem,
          h('div', { class: 'dialog-actions' },
            h('button', { type: 'submit', id: 'person-save', class: 'primary-button' }, t('household.personDialog.save')),
            h('button', { type: 'button', id: 'person-cancel', class: 'secondary-button', onclick: () => close(null) },
              t('household.personDialog.cancel')))),
      ];
    },
  });
}

function dialogTitle(t, person, { isMe, aliasOnly }) {
  if (isMe) return t('household.personDialog.titleYou');
  if (aliasOnly) return t('household.personDialog.titleAlias', { name: person.name });
  return t('household.personDialog.title', { name: person.name });
}

/**
 * A labelled field with its hint and a place for its error; `errors[name]`
 * keeps what showErrors() needs to fill it without drawing the form again
 * (the caret and what was typed stay).
 */
function textField(t, errors, { name, type, label, value, hint, attributes }) {
  const id = FIELD_IDS[name];
  const error = h('p', { id: `${id}-error`, class: 'field-error', hidden: true });
  const input = h('input', { type, id, name, value, 'aria-describedby': `${id}-hint`, ...attributes });
  errors[name] = { input, error, describedBy: `${id}-hint` };
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('p', { id: `${id}-hint`, class: 'hint' }, hint),
    error,
    input);
}

/** For a senior, as her admin: whether she adds, changes and stops her own medicines. */
function ownMedicinesField(t, person) {
  const id = 'person-own-medicines';
  return h('div', { class: 'field checkbox-field' },
    h('input', { type: 'checkbox', id, name: 'managesOwnMedications', checked: person.managesOwnMedications === true, 'aria-describedby': `${id}-hint` }),
    h('label', { for: id }, t('household.personDialog.ownMedicines', { name: person.name })),
    h('p', { id: `${id}-hint`, class: 'hint' }, t('household.personDialog.ownMedicinesHint')));
}

function roleSelect(t, errors, person, locked) {
  const id = FIELD_IDS.role;
  const error = h('p', { id: `${id}-error`, class: 'field-error', hidden: true });
  const note = locked ? h('p', { id: `${id}-note`, class: 'hint person-role-note' }, t('household.personDialog.lastAdmin', { name: person.name })) : null;
  const select = h('select', {
    id, name: 'role', disabled: locked, 'aria-describedby': locked ? `${id}-note` : null,
  }, ROLES.map((role) => h('option', { value: role, selected: role === person.role }, roleName(t, role))));
  errors.role = { input: select, error, describedBy: locked ? `${id}-note` : null };
  return h('div', { class: 'field' }, h('label', { for: id }, t('household.personDialog.role')), note, error, select);
}

/** Fills each field's error from `messages` ({ field: sentence }), empties the rest, and puts the keyboard on the first wrong one. */
function showErrors(errors, messages) {
  let first = null;
  for (const [name, { input, error, describedBy }] of Object.entries(errors)) {
    const message = messages[name];
    error.textContent = message ?? '';
    error.hidden = !message;
    if (message) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', [describedBy, error.id].filter(Boolean).join(' '));
      first ??= input;
    } else {
      input.removeAttribute('aria-invalid');
      if (describedBy) input.setAttribute('aria-describedby', describedBy);
      else input.removeAttribute('aria-describedby');
    }
  }
  first?.focus();
}

function showProblem(element, message) {
  element.textContent = message ?? '';
  element.hidden = !message;
}

/**
 * The hub said no: a 422's sentences beside their fields (its `detail`
 * above the buttons when none is about a field shown here), anything else
 * above the buttons. Not paired any more is every page's message: the
 * dialog closes for it.
 */
function refused(app, problem, { errors, problem: problemElement, close }) {
  if (!(problem instanceof HubProblem) || isUnpaired(problem)) {
    app.reportProblem(problem);
    close(null);
    return;
  }
  const fields = problem.status === 422 && problem.errors
    ? Object.fromEntries(Object.entries(problem.errors).filter(([name]) => errors[name]))
    : {};
  showErrors(errors, fields);
  if (Object.keys(fields).length === 0) showProblem(problemElement, problem.message);
}
