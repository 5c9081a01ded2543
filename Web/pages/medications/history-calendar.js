// One medicine's month on the History page: a calendar with each day
// coloured by what was recorded, a mark for those who do not see colour
// and a sentence per day for screen readers; a day with doses is a button
// that opens them below (history-day.js). Also the legend of the colours.
// Its own file so medication-history.js keeps to loading and the month.
import { h } from '../../dom.js';
import { longDate, monthName, weekdayNames } from '../../care/format.js';
import { adherenceLine, dayState, monthWeeks, summariseDays } from '../../medications/adherence.js';
import { historyDay } from './history-day.js';
import { medicationTitle } from '../today/today-doses.js';

// A dose taken late is marked apart from one taken on time, for those who do not see colour.
const MARKS = { taken: '✓', late: '◷', skipped: '–', missed: '✗', none: '' };

export function legend(t) {
  return h('ul', { class: 'history-legend', 'aria-label': t('medications.history.legend') },
    ['taken', 'late', 'skipped', 'missed'].map((state) => h('li', { 'data-state': state },
      h('span', { class: 'legend-swatch', 'data-state': state, 'aria-hidden': 'true' }, MARKS[state]),
      t(`medications.history.states.${state}`))));
}

/**
 * `month` is { app, month, doses, toLocalDay, chosen, draw, dayView }:
 * `chosen.day` is the day opened ({ medicationId, day } or null), and
 * `draw()` shows it once a day's button changed it.
 */
export function calendar(month, medication) {
  const { app, doses, toLocalDay, chosen, draw, dayView } = month;
  const { t, language } = app;
  const days = summariseDays(doses, medication.id, toLocalDay);
  const line = adherenceLine(medication, days);
  const captionId = `calendar-${medication.id}`;
  const weekdays = weekdayNames(language, 'short');
  const longWeekdays = weekdayNames(language, 'long');
  return h('section', { class: 'history-medication', 'data-medication-id': medication.id, 'aria-labelledby': `${captionId}-title` },
    h('h3', { id: `${captionId}-title` }, medicationTitle(medication)),
    h('p', { class: 'adherence' }, t(line.key, line.params)),
    h('table', { class: 'adherence-calendar', 'aria-labelledby': captionId },
      h('caption', { id: captionId, class: 'visually-hidden' }, `${medicationTitle(medication)}, ${monthName(month.month, language)}`),
      h('thead', {}, h('tr', {}, weekdays.map((name, i) => h('th', { scope: 'col' }, h('abbr', { title: longWeekdays[i] }, name))))),
      h('tbody', {}, monthWeeks(month.month).map((week) => h('tr', {}, week.map((day) => {
        if (!day) return h('td', { class: 'outside' });
        const summary = days.get(day);
        const state = dayState(summary);
        const content = [
          h('span', { class: 'day-number', 'aria-hidden': 'true' }, String(Number(day.slice(8)))),
          h('span', { class: 'day-mark', 'aria-hidden': 'true' }, MARKS[state]),
          h('span', { class: 'visually-hidden' }, `${longDate(day, { language, weekday: false })}: ${daySentence(t, summary)}`),
        ];
        if (!summary) return h('td', { 'data-state': state, 'data-day': day }, content);
        const open = chosen.day?.medicationId === medication.id && chosen.day.day === day;
        return h('td', { 'data-state': state, 'data-day': day, 'data-open': open ? 'true' : null },
          h('button', {
            type: 'button', class: 'day-button', 'aria-pressed': open ? 'true' : 'false',
            'data-focus-key': `day-${medication.id}-${day}`,
            onclick: () => { chosen.day = open ? null : { medicationId: medication.id, day }; draw(); },
          }, content));
      }))))),
    chosen.day?.medicationId === medication.id ? historyDay(dayView, medication, chosen.day.day, doses) : null);
}

function daySentence(t, summary) {
  if (!summary) return t('medications.history.states.none');
  return ['taken', 'late', 'skipped', 'missed']
    .filter((state) => summary[state] > 0)
    .map((state) => t(`medications.history.count.${state}`, { count: summary[state] }))
    .join(', ');
}
