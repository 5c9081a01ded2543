// One tile of a senior's panel for each gadget: an icon and a word, large,
// and what the gadget shows (the next dose with its Taken button, the time
// of day in words, the people who look after her with Call, a pinned
// note with Listen …). A tile that only opens a page is one big link; a
// tile with buttons of its own is a section whose heading is the link.
import { h } from '../../dom.js';
import { icon } from '../../icon.js';
import { pageHref } from '../../router.js';
import { GADGET_ICONS, clockParts, gadgetRoute, nextDoseOf } from '../../care/panel.js';
import { amountText } from '../../care/words.js';
import { canAnswer, countDoses } from '../../care/today-model.js';
import { bannerAlerts } from '../../care/alerts.js';
import { myCarers } from '../today/today-carers.js';
import { listenButton } from '../listen-button.js';
import { medicationTitle } from '../today/today-doses.js';

/** The tile of `gadget`, drawn from what the panel page holds (`data`). */
export function panelTile(view, { position, gadget }) {
  const draw = TILES[gadget];
  if (!draw) return null;
  const { t } = view.app;
  const route = gadgetRoute(gadget);
  const title = [icon(GADGET_ICONS[gadget], 'panel-icon'),
    h('span', { class: 'panel-word' }, t(`panel.gadgets.${gadget}`))];
  const body = draw(view);
  const id = `panel-tile-${gadget}`;
  if (body === null && route) {
    return h('a', { id, class: 'panel-tile panel-link', href: pageHref(...route), 'data-position': String(position), 'data-gadget': gadget },
      ...title, tileNote(view, gadget));
  }
  const headingId = `${id}-heading`;
  return h('section', { id, class: 'panel-tile', 'aria-labelledby': headingId, 'data-position': String(position), 'data-gadget': gadget },
    h('h2', { id: headingId, class: 'panel-heading' }, route ? h('a', { href: pageHref(...route), class: 'panel-heading-link' }, ...title) : title),
    body);
}

/** The small line under a link tile's word: how many doses are taken, how many alerts wait. */
function tileNote(view, gadget) {
  const { t } = view.app;
  if (gadget === 'today') {
    const doses = myDoses(view);
    if (doses.length === 0) return null;
    const counts = countDoses(doses);
    return h('span', { class: 'panel-note' }, t('panel.todayCount', { taken: counts.taken, all: doses.length }));
  }
  if (gadget === 'alerts') {
    const open = view.me ? bannerAlerts(view.app.alerts.open, view.me).length : 0;
    return h('span', { class: 'panel-note' }, open === 0 ? t('panel.noAlerts') : t('panel.alertCount', { count: open }));
  }
  return null;
}

function myDoses(view) {
  const person = (view.day?.people ?? []).find((p) => p.personId === view.me?.personId);
  return Array.isArray(person?.doses) ? person.doses : [];
}

const TILES = {
  'next-dose': nextDoseTile,
  today: () => null,
  notes: () => null,
  'pinned-note': pinnedNoteTile,
  clock: clockTile,
  people: peopleTile,
  alerts: () => null,
  wordle: () => null,
  sudoku: () => null,
  memory: () => null,
};

function nextDoseTile(view) {
  const { app } = view;
  const { t } = app;
  if (!view.day) return h('p', { class: 'panel-note' }, t('panel.loading'));
  const dose = nextDoseOf(myDoses(view));
  if (!dose) return h('p', { class: 'panel-line', id: 'panel-next-dose-none' }, t('panel.nextDose.none'));
  const medication = medicationTitle(dose);
  const amount = amountText(app.language, dose.amount ?? 1, dose.unit);
  const sayKey = dose.status === 'upcoming' ? 'panel.nextDose.later' : 'panel.nextDose.now';
  const busyKey = `${dose.key}|taken`;
  return h('div', { class: 'panel-body' },
    h('p', { class: 'panel-line', id: 'panel-next-dose-what' }, t('panel.nextDose.what', { medication, amount, time: dose.time })),
    h('div', { class: 'panel-actions' },
      // Offered when Today offers it (from 12 hours before): the hub refuses earlier.
      canAnswer(dose) ? h('button', {
        type: 'button', id: 'panel-next-dose-taken', class: 'primary-button panel-taken',
        'aria-describedby': 'panel-next-dose-what', 'aria-disabled': view.busy.has(busyKey) ? 'true' : null,
        onclick: () => view.taken(dose, busyKey),
      }, t('panel.nextDose.taken')) : null,
      listenButton(app, { id: 'panel-next-dose-listen', label: medication,
        text: () => t(sayKey, { medication, amount, time: dose.time }) })));
}

function pinnedNoteTile(view) {
  const { app } = view;
  const { t } = app;
  const note = view.pinnedNote;
  if (!note) return h('p', { class: 'panel-note' }, t('panel.pinnedNote.none'));
  const words = [note.title, note.text ?? note.excerpt ?? ''].filter((part) => part && part.trim()).join('.\n');
  return h('div', { class: 'panel-body' },
    h('p', { class: 'panel-note-title', id: 'panel-pinned-note-title' }, note.displayTitle || note.title),
    h('p', { class: 'panel-note-text' }, note.excerpt ?? note.text ?? ''),
    listenButton(app, { id: 'panel-pinned-note-listen', label: note.displayTitle || note.title, text: () => words }));
}

function clockTile(view) {
  const { app } = view;
  const parts = clockParts(new Date(view.now), { language: app.language, timeZone: view.me?.timeZone ?? undefined });
  const dayWords = app.t(`panel.clock.${parts.part}`, { weekday: parts.weekday });
  return h('div', { class: 'panel-body panel-clock' },
    h('p', { class: 'panel-time', id: 'panel-clock-time' }, parts.time),
    h('p', { class: 'panel-day', id: 'panel-clock-day' }, dayWords.charAt(0).toUpperCase() + dayWords.slice(1)),
    h('p', { class: 'panel-date' }, parts.date));
}

function peopleTile(view) {
  const { app } = view;
  const { t } = app;
  const carers = myCarers(app).slice(0, 3);
  if (carers.length === 0) return h('p', { class: 'panel-note' }, t('today.carers.none'));
  return h('ul', { class: 'panel-carers' }, carers.map((carer) => h('li', {},
    carer.href
      ? h('a', { href: carer.href, class: 'primary-button panel-call', id: `panel-call-${carer.id}` }, t('today.carers.call', { name: carer.name }))
      : h('span', { class: 'panel-line' }, carer.name))));
}
