// The one labelled field every form is built from (fields.js), drawn with
// the fake DOM: the label names the control, the hint and the error carry
// the control's id with -hint and -error, the control is described by
// exactly those that are shown and marked invalid only while there is an
// error, in the order label, hint, error, control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { installFakeDocument } from './fake-dom.js';

let removeDocument;
let h;
let fieldAria;
let fieldBox;
let settingsField;
before(async () => {
  removeDocument = installFakeDocument();
  ({ h } = await import('../dom.js'));
  ({ fieldAria, fieldBox } = await import('../fields.js'));
  ({ field: settingsField } = await import('../pages/settings-fields.js'));
});
after(() => removeDocument());

/** A text field as the pages build it: the control described by what the box shows. */
function textField({ id = 'pet-name', hint = null, error = null } = {}) {
  const control = h('input', { type: 'text', id, ...fieldAria(id, { hint, error }) });
  return { box: fieldBox({ id, label: 'Name', hint, error, control }), control };
}

const tags = (element) => element.children.map((child) => child.tagName);
const byClass = (element, name) => element.children.filter((child) => child.classList?.contains(name));

test('the box is a div.field whose label is for the control’s id, the control last', () => {
  const { box, control } = textField();
  assert.equal(box.tagName, 'DIV');
  assert.equal(box.getAttribute('class'), 'field');
  const [label] = box.children;
  assert.equal(label.tagName, 'LABEL');
  assert.equal(label.getAttribute('for'), control.getAttribute('id'));
  assert.equal(label.textContent, 'Name');
  assert.equal(box.children.at(-1), control);
});

test('no hint and no error: no element for either, and the control is neither described nor invalid', () => {
  const { box, control } = textField();
  assert.deepEqual(tags(box), ['LABEL', 'INPUT']);
  assert.equal(control.hasAttribute('aria-describedby'), false);
  assert.equal(control.hasAttribute('aria-invalid'), false);
  assert.deepEqual(fieldAria('pet-name'), { 'aria-invalid': null, 'aria-describedby': null });
});

test('a hint: p.hint#<id>-hint after the label, describing the control, which is not invalid', () => {
  const { box, control } = textField({ hint: 'As the vet calls her.' });
  assert.deepEqual(tags(box), ['LABEL', 'P', 'INPUT']);
  const [hint] = byClass(box, 'hint');
  assert.equal(hint.getAttribute('id'), 'pet-name-hint');
  assert.equal(hint.textContent, 'As the vet calls her.');
  assert.equal(byClass(box, 'field-error').length, 0);
  assert.equal(control.getAttribute('aria-describedby'), 'pet-name-hint');
  assert.equal(control.hasAttribute('aria-invalid'), false);
});

test('an error: p.field-error#<id>-error, describing the control, which is invalid', () => {
  const { box, control } = textField({ error: 'A name is needed.' });
  assert.deepEqual(tags(box), ['LABEL', 'P', 'INPUT']);
  const [error] = byClass(box, 'field-error');
  assert.equal(error.getAttribute('id'), 'pet-name-error');
  assert.equal(error.textContent, 'A name is needed.');
  assert.equal(byClass(box, 'hint').length, 0);
  assert.equal(control.getAttribute('aria-describedby'), 'pet-name-error');
  assert.equal(control.getAttribute('aria-invalid'), 'true');
});

test('a hint and an error: the hint first, both describing the control in that order', () => {
  const { box, control } = textField({ hint: 'As the vet calls her.', error: 'A name is needed.' });
  assert.deepEqual(box.children.map((child) => child.getAttribute('id') ?? child.tagName),
    ['LABEL', 'pet-name-hint', 'pet-name-error', 'pet-name']);
  assert.equal(control.getAttribute('aria-describedby'), 'pet-name-hint pet-name-error');
  assert.equal(control.getAttribute('aria-invalid'), 'true');
});

test('an empty error is no error: nothing shown, nothing invalid', () => {
  const { box, control } = textField({ hint: 'As the vet calls her.', error: '' });
  assert.equal(byClass(box, 'field-error').length, 0);
  assert.equal(control.getAttribute('aria-describedby'), 'pet-name-hint');
  assert.equal(control.hasAttribute('aria-invalid'), false);
});

test('a control with something just before it (a search narrowing a list): both after the error, in order', () => {
  const search = h('input', { type: 'search', id: 'zone-search' });
  const select = h('select', { id: 'zone', ...fieldAria('zone', { hint: 'Where the home is.', error: 'Pick one.' }) });
  const box = fieldBox({ id: 'zone', label: 'Time zone', hint: 'Where the home is.', error: 'Pick one.', control: [search, select] });
  assert.deepEqual(box.children.map((child) => child.getAttribute('id') ?? child.tagName),
    ['LABEL', 'zone-hint', 'zone-error', 'zone-search', 'zone']);
  assert.equal(box.children[0].getAttribute('for'), 'zone');
});

test('the Household settings’ text field is built the same way, and typing in it unsaves the form', () => {
  const form = { errors: { graceMinutes: 'Between 5 and 240.' }, saved: true };
  let typed = null;
  const box = settingsField({
    form, id: 'reminder-grace', name: 'graceMinutes', label: 'Missed after', hint: 'Minutes.', value: '30',
    class: 'short-input', onInput: (value) => { typed = value; },
  });
  assert.deepEqual(box.children.map((child) => child.getAttribute('id') ?? child.tagName),
    ['LABEL', 'reminder-grace-hint', 'reminder-grace-error', 'reminder-grace']);
  const input = box.children.at(-1);
  assert.equal(input.getAttribute('aria-describedby'), 'reminder-grace-hint reminder-grace-error');
  assert.equal(input.getAttribute('aria-invalid'), 'true');
  assert.equal(input.getAttribute('class'), 'short-input');
  input.listeners.input.forEach((listener) => listener({ target: { value: '45' } }));
  assert.equal(typed, '45');
  assert.equal(form.saved, false);
});
