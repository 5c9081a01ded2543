// The word game's rules, with no page in sight: which word is dealt, how a
// guess is marked, what the on-screen keyboard shows, and the score. The
// page (pages/games/game-wordle.js) draws what these say; Node tests check them.
import { seededRandom } from './seed.js';

export const WORD_LENGTH = 5;
export const MAX_TRIES = 6;

/** A letter's mark: in its place, elsewhere in the word, or not in it. */
export const MARKS = Object.freeze(['correct', 'present', 'absent']);

/**
 * The on-screen keyboard's letter rows. English is QWERTY; Polish is the
 * same (Polish keyboards are QWERTY) with a row of its own letters, which
 * a physical keyboard types only with AltGr.
 */
const KEY_ROWS = Object.freeze({
  en: Object.freeze(['qwertyuiop', 'asdfghjkl', 'zxcvbnm']),
  pl: Object.freeze(['ąćęłńóśźż', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm']),
});

/** The keyboard rows for a language, each a list of letters. */
export function keyboardRows(language) {
  return (KEY_ROWS[language] ?? KEY_ROWS.en).map((row) => [...row]);
}

/** Every letter a word of the language may have (what a key press may type). */
export function alphabet(language) {
  return new Set(keyboardRows(language).flat());
}

/** Letters are compared as lowercase NFC, so "Ą" typed two ways is one letter. */
export function normalizeWord(text) {
  return String(text ?? '').normalize('NFC').toLowerCase();
}

/** The answer a seed deals: the same seed and list always give the same word. */
export function pickAnswer(seed, answers) {
  if (!Array.isArray(answers) || answers.length === 0) throw new Error('no answers to pick from');
  return answers[seededRandom(seed).below(answers.length)];
}

/**
 * Marks each letter of `guess` against `answer`. A letter is "correct" in
 * its place; otherwise "present" only while the answer has copies of it
 * not already matched, left to right: "speed" against "abide" marks the
 * first e present and the second absent (abide has one e), d present.
 */
export function scoreGuess(guess, answer) {
  const g = [...normalizeWord(guess)];
  const a = [...normalizeWord(answer)];
  if (g.length !== a.length) throw new Error('a guess is as long as the answer');
  const marks = g.map((letter, i) => (letter === a[i] ? 'correct' : 'absent'));
  const unmatched = new Map();
  a.forEach((letter, i) => {
    if (marks[i] !== 'correct') unmatched.set(letter, (unmatched.get(letter) ?? 0) + 1);
  });
  g.forEach((letter, i) => {
    if (marks[i] === 'correct') return;
    const left = unmatched.get(letter) ?? 0;
    if (left > 0) {
      marks[i] = 'present';
      unmatched.set(letter, left - 1);
    }
  });
  return marks;
}

const RANK = { absent: 1, present: 2, correct: 3 };

/**
 * What the keyboard shows of each letter guessed so far: its best mark in
 * any row (a letter once in place stays "correct"). `rows` are
 * [{ guess, marks }]; letters never guessed are not in the map.
 */
export function keyboardStates(rows) {
  const states = new Map();
  for (const { guess, marks } of rows) {
    [...normalizeWord(guess)].forEach((letter, i) => {
      const mark = marks[i];
      if ((RANK[mark] ?? 0) > (RANK[states.get(letter)] ?? 0)) states.set(letter, mark);
    });
  }
  return states;
}

/**
 * The score for a word found in `triesUsed` tries: (7 − tries) × 10, so
 * 60 at the first try down to 10 at the sixth. Never less than 1: a win
 * always scores.
 */
export function wordleScore(triesUsed) {
  const tries = Math.min(MAX_TRIES, Math.max(1, Math.round(Number(triesUsed) || MAX_TRIES)));
  return (MAX_TRIES + 1 - tries) * 10;
}

/**
 * A submitted row in words, for screen readers: "K correct, O in the word,
 * T not in the word, …", each letter capitalised in the page's language.
 */
export function rowInWords(guess, marks, { t, language }) {
  const keys = { correct: 'games.wordle.said.correct', present: 'games.wordle.said.present', absent: 'games.wordle.said.absent' };
  return [...normalizeWord(guess)]
    .map((letter, i) => t(keys[marks[i]], { letter: letter.toLocaleUpperCase(language) }))
    .join(', ');
}

/**
 * One game: the letters typed so far and the rows guessed. `accepted` is
 * the set of words a guess may be. Every change returns what happened, so
 * the page can say it:
 *   type(letter) / erase()  → { changed }
 *   submit() → { outcome: 'short' | 'unknown' | 'over' } when refused
 *              (nothing used up), else { outcome: 'guessed' | 'won' | 'lost', row }
 */
export function createWordleGame({ answer, accepted }) {
  const target = normalizeWord(answer);
  const rows = [];
  let typed = [];
  let state = 'playing';

  return {
    get answer() { return target; },
    get rows() { return rows.map((row) => ({ ...row, marks: [...row.marks] })); },
    get typed() { return typed.join(''); },
    get state() { return state; },
    get triesUsed() { return rows.length; },
    type(letter) {
      const one = normalizeWord(letter);
      if (state !== 'playing' || [...one].length !== 1 || typed.length >= WORD_LENGTH) return { changed: false };
      typed = [...typed, one];
      return { changed: true };
    },
    erase() {
      if (state !== 'playing' || typed.length === 0) return { changed: false };
      typed = typed.slice(0, -1);
      return { changed: true };
    },
    submit() {
      if (state !== 'playing') return { outcome: 'over' };
      if (typed.length < WORD_LENGTH) return { outcome: 'short' };
      const guess = typed.join('');
      if (!accepted.has(guess) && guess !== target) return { outcome: 'unknown', guess };
      const row = { guess, marks: scoreGuess(guess, target) };
      rows.push(row);
      typed = [];
      if (guess === target) state = 'won';
      else if (rows.length >= MAX_TRIES) state = 'lost';
      return { outcome: state === 'playing' ? 'guessed' : state, row: { ...row, marks: [...row.marks] } };
    },
  };
}
