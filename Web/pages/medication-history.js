// History (#/medications/history[/YYYY-MM]): for one senior and one month,
// a calendar per medication with each day coloured by what was recorded —
// taken, skipped, missed — plus a mark for those who do not see colour and
// a sentence per day for screen readers; the share of doses taken; and the
// month's doses as a CSV file made in the browser. A day with doses is a
// button: it opens that day's doses below the month, each to be put right
// (history-day.js).
import { getJSON } from '../api.js';
import { h, pageHeading, replaceKeepingFocus } from '../dom.js';
import { pageHref } from '../router.js';
import { clockTime, localDay, longDate, monthName, weekdayNames } from '../care/format.js';
import { caredForSeniors } from '../care/me.js';
import { skipReasonText } from '../care/skip-reasons.js';
import { formatNumber, unitName } from '../care/words.js';
import {
  adherenceLine, dayState, doseRows, monthKey, monthRange, monthWeeks, parseMonth, shiftMonth, summariseDays, toCSV,
} from '../medications/adherence.js';
import { historyDay } from './history-day.js';
import { createAnnouncer, createBusyKeys, reloadOnLiveChanges } from './page-tools.js';
import { medicationTitle } from './today-doses.js';

const MARKS = { taken: '✓', skipped: '–', missed: '✗', none: '' };

export function createMedicationHistoryPage(app) {
  // Kept while moving between months.
  let chosenPerson = null;
  // The day opened below a medicine's month, { medicationId, day }: kept
  // while the page is drawn again (a language switch), not into another month.
  let chosenDay = null;

  return function renderHistory(outlet, monthParam) {
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
    // What a day's doses need of the page (history-day.js).
    const dayView = {
      app,
      get timeZone() { return timeZone(); },
      toLocalDay,
      busy: createBusyKeys(app),
      left: () => left,
      announce,
      changed: () => load(),
    };

    async function load() {
      try {
        seniors = await caredForSeniors(app, request.signal);
        if (!month) month = parseMonth(localDay(new Date().toISOString(), timeZone())?.slice(0, 7));
        if (!seniors.some((s) => s.personId === chosenPerson)) chosenPerson = seniors[0]?.personId ?? null;
        if (!chosenPerson) {
          body.replaceChildren(h('p', { class: 'empty' }, t('medications.nobody')));
          return;
        }
        if (chosenDay && !chosenDay.day.startsWith(`${monthKey(month)}-`)) chosenDay = null;
        const { from, to } = monthRange(month);
        const person = encodeURIComponent(chosenPerson);
        const [recorded, list] = await Promise.all([
          getJSON(`/doses?personId=${person}&from=${from}&to=${to}`, { t, signal: request.signal }),
          getJSON(`/medications?personId=${person}&inactive=1`, { t, signal: request.signal }),
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
      const { language } = app;
      const previous = shiftMonth(month, -1);
      const next = shiftMonth(month, 1);
      const shown = medications
        .filter((m) => m.active || doses.some((d) => d.medicationId === m.id))
        .sort((a, b) => a.name.localeCompare(b.name));
      replaceKeepingFocus(body,
        seniors.length > 1
          ? h('div', { class: 'field' },
            h('label', { for: 'history-person' }, t('medications.history.person')),
            h('select', {
              id: 'history-person',
              onchange: (event) => { chosenPerson = event.target.value; chosenDay = null; load(); },
            }, seniors.map((s) => h('option', { value: s.personId, selected: s.personId === chosenPerson }, s.name))))
          : h('p', { class: 'medication-for' }, t('medications.form.for', { name: seniors[0].name })),
        h('nav', { class: 'month-nav', 'aria-label': t('medications.history.months') },
          h('a', { href: pageHref('medications', 'history', monthKey(previous)), id: 'previous-month', class: 'button-link secondary' },
            `‹ ${monthName(previous, language)}`),
          h('h2', { id: 'history-month' }, monthName(month, language)),
          h('a', { href: pageHref('medications', 'history', monthKey(next)), id: 'next-month', class: 'button-link secondary' },
            `${monthName(next, language)} ›`)),
        legend(),
        h('p', {}, h('button', { type: 'button', id: 'download-csv', class: 'secondary-button', onclick: downloadCSV }, t('medications.history.csv'))),
        ...(shown.length === 0
          ? [h('p', { class: 'empty', id: 'history-empty' }, t('medications.history.empty'))]
          : shown.map(calendar)));
    }

    function legend() {
      return h('ul', { class: 'history-legend', 'aria-label': t('medications.history.legend') },
        ['taken', 'skipped', 'missed'].map((state) => h('li', { 'data-state': state },
          h('span', { class: 'legend-swatch', 'data-state': state, 'aria-hidden': 'true' }, MARKS[state]),
          t(`medications.history.states.${state}`))));
    }

    function calendar(medication) {
      const { language } = app;
      const days = summariseDays(doses, medication.id, toLocalDay);
      const line = adherenceLine(medication, days);
      const captionId = `calendar-${medication.id}`;
      const weekdays = weekdayNames(language, 'short');
      const longWeekdays = weekdayNames(language, 'long');
      return h('section', { class: 'history-medication', 'data-medication-id': medication.id, 'aria-labelledby': `${captionId}-title` },
        h('h3', { id: `${captionId}-title` }, medicationTitle(medication)),
        h('p', { class: 'adherence' }, t(line.key, line.params)),
        h('table', { class: 'adherence-calendar', 'aria-labelledby': captionId },
          h('caption', { id: captionId, class: 'visually-hidden' }, `${medicationTitle(medication)}, ${monthName(month, language)}`),
          h('thead', {}, h('tr', {}, weekdays.map((name, i) => h('th', { scope: 'col' }, h('abbr', { title: longWeekdays[i] }, name))))),
          h('tbody', {}, monthWeeks(month).map((week) => h('tr', {}, week.map((day) => {
            if (!day) return h('td', { class: 'outside' });
            const summary = days.get(day);
            const state = dayState(summary);
            const content = [
              h('span', { class: 'day-number', 'aria-hidden': 'true' }, String(Number(day.slice(8)))),
              h('span', { class: 'day-mark', 'aria-hidden': 'true' }, MARKS[state]),
              h('span', { class: 'visually-hidden' }, `${longDate(day, { language, weekday: false })}: ${daySentence(summary)}`),
            ];
            if (!summary) return h('td', { 'data-state': state, 'data-day': day }, content);
            const open = chosenDay?.medicationId === medication.id && chosenDay.day === day;
            return h('td', { 'data-state': state, 'data-day': day, 'data-open': open ? 'true' : null },
              h('button', {
                type: 'button', class: 'day-button', 'aria-pressed': open ? 'true' : 'false',
                'data-focus-key': `day-${medication.id}-${day}`,
                onclick: () => { chosenDay = open ? null : { medicationId: medication.id, day }; draw(); },
              }, content));
          }))))),
        chosenDay?.medicationId === medication.id ? historyDay(dayView, medication, chosenDay.day, doses) : null);
    }

    function daySentence(summary) {
      if (!summary) return t('medications.history.states.none');
      return ['taken', 'skipped', 'missed']
        .filter((state) => summary[state] > 0)
        .map((state) => t(`medications.history.count.${state}`, { count: summary[state] }))
        .join(', ');
    }

    function downloadCSV() {
      const { language } = app;
      const byId = new Map(medications.map((m) => [m.id, m]));
      const person = seniors.find((s) => s.personId === chosenPerson)?.name ?? '';
      const header = ['date', 'time', 'person', 'medication', 'strength', 'amount', 'unit', 'status', 'takenAt', 'reason']
        .map((column) => t(`medications.history.columns.${column}`));
      const rows = doseRows(doses, header, (dose) => {
        const medication = byId.get(dose.medicationId);
        return {
          person,
          medication: medication?.name ?? '',
          strength: medication?.strength ?? '',
          amount: formatNumber(language, dose.amount),
          unit: unitName(language, medication?.unit ?? 'tablets'),
          status: t(`medications.history.states.${dose.status}`),
          takenAt: dose.takenAt ? `${toLocalDay(dose.takenAt)} ${clockTime(dose.takenAt, { language, timeZone: timeZone() })}` : '',
          reason: skipReasonText(language, dose.reason),
        };
      }, toLocalDay);
      // Polish spreadsheets use a comma for decimals and so a semicolon between cells.
      const csv = '\ufeff' + toCSV(rows, language === 'pl' ? ';' : ',');
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = h('a', { href: url, download: `${t('medications.history.fileName')}-${person}-${monthKey(month)}.csv`.replace(/[\\/:*?"<>|]/g, '_'), hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    }

    const reloads = reloadOnLiveChanges(live, load, (change) => ['dose', 'medication', 'schedule'].includes(change.entity));

    load();

    return function leaveHistory() {
      left = true;
      reloads.stop();
      request.abort();
    };
  };
}
