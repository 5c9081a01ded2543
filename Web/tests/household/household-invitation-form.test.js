// "Add a device" as each person sees it, drawn with the fake DOM: the
// admin's form unchanged (who, then a name and a role for someone new); a
// senior's "someone new who will look after me" with a name only, never a
// role; and, once her code is shown, the sentence that whoever uses it will
// look after her.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { inviteeChoices, invitationScope } from '../../household/model.js';
import { installFakeDocument } from '../fake-dom.js';

const en = JSON.parse(await readFile(new URL('../../i18n/en.json', import.meta.url), 'utf8'));
const t = createTranslator(en);
let removeDocument;
let invitationForm;
let codePanel;
before(async () => {
  removeDocument = installFakeDocument();
  ({ invitationForm } = await import('../../pages/household/invitation-form.js'));
  ({ codePanel } = await import('../../pages/household/invitation-code.js'));
});
after(() => removeDocument());

const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior' };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver' };
const admin = { id: 'p-admin', name: 'Łukasz', role: 'admin' };
const asAdmin = { personId: admin.id, role: 'admin' };
const asZosia = { personId: zosia.id, role: 'senior' };

function walk(element, found = []) {
  if (element && element.tagName) {
    found.push(element);
    for (const child of element.children) walk(child, found);
  }
  return found;
}
const byId = (root, id) => walk(root).find((element) => element.getAttribute('id') === id) ?? null;
const radios = (root, name) => walk(root).filter((element) => element.getAttribute('type') === 'radio' && element.getAttribute('name') === name);
const pick = (radio) => radio.listeners.change.forEach((listener) => listener());

/** The form as `me` sees it, drawn again as the page would when a choice changes. */
function formFor(me, people, form = { who: 'existing', personId: '', name: '', role: 'caregiver' }) {
  const scope = invitationScope(me);
  const section = {
    app: { t, language: 'en' }, state: { form, errors: {} }, sending: false, send: () => {},
    draw: () => { section.element = invitationForm(section, scope, inviteeChoices(me, people)); },
  };
  section.draw();
  return section;
}

test('the admin’s form is as it was: someone in the household or someone new, with a name and a role', () => {
  const section = formFor(asAdmin, [admin, zosia, ania]);
  assert.deepEqual(radios(section.element, 'invite-who').map((radio) => radio.getAttribute('id')), ['invite-who-existing', 'invite-who-new']);
  assert.equal(byId(section.element, 'invite-who-group').textContent, 'Who is the new device for?Someone already in the householdSomeone new');
  pick(byId(section.element, 'invite-who-new'));
  assert.ok(byId(section.element, 'invite-name'));
  assert.deepEqual(radios(section.element, 'invite-role').map((radio) => radio.getAttribute('value')), ['senior', 'caregiver', 'admin']);
  assert.equal(byId(section.element, 'invite-name-hint').textContent, 'As the household calls them, for example “Ania”.');
});

test('a senior is offered only someone new who will look after her, with a name and no role, even with caregivers in the household', () => {
  const section = formFor(asZosia, [admin, zosia, ania]);
  assert.deepEqual(radios(section.element, 'invite-who'), [], 'no choice of who: someone new');
  assert.equal(section.state.form.who, 'new');
  assert.equal(byId(section.element, 'invite-personId'), null, 'nobody who exists: her caregiver may look after other seniors too');
  assert.match(byId(section.element, 'invite-intro').textContent, /^Make a pairing code for the phone of someone new who will look after you/);
  assert.match(byId(section.element, 'invite-intro').textContent, /ask the household admin\.$/);
  const name = byId(section.element, 'invite-name');
  assert.equal(name.getAttribute('aria-describedby'), 'invite-name-hint');
  assert.match(byId(section.element, 'invite-name-hint').textContent, /as a caregiver who looks after you\.$/);
  assert.deepEqual(radios(section.element, 'invite-role'), [], 'no role to pick: always a caregiver');
  assert.equal(byId(section.element, 'invite-role-group'), null);
  assert.ok(byId(section.element, 'invite-button'));
});

test('her code for someone new says that whoever uses it will look after her; other codes do not', () => {
  const invitation = {
    id: 'i-1', url: 'http://hearth.local:8080/pair#q2Vh3kP0bZ7xN1sT9yRw4A', shortCode: '7K3M-Q9TX',
    expiresAt: new Date(Date.now() + 600_000).toISOString(), personName: 'Ola', role: 'caregiver', svg: '',
  };
  const app = { t, language: 'en' };
  const shown = codePanel(app, { invitation, status: 'waiting', note: 'newCaregiverOfMe' }, () => {});
  assert.equal(byId(shown, 'pairing-new-caregiver').textContent,
    'Whoever uses this code will be added to the household as a caregiver who looks after you.');
  assert.equal(byId(codePanel(app, { invitation, status: 'waiting', note: null }, () => {}), 'pairing-new-caregiver'), null);
  assert.equal(byId(codePanel(app, { invitation, status: 'paired', paired: { deviceName: 'Telefon Oli', personName: 'Ola' }, note: 'newCaregiverOfMe' }, () => {}),
    'pairing-new-caregiver'), null, 'once used, the status says who paired');
});
