import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createTranslator } from '../i18n.js';
import { spokenAlert, spokenAmount } from '../care/spoken.js';

// The same file HearthAlertsTests' SpokenVectorTests reads: what Listen
// says on a page and what the hub says aloud in the room agree on every
// amount, and each says its own sentence for every alert.
const vectors = JSON.parse(readFileSync(new URL('../../Tests/vectors/words/spoken.json', import.meta.url), 'utf8'));
const dictionary = (language) => JSON.parse(readFileSync(new URL(`../i18n/${language}.json`, import.meta.url), 'utf8'));
const english = dictionary('en');
const t = { en: createTranslator(english), pl: createTranslator(dictionary('pl'), english) };

test('Listen says every shared amount as the hub does', () => {
  assert.ok(vectors.amounts.length > 40);
  for (const { language, amount, unit, spoken } of vectors.amounts) {
    assert.equal(spokenAmount(language, amount, unit), spoken, `${language} ${amount} ${JSON.stringify(unit)}`);
  }
});

/** The case as GET /alerts gives it, about the senior "p-her". */
function alertOf(c) {
  const dose = c.medication === undefined ? {} : { medicationName: c.medication, amount: c.amount, unit: c.unit, plannedTime: c.time };
  return {
    id: 'a1', kind: c.kind, audience: c.kind === 'dose-due' ? 'senior' : 'caregivers', personId: 'p-her', open: !c.cancelled,
    raisedAt: '2026-11-25T08:05:00Z', respondedAt: c.helper ? '2026-11-25T08:06:00Z' : null,
    acknowledgedAt: c.cancelled ? '2026-11-25T08:06:00Z' : null, acknowledgedBy: c.cancelled ? 'p-her' : null,
    details: { personName: c.person, ...dose, ...(c.helper ? { respondedByName: c.helper } : {}) },
  };
}

test('Listen says each shared alert to the senior and to a caregiver', () => {
  const her = { personId: 'p-her', role: 'senior' };
  const caregiver = { personId: 'p-anna', role: 'caregiver' };
  let said = 0;
  for (const c of vectors.sentences) {
    const helpers = { time: () => c.time };
    const name = `${c.language} ${c.kind}${c.helper ? ' answered' : ''}${c.cancelled ? ' cancelled' : ''}`;
    if (c.pageToHer !== undefined) {
      assert.equal(spokenAlert(t[c.language], c.language, alertOf(c), her, helpers), c.pageToHer, name);
      said += 1;
    }
    if (c.pageToCaregiver !== undefined) {
      assert.equal(spokenAlert(t[c.language], c.language, alertOf(c), caregiver, helpers), c.pageToCaregiver, name);
      said += 1;
    }
    // The amount in the page's sentence is the one the hub says.
    if (c.amount !== undefined && c.kind === 'dose-due') {
      const amount = spokenAmount(c.language, c.amount, c.unit);
      assert.ok(c.hub.includes(amount) && c.pageToHer.includes(amount), name);
    }
  }
  assert.ok(said >= 20);
});
