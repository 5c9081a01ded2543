// The interface draws pictures from Web/icons only: no emoji (an empty box on
// a tablet without an emoji font, a different look on each device), and no
// icon asked for that icons.js lacks. Web/tests is left out of the emoji
// check: its emoji are text the notes' CRDT must carry, not interface.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ICONS } from '../icons/icons.js';

const web = fileURLToPath(new URL('..', import.meta.url));
const TEXT_FILES = /\.(js|css|html|json|svg|yaml|txt)$/;

function interfaceFiles(folder = web) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'tests' ? [] : interfaceFiles(path);
    return TEXT_FILES.test(entry.name) ? [path] : [];
  });
}

// Emoji_Presentation: drawn as an emoji by default; U+FE0F asks for the emoji
// form of a character that would otherwise be text (✏ → ✏️).
const EMOJI = /\p{Emoji_Presentation}|\uFE0F/u;

test('no emoji anywhere in the interface', () => {
  const found = [];
  for (const file of interfaceFiles()) {
    readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
      const match = line.match(EMOJI);
      if (match) found.push(`${relative(web, file)}:${index + 1}: ${JSON.stringify(match[0])}`);
    });
  }
  assert.deepEqual(found, []);
});

test('the check finds an emoji, and a tick or a bullet is not one', () => {
  for (const emoji of ['💊', '🔊', '☕', '⭐', '✏️']) assert.match(emoji, EMOJI);
  for (const text of ['✓', '✗', '●', '–', 'Zażółć']) assert.doesNotMatch(text, EMOJI);
});

test('every icon the code draws is in icons.js', () => {
  const asked = new Set();
  for (const file of interfaceFiles().filter((path) => path.endsWith('.js'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bicon\('([a-z0-9-]+)'/g)) asked.add(match[1]);
    // Maps of icon names (a gadget's, a page's, an alert's): their values.
    for (const map of readFileSync(file, 'utf8').matchAll(/_ICONS = Object\.freeze\(\{([^}]*)\}/g)) {
      for (const name of map[1].matchAll(/:\s*'([a-z0-9-]+)'/g)) asked.add(name[1]);
    }
    for (const match of readFileSync(file, 'utf8').matchAll(/\bicon: '([a-z0-9-]+)'/g)) asked.add(match[1]);
  }
  const missing = [...asked].filter((name) => !Object.hasOwn(ICONS, name));
  assert.deepEqual(missing, []);
  assert.ok(asked.size >= 20, `the scan found the icons drawn (${asked.size})`);
});

test('icons.js is what Web/icons/names.txt and bootstrap-icons make', () => {
  // Fails, saying so, when make icons was not run after names.txt changed,
  // or when the bootstrap-icons package (make test-deps) is missing.
  execFileSync('python3', [join(web, '..', 'Tools', 'icons.py'), '--check'], { stdio: 'pipe' });
});
