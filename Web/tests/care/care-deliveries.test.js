import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTranslator } from '../../i18n.js';
import { deliveryLines, deliveryTime, groupDeliveries, recipientName } from '../../care/deliveries.js';

const readDictionary = async (lang) =>
  JSON.parse(await readFile(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));

const warsaw = { timeZone: 'Europe/Warsaw', raisedAt: '2026-11-25T09:32:00Z' };
const phone = (at, recipient = 'Anna’s phone') => ({ channel: 'alert-app', recipient, at });
const voice = (at) => ({ channel: 'voice', recipient: 'speaker', at });
const page = (at) => ({ channel: 'page', recipient: 'Tablet babci', at });

/** The answer's lines as the page shows them, in `language`. */
async function sentences(answer, language) {
  const t = createTranslator(await readDictionary(language), await readDictionary('en'));
  const time = (iso) => deliveryTime(iso, { language, ...warsaw });
  return deliveryLines(answer, { language, time }).map((line) => t(line.key, line.params));
}

test('repeats to the same recipient on the same channel are one group, with how many and the last', () => {
  const groups = groupDeliveries([
    phone('2026-11-25T09:32:01Z'), voice('2026-11-25T09:32:02Z'), page('2026-11-25T09:32:03Z'),
    phone('2026-11-25T09:42:01Z'), phone('2026-11-25T09:52:01Z'), phone('2026-11-25T09:33:00Z', 'Work phone'),
  ]);
  assert.deepEqual(groups, [
    { channel: 'alert-app', recipient: 'Anna’s phone', count: 3, first: '2026-11-25T09:32:01Z', last: '2026-11-25T09:52:01Z' },
    { channel: 'voice', recipient: '', count: 1, first: '2026-11-25T09:32:02Z', last: '2026-11-25T09:32:02Z' },
    { channel: 'page', recipient: 'Tablet babci', count: 1, first: '2026-11-25T09:32:03Z', last: '2026-11-25T09:32:03Z' },
    { channel: 'alert-app', recipient: 'Work phone', count: 1, first: '2026-11-25T09:33:00Z', last: '2026-11-25T09:33:00Z' },
  ]);
});

test('the same name on another channel is another line; a poll is the phone it is', () => {
  const groups = groupDeliveries([
    phone('2026-11-25T09:32:00Z', 'Tablet babci'), page('2026-11-25T09:32:01Z'),
    phone('2026-11-25T09:40:00Z', 'Tablet babci (poll)'),
  ]);
  assert.deepEqual(groups.map((g) => [g.channel, g.recipient, g.count]), [['alert-app', 'Tablet babci', 2], ['page', 'Tablet babci', 1]]);
  assert.equal(recipientName('Anna’s phone (poll)'), 'Anna’s phone');
  assert.equal(recipientName('(poll) phone'), '(poll) phone', 'only the suffix the hub adds');
});

test('deliveries out of order or unreadable still group by time', () => {
  const groups = groupDeliveries([
    phone('2026-11-25T09:52:00Z'), null, { channel: 'voice' }, phone('not a time'), phone('2026-11-25T09:32:00Z'),
  ]);
  assert.deepEqual(groups, [{ channel: 'alert-app', recipient: 'Anna’s phone', count: 2, first: '2026-11-25T09:32:00Z', last: '2026-11-25T09:52:00Z' }]);
  assert.deepEqual(groupDeliveries(undefined), []);
});

test('each channel reads as a plain sentence in English, repeats counted', async () => {
  const answer = {
    deliveries: [phone('2026-11-25T09:32:01Z'), voice('2026-11-25T09:32:02Z'), page('2026-11-25T09:32:03Z'),
      phone('2026-11-25T09:42:01Z'), phone('2026-11-25T09:52:01Z'), voice('2026-11-25T09:42:02Z')],
    acknowledgedFrom: null, respondedFrom: null,
  };
  assert.deepEqual(await sentences(answer, 'en'), [
    'Sent to Anna’s phone at 10:32 (3 times, last 10:52)',
    'Said aloud by the hub at 10:32 (2 times, last 10:42)',
    'Shown on Tablet babci at 10:32',
  ]);
});

test('Polish counts repeats with the right form of "raz"', async () => {
  const times = (n) => Array.from({ length: n }, (_, i) => phone(new Date(Date.parse('2026-11-25T09:32:00Z') + i * 60_000).toISOString()));
  const lines = deliveryLines({ deliveries: times(5) }, { language: 'pl', time: (iso) => iso.slice(11, 16) });
  assert.deepEqual(lines, [{
    kind: 'alert-app', key: 'alerts.deliveries.sentRepeated',
    params: { recipient: 'Anna’s phone', time: '09:32', times: '5 razy', last: '09:36' },
  }]);
  for (const [n, words] of [[2, '2 razy'], [12, '12 razy'], [22, '22 razy']]) {
    assert.equal(deliveryLines({ deliveries: times(n) }, { language: 'pl' })[0].params.times, words);
  }
  assert.equal(deliveryLines({ deliveries: times(2) }, { language: 'en' })[0].params.times, '2 times');
  assert.deepEqual(await sentences({ deliveries: [...times(3), voice('2026-11-25T09:32:05Z'), page('2026-11-25T09:33:00Z')] }, 'pl'), [
    'Wysłano na Anna’s phone o 10:32 (3 razy, ostatnio 10:34)',
    'Powiedziane na głos przez centralę o 10:32',
    'Pokazane na Tablet babci o 10:33',
  ]);
});

test('where it was answered and closed from follow the deliveries', async () => {
  const answer = { deliveries: [phone('2026-11-25T09:32:01Z')], respondedFrom: 'Anna’s phone', acknowledgedFrom: 'Tablet babci' };
  assert.deepEqual(deliveryLines(answer).map((line) => [line.kind, line.params.recipient]),
    [['alert-app', 'Anna’s phone'], ['responded', 'Anna’s phone'], ['acknowledged', 'Tablet babci']]);
  assert.deepEqual((await sentences(answer, 'en')).slice(1), ['Answered “I’m on my way” from Anna’s phone', 'Closed from Tablet babci']);
  assert.deepEqual((await sentences(answer, 'pl')).slice(1),
    ['Odpowiedziano „Już jadę” z urządzenia: Anna’s phone', 'Zamknięto z urządzenia: Tablet babci']);
  assert.deepEqual(await sentences({ deliveries: [], acknowledgedFrom: 'Anna’s phone (poll)', respondedFrom: null }, 'en'),
    ['Closed from Anna’s phone'], 'closed from a phone that reached nothing yet: no "nowhere"');
});

test('nothing at all says why, in both languages', async () => {
  const empty = { deliveries: [], acknowledgedFrom: null, respondedFrom: null };
  assert.deepEqual(deliveryLines(empty), [{ kind: 'nowhere', key: 'alerts.deliveries.nowhere', params: {} }]);
  assert.deepEqual(deliveryLines(null).map((line) => line.kind), ['nowhere'], 'an answer the page cannot read');
  assert.deepEqual(await sentences(empty, 'en'), ['Nowhere yet: no phone or page was open, and the hub’s voice is off.']);
  assert.match((await sentences(empty, 'pl'))[0], /^Jeszcze nigdzie: /);
});

test('a channel the page does not know yet is still said, plainly', () => {
  const [line] = deliveryLines({ deliveries: [{ channel: 'pigeon', recipient: 'Loft', at: '2026-11-25T09:32:00Z' }] });
  assert.equal(line.key, 'alerts.deliveries.reached');
  assert.equal(line.kind, 'pigeon');
});

test('a time on the alert’s day is its clock time, on another day the date too', () => {
  assert.equal(deliveryTime('2026-11-25T09:32:00Z', { language: 'en', ...warsaw }), '10:32');
  const late = { timeZone: 'Europe/Warsaw', raisedAt: '2026-11-25T22:58:00Z' };
  assert.equal(deliveryTime('2026-11-25T22:59:00Z', { language: 'pl', ...late }), '23:59');
  assert.match(deliveryTime('2026-11-25T23:01:00Z', { language: 'en', ...late }), /26 Nov 2026, 00:01/);
});

test('texts away from home are a line each saying how far they got, in both languages', async () => {
  const answer = {
    deliveries: [
      page('2026-11-25T09:32:01Z'),
      { channel: 'sms', recipient: 'Anna', at: '2026-11-25T09:32:02Z', state: 'answered', answeredAt: '2026-11-25T09:35:00Z' },
      { channel: 'sms', recipient: 'Piotr', at: '2026-11-25T09:32:02Z', state: 'queued', problem: 'gammu-smsd-inject is not installed' },
      { channel: 'sms', recipient: 'Ela', at: '2026-11-25T09:32:02Z', state: 'sent' },
      { channel: 'contact', recipient: 'Pani Halina', at: '2026-11-25T09:42:02Z', state: 'sent' },
      { channel: 'sms', recipient: 'Jan', at: '2026-11-25T09:47:00Z', state: 'failed', problem: 'not sent: answered at home first' },
      { channel: 'sms', recipient: 'Ola', at: '2026-11-25T09:47:00Z', state: 'failed', problem: 'monthly limit of 100 texts reached' },
      { channel: 'sms', recipient: 'Zofia', at: '2026-11-25T09:47:00Z', state: 'failed', problem: 'no number a modem can dial' },
    ],
    respondedFrom: 'text message',
    acknowledgedFrom: null,
  };
  assert.deepEqual(await sentences(answer, 'en'), [
    'Shown on Tablet babci at 10:32',
    'Texted Anna at 10:32 · Anna replied at 10:35',
    'Texting Piotr: waiting for the modem since 10:32 (gammu-smsd-inject is not installed)',
    'Texted Ela at 10:32',
    'Texted Pani Halina (emergency contact) at 10:42',
    'Not texted to Jan: answered at home first',
    'Not texted to Ola: the household’s texts for this month are used up',
    'Could not text Zofia: no number a modem can dial',
    'Answered “I’m on my way” by a text reply',
  ]);
  const polish = await sentences(answer, 'pl');
  assert.equal(polish[1], 'SMS do: Anna, o 10:32 · odpowiedź od: Anna, o 10:35');
  assert.equal(polish.at(-1), 'Odpowiedziano „Już jadę” SMS-em');
  assert.ok(polish.every((line) => !line.includes('{')), polish.join('\n'));
});

test('a push away from home is said as sent through the Internet', async () => {
  const lines = await sentences({ deliveries: [{ channel: 'push', recipient: 'Anna', at: '2026-11-25T09:32:02Z', state: 'sent' }] }, 'en');
  assert.deepEqual(lines, ['Sent through the Internet to Anna at 10:32']);
});
