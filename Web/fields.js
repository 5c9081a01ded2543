// A labelled form field: its label, then its hint and its error when it has
// them, then its control, in a div.field. Built in this one place so that a
// screen reader announces every field of every form the same way: the label
// names the control, the hint and then the error describe it
// (aria-describedby), and it is marked wrong (aria-invalid) exactly while
// there is an error. The hint's and the error's ids are the control's with
// -hint and -error: what aria-describedby names, and what the end-to-end
// tests look for.
import { h } from './dom.js';

/**
 * The attributes a field's control takes, spread into its own:
 * aria-invalid "true" while there is an error, and aria-describedby naming
 * the hint and the error that are shown; each null (left out by h) when
 * there is nothing to say. `hint` and `error` are those given to
 * fieldBox(): only whether they are there counts here.
 */
export function fieldAria(id, { hint = null, error = null } = {}) {
  return {
    'aria-invalid': error ? 'true' : null,
    'aria-describedby': [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || null,
  };
}

/**
 * div.field with label[for=id], p.hint#<id>-hint when there is a hint,
 * p.field-error#<id>-error when there is an error, and `control`: the
 * element with that id, built with ...fieldAria(id, { hint, error }); or a
 * list ending with it, when something belongs just before it (the search
 * that narrows the time zones).
 */
export function fieldBox({ id, label, hint = null, error = null, control }) {
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    hint ? h('p', { id: `${id}-hint`, class: 'hint' }, hint) : null,
    error ? h('p', { id: `${id}-error`, class: 'field-error' }, error) : null,
    control);
}
