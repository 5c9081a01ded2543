// What every game page shares: its heading, its rules — shown before the
// first game on this device and again on "How to play", with a Listen
// control that reads them aloud — and keeping a finished game's score on
// the hub, saying whether it is a new best. The games' boards are their
// own files (game-sudoku.js, game-memory.js, game-wordle.js).
import { h, pageHeading } from '../../dom.js';
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { readSaved, writeSaved } from '../../preferences.js';
import { listenButton } from '../listen-button.js';
import { createAnnouncer } from '../page-tools.js';
import { deviceStorage } from '../../device-storage.js';

/** The games the hub keeps scores for, in the order the panel offers them. */
export const GAMES = Object.freeze(['wordle', 'sudoku', 'memory']);

const RULES_SEEN_KEY = (game) => `hearth.games.rulesSeen.${game}`;


/**
 * `rules` is the list of sentences (already translated) that explain the
 * game. Returns { elements, showRules(), finished(score) }: the page puts
 * `elements` first; `finished` keeps a score and says it, resolving to the
 * hub's answer ({ game, best, lastPlayedAt, … }) or null when it failed.
 */
export function createGameFrame(app, { game, rules }) {
  const { t } = app;
  const { element: announcer, announce } = createAnnouncer(`${game}-announcer`);
  const rulesList = h('ol', { class: 'game-rules-list' }, rules.map((line) => h('li', {}, line)));
  const closeRules = h('button', { id: `${game}-rules-close`, type: 'button', class: 'primary-button', onclick: hideRules }, t('games.startPlaying'));
  const rulesPanel = h('section', { id: `${game}-rules`, class: 'game-rules', 'aria-labelledby': `${game}-rules-heading`, hidden: true },
    h('h2', { id: `${game}-rules-heading`, tabindex: '-1' }, t('games.howToPlay')),
    listenButton(app, { id: `${game}-rules-listen`, text: () => rules.join('\n'), label: t('games.howToPlay') }),
    rulesList,
    closeRules);
  const howToPlay = h('button', { id: `${game}-how-to-play`, type: 'button', class: 'secondary-button game-how-to-play', 'aria-expanded': 'false', 'aria-controls': `${game}-rules`, onclick: () => (rulesPanel.hidden ? showRules() : hideRules()) }, t('games.howToPlay'));
  const result = h('p', { id: `${game}-result`, class: 'game-result', hidden: true });

  function showRules() {
    rulesPanel.hidden = false;
    howToPlay.setAttribute('aria-expanded', 'true');
    rulesPanel.querySelector('h2').focus?.();
  }
  function hideRules() {
    rulesPanel.hidden = true;
    howToPlay.setAttribute('aria-expanded', 'false');
    writeSaved(deviceStorage(), RULES_SEEN_KEY(game), 'yes');
  }
  if (readSaved(deviceStorage(), RULES_SEEN_KEY(game)) !== 'yes') {
    rulesPanel.hidden = false;
    howToPlay.setAttribute('aria-expanded', 'true');
  }

  async function finished(score) {
    const whole = Math.max(1, Math.round(score));
    try {
      const kept = await sendJSON('POST', paths.gameScores(game), { score: whole }, { t });
      const text = kept.best === whole && kept.newBest
        ? t('games.newBest', { score: whole })
        : t('games.scored', { score: whole, best: kept.best });
      result.textContent = text;
      result.hidden = false;
      announce(text);
      app.clearProblem();
      return kept;
    } catch (problem) {
      app.reportProblem(problem);
      return null;
    }
  }

  return {
    elements: [pageHeading(t(`games.${game}.title`)), howToPlay, rulesPanel, result, announcer],
    showRules,
    finished,
    /** Hides the last game's result when a new one starts. */
    newGame() {
      result.hidden = true;
      result.textContent = '';
    },
  };
}
