import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockCountdown, secondsLeft, spokenCountdown, worthAnnouncing } from '../../household/countdown.js';
import { qrDrawing, spelledCode } from '../../household/qr-drawing.js';

const now = Date.parse('2026-11-22T12:00:00.000Z');

test('the countdown shows minutes and seconds left, rounded up, never below zero', () => {
  assert.equal(secondsLeft('2026-11-22T12:10:00.000Z', now), 600);
  assert.equal(secondsLeft('2026-11-22T12:00:00.400Z', now), 1, 'a part of a second still counts');
  assert.equal(secondsLeft('2026-11-22T11:59:00.000Z', now), 0);
  assert.equal(secondsLeft('not a date', now), 0);
  assert.deepEqual([600, 545, 59, 5, 0, 3725].map(clockCountdown), ['10:00', '9:05', '0:59', '0:05', '0:00', '1:02:05']);
});

test('the time left in words, with the right Polish forms', () => {
  assert.equal(spokenCountdown('en', 300), '5 minutes');
  assert.equal(spokenCountdown('en', 60), '1 minute');
  assert.equal(spokenCountdown('en', 61), '2 minutes', 'whole minutes rounded up');
  assert.equal(spokenCountdown('en', 30), '30 seconds');
  assert.equal(spokenCountdown('pl', 300), '5 minut');
  assert.equal(spokenCountdown('pl', 180), '3 minuty');
  assert.equal(spokenCountdown('pl', 60), '1 minuta');
  assert.equal(spokenCountdown('pl', 22), '22 sekundy');
  assert.equal(spokenCountdown('pl', 1), '1 sekunda');
});

test('screen readers hear the time left at five minutes and at one, not every second', () => {
  const heard = [];
  for (let left = 600; left > 0; left -= 1) if (worthAnnouncing(left, left - 1)) heard.push(left - 1);
  assert.deepEqual(heard, [300, 60]);
  assert.equal(worthAnnouncing(300, 300), false, 'a redraw says nothing');
  assert.equal(worthAnnouncing(200, 400), false, 'nor does time going back');
  assert.equal(worthAnnouncing(305, 290), true, 'a missed tick still says it');
});

// The same drawing as the hub's SVGQR.render, for a 1×2 run and one module.
const hubSVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29" width="232" height="232" role="img" '
  + 'shape-rendering="crispEdges"><title>Pairing code for Ania &amp; Ola</title><rect width="29" height="29" fill="#fff"/>'
  + '<path fill="#000" d="M4 4h2v1h-2zM10 4h1v1h-1z"/></svg>\n';

test('the hub’s QR code is read back as its size and the dark modules, nothing else', () => {
  assert.deepEqual(qrDrawing(hubSVG), { size: 29, path: 'M4 4h2v1h-2zM10 4h1v1h-1z' });
});

test('anything that is not such a drawing is refused, so no markup from elsewhere reaches the page', () => {
  assert.equal(qrDrawing(''), null);
  assert.equal(qrDrawing(null), null);
  assert.equal(qrDrawing(hubSVG.replace('viewBox="0 0 29 29"', 'viewBox="0 0 29 30"')), null, 'not square');
  // Whatever else the text holds, only a size and a path of numbers and move/line letters come out.
  const withHandler = qrDrawing(hubSVG.replace('<path fill', '<path onload="alert(1)" fill'));
  assert.deepEqual(withHandler, { size: 29, path: 'M4 4h2v1h-2zM10 4h1v1h-1z' });
  assert.equal(qrDrawing(hubSVG.replace('h-2z', 'h-2z url(javascript:x)')), null);
  assert.equal(qrDrawing(hubSVG.replace('</svg>', '<path d="M0 0h1v1h-1z"/></svg>')), null, 'one path only');
});

test('the typed code is spelled out a character at a time for screen readers', () => {
  assert.equal(spelledCode('7K3M-Q9TX'), '7 K 3 M, Q 9 T X');
});
