// Medications: each senior's list with what it looks like, when it is
// taken (as a sentence), the stock and how many days it lasts; "Refilled"
// and "Stop taking" for caregivers, and a print view of the current list.
// #/medications/new and #/medications/<id> open the form
// (medication-form.js), #/medications/history[/YYYY-MM] the adherence
// calendar (medication-history.js). A senior sees their own list, read only.
import { getJSON, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { focusInPlace, h, pageHeading } from '../../dom.js';
import { longDate, localDay } from '../../care/format.js';
import { caredForSeniors, mayChangeMedicines } from '../../care/me.js';
import { createMedicationFormPage } from './medication-form.js';
import { createMedicationHistoryPage } from './medication-history.js';
import { takeFlash } from './medication-save.js';
import { seniorSection, toolbarItems } from './medication-list.js';
import { createAnnouncer, createBusyKeys, createNewestLoader, reloadOnLiveChanges } from '../page-tools.js';
import { medicationTitle } from '../today/today-doses.js';
import { hubDate } from '../../hub-clock.js';

export function createMedicationsPage(app) {
  const renderForm = createMedicationFormPage(app);
  const renderHistory = createMedicationHistoryPage(app);
  // Kept across renders (a language switch).
  const chosen = { showStopped: false };

  return function renderMedications(outlet, route) {
    const [first, second] = route.params;
    if (first === 'history') return renderHistory(outlet, second);
    if (first === 'new') return renderForm(outlet, null);
    if (first) return renderForm(outlet, first);
    return renderList(app, chosen, outlet);
  };
}

/** Draws each senior's medications into `outlet`; returns what to call when the page is left. */
function renderList(app, chosen, outlet) {
  const { t, live } = app;
  const { element: announcer, announce } = createAnnouncer('medications-announcer');
  const toolbar = h('div', { class: 'medication-toolbar' });
  const listSlot = h('div', { id: 'medication-lists', class: 'medication-lists' });
  outlet.append(pageHeading(t('pages.medications')), announcer, toolbar, listSlot);
  let seniors = null;
  let medications = null;
  let me = null;
  const busy = createBusyKeys(app);

  const { load, stop: stopLoading } = createNewestLoader(app, {
    read: (signal) => Promise.all([
      caredForSeniors(app, signal),
      getJSON(paths.medications({ inactive: chosen.showStopped }), { t, signal }),
    ]),
    shown([people, list]) {
      me = app.me.current;
      seniors = people;
      medications = Array.isArray(list) ? list : [];
      app.clearProblem();
      show();
    },
    failed: () => { if (medications === null) listSlot.replaceChildren(); },
  });

  const canEdit = () => mayChangeMedicines(me);

  async function change(medication, method, path, body, announcement) {
    await sendJSON(method, path, body, { t });
    announce(t(`medications.announce.${announcement}`, { name: medicationTitle(medication) }));
    return true;
  }

  let shownSignature = null;
  function show() {
    // Redrawn only when something shown changed (see Today).
    const signature = JSON.stringify([app.language, seniors, medications, chosen.showStopped, busy.keys()]);
    if (signature === shownSignature) return;
    shownSignature = signature;
    const list = { app, me, busy, canEdit, change, load };
    toolbar.replaceChildren(...toolbarItems(list, {
      seniors, stopped: chosen.showStopped, showStopped: (checked) => { chosen.showStopped = checked; load(); },
    }));
    const focusKey = document.activeElement?.getAttribute?.('data-focus-key');
    if (seniors.length === 0) {
      listSlot.replaceChildren(h('p', { id: 'medications-nobody', class: 'empty' }, t('medications.nobody')));
      return;
    }
    const printed = longDate(localDay(hubDate().toISOString(), me?.timeZone), { language: app.language, weekday: false });
    listSlot.replaceChildren(...seniors.map((senior) => seniorSection(list, senior, medications, printed)));
    if (focusKey) focusInPlace(listSlot.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`));
  }

  const reloads = reloadOnLiveChanges(live, load, (change) => ['medication', 'schedule', 'careLink', 'person'].includes(change.entity));

  const flash = takeFlash();
  if (flash) announce(flash);
  listSlot.replaceChildren(h('p', { class: 'loading' }, t('medications.loading')));
  load();

  return function leaveMedications() {
    reloads.stop();
    stopLoading();
  };
}
