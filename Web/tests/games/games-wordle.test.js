import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  alphabet, createWordleGame, keyboardRows, keyboardStates, MAX_TRIES, normalizeWord, pickAnswer,
  rowInWords, scoreGuess, wordleScore,
} from '../../games/wordle.js';
import { createTranslator } from '../../i18n.js';
import { readFileSync } from 'node:fs';

const C = 'correct';
const P = 'present';
const A = 'absent';

test('letters in place are correct, elsewhere present, missing absent', () => {
  assert.deepEqual(scoreGuess('crane', 'crane'), [C, C, C, C, C]);
  assert.deepEqual(scoreGuess('north', 'crane'), [P, A, P, A, A]);
  assert.deepEqual(scoreGuess('bumpy', 'crane'), [A, A, A, A, A]);
});

test('a repeated letter is marked only as often as the answer has it', () => {
  // abide has one e: the first e of speed is present, the second absent.
  assert.deepEqual(scoreGuess('speed', 'abide'), [A, A, P, A, P]);
  // An e in place takes the answer's only e: the other e is absent.
  assert.deepEqual(scoreGuess('geese', 'those'), [A, A, A, C, C]);
  // Two l's in the answer, three in the guess: two marked, the third absent.
  assert.deepEqual(scoreGuess('lolly', 'hello'), [A, P, C, C, A]);
  // The answer's repeated letter guessed once elsewhere is present once.
  assert.deepEqual(scoreGuess('dwarf', 'added'), [P, A, P, A, A]);
  // A copy in place takes the answer's only e before earlier copies can.
  assert.deepEqual(scoreGuess('eerie', 'crane'), [A, A, P, A, C]);
});

test('Polish letters are letters of their own, however they were typed', () => {
  assert.deepEqual(scoreGuess('łóżko', 'łóżko'), [C, C, C, C, C]);
  assert.deepEqual(scoreGuess('lozko', 'łóżko'), [A, A, A, C, C], 'l is not ł, o is not ó, z is not ż');
  // "ó" as o + combining acute is the same letter once normalised.
  assert.deepEqual(scoreGuess('ło\u0301żko', 'łóżko'), [C, C, C, C, C]);
  assert.deepEqual(scoreGuess('ŻABKA', 'żabka'), [C, C, C, C, C]);
  assert.equal(normalizeWord('ŻÓŁW'), 'żółw');
});

test('the same seed deals the same answer; the answer is on the list', () => {
  const answers = ['apple', 'bread', 'chair', 'dance', 'eagle', 'flame', 'grape'];
  assert.equal(pickAnswer(42, answers), pickAnswer(42, answers));
  const dealt = new Set([...Array(50).keys()].map((seed) => pickAnswer(seed, answers)));
  assert.ok(dealt.size > 3, 'different seeds deal different words');
  for (const word of dealt) assert.ok(answers.includes(word));
  assert.throws(() => pickAnswer(1, []));
});

test('fewer tries score more: (7 − tries) × 10, always a positive whole number', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(wordleScore), [60, 50, 40, 30, 20, 10]);
  for (const tries of [0, 7, 100, -3, 2.4, NaN]) {
    const score = wordleScore(tries);
    assert.ok(Number.isInteger(score) && score > 0, `${tries} → ${score}`);
  }
});

test('the keyboard shows each letter’s best mark so far', () => {
  const states = keyboardStates([
    { guess: 'speed', marks: scoreGuess('speed', 'abide') },
    { guess: 'abode', marks: scoreGuess('abode', 'abide') },
  ]);
  assert.equal(states.get('e'), C, 'present first, then in place');
  assert.equal(states.get('d'), C);
  assert.equal(states.get('s'), A);
  assert.equal(states.get('o'), A);
  assert.equal(states.has('z'), false, 'never guessed');
});

test('keyboard rows: QWERTY; Polish adds a row of its own letters', () => {
  const en = keyboardRows('en');
  assert.deepEqual(en.map((row) => row.join('')), ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']);
  assert.equal(alphabet('en').size, 26);
  const pl = keyboardRows('pl');
  assert.equal(pl.length, 4);
  assert.deepEqual(pl[0], [...'ąćęłńóśźż']);
  assert.equal(alphabet('pl').size, 35);
  assert.deepEqual(keyboardRows('de'), en, 'another language gets the English keys');
});

test('a guess the game does not know, or too short, uses nothing up', () => {
  const game = createWordleGame({ answer: 'crane', accepted: new Set(['crane', 'north', 'bumpy']) });
  for (const letter of 'nor') game.type(letter);
  assert.equal(game.submit().outcome, 'short');
  game.type('x');
  game.type('z');
  assert.equal(game.type('q').changed, false, 'five letters at most');
  assert.deepEqual(game.submit(), { outcome: 'unknown', guess: 'norxz' });
  assert.equal(game.triesUsed, 0);
  assert.equal(game.typed, 'norxz', 'the letters stay to be corrected');
  game.erase();
  game.erase();
  game.type('t');
  game.type('h');
  const result = game.submit();
  assert.equal(result.outcome, 'guessed');
  assert.deepEqual(result.row, { guess: 'north', marks: [P, A, P, A, A] });
  assert.equal(game.triesUsed, 1);
  assert.equal(game.typed, '');
});

test('finding the word wins; six misses lose and nothing more is taken', () => {
  const won = createWordleGame({ answer: 'crane', accepted: new Set(['bumpy']) });
  for (const letter of 'bumpy') won.type(letter);
  won.submit();
  for (const letter of 'CRANE') won.type(letter);
  assert.equal(won.submit().outcome, 'won');
  assert.equal(won.triesUsed, 2);
  assert.equal(won.type('a').changed, false);
  assert.equal(won.submit().outcome, 'over');

  const lost = createWordleGame({ answer: 'crane', accepted: new Set(['bumpy']) });
  let last = null;
  for (let i = 0; i < MAX_TRIES; i += 1) {
    for (const letter of 'bumpy') lost.type(letter);
    last = lost.submit();
  }
  assert.equal(last.outcome, 'lost');
  assert.equal(lost.state, 'lost');
  assert.equal(lost.answer, 'crane');
});

test('a row is said in words, in the page’s language', () => {
  const read = (lang) => JSON.parse(readFileSync(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
  const en = createTranslator(read('en'));
  assert.equal(rowInWords('kotek', scoreGuess('kotek', 'kolec'), { t: en, language: 'en' }),
    'K correct, O correct, T not in the word, E correct, K not in the word');
  const pl = createTranslator(read('pl'), read('en'));
  assert.equal(rowInWords('żółwi', [C, P, A, A, A], { t: pl, language: 'pl' }),
    'Ż na miejscu, Ó jest w słowie, Ł nie ma w słowie, W nie ma w słowie, I nie ma w słowie');
});
