// api-paths.js is the one place the web knows the hub's API paths. Every
// path it makes must be one openapi.yaml documents, with only the query
// names documented there, and every id and value encoded; and no other
// file may write an API path as a literal, so a new one fails here rather
// than as a 404 in the browser. There is no YAML library: the `paths:`
// keys and their parameters are read with small regular expressions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { API_BASE, paths } from '../api-paths.js';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const yaml = readFileSync(join(web, 'openapi.yaml'), 'utf8');

/** The `paths:` section of the description: its keys each start a block at two spaces. */
function pathBlocks(text) {
  const section = text.slice(text.search(/^paths:$/m), text.search(/^components:$/m));
  return [...section.matchAll(/^ {2}(\/\S*):[ \t]*\n((?:(?! {2}\/)(?:[ \t]*\n| {3,}.*\n))*)/gm)]
    .map(([, template, block]) => ({ template, block }));
}

/** The shared parameters under components: { PersonIdQuery: { name: 'personId', in: 'query' } }. */
function sharedParameters(text) {
  const components = text.slice(text.search(/^components:$/m));
  const start = components.search(/^ {2}parameters:$/m);
  const end = components.slice(start + 1).search(/^ {2}\S/m);
  const section = components.slice(start, end < 0 ? undefined : start + 1 + end);
  return Object.fromEntries([...section.matchAll(/^ {4}(\w+):\n {6}name: (\S+)\n {6}in: (\w+)$/gm)]
    .map(([, key, name, where]) => [key, { name, in: where }]));
}

/** The query names a path's block documents, its own and those it refers to. */
function queryNames(block, shared) {
  const own = [...block.matchAll(/- name: (\S+)\n\s+in: query\b/g)].map((match) => match[1]);
  const referred = [...block.matchAll(/\$ref: '#\/components\/parameters\/(\w+)'/g)]
    .map((match) => shared[match[1]])
    .filter((parameter) => parameter?.in === 'query')
    .map((parameter) => parameter.name);
  return new Set([...own, ...referred]);
}

/** `/api/v1/people/{id}/away` as a pattern a whole path must match: each `{…}` one segment. */
function templatePattern(template) {
  const parts = template.split(/\{[^/}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

const shared = sharedParameters(yaml);
const documented = pathBlocks(yaml).map(({ template, block }) => ({
  template, pattern: templatePattern(template), query: queryNames(block, shared),
}));

/** The documented path `path` (under API_BASE, no query) is, the most literal one when several match; or null. */
function documentedPath(path) {
  const matching = documented.filter(({ pattern }) => pattern.test(`${API_BASE}${path}`));
  const placeholders = ({ template }) => (template.match(/\{/g) ?? []).length;
  return matching.sort((a, b) => placeholders(a) - placeholders(b))[0] ?? null;
}

/** A query string read as the hub reads it: split at & and =, each value percent-decoded (+ stays a plus). */
function hubQuery(text) {
  if (text === undefined) return {};
  return Object.fromEntries(text.split('&').map((pair) => {
    const at = pair.indexOf('=');
    return [pair.slice(0, at), decodeURIComponent(pair.slice(at + 1))];
  }));
}

// An id with what a path must never carry raw: a slash, a space, ? # and %.
const ODD = 'a/b c?#%';
const ODD_TOO = 'x y/z';

// Every function of the module, called as the pages call it, and with the
// awkward id. A function added without samples here fails the first test.
const samples = {
  health: [[]],
  household: [[]],
  householdAudit: [[], [{ limit: 50 }]],
  reminders: [[]],
  awayDelays: [[]],
  emergencyContacts: [[]],
  pairing: [[]],
  invitations: [[]],
  invitation: [['i-1'], [ODD]],
  devices: [[]],
  device: [['d-1'], [ODD]],
  deviceApproval: [['d-1'], [ODD]],
  people: [[], [{ archived: true }], [{ archived: false }]],
  person: [['p-zosia'], [ODD]],
  personArchive: [['p-zosia'], [ODD]],
  personRestore: [['p-zosia'], [ODD]],
  careLink: [['p-zosia', 'p-ania'], [ODD, ODD_TOO]],
  personPanel: [['p-zosia'], [ODD]],
  personDisplay: [['p-zosia'], [ODD]],
  personAway: [['p-zosia'], [ODD]],
  personScores: [['p-zosia'], [ODD]],
  gameScores: [['sudoku'], [ODD]],
  alertApps: [[]],
  alertApp: [['app-1'], [ODD]],
  alertAppTest: [[]],
  notes: [[], [{ trash: true }], [{ q: 'pills & tea' }], [{ q: ODD }]],
  note: [['n-1'], [ODD]],
  noteRestore: [['n-1'], [ODD]],
  noteEditing: [['n-1'], [ODD]],
  medications: [[], [{ inactive: true }], [{ inactive: false }], [{ personId: 'p-zosia', inactive: true }], [{ personId: ODD }]],
  medication: [['m-1'], [ODD]],
  medicationRefill: [['m-1'], [ODD]],
  medicationSchedules: [['m-1'], [ODD]],
  medicationSchedule: [['m-1', 's-1'], [ODD, ODD_TOO]],
  today: [[]],
  takeAll: [[]],
  doses: [[], [{ personId: 'p-zosia', from: '2026-11-01', to: '2026-11-30' }], [{ personId: ODD }]],
  dose: [['d-08:00'], [ODD]],
  alerts: [[], [{ open: true, limit: 200 }], [{ limit: 50, kind: 'sos', open: false, before: '2026-11-24T08:00:00+01:00' }]],
  alert: [['a-1'], [ODD]],
  alertDeliveries: [['a-1'], [ODD]],
  alertAck: [['a-1'], [ODD]],
  alertRespond: [['a-1'], [ODD]],
  sos: [[]],
  live: [[], [{ since: 0 }], [{ since: 42 }]],
};

/** The query a call should send: each given value as text, true as 1; nothing for undefined, null, false or ''. */
function expectedQuery(options = {}) {
  return Object.fromEntries(Object.entries(options)
    .filter(([, value]) => value !== undefined && value !== null && value !== false && value !== '')
    .map(([name, value]) => [name, value === true ? '1' : String(value)]));
}

test('the description\'s paths are read: keys, their templates and their query names', () => {
  assert.ok(documented.length > 40, `only ${documented.length} paths read from openapi.yaml`);
  assert.ok(documented.some(({ template }) => template === '/api/v1/people/{id}/caregivers/{caregiverId}'));
  assert.deepEqual([...documentedPath('/alerts').query].sort(), ['before', 'kind', 'limit', 'open', 'personId']);
  assert.deepEqual([...documentedPath('/live').query], ['since']);
  assert.equal(documentedPath('/alert-apps/test').template, '/api/v1/alert-apps/test');
  assert.equal(documentedPath('/people/p1/nowhere'), null);
  assert.equal(documentedPath('/people/a/b/away'), null);
});

test('every function of the module is called below, and the module cannot be changed', () => {
  assert.ok(Object.isFrozen(paths));
  assert.deepEqual(Object.keys(paths).sort(), Object.keys(samples).sort());
  for (const [name, make] of Object.entries(paths)) assert.equal(typeof make, 'function', name);
  assert.equal(API_BASE, '/api/v1');
});

test('every path is one the hub documents, with only the query names it documents', () => {
  for (const [name, calls] of Object.entries(samples)) {
    for (const args of calls) {
      const made = paths[name](...args);
      const where = `paths.${name}(${args.map((arg) => JSON.stringify(arg)).join(', ')}) = ${made}`;
      assert.equal(typeof made, 'string', where);
      const [path, query, extra] = made.split('?');
      assert.equal(extra, undefined, `${where}: more than one ?`);
      const found = documentedPath(path);
      assert.ok(found, `${where}: no such path in openapi.yaml`);
      for (const queryName of Object.keys(hubQuery(query))) {
        assert.ok(found.query.has(queryName), `${where}: ${found.template} documents no query ${queryName}`);
      }
    }
  }
});

test('every id is encoded into its own segment, every query value as the hub decodes it', () => {
  for (const [name, calls] of Object.entries(samples)) {
    for (const args of calls) {
      const made = paths[name](...args);
      const where = `paths.${name}(${args.map((arg) => JSON.stringify(arg)).join(', ')}) = ${made}`;
      const [path, query] = made.split('?');
      assert.ok(!/[\s#%?]/.test(path.replace(/%[0-9A-F]{2}/g, '')), `${where}: a raw space, #, % or ? in the path`);
      const ids = args.filter((arg) => typeof arg === 'string');
      for (const id of ids) assert.ok(path.split('/').includes(encodeURIComponent(id)), `${where}: ${id} is not one encoded segment`);
      const found = documentedPath(path);
      if (found) assert.equal(path.split('/').length, found.template.split('/').length - API_BASE.split('/').length + 1, where);
      const options = args.find((arg) => typeof arg === 'object') ?? {};
      assert.ok(query === undefined || !/[ +]/.test(query), `${where}: a space must go as %20 (the hub reads + as a plus)`);
      assert.deepEqual(hubQuery(query), expectedQuery(options), where);
    }
  }
  assert.equal(paths.careLink(ODD, ODD_TOO), '/people/a%2Fb%20c%3F%23%25/caregivers/x%20y%2Fz');
});

test('the paths the pages asked for before the module are asked for still', () => {
  assert.equal(paths.careLink('p-zosia', 'p-ania'), '/people/p-zosia/caregivers/p-ania');
  assert.equal(paths.notes(), '/notes');
  assert.equal(paths.notes({ trash: true }), '/notes?trash=1');
  assert.equal(paths.notes({ q: 'pills and tea' }), `/notes?q=${encodeURIComponent('pills and tea')}`);
  assert.equal(paths.people({ archived: true }), '/people?archived=1');
  assert.equal(paths.medications({ inactive: true }), '/medications?inactive=1');
  assert.equal(paths.medications({ inactive: false }), '/medications');
  assert.equal(paths.medications({ personId: 'p-zosia', inactive: true }), '/medications?personId=p-zosia&inactive=1');
  assert.equal(paths.doses({ personId: 'p-zosia', from: '2026-11-01', to: '2026-11-30' }),
    '/doses?personId=p-zosia&from=2026-11-01&to=2026-11-30');
  assert.equal(paths.householdAudit({ limit: 50 }), '/household/audit?limit=50');
  assert.equal(paths.alerts({ limit: 50 }), '/alerts?limit=50');
  assert.equal(paths.alerts({ limit: 50, kind: 'sos', open: true, before: '2026-11-24T08:00:00Z' }),
    '/alerts?limit=50&kind=sos&open=1&before=2026-11-24T08%3A00%3A00Z');
  assert.equal(paths.dose('d-08:00'), '/doses/d-08%3A00');
  assert.equal(paths.live(), '/live');
  assert.equal(paths.live({ since: 0 }), '/live?since=0');
  assert.equal(paths.takeAll(), '/today/take-all');
});

// ---- No API path written anywhere else ----

/** The API's first segments after API_BASE, from the description: people, notes, alert-apps, … */
const segments = [...new Set(documented
  .filter(({ template }) => template.startsWith(`${API_BASE}/`))
  .map(({ template }) => template.slice(API_BASE.length + 1).split('/')[0]))];

// Literals that start like an API path but are not one: the word game's
// lists are files the hub serves from Web/games/words/.
const NOT_THE_API = ['/games/words/'];

function sources(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'tests' || entry.name === 'node_modules' ? [] : sources(path);
    return /\.(js|html)$/.test(entry.name) ? [path] : [];
  });
}

/** Where `source` writes an API path itself: a string literal opening with an API segment, or API_BASE outside a comment. */
function literalPaths(source) {
  const escaped = segments.map((segment) => segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const opening = new RegExp(`['"\`](/(?:${escaped.join('|')})(?![\\w.-])[^'"\`\\s]*)`, 'g');
  const found = [];
  source.split('\n').forEach((line, index) => {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
    for (const match of line.matchAll(opening)) {
      if (!NOT_THE_API.some((allowed) => match[1].startsWith(allowed))) found.push(`${index + 1}: ${match[1]}`);
    }
    if (code.includes(API_BASE)) found.push(`${index + 1}: ${API_BASE}`);
  });
  return found;
}

test('the API\'s first segments are read from the description', () => {
  for (const segment of ['people', 'notes', 'alert-apps', 'medications', 'doses', 'live', 'games']) {
    assert.ok(segments.includes(segment), segment);
  }
  for (const allowed of NOT_THE_API) assert.ok(existsSync(join(web, allowed)), `${allowed} is not a folder of Web/ any more`);
});

test('the reading itself: literal paths are found, comments and other paths are not', () => {
  assert.deepEqual(literalPaths("getJSON('/notes', { t });"), ['1: /notes']);
  assert.deepEqual(literalPaths('x = `/people/${id}/away`;\ny = "/alert-apps?x=1";'), ['1: /people/${id}/away', '2: /alert-apps?x=1']);
  assert.deepEqual(literalPaths('fetch(`${scheme}//${host}/api/v1/live`);'), ['1: /api/v1']);
  assert.deepEqual(literalPaths("// GET /notes and /api/v1/notes\n * '/people'\nconst p = '/pair';\nh('a', { href: '#/notes' });"), []);
  assert.deepEqual(literalPaths("fetch(`/games/words/${language}.json`);\nsendJSON('POST', `/games/${game}/scores`);"), ['2: /games/${game}/scores']);
});

test('no file but api-paths.js writes a path of the hub\'s API', () => {
  const files = sources(web).filter((file) => file !== join(web, 'api-paths.js'));
  assert.ok(files.length > 20);
  const written = files.flatMap((file) => literalPaths(readFileSync(file, 'utf8')).map((line) => `${relative(web, file)}:${line}`));
  assert.deepEqual(written, [], 'use paths from api-paths.js instead');
});
