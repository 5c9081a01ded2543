// Every colour pair Hearth puts text in, read from tokens.css in both themes:
// text on every background at least 7:1 (AAA, as a senior's tablet shows
// the same colours), the coloured words (links, success, warning, danger) at
// least 7:1 on the page and on a card, borders and focus rings at least 3:1.
// And style.css uses the tokens only: no colour of its own that could miss
// a theme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const tokens = readFileSync(new URL('../tokens.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const style = readFileSync(new URL('../style.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** The custom properties of the first block that `opening` starts. */
function block(opening) {
  const start = tokens.indexOf(opening);
  assert.ok(start >= 0, `tokens.css has ${opening}`);
  const body = tokens.slice(tokens.indexOf('{', start + opening.length - 1) + 1);
  const properties = {};
  for (const match of body.slice(0, body.indexOf('}')).matchAll(/--([a-z0-9-]+):\s*([^;]+);/g)) properties[match[1]] = match[2].trim();
  return properties;
}

const light = block(':root {');
const dark = { ...light, ...block(':root[data-theme="dark"] {') };
const systemDark = { ...light, ...block(':root:not([data-theme="light"]) {') };

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a, b) {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

const BACKGROUNDS = ['bg', 'surface', 'hover', 'primary-soft', 'taken-bg', 'skipped-bg', 'missed-bg', 'problem-bg'];
const PAIRS = [
  ...BACKGROUNDS.flatMap((background) => [['text', background, 7], ['muted', background, 7]]),
  ...['link', 'primary', 'ok', 'waiting', 'danger'].flatMap((colour) => [[colour, 'bg', 7], [colour, 'surface', 7]]),
  ['on-primary', 'primary', 7],
  ['on-danger', 'danger', 7],
  ['border', 'bg', 3], ['border', 'surface', 3],
  ['focus', 'bg', 3], ['focus', 'surface', 3],
];

for (const [name, theme] of [['light', light], ['dark', dark]]) {
  test(`every text colour pair meets its contrast in the ${name} theme`, () => {
    const failing = [];
    for (const [foreground, background, least] of PAIRS) {
      const [fg, bg] = [theme[foreground], theme[background]];
      assert.match(fg ?? '', /^#[0-9a-f]{6}$/, `--${foreground} is a colour in the ${name} theme`);
      assert.match(bg ?? '', /^#[0-9a-f]{6}$/, `--${background} is a colour in the ${name} theme`);
      const ratio = contrast(fg, bg);
      if (ratio < least) failing.push(`--${foreground} on --${background}: ${ratio.toFixed(2)}:1, needs ${least}:1`);
    }
    assert.deepEqual(failing, []);
  });
}

// The Memory game's pictures: graphics, so 3:1 on a card; the dark theme
// draws each 45% of its hue in white (style.css).
const PICTURES = Object.keys(light).filter((name) => name.startsWith('picture-'));
const lighter = (hex) => `#${[1, 3, 5].map((i) => Math.round(parseInt(hex.slice(i, i + 2), 16) * 0.45 + 255 * 0.55)
  .toString(16).padStart(2, '0')).join('')}`;

test('each Memory picture stands out from its card in both themes', () => {
  assert.ok(PICTURES.length >= 14, 'a colour for every picture');
  for (const name of PICTURES) {
    assert.ok(contrast(light[name], light.surface) >= 3, `--${name} on a light card`);
    assert.ok(contrast(lighter(light[name]), dark.surface) >= 3, `--${name} on a dark card`);
  }
});

test('the system\'s dark and a dark chosen in Settings are the same palette', () => {
  assert.deepEqual(systemDark, dark);
});

test('the contrast formula gives the known ratios', () => {
  assert.equal(contrast('#000000', '#ffffff').toFixed(1), '21.0');
  assert.equal(contrast('#767676', '#ffffff').toFixed(2), '4.54');
});

test('style.css names no colour of its own: every colour comes from a token', () => {
  // Paper's black and white (the printed history) are the only exceptions.
  const found = [...style.matchAll(/#[0-9a-fA-F]{3,8}\b/g)].map((match) => match[0])
    .filter((colour) => !['#fff', '#000'].includes(colour));
  assert.deepEqual(found, []);
});
