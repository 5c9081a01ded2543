// What Alerts on this phone explains, as opposed to what it does: the
// numbered steps of setting up the ntfy app on Android, the topics a phone
// can subscribe to, and the plain limits (an iPhone needs the Internet).
// Only words from the dictionaries; the steps' order is household/alert-apps.js's.
import { h } from '../../dom.js';
import { ALERT_TOPICS, ntfySteps } from '../../household/alert-apps.js';

/** The steps, numbered; once a sign-in is made (`made`), the one that needs it names its server and user name. */
export function stepsList(t, made) {
  return h('ol', { id: 'ntfy-steps', class: 'steps' },
    ntfySteps(made).map(({ key, params }) => h('li', {}, t(key, params))));
}

/** Each topic's name as it is typed into the app, and one sentence on what it carries. */
export function topicsList(t) {
  return [
    h('p', {}, t('phoneAlerts.topics.intro')),
    h('ul', { id: 'alert-topics', class: 'topic-list' }, ALERT_TOPICS.map((topic) => h('li', { 'data-topic': topic },
      h('code', { class: 'topic-name' }, topic), ' ', h('span', {}, t(`phoneAlerts.topics.${topic}`))))),
  ];
}

/** What works without the Internet, and what does not. */
export function limitsText(t) {
  return ['home', 'android', 'iphone', 'voice'].map((limit) => h('p', { class: `limit limit-${limit}` }, t(`phoneAlerts.limits.${limit}`)));
}
