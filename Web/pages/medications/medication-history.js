// History (#/medications/history[/YYYY-MM]): for one senior and one month,
// a calendar per medication with each day coloured by what was recorded —
// taken, skipped, missed — plus a mark for those who do not see colour and
// a sentence per day for screen readers; the share of doses taken; and the
// month's doses as a CSV file made in the browser. A day with doses is a
// button: it opens that day's doses below the month, each to be put right
// (history-day.js). This file loads the month and draws around it; a
// medicine's calendar is history-calendar.js, the CSV history-csv.js.
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, pageHeading, replaceKeepingFocus } from '../../dom.js';
import { icon } from '../../icon.js';
import { fieldBox } from '../../fields.js';
import { pageHref } from '../../router.js';
import { localDay, monthName } from '../../care/format.js';
import { caredForSeniors } from '../../care/me.js';
import { monthKey, monthRange, parseMonth, shiftMonth } from '../../medications/adherence.js';
import { calendar, legend } from './history-calendar.js';
import { downloadCSV } from './history-csv.js';
import { createAnnouncer, createBusyKeys, reloadOnLiveChanges } from '../page-tools.js';
import { hubDate } from '../../hub-clock.js';

export function createMedicationHistoryPage(app) {
  const chosen = {
    // Kept while moving between months.
    person: null,
    // The day opened below a medicine's month, { medicationId, day }: kept
    // while the page is drawn again (a language switch), not into another month.
    day: null,
  };
  return (outlet, monthParam) => renderHistory(app, chosen, outlet, monthParam);
}

/** Draws the month `monthParam` (or this one) into `outlet`; returns what to call when the page is left. */
function renderHistory(app, chosen, outlet, monthParam) {
  const { t, live } = app;
  const body = h('div', { class: 'history-slot' }, h('p', { class: 'loading' }, t('medications.loading')));
  const { element: announcer, announce } = createAnnouncer('history-announcer');
  outlet.append(
    h('p', { class: 'back-link' }, h('a', { href: pageHref('medications'), id: 'medications-back' }, t('medications.form.back'))),
    pageHeading(t('medications.history.title')),
    announcer,
    body);
  const request = new AbortController();
  let seniors = [];
  let doses = [];
  let medications = [];
  let month = parseMonth(monthParam);

  let left = false;

  const timeZone = () => app.me.current?.timeZone ?? null;
  const toLocalDay = (iso) => localDay(iso, timeZone());
  const dayView = dayViewOf(app, { timeZone, toLocalDay, announce, left: () => left, changed: () => load() });

  async function load() {
    try {
      seniors = await caredForSeniors(app, request.signal);
      if (!month) month = parseMonth(localDay(hubDate().toISOString(), timeZone())?.slice(0, 7));
      if (!seniors.some((s) => s.personId === chosen.person)) chosen.person = seniors[0]?.personId ?? null;
      if (!chosen.person) {
        body.replaceChildren(h('p', { class: 'empty' }, t('medications.nobody')));
        return;
      }
      if (chosen.day && !chosen.day.day.startsWith(`${monthKey(month)}-`)) chosen.day = null;
      const { from, to } = monthRange(month);
      const [recorded, list] = await Promise.all([
        getJSON(paths.doses({ personId: chosen.person, from, to }), { t, signal: request.signal }),
        getJSON(paths.medications({ personId: chosen.person, inactive: true }), { t, signal: request.signal }),
      ]);
      doses = Array.isArray(recorded) ? recorded : [];
      medications = Array.isArray(list) ? list : [];
      app.clearProblem();
      draw();
    } catch (problem) {
      if (problem?.name === 'AbortError') return;
      body.replaceChildren();
      app.reportProblem(problem);
    }
  }

  function draw() {
    const shown = medications
      .filter((m) => m.active || doses.some((d) => d.medicationId === m.id))
      .sort((a, b) => a.name.localeCompare(b.name));
    const download = () => downloadCSV(app, {
      // The file is for others (a doctor): her name as the household knows it, not "Mama".
      person: seniors.find((s) => s.personId === chosen.person)?.realName ?? '', month, doses, medications, toLocalDay, timeZone,
    });
    const view = { app, month, doses, toLocalDay, chosen, draw, dayView };
    replaceKeepingFocus(body,
      personChoice(app, seniors, chosen, load),
      monthNav(app, month),
      legend(t),
      h('p', {}, h('button', { type: 'button', id: 'download-csv', class: 'secondary-button', onclick: download }, t('medications.history.csv'))),
      ...(shown.length === 0
        ? [h('p', { class: 'empty', id: 'history-empty' }, t('medications.history.empty'))]
        : shown.map((medication) => calendar(view, medication))));
  }

  const reloads = reloadOnLiveChanges(live, load, (change) => ['dose', 'medication', 'schedule'].includes(change.entity));

  load();

  return function leaveHistory() {
    left = true;
    reloads.stop();
    request.abort();
  };
}

/** What a day's doses need of the page (history-day.js). */
function dayViewOf(app, { timeZone, toLocalDay, announce, left, changed }) {
  return {
    app,
    get timeZone() { return timeZone(); },
    toLocalDay,
    busy: createBusyKeys(app),
    left,
    announce,
    changed,
  };
}

/** Whose history: a choice when there are several seniors, else said. */
function personChoice(app, seniors, chosen, load) {
  const { t } = app;
  return seniors.length > 1
    ? fieldBox({
      id: 'history-person', label: t('medications.history.person'),
      control: h('select', {
        id: 'history-person',
        onchange: (event) => { chosen.person = event.target.value; chosen.day = null; load(); },
      }, seniors.map((s) => h('option', { value: s.personId, selected: s.personId === chosen.person }, s.name))),
    })
    : h('p', { class: 'medication-for' }, t('medications.form.for', { name: seniors[0].name }));
}

/** The month shown, between links to the one before and the one after. */
function monthNav(app, month) {
  const { t, language } = app;
  const previous = shiftMonth(month, -1);
  const next = shiftMonth(month, 1);
  return h('nav', { class: 'month-nav', 'aria-label': t('medications.history.months') },
    h('a', { href: pageHref('medications', 'history', monthKey(previous)), id: 'previous-month', class: 'button-link secondary' },
      icon('chevron-left'), h('span', { class: 'month-nav-word' }, monthName(previous, language))),
    h('h2', { id: 'history-month' }, monthName(month, language)),
    h('a', { href: pageHref('medications', 'history', monthKey(next)), id: 'next-month', class: 'button-link secondary' },
      h('span', { class: 'month-nav-word' }, monthName(next, language)), icon('chevron-right')));
}
