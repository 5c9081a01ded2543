// "Who looks after whom" on the Household page, for the admin: each senior
// with the people who look after her ("Stop looking after", asked first in
// unlink-caregiver-dialog.js) and a form to add a caregiver or admin who
// does not yet (PUT /people/{senior}/caregivers/{caregiver}); above them, a
// warning for each caregiver who looks after nobody, since such a caregiver
// sees no medicines and gets no alerts and nothing else says why. Everyone
// else reads the links in the people list. The hub decides: its refusal is
// shown beside the senior's form and said aloud. household.js loads, reads
// again after a change and follows the live stream (careLink).
import { HubProblem, isUnpaired, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, replaceKeepingFocus } from '../../dom.js';
import { careLinkGroups, unlinkedCaregivers } from '../../household/care-links.js';
import { canManageHousehold } from '../../household/model.js';
import { confirmUnlinkCaregiver } from './unlink-caregiver-dialog.js';

/**
 * `state` outlives the page's renders (a language switch): the person
 * picked in each senior's form, the hub's last refusal for each senior,
 * and the requests under way. `reloadSoon()` reads the page again;
 * nothing more is drawn once the page is `left()`.
 */
export function createCareLinksSection(app, state, { announce, reloadSoon, left }) {
  state.chosen ??= {};
  state.errors ??= {};
  state.busy ??= new Set();
  const element = h('div', { class: 'care-links' });
  const section = { app, state, announce, reloadSoon, left, element, data: null };
  section.draw = () => drawCareLinks(section);
  return {
    element,
    /** The page's data ({ me, people, links }) whenever it has it anew. */
    update(data) {
      section.data = data;
      section.draw();
    },
  };
}

const headingId = (senior) => `care-links-${senior.id}-heading`;

function drawCareLinks(section) {
  const { app, data, element } = section;
  const { t, language } = app;
  if (section.left()) return;
  if (!data || !canManageHousehold(data.me)) {
    element.replaceChildren();
    return;
  }
  const groups = careLinkGroups(data.people, data.links, { language });
  const lonely = unlinkedCaregivers(data.people, data.links, { language });
  replaceKeepingFocus(element,
    h('p', {}, t('household.careLinks.intro')),
    lonely.map((person) => h('p', { class: 'care-link-warning', 'data-person-id': person.id },
      t('household.careLinks.warning', { name: person.name }))),
    groups.length === 0
      ? h('p', { class: 'empty' }, t('household.careLinks.noSeniors'))
      : h('ul', { id: 'care-link-seniors', class: 'care-link-seniors' }, groups.map((senior) => seniorItem(section, senior))));
}

function personName(t, person) {
  return person.role === 'admin' ? t('household.careLinks.adminName', { name: person.name }) : person.name;
}

function seniorItem(section, senior) {
  const { t } = section.app;
  const error = section.state.errors[senior.id];
  return h('li', { class: 'care-link-senior', 'data-senior-id': senior.id },
    h('article', { 'aria-labelledby': headingId(senior) },
      h('h3', { id: headingId(senior), tabindex: '-1' }, senior.name),
      senior.caregivers.length === 0
        ? h('p', { class: 'empty' }, t('household.careLinks.nobody', { name: senior.name }))
        : h('ul', { class: 'care-link-list' }, senior.caregivers.map((caregiver) => caregiverItem(section, senior, caregiver))),
      error ? h('p', { id: `care-links-${senior.id}-error`, class: 'field-error' }, error) : null,
      addForm(section, senior, Boolean(error))));
}

function caregiverItem(section, senior, caregiver) {
  const { t } = section.app;
  const key = `${senior.id}:${caregiver.id}:unlink`;
  const busy = section.state.busy.has(key);
  return h('li', { class: 'care-link-item', 'data-caregiver-id': caregiver.id },
    h('span', { class: 'care-link-name' }, personName(t, caregiver)),
    h('button', {
      type: 'button', class: 'secondary-button care-link-unlink', 'data-action': 'unlink', 'data-focus-key': key,
      // The visible words first, so a voice command saying them finds it.
      'aria-label': t('household.careLinks.unlinkLabel', { caregiver: caregiver.name, senior: senior.name }),
      'aria-haspopup': 'dialog', 'aria-disabled': busy ? 'true' : null,
      onclick: () => unlink(section, senior, caregiver, key),
    }, busy ? t('household.careLinks.unlinking') : t('household.careLinks.unlink')));
}

/** The caregivers and admins who do not yet look after her, and "Add"; a sentence when there are none. */
function addForm(section, senior, hasError) {
  const { t } = section.app;
  const { state } = section;
  if (senior.candidates.length === 0) return h('p', { class: 'hint' }, t('household.careLinks.noneToAdd', { name: senior.name }));
  const selectId = `care-links-${senior.id}-add`;
  const key = `${senior.id}:link`;
  // What was picked stays picked when the page is drawn again, while it can still be added.
  const chosen = senior.candidates.some((person) => person.id === state.chosen[senior.id])
    ? state.chosen[senior.id] : senior.candidates[0].id;
  return h('form', {
    class: 'care-link-form', novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      link(section, senior, event.target.elements.caregiver?.value, key);
    },
  },
    h('label', { for: selectId }, t('household.careLinks.addLabel', { name: senior.name })),
    h('div', { class: 'care-link-add' },
      h('select', {
        id: selectId, name: 'caregiver', 'data-action': 'add-caregiver',
        'aria-invalid': hasError ? 'true' : null, 'aria-describedby': hasError ? `care-links-${senior.id}-error` : null,
        onchange: (event) => { state.chosen[senior.id] = event.target.value; },
      }, senior.candidates.map((person) => h('option', { value: person.id, selected: person.id === chosen }, personName(t, person)))),
      h('button', {
        type: 'submit', class: 'primary-button', 'data-action': 'link', 'data-focus-key': key,
        'aria-disabled': state.busy.has(key) ? 'true' : null,
      }, state.busy.has(key) ? t('household.careLinks.adding') : t('household.careLinks.add'))));
}

async function link(section, senior, caregiverId, key) {
  const { t } = section.app;
  const caregiver = senior.candidates.find((person) => person.id === caregiverId);
  if (!caregiver || section.state.busy.has(key)) return;
  const linked = await change(section, senior, key, {
    send: () => sendJSON('PUT', paths.careLink(senior.id, caregiver.id), undefined, { t }),
    said: t('household.careLinks.linked', { caregiver: caregiver.name, senior: senior.name }),
  });
  if (!linked) return;
  delete section.state.chosen[senior.id];
  // The last one to add: the form goes, and the keyboard would go with it.
  if (senior.candidates.length === 1) document.getElementById(headingId(senior))?.focus();
}

async function unlink(section, senior, caregiver, key) {
  const { app } = section;
  const { t } = app;
  if (section.state.busy.has(key) || document.getElementById('unlink-caregiver-dialog')) return;
  const confirmed = await confirmUnlinkCaregiver(app, { caregiver, senior }, {
    returnFocus: () => section.element.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)
      ?? document.getElementById(headingId(senior)),
  });
  if (!confirmed || section.left()) return;
  const unlinked = await change(section, senior, key, {
    send: () => sendJSON('DELETE', paths.careLink(senior.id, caregiver.id), undefined, { t }),
    said: t('household.careLinks.unlinked', { caregiver: caregiver.name, senior: senior.name }),
  });
  // Her line is about to go: the keyboard waits on the senior's heading.
  if (unlinked) document.getElementById(headingId(senior))?.focus();
}

/**
 * One PUT or DELETE: its button busy meanwhile; what happened said aloud,
 * a refusal also beside the senior's form; the page read again either way
 * (a 409 or 404 means someone else changed the links first). True when done.
 */
async function change(section, senior, key, { send, said }) {
  const { app, state, announce } = section;
  state.busy.add(key);
  delete state.errors[senior.id];
  section.draw();
  let done = false;
  try {
    await send();
    app.clearProblem();
    announce(said);
    done = true;
  } catch (problem) {
    // Not paired any more is every page's message, not this form's.
    if (!(problem instanceof HubProblem) || isUnpaired(problem)) {
      app.reportProblem(problem);
    } else {
      state.errors[senior.id] = problem.message;
      announce(problem.message);
    }
  } finally {
    state.busy.delete(key);
    section.draw();
    if (!section.left()) section.reloadSoon();
  }
  return done;
}
