// The owner's choice of who sees a note — "Only me", her care circle, or
// everyone in the household — and whether the others may only read it:
// the same fields in the new-note form and in the dialog the owner opens
// from the list or the editor. A radio group rather than a select, so each
// choice is a large target read out with its legend; and a dialog with
// Save rather than saving on every change, because arrow keys move through
// radios and would otherwise share the note with each group on the way.
import { h } from '../dom.js';
import { showDialog } from '../dialog.js';
import { circleNames, visibilityChoices } from '../notes/sharing.js';

/**
 * The radio group and the "read but not change" box. Ids come from
 * `prefix`: "note" gives inputs name="note-visibility" with ids
 * note-visibility-private/-circle/-shared, and the box #note-read-only.
 * `me` is app.me.current (null while it loads: showFor(me) words the
 * circle once it is known). Returns { element, value(), showFor(me) }.
 */
export function sharingFields(app, { prefix, visibility = 'private', readOnly = false, me = null, autofocus = false }) {
  const { t } = app;
  const name = `${prefix}-visibility`;
  const boxId = `${prefix}-read-only`;
  const box = h('input', { type: 'checkbox', id: boxId, name: boxId, checked: readOnly });
  // Meaningless for a private note, so not shown; its value is kept for when it is shared again.
  const boxField = h('div', { class: 'checkbox-field note-read-only-field', id: `${boxId}-field`, hidden: visibility === 'private' },
    box, h('label', { for: boxId }, t('notes.sharing.readOnlyChoice')));
  const labels = {};
  const circleHintId = `${name}-circle-hint`;
  const circleHint = h('span', { id: circleHintId, class: 'choice-hint' });
  const radios = visibilityChoices(me?.role).map(({ value }) => {
    labels[value] = h('span', {});
    const input = h('input', {
      type: 'radio', id: `${name}-${value}`, name, value, checked: value === visibility,
      autofocus: autofocus && value === visibility,
      'aria-describedby': value === 'circle' ? circleHintId : null,
      onchange: () => { boxField.hidden = value === 'private'; },
    });
    return { value, input, label: h('label', { class: 'choice', for: `${name}-${value}` }, input,
      h('span', {}, labels[value], value === 'circle' ? circleHint : null)) };
  });

  function showFor(who) {
    for (const choice of visibilityChoices(who?.role)) labels[choice.value].textContent = t(choice.label);
    const person = who?.people?.find((p) => p.id === who.personId) ?? null;
    circleHint.textContent = person ? t('notes.sharing.circleNow', { names: circleNames(person, who.people, who.personId, t, app.language) }) : '';
  }
  showFor(me);

  return {
    element: h('div', { class: 'note-sharing-fields' },
      h('fieldset', { class: 'choices', id: `${name}-group` },
        h('legend', {}, t('notes.sharing.legend')),
        radios.map((radio) => radio.label)),
      boxField),
    value: () => ({
      visibility: radios.find((radio) => radio.input.checked)?.value ?? visibility,
      readOnly: box.checked,
    }),
    showFor,
  };
}

/**
 * Asks the owner who may see `note` (titled `title`); resolves with
 * { visibility, readOnly }, or null when cancelled. The keyboard starts on
 * the choice made now.
 */
export function askNoteSharing(app, { note, title, me, returnFocus }) {
  const { t } = app;
  return showDialog({
    id: 'note-sharing-dialog',
    className: 'note-sharing-dialog',
    labelledBy: 'note-sharing-title',
    returnFocus,
    build(close) {
      const fields = sharingFields(app, {
        prefix: 'note', visibility: note.visibility, readOnly: note.readOnly === true, me, autofocus: true,
      });
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
