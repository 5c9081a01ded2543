// The top of Today: the date, the household's name and whether live
// updates reach this screen. Its own file so today.js keeps to the doses;
// the name is read here too, with only the newest answer shown.
import { h } from '../../dom.js';
import { getJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { longDate } from '../../care/format.js';
import { myCarers } from './today-carers.js';

/**
 * `remembered` keeps the household's name across renders, so a language
 * switch doesn't blank it. Returns the elements in page order and what the
 * page calls: showDate(date), showLiveState(state), loadHousehold(), stop().
 */
export function createTodayHeader(app, remembered) {
  const { t } = app;
  const nameSlot = h('div', { class: 'household' });
  const indicator = h('p', { id: 'live-indicator', class: 'live-indicator', role: 'status', 'aria-live': 'polite' });
  const dateLine = h('p', { id: 'today-date', class: 'today-date' });
  let request = null;

  function showName() {
    if (remembered.householdName === null) {
      nameSlot.replaceChildren(h('p', { class: 'loading' }, t('today.loadingHousehold')));
    } else {
      // #household-name holds only the name: end-to-end tests read it.
      nameSlot.replaceChildren(h('h2', { id: 'household-name' }, remembered.householdName));
    }
  }

  async function loadHousehold() {
    request?.abort(); // only the newest answer may update the name
    const thisRequest = new AbortController();
    request = thisRequest;
    try {
      const household = await getJSON(paths.household(), { t, signal: thisRequest.signal });
      if (typeof household?.name === 'string') {
        remembered.householdName = household.name;
        showName();
      }
    } catch (problem) {
      if (problem?.name === 'AbortError') return;
      // "Loading…" would never end; the problem or "not paired" message says why.
      if (remembered.householdName === null) nameSlot.replaceChildren();
      app.reportProblem(problem);
    }
  }

  showName();
  // The date, then the household's name and the live state in a quiet
  // corner beside it: on a 1280×800 tablet the first dose to answer must be
  // above the fold, not below a stack of facts about the page.
  const top = h('div', { class: 'today-top' }, dateLine, h('div', { class: 'today-context' }, nameSlot, indicator));
  return {
    elements: [top],
    showDate(date) {
      dateLine.textContent = longDate(date, { language: app.language });
    },
    // Text says the state; the dot's colour only repeats it. A senior is
    // told only what matters to her: while all is well a small dot (its
    // words for a screen reader and as a tooltip), and when the hub cannot
    // be reached, in words, whom to tell.
    showLiveState(state) {
      const dot = h('span', { class: 'live-dot', 'aria-hidden': 'true' });
      indicator.setAttribute('data-state', state);
      if (app.me.current?.role !== 'senior') {
        indicator.removeAttribute('data-quiet');
        indicator.removeAttribute('title');
        indicator.replaceChildren(dot, t(`live.${state}`));
        return;
      }
      const [carer] = myCarers(app);
      const words = state !== 'disconnected' ? t(`live.senior.${state}`)
        : carer ? t('live.senior.disconnected', { name: carer.name }) : t('live.senior.disconnectedNobody');
      const quiet = state !== 'disconnected';
      indicator.toggleAttribute('data-quiet', quiet);
      indicator.setAttribute('title', words);
      indicator.replaceChildren(dot, quiet ? h('span', { class: 'visually-hidden' }, words) : words);
    },
    loadHousehold,
    stop() {
      request?.abort();
    },
  };
}
