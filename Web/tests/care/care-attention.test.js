import { test } from 'node:test';
import assert from 'node:assert/strict';
import { iconWithCount, titleWithCount } from '../../care/attention.js';
import { ringsUntilAnswered } from '../../care/alerts.js';

test('the tab title counts open alerts, and is left alone without any', () => {
  assert.equal(titleWithCount('Today – Hearth', 2), '(2) Today – Hearth');
  assert.equal(titleWithCount('Today – Hearth', 0), 'Today – Hearth');
});

test('the tab icon carries the count on a red badge, 9+ above nine', () => {
  assert.equal(iconWithCount(0), '/favicon.svg');
  const one = decodeURIComponent(iconWithCount(1));
  assert.ok(one.startsWith('data:image/svg+xml,<svg'));
  assert.match(one, />1<\/text>/);
  assert.match(one, /fill="#c00000"/);
  assert.match(decodeURIComponent(iconWithCount(12)), />9\+<\/text>/);
});

test('an SOS calls again and again until someone answers it; nothing else does', () => {
  const ania = { personId: 'ania', role: 'caregiver', caresFor: ['ela'] };
  const ela = { personId: 'ela', role: 'senior' };
  const sos = { id: 's', kind: 'sos', audience: 'caregivers', personId: 'ela', open: true };
  assert.equal(ringsUntilAnswered([sos], ania), true);
  assert.equal(ringsUntilAnswered([{ ...sos, respondedAt: '2026-11-25T20:55:00Z' }], ania), false, 'someone is on the way');
  assert.equal(ringsUntilAnswered([{ ...sos, open: false }], ania), false, 'closed');
  assert.equal(ringsUntilAnswered([sos], ela), false, 'her own call does not ring at her');
  assert.equal(ringsUntilAnswered([{ ...sos, kind: 'dose-missed' }], ania), false);
  assert.equal(ringsUntilAnswered([], ania), false);
});
