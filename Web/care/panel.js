// A senior's panel without the page: the gadgets a tile can show, the six
// places and what the editor does to them (put a gadget in a place, empty
// it, swap two), and the words of the day clock. Pure, for the Node tests.
// The hub checks the same rules (one to six tiles, places 1–6, each gadget
// once) and refuses a panel that breaks them; the editor never sends one.

import { localeOf } from '../i18n.js';

export const PLACES = Object.freeze([1, 2, 3, 4, 5, 6]);

/** Every gadget, in the order the editor lists them. */
export const GADGETS = Object.freeze([
  'next-dose', 'today', 'notes', 'pinned-note', 'clock', 'people', 'alerts', 'wordle', 'sudoku', 'memory',
]);

/** A picture for each gadget (beside its word, never instead of it): a Web/icons name. */
export const GADGET_ICONS = Object.freeze({
  'next-dose': 'capsule', today: 'calendar-check', notes: 'journal-text', 'pinned-note': 'pin-angle-fill', clock: 'clock',
  people: 'people-fill', alerts: 'bell', wordle: 'fonts', sudoku: 'grid-3x3', memory: 'suit-heart-fill',
});

/** The page a gadget's tile opens, as a route: [page, ...params]; null for one that shows all it has. */
export function gadgetRoute(gadget) {
  switch (gadget) {
    case 'next-dose': case 'today': return ['today'];
    case 'notes': case 'pinned-note': return ['notes'];
    case 'alerts': return ['alerts'];
    case 'wordle': case 'sudoku': case 'memory': return ['games', gadget];
    default: return null;
  }
}

/** The tiles a hub answer holds, known gadgets only, in place order. */
export function tilesFrom(answer) {
  const tiles = Array.isArray(answer?.tiles) ? answer.tiles : [];
  return tiles.filter((tile) => PLACES.includes(tile?.position) && GADGETS.includes(tile?.gadget))
    .map(({ position, gadget }) => ({ position, gadget }))
    .sort((a, b) => a.position - b.position);
}

/** Six places, each { position, gadget } with gadget null when empty. */
export function placesOf(tiles) {
  return PLACES.map((position) => ({ position, gadget: tiles.find((tile) => tile.position === position)?.gadget ?? null }));
}

/** The gadgets not on the panel, in the list's order. */
export function unplaced(tiles) {
  const placed = new Set(tiles.map((tile) => tile.gadget));
  return GADGETS.filter((gadget) => !placed.has(gadget));
}

/**
 * The tiles with `gadget` in `position` (null empties the place). A gadget
 * already elsewhere moves here; emptying the last tile is refused (null),
 * as a panel keeps at least one.
 */
export function placeGadget(tiles, position, gadget) {
  const rest = tiles.filter((tile) => tile.position !== position && tile.gadget !== gadget);
  const next = gadget === null ? rest : [...rest, { position, gadget }];
  if (next.length === 0) return null;
  return next.sort((a, b) => a.position - b.position);
}

/** The tiles with the contents of places `a` and `b` swapped (either may be empty). */
export function swapPlaces(tiles, a, b) {
  return tiles.map((tile) => {
    if (tile.position === a) return { ...tile, position: b };
    if (tile.position === b) return { ...tile, position: a };
    return tile;
  }).sort((x, y) => x.position - y.position);
}

/** The part of the day an hour (0–23) is in, for the clock's words. */
export function partOfDay(hour) {
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 17) return 'afternoon';
  if (hour >= 17 && hour < 22) return 'evening';
  return 'night';
}

/**
 * What the day clock shows for `date` in the household's time zone:
 * { time: "08:05", weekday: "Tuesday", part: "morning", date: "26 November" }.
 */
export function clockParts(date, { language, timeZone }) {
  const locale = localeOf(language);
  const options = timeZone ? { timeZone } : {};
  const format = (more) => new Intl.DateTimeFormat(locale, { ...options, ...more });
  const hour = Number(format({ hour: '2-digit', hourCycle: 'h23' }).format(date));
  return {
    time: format({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date),
    weekday: format({ weekday: 'long' }).format(date),
    part: partOfDay(hour),
    date: format({ day: 'numeric', month: 'long' }).format(date),
  };
}

/**
 * The dose a senior should hear of next: the first still to be answered —
 * due or put off first (their time has come), then the next planned.
 */
export function nextDoseOf(doses) {
  const list = Array.isArray(doses) ? doses : [];
  const order = (a, b) => String(a.dueAt ?? '').localeCompare(String(b.dueAt ?? ''));
  const waiting = list.filter((dose) => dose.status === 'due' || dose.status === 'snoozed' || dose.status === 'unrecorded').sort(order);
  if (waiting.length > 0) return waiting[0];
  return list.filter((dose) => dose.status === 'upcoming').sort(order)[0] ?? null;
}
