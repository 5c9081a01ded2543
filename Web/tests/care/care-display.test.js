import test from 'node:test';
import assert from 'node:assert/strict';
import { displayFrom, firstStep, isMyDisplayChange } from '../../care/display.js';

const hub = { personId: 'b', textSize: 'large', theme: 'system', language: 'pl', speechRate: 'slow' };

test('settings someone chose on the hub win over what this browser had', () => {
  const step = firstStep({ ...hub, chosen: true }, { hadChoices: true, choices: { textSize: 'normal' } });
  assert.deepEqual(step, { use: { textSize: 'large', theme: 'system', language: 'pl', speechRate: 'slow' }, send: null });
});

test("a browser's own earlier choices are sent up once, when nobody chose on the hub yet", () => {
  const step = firstStep({ ...hub, chosen: false }, { hadChoices: true, choices: { textSize: 'x-large', theme: 'dark' } });
  assert.deepEqual(step.send, { textSize: 'x-large', theme: 'dark', language: 'pl', speechRate: 'slow' });
  assert.deepEqual(step.use, step.send);
});

test("with no choices anywhere the hub's standard settings for the role are used and nothing is sent", () => {
  const step = firstStep({ ...hub, chosen: false }, { hadChoices: false, choices: {} });
  assert.equal(step.send, null);
  assert.equal(step.use.textSize, 'large');
});

test('settings outside their lists are not applied', () => {
  assert.equal(displayFrom({ ...hub, textSize: 'huge' }), null);
  assert.equal(displayFrom({ ...hub, speechRate: 'warp' }), null);
  assert.equal(displayFrom(null), null);
});

test("only this person's display change is followed", () => {
  assert.equal(isMyDisplayChange({ entity: 'displaySettings', payload: { personId: 'b' } }, 'b'), true);
  assert.equal(isMyDisplayChange({ entity: 'displaySettings', payload: { personId: 'a' } }, 'b'), false);
  assert.equal(isMyDisplayChange({ entity: 'panel', payload: { personId: 'b' } }, 'b'), false);
  assert.equal(isMyDisplayChange({ entity: 'displaySettings', payload: { personId: 'b' } }, null), false);
});
