import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickVoice, readAloud, speechLanguage } from '../../notes/read-aloud.js';

const voices = [
  { name: 'US', lang: 'en-US', localService: true },
  { name: 'GB remote', lang: 'en-GB', localService: false },
  { name: 'GB', lang: 'en-GB', localService: true },
  { name: 'Zosia', lang: 'pl_PL', localService: false },
];

test('Polish is read with a Polish voice and English with a British one', () => {
  assert.equal(speechLanguage('pl'), 'pl-PL');
  assert.equal(speechLanguage('en'), 'en-GB');
  assert.equal(pickVoice(voices, 'pl').name, 'Zosia');
  assert.equal(pickVoice(voices, 'en').name, 'GB');
  assert.equal(pickVoice(voices.filter((v) => v.lang !== 'en-GB'), 'en').name, 'US');
  assert.equal(pickVoice([{ lang: 'de-DE' }], 'pl'), null);
});

test('reading aloud cancels what was being read and speaks in the page\'s language', () => {
  const calls = [];
  const speech = { cancel: () => calls.push('cancel'), speak: (u) => calls.push(u), getVoices: () => voices };
  class Utterance { constructor(text) { this.text = text; } }
  assert.equal(readAloud('Dzień dobry', 'pl', { speech, Utterance }), true);
  assert.equal(calls[0], 'cancel');
  assert.equal(calls[1].text, 'Dzień dobry');
  assert.equal(calls[1].lang, 'pl-PL');
  assert.equal(calls[1].voice.name, 'Zosia');
  assert.equal(readAloud('x', 'en', { speech: undefined, Utterance }), false);
});

test('a language with no voice of its own is said to have none, not read in another', async () => {
  const { voiceState } = await import('../../notes/read-aloud.js');
  class Utterance {}
  const speech = (list) => ({ getVoices: () => list });
  assert.equal(voiceState('pl', speech(voices), Utterance), 'yes');
  assert.equal(voiceState('pl', speech([{ lang: 'en-GB' }]), Utterance), 'no-voice');
  assert.equal(voiceState('en', speech([]), Utterance), 'no-voice');
  assert.equal(voiceState('en', undefined, Utterance), 'no');
});

test('a slower speaking rate is passed to the voice', () => {
  const spoken = [];
  const speech = { cancel() {}, speak: (u) => spoken.push(u), getVoices: () => voices };
  class Utterance { constructor(text) { this.text = text; } }
  readAloud('Metformin', 'en', { speech, Utterance, rate: 0.8 });
  assert.equal(spoken[0].rate, 0.8);
});
