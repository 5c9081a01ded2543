// Where an alert went, in plain words: GET /alerts/{id}/deliveries lists
// every time an alert app on a phone wrote it out, the hub's speaker said
// it or an open page on a paired device was sent it, oldest first, and
// which device or alert app it was answered and closed from. A reminder
// repeated reaches the same phone again, so repeats are one line with a
// count ("3 times, last 10:52") rather than a wall of identical lines.
// Away from home, each text to a caregiver (`sms`), push (`push`) and text
// to an emergency contact (`contact`) is one line saying how far it got:
// "Texted Anna at 09:41 · Anna replied at 09:43", waiting for the modem,
// or why it did not go.
// Pure, for the Node tests; pages/alerts/alert-deliveries.js draws it.
import { clockTime, dateTime, localDay } from './format.js';
import { countText } from './words.js';
import { languageOf } from '../i18n.js';

/** The line's key under alerts.deliveries for each channel; one the page does not know yet is "reached". */
const CHANNEL_KEYS = Object.freeze({ 'alert-app': 'sent', voice: 'spoken', page: 'shown' });

/** Channels that reach people away from home: each delivery is its own line, with its state. */
const AWAY_CHANNELS = new Set(['sms', 'push', 'contact']);

/** Why a text did not go, as the hub says it (HearthStore+AwayMessages.swift), in the page's words. */
const NOT_SENT = [
  [/^not sent: answered at home/, 'notNeeded'],
  [/^monthly limit/, 'overLimit'],
  [/^not sent: no longer looks after/, 'notLinked'],
];

/** The hub's name for an answer by text (HearthStore.recipientName). */
const BY_TEXT = 'text message';

/** One line for a text or push away from home: [{ kind, key, params }]. */
export function awayLine(delivery, time) {
  const params = { recipient: String(delivery.recipient ?? ''), time: time(delivery.at) };
  const kind = delivery.channel;
  switch (delivery.state) {
    case 'answered':
      return { kind, key: 'alerts.deliveries.replied', params: { ...params, answered: time(delivery.answeredAt ?? delivery.at) } };
    case 'queued':
      return delivery.problem
        ? { kind, key: 'alerts.deliveries.waitingProblem', params: { ...params, problem: delivery.problem } }
        : { kind, key: 'alerts.deliveries.waiting', params };
    case 'failed': {
      const known = NOT_SENT.find(([pattern]) => pattern.test(delivery.problem ?? ''));
      if (known) return { kind, key: `alerts.deliveries.${known[1]}`, params };
      return { kind, key: 'alerts.deliveries.notSent', params: { ...params, problem: delivery.problem ?? '' } };
    }
    default: {
      const key = { sms: 'texted', contact: 'textedContact', push: 'pushed' }[kind] ?? 'reached';
      return { kind, key: `alerts.deliveries.${key}`, params };
    }
  }
}

const TIMES = {
  en: { one: 'time', other: 'times' },
  // "raz" once, "razy" after every other whole number (2 razy, 5 razy, 22 razy).
  pl: { one: 'raz', few: 'razy', many: 'razy', other: 'razy' },
};

/**
 * The hub names what a poll fetched "Anna's phone (poll)" (DeliveryBoard):
 * the alert app is still Anna's phone, and the suffix is not in the page's language.
 */
export function recipientName(recipient) {
  return String(recipient ?? '').replace(/ \(poll\)$/, '');
}

const instant = (iso) => {
  const ms = new Date(iso ?? '').getTime();
  return Number.isNaN(ms) ? null : ms;
};

/**
 * Repeats put together: [{ channel, recipient, count, first, last }], one
 * per channel and recipient (the speaker is one, whatever the hub calls
 * it), in the order each was first reached. Entries without a time or
 * channel are left out: they could only be worded wrongly.
 */
export function groupDeliveries(deliveries) {
  const groups = new Map();
  const usable = (Array.isArray(deliveries) ? deliveries : [])
    .filter((d) => d && typeof d.channel === 'string' && !AWAY_CHANNELS.has(d.channel) && instant(d.at) !== null)
    .sort((a, b) => instant(a.at) - instant(b.at));
  for (const delivery of usable) {
    const recipient = delivery.channel === 'voice' ? '' : recipientName(delivery.recipient);
    const key = `${delivery.channel}|${recipient}`;
    const group = groups.get(key);
    if (group) {
      group.count += 1;
      group.last = delivery.at;
    } else {
      groups.set(key, { channel: delivery.channel, recipient, count: 1, first: delivery.at, last: delivery.at });
    }
  }
  return [...groups.values()];
}

/**
 * How a delivery's time is said: the clock time on the day the alert was
 * raised (as the alert's own line gives the date), the date too on any
 * other day (a reminder repeated past midnight).
 */
export function deliveryTime(iso, { language = 'en', timeZone = null, raisedAt = null } = {}) {
  const sameDay = raisedAt && localDay(iso, timeZone) === localDay(raisedAt, timeZone);
  return sameDay ? clockTime(iso, { language, timeZone }) : dateTime(iso, { language, timeZone });
}

/**
 * The answer as lines: [{ kind, key, params }] for t(), `kind` being the
 * channel, "responded", "acknowledged" or "nowhere". `time(iso)` words a
 * time (see deliveryTime). Nothing at all is one line saying why.
 */
export function deliveryLines(answer, { language = 'en', time = (iso) => String(iso) } = {}) {
  const lang = languageOf(language);
  const lines = groupDeliveries(answer?.deliveries).map((group) => {
    const name = CHANNEL_KEYS[group.channel] ?? 'reached';
    const params = { recipient: group.recipient, time: time(group.first) };
    if (group.count === 1) return { kind: group.channel, key: `alerts.deliveries.${name}`, params };
    return {
      kind: group.channel,
      key: `alerts.deliveries.${name}Repeated`,
      params: { ...params, times: countText(lang, group.count, TIMES[lang]), last: time(group.last) },
    };
  });
  const away = (Array.isArray(answer?.deliveries) ? answer.deliveries : [])
    .filter((d) => d && AWAY_CHANNELS.has(d.channel) && instant(d.at) !== null)
    .sort((a, b) => instant(a.at) - instant(b.at));
  lines.push(...away.map((delivery) => awayLine(delivery, time)));
  const respondedFrom = recipientName(answer?.respondedFrom);
  const acknowledgedFrom = recipientName(answer?.acknowledgedFrom);
  if (respondedFrom === BY_TEXT) lines.push({ kind: 'responded', key: 'alerts.deliveries.respondedByText', params: {} });
  else if (respondedFrom) lines.push({ kind: 'responded', key: 'alerts.deliveries.respondedFrom', params: { recipient: respondedFrom } });
  if (acknowledgedFrom === BY_TEXT) lines.push({ kind: 'acknowledged', key: 'alerts.deliveries.acknowledgedByText', params: {} });
  else if (acknowledgedFrom) lines.push({ kind: 'acknowledged', key: 'alerts.deliveries.acknowledgedFrom', params: { recipient: acknowledgedFrom } });
  if (lines.length === 0) lines.push({ kind: 'nowhere', key: 'alerts.deliveries.nowhere', params: {} });
  return lines;
}
