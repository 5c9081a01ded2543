// The word game's lists as Tools/wordle-words.py made them from Debian's
// word lists: the shape the game relies on (every word it may deal is one
// it accepts, five letters of the language, sorted, once each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';

const LETTERS = {
  en: /^[a-z]{5}$/u,
  pl: /^[a-ząćęłńóśźż]{5}$/u,
};

function list(language) {
  const url = new URL(`../../games/words/${language}.json`, import.meta.url);
  return { words: JSON.parse(readFileSync(url, 'utf8')), bytes: statSync(url).size };
}

for (const language of ['en', 'pl']) {
  const { words, bytes } = list(language);

  test(`${language}: says where its words came from`, () => {
    assert.equal(typeof words.source, 'string');
    assert.match(words.source, language === 'en' ? /wamerican-small .*wamerican-large/s : /wpolish .*mythes-pl/s);
  });

  test(`${language}: every answer is also accepted`, () => {
    const accepted = new Set(words.accepted);
    const missing = words.answers.filter((word) => !accepted.has(word));
    assert.deepEqual(missing, []);
  });

  test(`${language}: five lowercase letters of the language, nothing else`, () => {
    for (const word of [...words.answers, ...words.accepted]) {
      assert.equal([...word].length, 5, word);
      assert.equal(word, word.normalize('NFC'), word);
      assert.match(word, LETTERS[language], word);
    }
  });

  test(`${language}: sorted and without duplicates`, () => {
    for (const name of ['answers', 'accepted']) {
      const sorted = [...new Set(words[name])].sort();
      assert.deepEqual(words[name], sorted, `${name} is sorted with each word once`);
    }
  });

  test(`${language}: enough words to play for a long time, small enough to ship`, () => {
    assert.ok(words.answers.length >= 500, `${words.answers.length} answers`);
    assert.ok(words.accepted.length >= 3 * words.answers.length, `${words.accepted.length} accepted`);
    assert.ok(bytes < 1024 * 1024, `${bytes} bytes`);
  });
}

test('pl: the answers use no q, v or x, and Polish letters are in play', () => {
  const { words } = list('pl');
  assert.deepEqual(words.answers.filter((word) => /[qvx]/u.test(word)), []);
  assert.ok(words.answers.some((word) => /[ąćęłńóśźż]/u.test(word)));
  assert.ok(words.accepted.includes('łóżko'));
});
