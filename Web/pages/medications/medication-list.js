// What the Medications list is drawn from: the toolbar, each senior's
// section and one medication with its stock and its buttons. Kept apart
// from medications.js, which loads the list, follows the live stream and
// sends what the buttons do, so each file does one job.
import { h } from '../../dom.js';
import { confirmDialog } from '../../dialog.js';
import { paths } from '../../api-paths.js';
import { pageHref } from '../../router.js';
import { localDay } from '../../care/format.js';
import { amountText, daysText } from '../../care/words.js';
import { medicationScheduleSentence } from '../../medications/schedule-sentence.js';
import { medicationTitle } from '../today/today-doses.js';
import { hubDate } from '../../hub-clock.js';

/** Whether the stock lasts fewer days than the caregivers asked to be warned at. */
export function isRunningLow(medication) {
  return medication.daysRemaining !== null && medication.daysRemaining !== undefined
    && medication.lowStockDays !== null && medication.lowStockDays !== undefined
    && medication.daysRemaining < medication.lowStockDays;
}

/**
 * "Add" (for those who may edit, when there is a senior to add for), the
 * history, print, and "Show stopped", which `showStopped(checked)` hears.
 */
export function toolbarItems(list, { seniors, stopped, showStopped }) {
  const { t } = list.app;
  // replaceChildren prints a null as the word "null": a senior's toolbar,
  // which has no "Add", showed it.
  return [
    list.canEdit() && seniors.length > 0
      ? h('a', { href: pageHref('medications', 'new'), id: 'add-medication', class: 'button-link' }, t('medications.add'))
      : null,
    h('a', { href: pageHref('medications', 'history'), id: 'history-link', class: 'button-link secondary' }, t('medications.history.link')),
    h('button', { type: 'button', id: 'print-medications', class: 'secondary-button', onclick: () => window.print() }, t('medications.print')),
    h('div', { class: 'checkbox-field' },
      h('input', {
        type: 'checkbox', id: 'show-stopped', checked: stopped,
        onchange: (event) => showStopped(event.target.checked),
      }),
      h('label', { for: 'show-stopped' }, t('medications.showStopped'))),
  ].filter(Boolean);
}

/** One senior's medications, those taken now first, then by name; the date shows when printed. */
export function seniorSection(list, senior, medications, printed) {
  const { t } = list.app;
  const theirs = medications.filter((m) => m.personId === senior.personId)
    .sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name));
  const headingId = `medications-of-${senior.personId}`;
  return h('section', { class: 'medication-person', 'data-person-id': senior.personId, 'aria-labelledby': headingId },
    h('h2', { id: headingId }, t('medications.of', { name: senior.name })),
    // On paper, for a doctor: her name as the household knows it when this person calls her otherwise.
    senior.realName && senior.realName !== senior.name ? h('p', { class: 'print-only medication-real-name' }, senior.realName) : null,
    h('p', { class: 'print-only' }, t('medications.printedOn', { date: printed })),
    theirs.length === 0
      ? h('p', { class: 'empty' }, t('medications.none'))
      : h('ul', { class: 'medication-list' }, theirs.map((medication) => medicationItem(list, medication))));
}

/**
 * One medication: what it looks like, when it is taken, its stock, and
 * Edit, Refilled and Stop (or Restart) for those who may edit. `list` is
 * { app, me, busy, canEdit, change, load }.
 */
function medicationItem(list, medication) {
  const { app, me, canEdit, change } = list;
  const { t, language } = app;
  const nameId = `medication-${medication.id}`;
  const sentence = medicationScheduleSentence(medication, { language, today: localDay(hubDate().toISOString(), me?.timeZone) });
  const facts = [medication.form, medication.appearance ? t('today.looksLike', { appearance: medication.appearance }) : null]
    .filter((fact) => fact && String(fact).trim() !== '');
  const low = isRunningLow(medication);
  const actions = [];
  if (canEdit() && medication.active) {
    actions.push(h('a', { href: pageHref('medications', medication.id), class: 'button-link secondary', 'data-action': 'edit', 'aria-describedby': nameId }, t('medications.edit')));
    if (medication.packageSize) {
      actions.push(actionButton(list, medication, 'refill', t('medications.refilled', { amount: amountText(language, medication.packageSize, medication.unit) }),
        () => change(medication, 'POST', paths.medicationRefill(medication.id), { packages: 1 }, 'refilled')));
    }
    actions.push(actionButton(list, medication, 'stop', t('medications.stop'),
      () => change(medication, 'DELETE', paths.medication(medication.id), undefined, 'stopped'),
      (button) => confirmDialog({
        name: `stop-${medication.id}`, buttons: 'stop-medication',
        title: t('medications.confirmStop.title', { name: medicationTitle(medication) }),
        lines: [{ id: `stop-${medication.id}-text`, text: t('medications.confirmStop.text') }],
        confirm: t('medications.confirmStop.stop'), cancel: t('medications.confirmStop.keep'),
        returnFocus: () => button,
      })));
  } else if (canEdit()) {
    actions.push(actionButton(list, medication, 'restart', t('medications.restart'),
      () => change(medication, 'PATCH', paths.medication(medication.id), { active: true }, 'restarted')));
  }
  return h('li', { class: 'medication-item', 'data-medication-id': medication.id, 'data-active': String(medication.active), 'data-low': String(low) },
    h('article', { 'aria-labelledby': nameId },
      h('h3', { id: nameId }, medicationTitle(medication)),
      medication.active ? null : h('p', { class: 'medication-stopped' }, t('medications.stopped')),
      facts.length > 0 ? h('p', { class: 'medication-facts' }, facts.join(' · ')) : null,
      h('p', { class: 'medication-schedule' }, sentence || t('medications.noSchedule')),
      medication.instructions ? h('p', { class: 'medication-instructions' }, medication.instructions) : null,
      stockLine(app, medication, low),
      actions.length > 0 ? h('div', { class: 'medication-actions' }, actions) : null));
}

function stockLine(app, medication, low) {
  const { t, language } = app;
  if (medication.stock === null || medication.stock === undefined) return null;
  const parts = [t('medications.stock', { amount: amountText(language, medication.stock, medication.unit) })];
  if (medication.daysRemaining !== null && medication.daysRemaining !== undefined) {
    parts.push(t('medications.daysRemaining', { days: daysText(language, Math.floor(medication.daysRemaining)) }));
  }
  return h('p', { class: 'medication-stock' },
    low ? h('strong', { class: 'low-stock' }, `${t('medications.runningLow')} `) : null,
    parts.join(' · '));
}

/** `ask()` first, when the change needs a yes ("Stop"); the list is read again once it is made. */
function actionButton(list, medication, action, label, run, ask = async () => true) {
  const { busy, load } = list;
  const key = `${medication.id}:${action}`;
  return h('button', {
    type: 'button', class: 'secondary-button', 'data-action': action, 'data-focus-key': key,
    'aria-describedby': `medication-${medication.id}`, 'aria-disabled': busy.has(key) ? 'true' : null,
    onclick: async (event) => {
      if (busy.has(key) || !(await ask(event.currentTarget))) return;
      if (await busy.run(key, run)) await load();
    },
  }, label);
}
