// Every module the browser loads imports only files that exist and names
// they export. Most of the pages need a DOM, so Node never loads them; this
// reads them as text instead, so a file moved or a name renamed shows here
// rather than as a blank page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function modules(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'tests' || entry.name === 'node_modules' ? [] : modules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** [{ names: ['h', 'pageHeading'], from: './dom.js' }] for `import { h, pageHeading } from './dom.js'`. */
function importsOf(source) {
  const found = [];
  for (const match of source.matchAll(/^import\s+(?:\{([^}]*)\}\s+from\s+)?'([^']+)'/gm)) {
    const names = (match[1] ?? '').split(',').map((part) => part.trim().split(/\s+as\s+/)[0]).filter(Boolean);
    found.push({ names, from: match[2] });
  }
  return found;
}

/**
 * A page's module loaded when first shown: `import('./pages/x.js').then(({ createX }) => …)`
 * gives [{ names: ['createX'], from: './pages/x.js' }].
 */
function dynamicImportsOf(source) {
  return [...source.matchAll(/\bimport\('([^']+)'\)(?:\.then\(\(\{([^}]*)\}\))?/g)].map((match) => ({
    names: (match[2] ?? '').split(',').map((part) => part.trim().split(/\s*:\s*/)[0]).filter(Boolean),
    from: match[1],
  }));
}

/** Every module `file` loads before it runs (its static imports, and theirs). */
function loadedWith(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const { from } of importsOf(readFileSync(file, 'utf8'))) {
    if (from.startsWith('.')) loadedWith(resolve(dirname(file), from), seen);
  }
  return seen;
}

function exportsOf(source) {
  return new Set([...source.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm)]
    .map((match) => match[1]));
}

test('the page is loaded from app.js, which exists', () => {
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  for (const match of html.matchAll(/<script[^>]*src="\/([^"]+)"/g)) {
    assert.ok(existsSync(join(web, match[1])), `index.html loads /${match[1]}`);
  }
});

test('every import names a file there is and what it exports', () => {
  const files = modules(web);
  assert.ok(files.length > 20);
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    for (const { names, from } of [...importsOf(source), ...dynamicImportsOf(source)]) {
      if (!from.startsWith('.')) continue;
      const target = resolve(dirname(file), from);
      const where = `${relative(web, file)} imports ${from}`;
      assert.ok(existsSync(target), `${where}: no such file`);
      const exported = exportsOf(readFileSync(target, 'utf8'));
      for (const name of names) assert.ok(exported.has(name), `${where}: it has no export ${name}`);
    }
  }
});

test('the reading itself: names, renames and files are found', () => {
  assert.deepEqual(importsOf("import { a, b as c } from './x.js';\nimport './y.js';\n"),
    [{ names: ['a', 'b'], from: './x.js' }, { names: [], from: './y.js' }]);
  assert.deepEqual([...exportsOf('export function f() {}\nexport const K = 1;\nexport async function g() {}\n')], ['f', 'K', 'g']);
  assert.deepEqual(dynamicImportsOf("import('./p.js').then(({ createP }) => createP(app))\nimport('./q.js')"),
    [{ names: ['createP'], from: './p.js' }, { names: [], from: './q.js' }]);
});

test("the app starts with its shell alone: every page's module is loaded when the page is first shown", () => {
  const app = join(web, 'app.js');
  const lazy = dynamicImportsOf(readFileSync(app, 'utf8')).map(({ from }) => resolve(web, from));
  for (const page of ['today/today.js', 'household/household.js', 'notes/notes.js', 'medications/medications.js', 'games/games.js']) {
    assert.ok(lazy.includes(join(web, 'pages', page)), `app.js loads pages/${page} when it is shown`);
  }
  const atStart = loadedWith(app);
  for (const page of lazy) assert.ok(!atStart.has(page), `${relative(web, page)} is loaded with app.js, not when its page is shown`);
  // The SOS dock and the alert banner are there from the first paint, on every page.
  for (const shell of ['pages/today/sos-dock.js', 'care/alert-banner.js']) {
    assert.ok(atStart.has(join(web, shell)), `${shell} is loaded with app.js`);
  }
  assert.ok(atStart.size * 2 < modules(web).length, `the shell is ${atStart.size} of ${modules(web).length} modules`);
});
