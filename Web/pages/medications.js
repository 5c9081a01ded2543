// Medications: each senior's list with what it looks like, when it is
// taken (as a sentence), the stock and how many days it lasts; "Refilled"
// and "Stop taking" for caregivers, and a print view of the current list.
// #/medications/new and #/medications/<id> open the form
// (medication-form.js), #/medications/history[/YYYY-MM] the adherence
// calendar (medication-history.js). A senior sees their own list, read only.
import { getJSON, sendJSON } from '../api.js';
import { h, pageHeading } from '../dom.js';
import { pageHref } from '../router.js';
import { longDate, localDay } from '../care/format.js';
import { caredForSeniors } from '../care/me.js';
import { amountText, daysText } from '../care/words.js';
import { medicationScheduleSentence } from '../medications/schedule-sentence.js';
import { createMedicationFormPage, takeFlash } from './medication-form.js';
import { createMedicationHistoryPage } from './medication-history.js';
import { createAnnouncer, createBusyKeys, reloadOnLiveChanges } from './page-tools.js';
import { medicationTitle } from './today-doses.js';


/** Whether the stock lasts fewer days than the caregivers asked to be warned at. */
export function isRunningLow(medication) {
  return medication.daysRemaining !== null && medication.daysRemaining !== undefined
    && medication.lowStockDays !== null && medication.lowStockDays !== undefined
    && medication.daysRemaining < medication.lowStockDays;
}

export function createMedicationsPage(app) {
  const renderForm = createMedicationFormPage(app);
  const renderHistory = createMedicationHistoryPage(app);
  let showStopped = false;

  return function renderMedications(outlet, route) {
    const [first, second] = route.params;
    if (first === 'history') return renderHistory(outlet, second);
    if (first === 'new') return renderForm(outlet, null);
    if (first) return renderForm(outlet, first);
    return renderList(outlet);
  };

  function renderList(outlet) {
    const { t, live } = app;
    const { element: announcer, announce } = createAnnouncer('medications-announcer');
    const toolbar = h('div', { class: 'medication-toolbar' });
    const listSlot = h('div', { id: 'medication-lists', class: 'medication-lists' });
    outlet.append(pageHeading(t('pages.medications')), announcer, toolbar, listSlot);
    let seniors = null;
    let medications = null;
    let me = null;
    let request = null;
    const busy = createBusyKeys(app);

    async function load() {
      request?.abort();
      const thisRequest = new AbortController();
      request = thisRequest;
      try {
        const [people, list] = await Promise.all([
          caredForSeniors(app, thisRequest.signal),
          getJSON(showStopped ? '/medications?inactive=1' : '/medications', { t, signal: thisRequest.signal }),
        ]);
        if (request !== thisRequest) return;
        me = app.me.current;
        seniors = people;
        medications = Array.isArray(list) ? list : [];
        app.clearProblem();
        show();
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        if (medications === null) listSlot.replaceChildren();
        app.reportProblem(problem);
      }
    }

    const canEdit = () => me && me.role !== 'senior';

    let shownSignature = null;
    function show() {
      // Redrawn only when something shown changed (see Today).
      const signature = JSON.stringify([app.language, seniors, medications, showStopped, busy.keys()]);
      if (signature === shownSignature) return;
      shownSignature = signature;
      // replaceChildren prints a null as the word "null": a senior's toolbar,
      // which has no "Add", showed it.
      toolbar.replaceChildren(...[
        canEdit() && seniors.length > 0
          ? h('a', { href: pageHref('medications', 'new'), id: 'add-medication', class: 'button-link' }, t('medications.add'))
          : null,
        h('a', { href: pageHref('medications', 'history'), id: 'history-link', class: 'button-link secondary' }, t('medications.history.link')),
        h('button', { type: 'button', id: 'print-medications', class: 'secondary-button', onclick: () => window.print() }, t('medications.print')),
        h('div', { class: 'checkbox-field' },
          h('input', {
            type: 'checkbox', id: 'show-stopped', checked: showStopped,
            onchange: (event) => { showStopped = event.target.checked; load(); },
          }),
          h('label', { for: 'show-stopped' }, t('medications.showStopped'))),
      ].filter(Boolean));
      const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
      if (seniors.length === 0) {
        listSlot.replaceChildren(h('p', { id: 'medications-nobody', class: 'empty' }, t('medications.nobody')));
        return;
      }
      const printed = longDate(localDay(new Date().toISOString(), me?.timeZone), { language: app.language, weekday: false });
      listSlot.replaceChildren(...seniors.map((senior) => {
        const theirs = medications.filter((m) => m.personId === senior.personId)
          .sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name));
        const headingId = `medications-of-${senior.personId}`;
        return h('section', { class: 'medication-person', 'data-person-id': senior.personId, 'aria-labelledby': headingId },
          h('h2', { id: headingId }, t('medications.of', { name: senior.name })),
          h('p', { class: 'print-only' }, t('medications.printedOn', { date: printed })),
          theirs.length === 0
            ? h('p', { class: 'empty' }, t('medications.none'))
            : h('ul', { class: 'medication-list' }, theirs.map(item)));
      }));
      if (focusKey) listSlot.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
    }

    function item(medication) {
      const { language } = app;
      const nameId = `medication-${medication.id}`;
      const sentence = medicationScheduleSentence(medication, { language, today: localDay(new Date().toISOString(), me?.timeZone) });
      const facts = [medication.form, medication.appearance ? t('today.looksLike', { appearance: medication.appearance }) : null]
        .filter((fact) => fact && String(fact).trim() !== '');
      const low = isRunningLow(medication);
      const actions = [];
      if (canEdit() && medication.active) {
        actions.push(h('a', { href: pageHref('medications', medication.id), class: 'button-link secondary', 'data-action': 'edit', 'aria-describedby': nameId }, t('medications.edit')));
        if (medication.packageSize) {
          actions.push(actionButton(medication, 'refill', t('medications.refilled', { amount: amountText(language, medication.packageSize, medication.unit) }),
            () => change(medication, 'POST', `/medications/${medication.id}/refill`, { packages: 1 }, 'refilled')));
        }
        actions.push(actionButton(medication, 'stop', t('medications.stop'),
          () => change(medication, 'DELETE', `/medications/${medication.id}`, undefined, 'stopped'),
          () => window.confirm(t('medications.confirmStop', { name: medicationTitle(medication) }))));
      } else if (canEdit()) {
        actions.push(actionButton(medication, 'restart', t('medications.restart'),
          () => change(medication, 'PATCH', `/medications/${medication.id}`, { active: true }, 'restarted')));
      }
      return h('li', { class: 'medication-item', 'data-medication-id': medication.id, 'data-active': String(medication.active), 'data-low': String(low) },
        h('article', { 'aria-labelledby': nameId },
          h('h3', { id: nameId }, medicationTitle(medication)),
          medication.active ? null : h('p', { class: 'medication-stopped' }, t('medications.stopped')),
          facts.length > 0 ? h('p', { class: 'medication-facts' }, facts.join(' · ')) : null,
          h('p', { class: 'medication-schedule' }, sentence || t('medications.noSchedule')),
          medication.instructions ? h('p', { class: 'medication-instructions' }, medication.instructions) : null,
          stockLine(medication, low),
          actions.length > 0 ? h('div', { class: 'medication-actions' }, actions) : null));
    }

    function stockLine(medication, low) {
      const { language } = app;
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
    function actionButton(medication, action, label, run, ask = () => true) {
      const key = `${medication.id}:${action}`;
      return h('button', {
        type: 'button', class: 'secondary-button', 'data-action': action, 'data-focus-key': key,
        'aria-describedby': `medication-${medication.id}`, 'aria-disabled': busy.has(key) ? 'true' : null,
        onclick: async () => {
          if (busy.has(key) || !ask()) return;
          if (await busy.run(key, run)) await load();
        },
      }, label);
    }

    async function change(medication, method, path, body, announcement) {
      await sendJSON(method, path, body, { t });
      announce(t(`medications.announce.${announcement}`, { name: medicationTitle(medication) }));
      return true;
    }

    const reloads = reloadOnLiveChanges(live, load, (change) => ['medication', 'schedule', 'careLink', 'person'].includes(change.entity));

    const flash = takeFlash();
    if (flash) announce(flash);
    listSlot.replaceChildren(h('p', { class: 'loading' }, t('medications.loading')));
    load();

    return function leaveMedications() {
      reloads.stop();
      request?.abort();
    };
  }
}
