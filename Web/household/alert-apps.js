// Alerts on a phone through the ntfy app, without the page: the steps of
// setting the app up, the topics a phone can subscribe to, the sign-ins
// ("alert apps") as the pages list them, the name a new one is given, and
// what a Test press came to. The hub makes each sign-in for the person
// this browser is paired as (POST /alert-apps) and decides who may remove
// it; this only mirrors it, so a button a person may not use is not shown.
// Pure, for the Node tests; pages/alerts/phone-alerts.js draws it.
import { recipientName } from '../care/deliveries.js';
import { clockTime } from '../care/format.js';
import { joinList } from '../care/words.js';
import { nameOrder } from '../name-order.js';

/** The hub refuses longer names (AlertApp.maximumNameLength). */
export const ALERT_APP_NAME_MAX_LENGTH = 60;

/**
 * The topics the hub serves under its ntfy address, in the order the page
 * explains them: "alerts" carries every alert the person may see, the
 * others one kind each (AlertTopic).
 */
export const ALERT_TOPICS = Object.freeze(['alerts', 'sos', 'doses', 'stock']);

/** The topic the steps suggest: everything, so nothing is missed. */
export const SUGGESTED_TOPIC = ALERT_TOPICS[0];

/**
 * Setting up the ntfy app on Android, one entry a numbered step:
 * [{ key, params }] for t(). Once a sign-in is made (`made`: the hub's 201
 * answer) the step that needs them names its server and user name; before,
 * it points at the form.
 */
export function ntfySteps(made = null) {
  const signIn = made?.server && made?.username
    ? { key: 'phoneAlerts.steps.userWith', params: { server: made.server, username: made.username } }
    : { key: 'phoneAlerts.steps.user', params: {} };
  return [
    { key: 'phoneAlerts.steps.install', params: {} },
    { key: 'phoneAlerts.steps.make', params: {} },
    signIn,
    { key: 'phoneAlerts.steps.subscribe', params: { topic: SUGGESTED_TOPIC } },
    { key: 'phoneAlerts.steps.instant', params: {} },
    { key: 'phoneAlerts.steps.allow', params: {} },
    { key: 'phoneAlerts.steps.test', params: {} },
  ];
}

/** Cut to what the hub keeps, by characters (not UTF-16 units: a name may hold emoji). */
function fitted(text) {
  return [...String(text ?? '').trim()].slice(0, ALERT_APP_NAME_MAX_LENGTH).join('').trim();
}

/**
 * The name suggested for a new sign-in, from the sentence for this person
 * ("Anna's phone", filled in by the page's t()): never longer than the hub
 * takes, so the suggestion itself is never refused.
 */
export function suggestedAlertAppName(sentence) {
  return fitted(sentence);
}

/**
 * The body of POST /alert-apps from the typed name, or what to fix:
 * { body } | { errors: { name: "nameMissing" | "nameTooLong" } }.
 */
export function alertAppRequest(name) {
  const trimmed = String(name ?? '').trim();
  if (trimmed === '') return { errors: { name: 'nameMissing' } };
  if ([...trimmed].length > ALERT_APP_NAME_MAX_LENGTH) return { errors: { name: 'nameTooLong' } };
  return { body: { name: trimmed } };
}


/**
 * The sign-ins as the pages list them (revoked ones left out): this
 * person's first, then by whose they are (someone no longer listed last)
 * and by name. Each gets
 * `ownerName` (null when the person is not listed, e.g. archived) and
 * `isMine`. `only: 'mine'` keeps this person's alone (the phone page;
 * an admin's list holds everyone's).
 */
export function alertAppEntries(apps, people, { meId = null, language = 'en', only = 'all' } = {}) {
  const compare = nameOrder(language);
  const nameOf = new Map((people ?? []).map((person) => [person.id, person.name]));
  return (Array.isArray(apps) ? apps : [])
    .filter((app) => app && !app.revokedAt)
    .map((app) => ({ ...app, ownerName: nameOf.get(app.personId) ?? null, isMine: app.personId === meId }))
    .filter((app) => only !== 'mine' || app.isMine)
    .sort((a, b) => Number(b.isMine) - Number(a.isMine)
      || Number(a.ownerName === null) - Number(b.ownerName === null)
      || compare(a.ownerName, b.ownerName) || compare(a.name, b.name)
      || String(a.createdAt ?? '').localeCompare(String(b.createdAt ?? '')));
}

/** Admins remove anyone's sign-in; everyone else only their own (as the hub's policy for devices). */
export function canRemoveAlertApp(me, app) {
  if (!me?.personId || !app) return false;
  return me.role === 'admin' || app.personId === me.personId;
}

/**
 * What a Test press came to, from POST /alert-apps/test's answer:
 * { outcome, lines: [{ key, params }] }. `outcome` is about the phones:
 * "delivered" (a phone wrote it out), "unconfirmed" (handed to a phone's
 * stream, not written out within the hub's two seconds) or "nobody" (no
 * phone is listening). The hub also shows the test on this person's open
 * pages (channel "page", the device's name) and, for a senior, says it
 * (channel "voice"); `sentTo` names those too, and they are not phones
 * that failed to confirm. Lines: the phones, then the pages, then the
 * voice; each phone and page once, at its first delivery.
 */
export function testReport(answer, { language = 'en', timeZone = null } = {}) {
  const delivered = Array.isArray(answer?.delivered) ? answer.delivered.filter(Boolean) : [];
  const sentTo = Array.isArray(answer?.sentTo) ? answer.sentTo.map(String) : [];
  const first = new Map(); // "channel|name" → the earliest delivery
  for (const delivery of [...delivered].sort((a, b) => String(a.at).localeCompare(String(b.at)))) {
    const name = delivery.channel === 'voice' ? '' : recipientName(delivery.recipient);
    const key = `${delivery.channel}|${name}`;
    if (!first.has(key)) first.set(key, { channel: delivery.channel, name, at: delivery.at });
  }
  const time = (at) => clockTime(at, { language, timeZone });
  const reached = (channel) => [...first.values()].filter((d) => d.channel === channel);
  const phones = reached('alert-app');
  const pages = reached('page');
  // A name in sentTo that something wrote out is accounted for; "speaker" is
  // the hub's voice (AlertAppsController), said or not, never a phone.
  const accounted = new Set([...phones, ...pages].map((d) => d.name));
  const quiet = [...new Set(sentTo.map(recipientName))].filter((name) => name !== 'speaker' && !accounted.has(name));
  const lines = phones.map((d) => ({ key: 'phoneAlerts.test.deliveredTo', params: { name: d.name, time: time(d.at) } }));
  if (quiet.length > 0) lines.push({ key: 'phoneAlerts.test.notConfirmed', params: { names: joinList(language, quiet) } });
  if (phones.length === 0 && quiet.length === 0) lines.push({ key: 'phoneAlerts.test.nobody', params: {} });
  for (const page of pages) lines.push({ key: 'phoneAlerts.test.shownOn', params: { name: page.name, time: time(page.at) } });
  for (const voice of reached('voice')) lines.push({ key: 'phoneAlerts.test.spoken', params: { time: time(voice.at) } });
  const outcome = phones.length > 0 ? 'delivered' : quiet.length > 0 ? 'unconfirmed' : 'nobody';
  return { outcome, lines };
}
