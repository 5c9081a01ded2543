// "Arrange the screen" of a person (#/arrange/<id>): the six places of
// their panel, what is in each and the gadgets not yet placed ("up to 6
// tiles — 4 used"), and their display settings (text size, theme,
// language, speaking rate). The senior, a caregiver who looks after her
// and an admin reach it (from the panel, or the senior's card on the
// Household page); every change is sent at once and her devices follow it
// live. Two people arranging at once see each other's changes as they land.
import { h, pageHeading, replaceKeepingFocus } from '../../dom.js';
import { icon } from '../../icon.js';
import { getJSON, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { LANGUAGES, LANGUAGE_NAMES } from '../../i18n.js';
import { TEXT_SIZES, THEMES } from '../../preferences.js';
import { GADGET_ICONS, PLACES, placeGadget, placesOf, swapPlaces, tilesFrom, unplaced } from '../../care/panel.js';
import { SPEECH_RATE_NAMES, displayFrom } from '../../care/display.js';
import { createAnnouncer } from '../page-tools.js';
import { scoreList } from '../games/games.js';

export function createPanelEditorPage(app) {
  return (outlet, route) => renderEditor(app, outlet, route.params[0] ?? null);
}

function renderEditor(app, outlet, personId) {
  const { t } = app;
  let left = false;
  const state = { tiles: null, display: null, scores: [] };
  const { element: announcer, announce } = createAnnouncer('arrange-announcer');
  const heading = pageHeading(t('arrange.title'));
  const body = h('div', { id: 'arrange', class: 'arrange' });
  outlet.append(heading, announcer, body);

  function whose() {
    const me = app.me.current;
    if (me?.personId === personId) return t('arrange.titleMine');
    return t('arrange.titleOf', { name: app.me.nameOf(personId) ?? t('arrange.someone') });
  }

  function draw() {
    if (left) return;
    heading.textContent = whose();
    if (state.tiles === null) {
      replaceKeepingFocus(body, h('p', { class: 'loading' }, t('arrange.loading')));
      return;
    }
    replaceKeepingFocus(body, panelSection(), displaySection(), gamesSection());
  }

  function panelSection() {
    const places = placesOf(state.tiles);
    const free = unplaced(state.tiles);
    return h('section', { class: 'arrange-panel', 'aria-labelledby': 'arrange-panel-heading' },
      h('h2', { id: 'arrange-panel-heading' }, t('arrange.tilesHeading')),
      h('p', { id: 'arrange-count', class: 'arrange-count' }, t('arrange.count', { used: state.tiles.length, most: PLACES.length })),
      h('ol', { class: 'arrange-places' }, places.map((place) => placeRow(place, free))),
      h('h3', { id: 'arrange-unplaced-heading' }, t('arrange.unplacedHeading')),
      free.length === 0
        ? h('p', { id: 'arrange-unplaced', class: 'empty' }, t('arrange.allPlaced'))
        : h('ul', { id: 'arrange-unplaced', class: 'arrange-unplaced', 'aria-labelledby': 'arrange-unplaced-heading' },
          free.map((gadget) => h('li', { 'data-gadget': gadget }, icon(GADGET_ICONS[gadget]), ' ', t(`panel.gadgets.${gadget}`)))));
  }

  function placeRow({ position, gadget }, free) {
    const id = `arrange-place-${position}`;
    const choices = [gadget, ...free].filter(Boolean);
    const onlyTile = gadget !== null && state.tiles.length === 1;
    const select = h('select', { id, name: id, 'aria-describedby': onlyTile ? `${id}-hint` : null, onchange: (event) => {
      const next = placeGadget(state.tiles, position, event.target.value || null);
      if (next) send(next, t('arrange.placed', { place: position }));
    } },
    // Emptying the only tile is not offered: a panel keeps at least one.
    onlyTile ? null : h('option', { value: '', selected: gadget === null }, t('arrange.empty')),
    choices.map((value) => h('option', { value, selected: value === gadget }, t(`panel.gadgets.${value}`))));
    const move = (to, label, suffix) => h('button', {
      type: 'button', id: `${id}-${suffix}`, class: 'secondary-button', 'aria-describedby': `${id}-label`,
      disabled: !PLACES.includes(to),
      onclick: () => send(swapPlaces(state.tiles, position, to), t('arrange.moved', { from: position, to })),
    }, label);
    return h('li', { class: 'arrange-place', 'data-position': String(position), 'data-gadget': gadget ?? '' },
      h('label', { for: id, id: `${id}-label` }, t('arrange.place', { place: position })),
      select,
      onlyTile ? h('p', { id: `${id}-hint`, class: 'hint' }, t('arrange.keepOne')) : null,
      h('div', { class: 'arrange-moves' }, move(position - 1, t('arrange.earlier'), 'up'), move(position + 1, t('arrange.later'), 'down')));
  }

  function displaySection() {
    const display = state.display;
    const group = (name, values, labelFor, langFor = null) => h('fieldset', { class: 'choices' },
      h('legend', {}, t(`arrange.display.${name}`)),
      values.map((value) => h('label', { class: 'choice', for: `arrange-${name}-${value}`, lang: langFor?.(value) },
        h('input', { type: 'radio', id: `arrange-${name}-${value}`, name: `arrange-${name}`, value, checked: display?.[key(name)] === value,
          onchange: () => sendDisplay({ ...display, [key(name)]: value }) }),
        h('span', {}, labelFor(value)))));
    return h('section', { class: 'arrange-display', 'aria-labelledby': 'arrange-display-heading' },
      h('h2', { id: 'arrange-display-heading' }, t('arrange.displayHeading')),
      display === null ? h('p', { class: 'loading' }, t('arrange.loading')) : [
        group('text-size', TEXT_SIZES, (value) => t(`settings.textSizes.${value}`)),
        group('theme', THEMES, (value) => t(`settings.themes.${value}`)),
        group('language', LANGUAGES, (value) => LANGUAGE_NAMES[value], (value) => value),
        group('speech-rate', SPEECH_RATE_NAMES, (value) => t(`arrange.rates.${value}`)),
      ]);
  }

  /** Her games at a glance: the best in each and when she last played, never each move. */
  function gamesSection() {
    return h('section', { class: 'arrange-games', 'aria-labelledby': 'arrange-games-heading' },
      h('h2', { id: 'arrange-games-heading' }, t('arrange.gamesHeading')),
      scoreList(app, state.scores, 'arrange-scores'));
  }

  async function send(tiles, saidText) {
    const before = state.tiles;
    state.tiles = tiles;
    draw();
    try {
      const answer = await sendJSON('PUT', paths.personPanel(personId), { tiles }, { t });
      state.tiles = tilesFrom(answer);
      app.clearProblem();
      announce(saidText);
    } catch (problem) {
      state.tiles = before;
      app.reportProblem(problem);
    }
    draw();
  }

  async function sendDisplay(settings) {
    const before = state.display;
    state.display = settings;
    draw();
    try {
      state.display = displayFrom(await sendJSON('PUT', paths.personDisplay(personId), settings, { t })) ?? settings;
      app.clearProblem();
      announce(t('arrange.displaySaved'));
    } catch (problem) {
      state.display = before;
      app.reportProblem(problem);
    }
    draw();
  }

  async function load() {
    try {
      await app.me.load();
      const [panel, display, scores] = await Promise.all([
        getJSON(paths.personPanel(personId), { t }), getJSON(paths.personDisplay(personId), { t }),
        getJSON(paths.personScores(personId), { t }),
      ]);
      if (left) return;
      state.scores = scores?.scores ?? [];
      state.tiles = tilesFrom(panel);
      state.display = displayFrom(display);
      app.clearProblem();
      draw();
    } catch (problem) {
      if (!left) {
        replaceKeepingFocus(body, h('p', { class: 'empty' }, t('arrange.cannot')));
        app.reportProblem(problem);
      }
    }
  }

  const stop = app.live.onChange((change) => {
    if (change.payload?.personId !== personId || state.tiles === null) return;
    if (change.entity === 'panel') state.tiles = tilesFrom(change.payload);
    else if (change.entity === 'displaySettings') state.display = displayFrom(change.payload) ?? state.display;
    else if (change.entity === 'gameScore') state.scores = [...state.scores.filter((score) => score.game !== change.payload.game), change.payload];
    else return;
    draw();
  });
  draw();
  if (personId) load();
  else replaceKeepingFocus(body, h('p', { class: 'empty' }, t('arrange.cannot')));

  return function leaveEditor() {
    left = true;
    stop();
  };
}

/** The display setting a radio group changes: "text-size" → textSize. */
function key(name) {
  return name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
}
