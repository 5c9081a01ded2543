import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aliasOf, caredForSeniors, createMe, shownName } from '../../care/me.js';

const zosia = { id: 'p-zosia', name: 'Babcia Zosia', role: 'senior', caresFor: [], alias: 'Mama' };
const edek = { id: 'p-edek', name: 'Edek', role: 'senior', caresFor: [] };
const ania = { id: 'p-ania', name: 'Ania', role: 'caregiver', caresFor: ['p-zosia', 'p-edek'] };

/** app.me for Ania's phone, the hub answering from `answers` by path. */
function meFor(personId, answers) {
  const app = { t: (key) => key };
  const fetchImpl = async (url) => ({ ok: true, status: 200, json: async () => answers[url.replace('/api/v1', '')] });
  const original = globalThis.fetch;
  globalThis.fetch = fetchImpl;
  app.me = createMe(app);
  const restore = () => { globalThis.fetch = original; };
  return { app, restore };
}

const answers = {
  '/devices': [{ id: 'd1', personId: 'p-ania', current: true }],
  '/people': [zosia, edek, ania],
  '/household': { timeZone: 'Europe/Warsaw' },
  '/today': { people: [{ personId: 'p-zosia', name: 'Babcia Zosia' }, { personId: 'p-edek', name: 'Edek' }] },
};

test('a caller\'s own name for a senior is hers to see; blank or missing is none', () => {
  assert.equal(aliasOf(zosia), 'Mama');
  assert.equal(aliasOf({ ...zosia, alias: '  Mama ' }), 'Mama');
  assert.equal(aliasOf({ ...zosia, alias: null }), null);
  assert.equal(aliasOf({ ...zosia, alias: '   ' }), null);
  assert.equal(aliasOf(edek), null);
  assert.equal(aliasOf(undefined), null);
  assert.equal(shownName(zosia), 'Mama');
  assert.equal(shownName(edek), 'Edek');
  assert.equal(shownName(null), null);
});

test('nameOf says the alias when there is one, realNameOf always the household\'s name', async () => {
  const { app, restore } = meFor('p-ania', answers);
  try {
    const me = await app.me.load();
    assert.deepEqual(me.looksAfter, ['p-zosia', 'p-edek']);
    assert.equal(me.caresFor, undefined, 'isForMe keeps trusting the hub, as before');
    assert.equal(app.me.nameOf('p-zosia'), 'Mama');
    assert.equal(app.me.realNameOf('p-zosia'), 'Babcia Zosia');
    assert.equal(app.me.aliasOf('p-zosia'), 'Mama');
    assert.equal(app.me.nameOf('p-edek'), 'Edek');
    assert.equal(app.me.aliasOf('p-edek'), null);
    assert.equal(app.me.nameOf('p-nobody'), null);
    assert.equal(app.me.realNameOf('p-nobody'), null);
    assert.deepEqual(await caredForSeniors(app), [
      { personId: 'p-zosia', name: 'Mama', realName: 'Babcia Zosia' },
      { personId: 'p-edek', name: 'Edek', realName: 'Edek' },
    ]);
  } finally {
    restore();
  }
});

test('a senior sees her own name: nobody\'s alias reaches her', async () => {
  const { app, restore } = meFor('p-zosia', {
    ...answers,
    '/devices': [{ id: 'd2', personId: 'p-zosia', current: true }],
    '/people': [{ ...zosia, alias: undefined }, ania],
  });
  try {
    await app.me.load();
    assert.equal(app.me.nameOf('p-zosia'), 'Babcia Zosia');
    assert.deepEqual(await caredForSeniors(app), [{ personId: 'p-zosia', name: 'Babcia Zosia', realName: 'Babcia Zosia' }]);
  } finally {
    restore();
  }
});
