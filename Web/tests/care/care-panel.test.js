import test from 'node:test';
import assert from 'node:assert/strict';
import { GADGETS, clockParts, gadgetRoute, nextDoseOf, partOfDay, placeGadget, placesOf, swapPlaces, tilesFrom, unplaced } from '../../care/panel.js';

const tiles = [{ position: 1, gadget: 'clock' }, { position: 3, gadget: 'next-dose' }];

test('the six places show what is in each, and the list says what is not placed', () => {
  assert.deepEqual(placesOf(tiles).map((p) => p.gadget), ['clock', null, 'next-dose', null, null, null]);
  assert.deepEqual(unplaced(tiles), GADGETS.filter((g) => g !== 'clock' && g !== 'next-dose'));
});

test('placing a gadget already on the panel moves it; emptying the last tile is refused', () => {
  assert.deepEqual(placeGadget(tiles, 6, 'clock'), [{ position: 3, gadget: 'next-dose' }, { position: 6, gadget: 'clock' }]);
  assert.deepEqual(placeGadget(tiles, 1, 'memory'), [{ position: 1, gadget: 'memory' }, { position: 3, gadget: 'next-dose' }]);
  assert.deepEqual(placeGadget(tiles, 3, null), [{ position: 1, gadget: 'clock' }]);
  assert.equal(placeGadget([{ position: 2, gadget: 'clock' }], 2, null), null);
});

test('swapping two places moves their tiles, an empty place too', () => {
  assert.deepEqual(swapPlaces(tiles, 1, 3), [{ position: 1, gadget: 'next-dose' }, { position: 3, gadget: 'clock' }]);
  assert.deepEqual(swapPlaces(tiles, 1, 2), [{ position: 2, gadget: 'clock' }, { position: 3, gadget: 'next-dose' }]);
});

test("a hub's answer is read in place order and unknown gadgets are left off", () => {
  assert.deepEqual(tilesFrom({ tiles: [{ position: 4, gadget: 'sudoku' }, { position: 2, gadget: 'telly' }, { position: 1, gadget: 'people' }] }),
    [{ position: 1, gadget: 'people' }, { position: 4, gadget: 'sudoku' }]);
  assert.deepEqual(tilesFrom(null), []);
});

test('each tile that opens a page says which', () => {
  assert.deepEqual(gadgetRoute('wordle'), ['games', 'wordle']);
  assert.deepEqual(gadgetRoute('next-dose'), ['today']);
  assert.equal(gadgetRoute('clock'), null);
});

test('the day clock says the time, the weekday and the part of the day in words', () => {
  // 2026-11-24 was a Tuesday; 07:05 UTC is 08:05 in Warsaw.
  const parts = clockParts(new Date('2026-11-24T07:05:00Z'), { language: 'en', timeZone: 'Europe/Warsaw' });
  assert.deepEqual(parts, { time: '08:05', weekday: 'Tuesday', part: 'morning', date: '24 November' });
  const polish = clockParts(new Date('2026-11-24T19:30:00Z'), { language: 'pl', timeZone: 'Europe/Warsaw' });
  assert.equal(polish.weekday, 'wtorek');
  assert.equal(polish.part, 'evening');
  assert.equal(polish.time, '20:30');
  assert.equal(partOfDay(23), 'night');
  assert.equal(partOfDay(13), 'afternoon');
});

test('the next dose is one whose time has come before one still to come', () => {
  const doses = [
    { key: 'a', status: 'taken', dueAt: '2026-11-24T07:00:00Z' },
    { key: 'b', status: 'upcoming', dueAt: '2026-11-24T18:00:00Z' },
    { key: 'c', status: 'due', dueAt: '2026-11-24T12:00:00Z' },
  ];
  assert.equal(nextDoseOf(doses).key, 'c');
  assert.equal(nextDoseOf(doses.filter((d) => d.key !== 'c')).key, 'b');
  assert.equal(nextDoseOf([{ status: 'taken' }]), null);
});
