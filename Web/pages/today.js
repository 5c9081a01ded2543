// Today: the household's name and whether the hub's live updates are
// reaching this screen. Later this page gains due doses, SOS and alerts.
import { h, pageHeading } from '../dom.js';
import { getJSON } from '../api.js';

export function createTodayPage(app) {
  // Remembered across renders so a language switch doesn't blank the name.
  let householdName = null;

  return function renderToday(outlet) {
    const { t, live } = app;
    const nameSlot = h('div', { class: 'household' });
    const indicator = h('p', {
      id: 'live-indicator',
      class: 'live-indicator',
      role: 'status',
      'aria-live': 'polite',
    });
    outlet.append(pageHeading(t('pages.today')), nameSlot, indicator);

    function showName() {
      if (householdName === null) {
        nameSlot.replaceChildren(h('p', { class: 'loading' }, t('today.loadingHousehold')));
      } else {
        // #household-name holds only the name: end-to-end tests read it.
        nameSlot.replaceChildren(h('h2', { id: 'household-name' }, householdName));
      }
    }

    // Text says the state; the dot's colour only repeats it.
    function showLiveState(state) {
      indicator.setAttribute('data-state', state);
      indicator.replaceChildren(
        h('span', { class: 'live-dot', 'aria-hidden': 'true' }),
        t(`live.${state}`),
      );
    }

    let request = null;
    async function loadHousehold() {
      request?.abort(); // only the newest answer may update the name
      const thisRequest = new AbortController();
      request = thisRequest;
      try {
        const household = await getJSON('/household', { t, signal: thisRequest.signal });
        if (typeof household?.name === 'string') {
          householdName = household.name;
          showName();
          app.clearProblem();
        }
      } catch (problem) {
        if (problem?.name === 'AbortError') return;
        // "Loading…" would never end; the problem or "not paired" message says why.
        if (householdName === null) nameSlot.replaceChildren();
        app.reportProblem(problem);
      }
    }

    // The first fetch may race the live connection's start; once the hub says
    // hello we are subscribed, so one more fetch closes that gap.
    let needsFetchOnConnect = live.state !== 'connected';
    const stopStateWatch = live.onState((state) => {
      showLiveState(state);
      if (state === 'connected' && needsFetchOnConnect) {
        needsFetchOnConnect = false;
        loadHousehold();
      }
    });
    const stopChangeWatch = live.onChange((change) => {
      if (change.entity === 'household') loadHousehold();
    });
    const stopResetWatch = live.onReset(loadHousehold);

    showName();
    showLiveState(live.state);
    loadHousehold();

    return function leaveToday() {
      stopStateWatch();
      stopChangeWatch();
      stopResetWatch();
      request?.abort();
    };
  };
}
