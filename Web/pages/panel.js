// A senior's panel: the page her device opens on, up to six large tiles
// that she or a caregiver arranged (kept on the hub: GET /people/{id}/panel),
// each a shortcut to one thing she does often. Follows the hub live: a
// caregiver moving a tile from her phone, a dose recorded, a note pinned,
// show here at once. The tiles themselves are panel-tiles.js; what they
// may hold and how the six places work, care/panel.js. Arranging them is
// one link away, on Settings (and her caregivers' Household page).
import { h, pageHeading } from '../dom.js';
import { getJSON, sendJSON } from '../api.js';
import { tilesFrom } from '../care/panel.js';
import { applyDoseToDay } from '../care/today-model.js';
import { createAnnouncer, createBusyKeys, reloadOnLiveChanges } from './page-tools.js';
import { panelTile } from './panel-tiles.js';
import { medicationTitle } from './today-doses.js';

const CLOCK_EVERY_MS = 20 * 1000;
/** What a change to these can move on the panel. */
const PANEL_CHANGES = new Set(['panel', 'dose', 'medication', 'schedule', 'note', 'person', 'careLink']);

export function createPanelPage(app) {
  // Kept across renders so a language switch does not blank the tiles.
  const remembered = { tiles: null, day: null, pinnedNote: null };
  return (outlet) => renderPanel(app, remembered, outlet);
}

function renderPanel(app, remembered, outlet) {
  const { t } = app;
  let left = false;
  const { element: announcer, announce } = createAnnouncer('panel-announcer');
  const grid = h('div', { id: 'panel-tiles', class: 'panel-grid' });
  // The navigation says where she is; the tiles need the height.
  const heading = pageHeading(t('pages.panel'));
  heading.classList.add('visually-hidden');
  outlet.append(heading, announcer, grid);

  const busy = createBusyKeys(app, { redraw: () => draw() });
  let shown = null;
  function draw() {
    if (left) return;
    const me = app.me.current;
    const view = {
      app, me, busy, now: Date.now(), day: remembered.day, pinnedNote: remembered.pinnedNote,
      taken: (dose, key) => busy.run(key, () => taken(dose)),
    };
    const minute = Math.floor(view.now / 60000);
    const signature = JSON.stringify([app.language, me?.personId, me?.people, remembered, app.alerts.open, busy.keys(), minute]);
    if (signature === shown) return;
    shown = signature;
    if (remembered.tiles === null) {
      grid.replaceChildren(h('p', { class: 'loading' }, t('panel.loading')));
      return;
    }
    const hadFocus = grid.contains(document.activeElement) ? document.activeElement.id : null;
    grid.dataset.count = String(remembered.tiles.length);
    grid.replaceChildren(...remembered.tiles.map((tile) => panelTile(view, tile)).filter(Boolean));
    if (hadFocus) document.getElementById(hadFocus)?.focus();
  }

  async function taken(dose) {
    const recorded = await sendJSON('POST', '/doses', { key: dose.key, status: 'taken' }, { t });
    if (remembered.day) remembered.day = applyDoseToDay(remembered.day, recorded);
    announce(t('today.announce.taken', { medication: medicationTitle(dose) }));
    draw();
  }

  let reading = null;
  async function load() {
    const controller = new AbortController();
    reading?.abort();
    reading = controller;
    const { signal } = controller;
    try {
      const me = await app.me.load();
      if (!me?.personId) return;
      const [panel, day, notes] = await Promise.all([
        getJSON(`/people/${me.personId}/panel`, { t, signal }),
        getJSON('/today', { t, signal }).catch(() => null),
        getJSON('/notes', { t, signal }).catch(() => []),
      ]);
      const pinned = (Array.isArray(notes) ? notes : []).find((note) => note.pinned) ?? null;
      // The whole text, for reading aloud; the list holds only its start.
      const pinnedNote = pinned ? await getJSON(`/notes/${pinned.id}`, { t, signal }).catch(() => pinned) : null;
      if (signal.aborted || left) return;
      remembered.tiles = tilesFrom(panel);
      remembered.day = day;
      remembered.pinnedNote = pinnedNote;
      app.clearProblem();
      draw();
    } catch (problem) {
      if (problem?.name !== 'AbortError') app.reportProblem(problem);
    }
  }

  // A tile moved is shown without waiting for the fetch: the change holds the panel.
  const stopPanel = app.live.onChange((change) => {
    if (change.entity === 'panel' && change.payload?.personId === app.me.current?.personId) {
      remembered.tiles = tilesFrom(change.payload);
      draw();
    }
  });
  const stopReloads = reloadOnLiveChanges(app.live, load, (change) => PANEL_CHANGES.has(change.entity));
  const stopAlerts = app.alerts.subscribe(() => draw());
  const clock = setInterval(draw, CLOCK_EVERY_MS);
  draw();
  load();

  return function leavePanel() {
    left = true;
    reading?.abort();
    stopPanel();
    stopReloads.stop();
    stopAlerts();
    clearInterval(clock);
  };
}
