#!/usr/bin/env python3
"""Makes the word game's lists, Web/games/words/en.json and pl.json, from
Debian's word-list packages (`make words` installs them and runs this).

Each file is {"source": ..., "answers": [...], "accepted": [...]}: the
answers are the words a game may be dealt, the accepted ones every guess
the game takes. All are five letters (Unicode characters, NFC), lowercase,
letters of the language's alphabet only; entries written with a capital
(names) or an apostrophe are skipped; both lists are sorted and every
answer is also accepted. Nothing is typed in by hand: `make words` remakes
the same files from the same packages, and "source" names their versions.

English
  accepted: wamerican-large (SCOWL up to size 70).
  answers:  wamerican-small (SCOWL up to size 35, the common words) that
            WordNet (wordnet-base) has as a base form, less
            - inflections of another of its words ("cards", "asked",
              "tries"), as the original game deals base forms, and Roman
              numerals (SCOWL ships them: "xxxvi");
            - offensive or unsuitable words: any WordNet files under the
              usage domains obscenity, ethnic slur or disparagement; any
              whose commonest WordNet sense is a kind or part of sexual
              activity, the genitals, pornography, sexual desire or body
              waste; any dict-freedict-eng-pol marks [wulg] or [pejor].

Polish
  accepted: wpolish (the sjp.pl spelling dictionary: every inflected form).
  answers:  Debian has no ranked frequency list of Polish (tesseract-ocr-pol
            is tessdata_fast, whose word list is unranked web text), so a
            common word is one several sources agree on:
            - a headword of the Polish thesaurus (mythes-pl): a base form
              someone thought worth giving synonyms for;
            - a lowercase base form in hunspell-pl's dictionary, and not
              also a capitalised one there (names: "Polak", "Romeo");
            - used in real Polish text: its inflected forms (made with
              hunspell-pl's own suffix rules) occur in the Polish fortunes
              (fortunes-pl, about 270,000 words) at least MIN_USES times if
              FreeDict's Polish-English dictionary (dict-freedict-pol-eng,
              from Wiktionary) translates it, else MIN_USES_UNTRANSLATED
              times; this leaves out most technical and rare headwords
              ("anion", "cesja", "hossa", "sebum");
            - no q, v or x, and in wpolish;
            - not offensive: never labelled "(wulg.)" or "(obraźl.)" by the
              thesaurus nor in a mostly colloquial sense of it beside such a
              word ("dymać"); not labelled vulgar, offensive, contemptuous,
              pejorative, coarse, dismissive or sexual in any sense by
              dict-freedict-pol-eng (from Wiktionary), nor glossed there
              first with an English word the English answers leave out;
              not given by dict-freedict-eng-pol for a [wulg] or [pejor]
              sense.
  These labels are what Debian offers; they catch most but not every
  coarse or sexual word, so the answers are worth a read after a remake.

Standard library only; the packages are read where Debian installs them.
"""
import collections
import functools
import gzip
import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / 'Web' / 'games' / 'words'

AMERICAN_SMALL = Path('/usr/share/dict/american-english-small')
AMERICAN_LARGE = Path('/usr/share/dict/american-english-large')
WORDNET = Path('/usr/share/wordnet')
POLISH = Path('/usr/share/dict/polish')
HUNSPELL_PL = Path('/usr/share/hunspell/pl_PL')
THESAURUS_PL = Path('/usr/share/mythes/th_pl_PL_v2.dat')
FORTUNES_PL = Path('/usr/share/games/fortunes/pl')
DICTD = Path('/usr/share/dictd')

ENGLISH_LETTERS = frozenset('abcdefghijklmnopqrstuvwxyz')
POLISH_LETTERS = ENGLISH_LETTERS | frozenset('ąćęłńóśźż')
# Polish words use these only in loans ("video", "taxi"): fine to guess,
# never dealt.
NOT_IN_POLISH_ANSWERS = frozenset('qvx')
# Uses in the fortunes (any inflected form) before a Polish word counts as
# in use: the headwords never used there are mostly technical or rare
# ("anion", "cesja", "hossa"). A word FreeDict's Polish-English dictionary
# does not translate needs a few more: once or twice is mostly a word that
# only looks common ("canoe", "sebum", "hebel"), or a form of another one.
MIN_USES = 1
MIN_USES_UNTRANSLATED = 3
# WordNet 3.0's usage-domain synsets whose members are not for a game.
OFFENSIVE_DOMAINS = {'obscenity', 'vulgarism', 'ethnic_slur', 'disparagement', 'derogation'}
# Labels of FreeDict's Polish-English dictionary (from Wiktionary) for a
# sense that is vulgar, offensive, contemptuous, pejorative, coarse,
# dismissive or sexual.
OFFENSIVE_POLISH_LABELS = ('(wulgarnie', '(obraźliwie', '(pogardliwie', '(pejoratywnie', '(grubiański',
                           '(lekceważąco', '(seksuologia', 'wulgaryzm)')
# WordNet concepts whose kinds are not for the game's answers either.
UNSUITABLE_CONCEPTS = [('sexual activity', 'n'), ('genitalia', 'n'), ('sex organ', 'n'), ('pornography', 'n'),
                       ('sexual desire', 'n'), ('body waste', 'n'), ('copulate', 'v'), ('sleep together', 'v'),
                       ('defecate', 'v'), ('urinate', 'v')]
# The Polish thesaurus' labels: vulgar, offensive; colloquial, jocular;
# and entries that are not synonyms (broader, narrower concept, antonym).
THESAURUS_OFFENSIVE = {'wulg.', 'obraźl.'}
THESAURUS_INFORMAL = {'pot.', 'żart.', 'wulg.', 'obraźl.'}
THESAURUS_RELATED = {'pojęcie nadrzędne', 'pojęcie podrzędne', 'antonim'}
ROMAN_NUMERAL = re.compile(r'^m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$')


def package_version(package):
    result = subprocess.run(['dpkg-query', '-W', '-f=${Version}', package], capture_output=True, text=True)
    if result.returncode != 0 or not result.stdout:
        sys.exit(f'{package} is not installed (`make words` installs it)')
    return f'{package} {result.stdout}'


def five_letter_words(lines, letters):
    """The lines that are one lowercase five-letter word of `letters`."""
    found = set()
    for line in lines:
        word = unicodedata.normalize('NFC', line.strip())
        if len(word) == 5 and all(c in letters for c in word):
            found.add(word)
    return found


def read_lines(path, encoding='utf-8'):
    return path.read_text(encoding=encoding, errors='strict').splitlines()


B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'


def dictd_entries(name):
    """(headword, text) of each entry of a dictd dictionary in /usr/share/dictd."""
    body = gzip.decompress((DICTD / f'{name}.dict.dz').read_bytes())
    def number(text):
        value = 0
        for digit in text:
            value = value * 64 + B64.index(digit)
        return value
    for line in read_lines(DICTD / f'{name}.index'):
        headword, offset, length = line.split('\t')
        if headword.startswith('00'):
            continue   # the database's own notes
        start = number(offset)
        yield headword, body[start:start + number(length)].decode('utf-8')


@functools.cache
def freedict_english_flags():
    """
    FreeDict's English-Polish dictionary marks senses [wulg] (vulgar) and
    [pejor] (pejorative): the English headword and the Polish words given
    for such a sense.
    """
    english, polish = set(), set()
    for headword, text in dictd_entries('freedict-eng-pol'):
        for line in text.splitlines():
            if '[wulg]' in line or '[pejor]' in line:
                english.add(headword.lower())
                translations = re.sub(r'\[[^]]*\]', '', line.split(']', 1)[1])
                polish.update(word.strip().lower() for word in translations.split(','))
    return english, polish


def freedict_polish(english_unsuitable):
    """
    FreeDict's Polish-English dictionary (from Wiktionary): the headwords it
    translates, and those it labels (wulgarnie), (obraźliwie), (pogardliwie),
    … in some sense or glosses first with a word the English answers leave
    out ("pierd": "fart").
    """
    translated, unsuitable = set(), set()
    for headword, text in dictd_entries('freedict-pol-eng'):
        translated.add(headword.lower())
        lines = text.splitlines()
        first_gloss = re.sub(r'^\d+\.\s*', '', lines[1].split(',')[0]).strip().lower() if len(lines) > 1 else ''
        if any(label in text for label in OFFENSIVE_POLISH_LABELS) or first_gloss in english_unsuitable:
            unsuitable.add(headword.lower())
    return translated, unsuitable


# --- English -------------------------------------------------------------

def wordnet():
    """{(offset, pos): (words, pointers)} of WordNet's data files."""
    synsets = {}
    for pos in ('noun', 'verb', 'adj', 'adv'):
        for line in read_lines(WORDNET / f'data.{pos}', 'latin-1'):
            if line.startswith(' '):
                continue   # the licence at the top
            fields = line.split(' | ')[0].split()
            count = int(fields[3], 16)
            # "give_the_finger" and "pig(p)" become "give the finger", "pig".
            words = [re.sub(r'\(.*\)$', '', fields[4 + 2 * i]).replace('_', ' ').lower() for i in range(count)]
            rest = fields[4 + 2 * count:]
            pointers = [(rest[1 + 4 * i], (rest[2 + 4 * i], synset_pos(rest[3 + 4 * i])), int(rest[4 + 4 * i][2:], 16))
                        for i in range(int(rest[0]))]
            synsets[(fields[0], synset_pos(fields[2]))] = (words, pointers)
    return synsets


def synset_pos(letter):
    return 'a' if letter == 's' else letter   # satellite adjectives are adjectives


@functools.cache
def offensive_english():
    """
    Words of a WordNet sense in an offensive usage domain, or one below a
    sexual or excretory concept, and English words FreeDict marks vulgar
    or pejorative.
    """
    synsets = wordnet()
    by_word = collections.defaultdict(list)
    for key, (words, _) in synsets.items():
        for word in words:
            by_word[word].append(key)
    found = set()
    for words, pointers in synsets.values():
        if OFFENSIVE_DOMAINS & set(words):
            for symbol, target, target_word in pointers:
                if symbol == '-u':
                    members = synsets[target][0]
                    found.update(members if target_word == 0 else [members[target_word - 1]])
    # Below a sexual or excretory concept: its kinds ("~", "~i") and, for a
    # noun, its parts ("%p": "penis" of "male genitalia") all the way down.
    # Only a word whose commonest sense (WordNet lists senses commonest
    # first) is one of those: "water" is kept, "urine" is not.
    below = set()
    for name, pos in UNSUITABLE_CONCEPTS:
        queue = [key for key in by_word[name] if key[1] == pos][:1]
        while queue:
            for symbol, target, _ in synsets[queue.pop()][1]:
                if symbol in ('~', '~i', '%p') and target not in below:
                    below.add(target)
                    queue.append(target)
    for pos in ('noun', 'verb'):
        for line in read_lines(WORDNET / f'index.{pos}', 'latin-1'):
            if line.startswith(' '):
                continue
            fields = line.split()
            senses = int(fields[2])
            commonest = (fields[-senses], pos[0])
            if commonest in below:
                found.add(fields[0].replace('_', ' '))
    return found | freedict_english_flags()[0]


def is_inflection(word, base_words):
    """"cards" (card), "boxes" (box), "asked" (ask), "tried" (try)."""
    stems = []
    if word.endswith('ies') or word.endswith('ied'):
        stems.append(word[:-3] + 'y')
    if word.endswith('es') or word.endswith('ed'):
        stems += [word[:-2], word[:-1]]
    if word.endswith('s') and not word.endswith('ss'):
        stems.append(word[:-1])
    return any(stem in base_words for stem in stems)


def wordnet_lemmas():
    """The words WordNet has an entry for: base forms ("began", "nicer" have none)."""
    return {line.split()[0].replace('_', ' ')
            for pos in ('noun', 'verb', 'adj', 'adv')
            for line in read_lines(WORDNET / f'index.{pos}', 'latin-1') if not line.startswith(' ')}


def english():
    small_lines = read_lines(AMERICAN_SMALL)
    small_words = {line.strip() for line in small_lines}
    offensive = offensive_english()
    lemmas = wordnet_lemmas()
    answers = {
        word for word in five_letter_words(small_lines, ENGLISH_LETTERS)
        if word in lemmas and not is_inflection(word, small_words)
        and not ROMAN_NUMERAL.match(word)
        and word not in offensive
    }
    accepted = five_letter_words(read_lines(AMERICAN_LARGE), ENGLISH_LETTERS) | answers
    source = (
        f'answers: {package_version("wamerican-small")} ({AMERICAN_SMALL}, SCOWL size 35), five-letter '
        f'lowercase words that {package_version("wordnet-base")} has as a base form, less inflections of another '
        f'of its words, Roman numerals, words of WordNet usage domains obscenity, ethnic slur and '
        f'disparagement or whose commonest sense is sexual or excretory, and words '
        f'{package_version("dict-freedict-eng-pol")} marks vulgar or pejorative; '
        f'accepted: {package_version("wamerican-large")} ({AMERICAN_LARGE}, SCOWL size 70) and the answers. '
        f'Made by Tools/wordle-words.py (make words).'
    )
    return source, answers, accepted


# --- Polish --------------------------------------------------------------

def hunspell_polish():
    """{base form: flags} from the .dic, and the .aff's suffix rules by flag."""
    aff = HUNSPELL_PL.with_suffix('.aff')
    encoding = 'utf-8'
    for line in read_lines(aff, 'latin-1'):
        if line.startswith('SET '):
            encoding = line.split()[1]
    suffixes = collections.defaultdict(list)
    for line in read_lines(aff, encoding):
        parts = line.split()
        if len(parts) >= 5 and parts[0] == 'SFX':
            strip = '' if parts[2] == '0' else parts[2]
            add = parts[3].split('/')[0]
            add = '' if add == '0' else add
            condition = None if parts[4] == '.' else re.compile(parts[4] + '$')
            suffixes[parts[1]].append((strip, add, condition))
    lemmas = {}
    for line in read_lines(HUNSPELL_PL.with_suffix('.dic'), encoding)[1:]:
        word, _, flags = line.strip().partition('/')
        lemmas[unicodedata.normalize('NFC', word)] = flags
    return lemmas, suffixes


def inflected_forms(word, flags, suffixes):
    """The word and what its suffix flags make of it ("kot": "kota", "kotem", …)."""
    forms = {word}
    for flag in flags:
        for strip, add, condition in suffixes.get(flag, ()):
            if (condition is None or condition.search(word)) and word.endswith(strip):
                forms.add(word[:len(word) - len(strip)] + add)
    return forms


def polish_thesaurus():
    """
    The thesaurus' headwords, and its words the game should not deal: any
    labelled "(wulg.)" (vulgar) or "(obraźl.)" (offensive), and the words
    of a sense that is mostly labelled colloquial, jocular, vulgar or
    offensive and has a vulgar or offensive word in it ("dymać").
    """
    raw = THESAURUS_PL.read_bytes()
    encoding = raw.split(b'\n', 1)[0].decode('ascii').strip()   # "ISO8859-2"
    lines = raw.decode(encoding).split('\n')[1:]
    headwords, unsuitable = set(), set()
    i = 0
    while i < len(lines):
        if not lines[i]:
            i += 1
            continue
        # "headword|number of senses", then a line a sense: "-|word (labels)|…"
        headword, count = lines[i].rsplit('|', 1)
        headword = unicodedata.normalize('NFC', headword)
        headwords.add(headword)
        for line in lines[i + 1: i + 1 + int(count)]:
            sense = []
            for entry in line.split('|')[1:]:
                labels = set(re.findall(r'\(([^()]*)\)', entry))
                word = unicodedata.normalize('NFC', re.sub(r'\s*\([^()]*\)', '', entry).strip())
                sense.append((word, labels))
                if labels & THESAURUS_OFFENSIVE:
                    unsuitable.add(word)
            # Broader and narrower concepts and antonyms are not the sense.
            synonyms = [(word, labels) for word, labels in sense if not labels & THESAURUS_RELATED]
            rude = sum(1 for _, labels in synonyms if labels & THESAURUS_INFORMAL)
            if any(labels & THESAURUS_OFFENSIVE for _, labels in synonyms) and rude * 2 >= len(synonyms):
                unsuitable.add(headword)
                unsuitable.update(word for word, _ in synonyms)
        i += 1 + int(count)
    return headwords, unsuitable


def fortune_word_counts():
    counts = collections.Counter()
    for path in sorted(FORTUNES_PL.iterdir()):
        if path.suffix in ('.dat', '.u8') or not path.is_file():
            continue
        text = unicodedata.normalize('NFC', path.read_bytes().decode('utf-8', errors='replace'))
        counts.update(word.lower() for word in re.findall(r'\w+', text))
    return counts


def polish():
    accepted = five_letter_words(read_lines(POLISH), POLISH_LETTERS)
    lemmas, suffixes = hunspell_polish()
    headwords, unsuitable = polish_thesaurus()
    translated, labelled = freedict_polish(offensive_english())
    unsuitable |= labelled | freedict_english_flags()[1]
    counts = fortune_word_counts()
    answers = set()
    for word in headwords:
        if (word not in accepted or word not in lemmas or word.capitalize() in lemmas
                or NOT_IN_POLISH_ANSWERS & set(word) or word in unsuitable):
            continue
        uses = sum(counts[form] for form in inflected_forms(word, lemmas[word], suffixes))
        if uses >= (MIN_USES if word in translated else MIN_USES_UNTRANSLATED):
            answers.add(word)
    source = (
        f'accepted: {package_version("wpolish")} ({POLISH}), five-letter lowercase words. '
        f'answers: headwords of {package_version("mythes-pl")} (the Polish thesaurus) that '
        f'{package_version("hunspell-pl")} lists as a lowercase base form and not as a name, '
        f'used in {package_version("fortunes-pl")} (any inflected form hunspell-pl makes of them) at '
        f'least {MIN_USES} time(s) if {package_version("dict-freedict-pol-eng")} translates them, else '
        f'{MIN_USES_UNTRANSLATED}, without q, v or x, and in wpolish; less '
        f'words the thesaurus labels vulgar or offensive or gives in a mostly colloquial sense '
        f'beside a vulgar word, and words dict-freedict-pol-eng labels vulgar, '
        f'offensive, contemptuous, pejorative, coarse, dismissive or sexual or glosses first with a word '
        f'the English answers leave out, or '
        f'{package_version("dict-freedict-eng-pol")} gives for a vulgar or pejorative sense. '
        f'Made by Tools/wordle-words.py (make words).'
    )
    return source, answers, accepted | answers


def write(language, source, answers, accepted):
    assert answers <= accepted
    OUT.mkdir(parents=True, exist_ok=True)
    body = {'source': source, 'answers': sorted(answers), 'accepted': sorted(accepted)}
    path = OUT / f'{language}.json'
    # One word a line, unindented: a remade list's diff shows the words that
    # came and went, for a byte a word.
    text = json.dumps(body, ensure_ascii=False, indent=0)
    path.write_text(text + '\n', encoding='utf-8')
    print(f'{path.relative_to(ROOT)}: {len(answers)} answers, {len(accepted)} accepted, {path.stat().st_size} bytes')


def main():
    write('en', *english())
    write('pl', *polish())


if __name__ == '__main__':
    main()
