// The panel's tiles in pages that fit the screen above the SOS bar. At a
// senior's larger text sizes six tiles can be taller than a tablet's
// screen, and a tile hidden below the SOS bar is one she never finds (she
// does not think to scroll): so on a tablet the tiles that do not fit go
// to a second page, reached by a large "More tiles" button, and "Previous
// tiles" returns. Whole rows move together, and a page always holds at
// least one row. A phone, one tile to a row, scrolls instead.
import { h } from '../../dom.js';

/** How many tiles a page may hold: whole rows of `columns`, at least one row. */
export function tilesPerPage(fitting, columns, total) {
  const rows = Math.max(1, Math.floor(fitting / Math.max(1, columns)));
  return Math.min(total, rows * Math.max(1, columns));
}

/** The tiles of page `page` (0-based) when `perPage` fit. */
export function pageOf(tiles, perPage, page) {
  const pages = Math.max(1, Math.ceil(tiles.length / perPage));
  const index = Math.min(Math.max(0, page), pages - 1);
  return { tiles: tiles.slice(index * perPage, (index + 1) * perPage), page: index, pages };
}

/**
 * Draws `tiles` (elements made by `draw(tile)`) into `grid`, as many as
 * `fits()` allows (the page needs no scrolling: the SOS bar keeps its room
 * below the page), with the pager in `pager`. `state.page` is the page
 * shown; `state.perPage` what fitted last time.
 */
export function drawPaged(app, { grid, pager, state, tiles, draw, fits = pageNeedsNoScrolling, redraw }) {
  const { t } = app;
  const columns = Math.max(1, getComputedStyle(grid).gridTemplateColumns.split(' ').filter(Boolean).length);
  const show = (perPage, page) => {
    const shown = pageOf(tiles, perPage, page);
    grid.replaceChildren(...shown.tiles.map(draw).filter(Boolean));
    pager.replaceChildren(...(shown.pages > 1 ? pagerButtons(t, shown, (next) => { state.page = next; redraw(); }) : []));
    pager.hidden = shown.pages < 2;
    return shown;
  };
  // Every page must fit, so that "Page 2 of 3" stays true as she turns
  // them: start from all the tiles on one page, and take a row away from
  // each page until each fits.
  const everyPageFits = (perPage) => {
    const pages = Math.ceil(tiles.length / perPage);
    for (let page = 0; page < pages; page += 1) {
      show(perPage, page);
      if (!fits()) return false;
    }
    return true;
  };
  // One tile to a row is a phone's screen, scrolled as every phone page is:
  // a page a tile would be worse. Its last tile still scrolls clear of the bar.
  let perPage = Math.max(1, tiles.length);
  while (columns > 1 && perPage > columns && !everyPageFits(perPage)) perPage = tilesPerPage(perPage - columns, columns, tiles.length);
  state.perPage = perPage;
  state.page = show(perPage, state.page).page;
}

/**
 * Whether the whole page is on the screen. The page keeps room for the SOS
 * bar below its last line (style.css), so what fits is never under it.
 */
export function pageNeedsNoScrolling() {
  return document.documentElement.scrollHeight <= globalThis.innerHeight;
}

function pagerButtons(t, { page, pages }, go) {
  return [
    page > 0
      ? h('button', { type: 'button', id: 'panel-page-back', class: 'secondary-button panel-page-button', onclick: () => go(page - 1) },
        t('panel.pages.back'))
      : null,
    h('p', { class: 'panel-page-count', id: 'panel-page-count' }, t('panel.pages.count', { page: page + 1, pages })),
    page < pages - 1
      ? h('button', { type: 'button', id: 'panel-page-more', class: 'primary-button panel-page-button', onclick: () => go(page + 1) },
        t('panel.pages.more'))
      : null,
  ].filter(Boolean);
}
