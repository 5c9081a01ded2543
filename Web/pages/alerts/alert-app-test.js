// "Send a test" (Alerts on this phone): the hub hands a test message to
// every ntfy app signed in as this person, shows it on their open pages
// (care/test-notice.js) and answers within about two seconds with where it
// was written out or shown (POST /alert-apps/test). What it came to is
// shown under the button and said to screen readers, so a phone or tablet
// that is not listening is found now, not when an SOS goes unheard.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { testReport } from '../../household/alert-apps.js';

/** The hub's answer in the person's words: { outcome, sentences }. */
export function testSentences(app, answer, timeZone) {
  const { outcome, lines } = testReport(answer, { language: app.language, timeZone });
  return { outcome, sentences: lines.map(({ key, params }) => app.t(key, params)) };
}

/**
 * The section's content from `state.testing` (a test under way) and
 * `state.test` (the last answer); `send()` sends one.
 */
export function testSection(app, state, { timeZone, send }) {
  const { t } = app;
  const result = state.test ? testSentences(app, state.test, timeZone) : null;
  return [
    h('p', { id: 'alert-app-test-intro' }, t('phoneAlerts.test.intro')),
    h('div', { class: 'form-actions' },
      h('button', {
        type: 'button', id: 'alert-app-test', class: 'primary-button', 'aria-describedby': 'alert-app-test-intro',
        'aria-disabled': state.testing ? 'true' : null, onclick: send,
      }, state.testing ? t('phoneAlerts.test.sending') : t('phoneAlerts.test.button'))),
    // Seen here; screen readers are told by the page's announcer as it arrives.
    h('div', { id: 'alert-app-test-result', class: 'test-result', 'data-outcome': result?.outcome ?? null },
      result ? result.sentences.map((sentence) => h('p', {}, sentence)) : null),
  ];
}

/**
 * Sends a test, once at a time: the button says "Sending…" meanwhile; the
 * answer is kept in `state.test`, drawn and announced. A failure goes to the
 * page's problem area.
 */
export async function sendTest(app, state, { draw, announce, timeZone, left }) {
  const { t } = app;
  if (state.testing) return;
  state.testing = true;
  state.test = null;
  draw();
  try {
    const answer = await sendJSON('POST', paths.alertAppTest(), undefined, { t });
    if (left()) return;
    app.clearProblem();
    state.test = answer;
    announce(testSentences(app, answer, timeZone()).sentences.join(' '));
  } catch (problem) {
    app.reportProblem(problem);
  } finally {
    state.testing = false;
    if (!left()) draw();
  }
}
