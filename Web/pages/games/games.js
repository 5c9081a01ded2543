// Games (#/games): the three games as large tiles, and "Best scores" — the
// person's best in each and when they last played, kept on the hub (GET
// /people/{id}/scores). #/games/<game> opens one game (game-wordle.js,
// game-sudoku.js, game-memory.js).
import { h, pageHeading } from '../../dom.js';
import { icon } from '../../icon.js';
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { pageHref } from '../../router.js';
import { GADGET_ICONS } from '../../care/panel.js';
import { dateTime } from '../../care/format.js';
import { GAMES } from './game-frame.js';
import { createMemoryPage } from './game-memory.js';
import { createSudokuPage } from './game-sudoku.js';
import { createWordlePage } from './game-wordle.js';

/** The tiles, or (#/games/<game>) the game itself: each game's page is (outlet, route) => cleanup. */
export function createGamesPage(app) {
  const games = { wordle: createWordlePage(app), sudoku: createSudokuPage(app), memory: createMemoryPage(app) };
  return (outlet, route) => {
    const game = route.params[0];
    if (Object.hasOwn(games, game)) return games[game](outlet, route);
    return renderGames(app, outlet);
  };
}

function renderGames(app, outlet) {
  const { t } = app;
  let left = false;
  const scores = h('section', { id: 'best-scores', class: 'best-scores', 'aria-labelledby': 'best-scores-heading' },
    h('h2', { id: 'best-scores-heading' }, t('games.bestScores')),
    h('p', { class: 'loading' }, t('games.loading')));
  outlet.append(pageHeading(t('pages.games')),
    h('ul', { class: 'game-tiles' }, GAMES.map((game) => h('li', {},
      h('a', { href: pageHref('games', game), id: `games-${game}`, class: 'panel-tile panel-link' },
        icon(GADGET_ICONS[game], 'panel-icon'),
        h('span', { class: 'panel-word' }, t(`games.${game}.title`)))))),
    scores);

  async function load() {
    try {
      const me = await app.me.load();
      if (!me?.personId) return;
      const answer = await getJSON(paths.personScores(me.personId), { t });
      if (left) return;
      scores.replaceChildren(scores.firstChild, scoreList(app, answer?.scores ?? [], 'best-scores'));
    } catch (problem) {
      if (!left) app.reportProblem(problem);
    }
  }
  const stop = app.live.onChange((change) => {
    if (change.entity === 'gameScore' && change.payload?.personId === app.me.current?.personId) load();
  });
  load();
  return () => {
    left = true;
    stop();
  };
}

/**
 * One line per game: its best score and when it was last played (what a
 * caregiver sees of a senior's games: never each move). `idPrefix` keeps
 * ids apart where two lists could share a page.
 */
export function scoreList(app, scores, idPrefix) {
  const { t } = app;
  const timeZone = app.me.current?.timeZone ?? null;
  const byGame = new Map((Array.isArray(scores) ? scores : []).map((score) => [score.game, score]));
  return h('dl', { class: 'score-list' }, GAMES.flatMap((game) => {
    const score = byGame.get(game);
    return [
      h('dt', {}, t(`games.${game}.title`)),
      h('dd', { id: `${idPrefix}-${game}` }, score
        ? t('games.bestLine', { best: score.best, when: dateTime(score.lastPlayedAt, { language: app.language, timeZone }) })
        : t('games.notPlayed')),
    ];
  }));
}
