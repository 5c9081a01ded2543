import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { amountText } from '../care/words.js';

// The same file HearthAlertsTests' AmountWordsVectorTests reads: the pages
// and the hub's own messages write an amount alike.
const vectors = JSON.parse(readFileSync(new URL('../../Tests/vectors/words/amounts.json', import.meta.url), 'utf8'));

test('the pages write every shared amount as the hub does', () => {
  assert.ok(vectors.cases.length > 30);
  for (const { language, amount, unit, text } of vectors.cases) {
    assert.equal(amountText(language, amount, unit), text, `${language} ${amount} ${JSON.stringify(unit)}`);
  }
});
