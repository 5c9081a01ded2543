// The note editor's checklist view: its "[ ]" lines as checkboxes, ticked
// through the CRDT like any other edit (notes/checklist.js). Its own file
// so note-editor.js keeps to wiring.
import { focusInPlace, h } from '../../dom.js';
import { readChecklist, setChecked } from '../../notes/checklist.js';
import { changesBetween } from '../../notes/session.js';

/**
 * `chosen.checklistView` says whether the view is on (it outlives the
 * page's renders); `textField` is hidden while it is; `text` is the
 * textarea's binding (note-text.js), read when a box is ticked. Returns
 * { button, element, apply(), refresh() }.
 */
export function createChecklistView(app, session, chosen, { textField, text }) {
  const { t } = app;
  const element = h('fieldset', { id: 'note-checklist', class: 'choices note-checklist', hidden: true });
  const button = h('button', {
    id: 'checklist-view', type: 'button', class: 'secondary-button', 'aria-pressed': String(chosen.checklistView),
    'aria-controls': 'note-checklist', onclick: toggle,
  }, t('notes.editor.checklistView'));

  function toggle() {
    chosen.checklistView = !chosen.checklistView;
    apply();
  }
  function apply() {
    button.setAttribute('aria-pressed', String(chosen.checklistView));
    element.hidden = !chosen.checklistView;
    textField.hidden = chosen.checklistView;
    refresh();
  }
  function refresh() {
    if (!chosen.checklistView) return;
    const lines = readChecklist(text().shown());
    const items = lines.filter((line) => line.isItem);
    const focusedLine = document.activeElement?.closest?.('#note-checklist')
      ? document.activeElement.getAttribute('data-line') : null;
    const legend = h('legend', {}, t('notes.editor.checklistHeading'));
    if (items.length === 0) {
      element.replaceChildren(legend, h('p', { class: 'hint' }, t('notes.editor.checklistEmpty')));
      return;
    }
    element.replaceChildren(legend, ...items.map((line) => {
      const id = `check-line-${line.index}`;
      return h('label', { class: 'choice', for: id },
        h('input', {
          type: 'checkbox', id, 'data-line': String(line.index), checked: line.checked,
          disabled: !session.editable,
          onchange: (event) => tick(line.index, event.target.checked),
        }),
        h('span', {}, line.label.trim() === '' ? '…' : line.label));
    }));
    if (focusedLine !== null) focusInPlace(element.querySelector(`[data-line="${focusedLine}"]`));
  }
  function tick(lineIndex, checked) {
    const note = session.note;
    if (!session.editable) return;
    const before = text().shown();
    const ops = setChecked(note, lineIndex, checked);
    if (ops.length > 0) session.recordLocal(ops);
    text().showText(changesBetween(before, note.text), before);
    refresh();
  }

  return { button, element, apply, refresh };
}
