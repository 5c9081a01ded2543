// The owner's choice of who sees a note — "Only me", a care circle (a
// senior's own; for a caregiver, each senior she looks after, named:
// "Babcia Zosia and the people who look after them"), or everyone in the
// household — and whether the others may only read it:
// the same fields in the new-note form and in the dialog the owner opens
// from the list or the editor. A radio group rather than a select, so each
// choice is a large target read out with its legend; and a dialog with
// Save rather than saving on every change, because arrow keys move through
// radios and would otherwise share the note with each group on the way.
import { h, replaceKeepingFocus } from '../../dom.js';
import { showDialog } from '../../dialog.js';
import { chosenKey, hasCircle, sharingChoices } from '../../notes/circle.js';
import { circleNames } from '../../notes/sharing.js';

/**
 * The radio group and the "read but not change" box. Ids come from
 * `prefix`: "note" gives inputs name="note-visibility" with ids
 * note-visibility-private, -circle (a senior's circle, or a caregiver's
 * note from before circles named a senior), -circle-<senior id> (each
 * senior's circle a caregiver may choose) and -shared, and the box
 * #note-read-only. `note` is the note as it is ({ visibility, circleOf,
 * readOnly }; none for a new one). `me` is app.me.current (null while it
 * loads: showFor(me) draws the choices once it is known). Returns
 * { element, value(), showFor(me) }; value() is { visibility, circleOf, readOnly }.
 */
export function sharingFields(app, { prefix, note = null, me = null, autofocus = false }) {
  const { t } = app;
  const name = `${prefix}-visibility`;
  const boxId = `${prefix}-read-only`;
  const visibility = note?.visibility ?? 'private';
  const box = h('input', { type: 'checkbox', id: boxId, name: boxId, checked: note?.readOnly === true });
  // Meaningless for a private note, so not shown; its value is kept for when it is shared again.
  const boxField = h('div', { class: 'checkbox-field note-read-only-field', id: `${boxId}-field`, hidden: visibility === 'private' },
    box, h('label', { for: boxId }, t('notes.sharing.readOnlyChoice')));
  const group = h('fieldset', { class: 'choices', id: `${name}-group` });
  let choices = [];
  let checkedKey = null;

  // Who else a circle choice reaches now, under its label.
  function hintOf(choice, who) {
    const person = who?.people?.find((p) => p.id === who.personId) ?? null;
    if (!person) return '';
    return t('notes.sharing.circleNow', { names: circleNames(person, who.people, who.personId, t, app.language, choice.circleOf) });
  }

  function radio(choice, who, first) {
    const id = `${name}-${choice.key}`;
    const hintId = `${id}-hint`;
    const circle = choice.visibility === 'circle';
    const input = h('input', {
      type: 'radio', id, name, value: choice.key, checked: choice.key === checkedKey,
      autofocus: first && autofocus && choice.key === checkedKey,
      'aria-describedby': circle ? hintId : null,
      'data-visibility': choice.visibility, 'data-circle-of': choice.circleOf,
      onchange: () => {
        checkedKey = choice.key;
        boxField.hidden = choice.visibility === 'private';
      },
    });
    const params = { ...choice.params };
    if ('senior' in params && !params.senior) params.senior = t('notes.sharing.someone');
    return h('label', { class: 'choice', for: id }, input,
      h('span', {}, h('span', {}, t(choice.label, params)),
        circle ? h('span', { id: hintId, class: 'choice-hint' }, hintOf(choice, who)) : null));
  }

  function showFor(who, first = false) {
    choices = sharingChoices(who, note, app.language);
    if (checkedKey === null || !choices.some((choice) => choice.key === checkedKey)) {
      checkedKey = note ? chosenKey(note, choices) : 'private';
    }
    // Someone who looks after no one has no circle to share with: said, not left to guess.
    const noCircle = who?.role && !hasCircle(who)
      ? h('p', { id: `${name}-no-circle`, class: 'choice-hint' }, t('notes.sharing.noCircle')) : null;
    replaceKeepingFocus(group, h('legend', {}, t('notes.sharing.legend')),
      choices.map((choice) => radio(choice, who, first)), noCircle);
    boxField.hidden = choices.find((choice) => choice.key === checkedKey)?.visibility === 'private';
  }
  showFor(me, true);

  return {
    element: h('div', { class: 'note-sharing-fields' }, group, boxField),
    value: () => {
      const choice = choices.find((c) => c.key === checkedKey) ?? choices[0];
      return { visibility: choice.visibility, circleOf: choice.circleOf, readOnly: box.checked };
    },
    showFor: (who) => showFor(who),
  };
}

/**
 * Asks the owner who may see `note` (titled `title`); resolves with
 * { visibility, circleOf, readOnly }, or null when cancelled. The keyboard
 * starts on the choice made now.
 */
export function askNoteSharing(app, { note, title, me, returnFocus }) {
  const { t } = app;
  return showDialog({
    id: 'note-sharing-dialog',
    className: 'note-sharing-dialog',
    labelledBy: 'note-sharing-title',
    returnFocus,
    build(close) {
      const fields = sharingFields(app, { prefix: 'note', note, me, autofocus: true });
      const save = (event) => {
        event.preventDefault();
        close(fields.value());
      };
      return [
        h('h2', { id: 'note-sharing-title' }, t('notes.sharing.dialogTitle', { title })),
        h('form', { id: 'note-sharing-form', onsubmit: save },
          fields.element,
          h('div', { class: 'dialog-actions' },
            h('button', { type: 'submit', id: 'note-sharing-save', class: 'primary-button' }, t('notes.sharing.save')),
            h('button', { type: 'button', id: 'note-sharing-cancel', class: 'secondary-button', onclick: () => close(null) },
              t('notes.sharing.cancel')))),
      ];
    },
  });
}
