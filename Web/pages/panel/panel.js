// A senior's panel: the page her device opens on, up to six large tiles
// that she or a caregiver arranged (kept on the hub: GET /people/{id}/panel),
// each a shortcut to one thing she does often. Follows the hub live: a
// caregiver moving a tile from her phone, a dose recorded, a note pinned,
// show here at once. The tiles themselves are panel-tiles.js; what they
// may hold and how the six places work, care/panel.js. Arranging them is
// one link away, on Settings (and her caregivers' Household page).
import { focusInPlace, h, pageHeading } from '../../dom.js';
import { getJSON, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { tilesFrom } from '../../care/panel.js';
import { applyDoseToDay } from '../../care/today-model.js';
import { createAnnouncer, createBusyKeys, reloadOnLiveChanges } from '../page-tools.js';
import { panelTile } from './panel-tiles.js';
import { drawPaged } from './panel-pages.js';
import { confirmTakenNow } from '../today/early-dose-dialog.js';
import { medicationTitle } from '../today/today-doses.js';
import { hubNow } from '../../hub-clock.js';

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
  const pager = h('nav', { id: 'panel-pager', class: 'panel-pager', 'aria-label': t('panel.pages.label'), hidden: true });
  // The navigation says where she is; the tiles need the height.
  const heading = pageHeading(t('pages.panel'));
  heading.classList.add('visually-hidden');
  outlet.append(heading, announcer, grid, pager);
  const paging = { page: 0, perPage: null };

  const busy = createBusyKeys(app, { redraw: () => draw() });
  let shown = null;
  function draw() {
    if (left) return;
    const me = app.me.current;
    const view = {
      app, me, busy, now: hubNow(), day: remembered.day, pinnedNote: remembered.pinnedNote,
      taken: (dose, key) => busy.run(key, () => taken(dose)),
    };
    const minute = Math.floor(view.now / 60000);
    const signature = JSON.stringify([app.language, me?.personId, me?.people, remembered, app.alerts.open, busy.keys(), minute, paging.page]);
    if (signature === shown) return;
    shown = signature;
    if (remembered.tiles === null) {
      grid.replaceChildren(h('p', { class: 'loading' }, t('panel.loading')));
      return;
    }
    const hadFocus = grid.contains(document.activeElement) || pager.contains(document.activeElement) ? document.activeElement.id : null;
    grid.dataset.count = String(remembered.tiles.length);
    // Every tile as arranged, whichever page shows it (for tests and tools).
    grid.dataset.arranged = remembered.tiles.map((tile) => `${tile.position}:${tile.gadget}`).join(' ');
    drawPaged(app, {
      grid, pager, state: paging, tiles: remembered.tiles, draw: (tile) => panelTile(view, tile),
      redraw: () => { shown = null; draw(); focusAfterPaging(); },
    });
    if (hadFocus) focusInPlace(document.getElementById(hadFocus)) ?? pager.querySelector('button')?.focus();
  }

  // A new page: the keyboard goes to its first tile, as if it were a page of its own.
  function focusAfterPaging() {
    grid.querySelector('a, button')?.focus();
  }
  // Another size of screen, of text or of the SOS bar fits another number
  // of tiles: measured again once the page has taken its new size.
  const fitAgain = () => requestAnimationFrame(() => { shown = null; draw(); });
  globalThis.addEventListener('resize', fitAgain);
  const textSize = new MutationObserver(fitAgain);
  textSize.observe(document.documentElement, { attributes: true, attributeFilter: ['data-text-size'] });
  const dock = document.getElementById('sos-dock');
  const dockSize = globalThis.ResizeObserver ? new ResizeObserver(fitAgain) : null;
  if (dock) dockSize?.observe(dock);

  // The same question as Today's: her evening's dose tapped at lunchtime is
  // asked about first, and "Not yet" records nothing.
  async function taken(dose) {
    const sure = await confirmTakenNow(app, {
      dueAt: dose.dueAt, time: dose.time, medication: medicationTitle(dose),
      returnFocus: () => document.getElementById('panel-next-dose-taken'),
    });
    if (!sure || left) return;
    const recorded = await sendJSON('POST', paths.doses(), { key: dose.key, status: 'taken' }, { t });
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
        getJSON(paths.personPanel(me.personId), { t, signal }),
        getJSON(paths.today(), { t, signal }).catch(() => null),
        getJSON(paths.notes(), { t, signal }).catch(() => []),
      ]);
      const pinned = (Array.isArray(notes) ? notes : []).find((note) => note.pinned) ?? null;
      // The whole text, for reading aloud; the list holds only its start.
      const pinnedNote = pinned ? await getJSON(paths.note(pinned.id), { t, signal }).catch(() => pinned) : null;
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
    globalThis.removeEventListener('resize', fitAgain);
    textSize.disconnect();
    dockSize?.disconnect();
  };
}
