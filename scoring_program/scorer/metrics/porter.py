"""The Porter stemmer as rouge-score 0.1.2 applies it (NLTK's ``PorterStemmer`` in its default mode, with
NLTK's departures from the 1980 paper), for lower-case ASCII words.

rouge-score stems only tokens longer than 3 characters; each distinct word is stemmed once (``stem_all``).

The algorithm: a word is a sequence of consonant (c) and vowel (v) runs, ``[C](VC)^m[V]``, m its *measure*;
``y`` is a vowel after a consonant and a consonant at the start or after a vowel. Steps 1a, 1b, 1c, 2, 3, 4,
5a, 5b each replace one suffix when the stem before it meets the step's condition; within a step the first
suffix of its list that the word ends with decides, whether or not its condition holds. NLTK's departures
(all applied by rouge-score): a few irregular forms map to fixed stems (``IRREGULAR``); ``ies`` and ``ied``
of four-letter words become ``ie``, longer ``ied`` words ``i``; ``y`` becomes ``i`` only after a consonant
that is not the first letter; ``alli`` is rewritten to ``al`` and step 2 runs again; ``bli`` -> ``ble``,
``fulli`` -> ``ful``, ``logi`` -> ``log`` (when the stem with its ``l`` has a positive measure); a word of
two letters, vowel then consonant, ends with "cvc"; words of up to two letters are left as they are.

Reference: M.F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980; NLTK ``nltk/stem/porter.py``.

>>> [stem(w) for w in ("caresses", "ponies", "relational", "hopping", "agreed", "generalizations", "dying")]
['caress', 'poni', 'relat', 'hop', 'agre', 'gener', 'die']
"""

VOWELS = frozenset("aeiou")
IRREGULAR = {"skies": "sky", "sky": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
             "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
             "cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
             "exceed": "exceed", "succeed": "succeed"}


def _consonants(word):
    flags = []
    for i, ch in enumerate(word):
        if ch in VOWELS:
            flags.append(False)
        elif ch == "y":
            flags.append(i == 0 or not flags[i - 1])
        else:
            flags.append(True)
    return flags


def measure(stem):
    """m of ``[C](VC)^m[V]``: how often a vowel is followed by a consonant.

    >>> [measure(w) for w in ("tr", "trouble", "oaten", "private")]
    [0, 1, 2, 2]
    """
    flags = _consonants(stem)
    return sum(1 for a, b in zip(flags, flags[1:]) if not a and b)


def _has_vowel(stem):
    return not all(_consonants(stem))


def _is_consonant(word, i):
    return _consonants(word)[i]


def _double_consonant(word):
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word):
    if len(word) >= 3:
        flags = _consonants(word)
        return flags[-3] and not flags[-2] and flags[-1] and word[-1] not in "wxy"
    return len(word) == 2 and not _is_consonant(word, 0) and _is_consonant(word, 1)


def _positive(stem):
    return measure(stem) > 0


def _above_one(stem):
    return measure(stem) > 1


def _first_rule(word, rules):
    """The first rule (suffix, replacement, condition on the stem) whose suffix ends ``word`` decides."""
    for suffix, replacement, condition in rules:
        if word.endswith(suffix):
            stem = word[:len(word) - len(suffix)]
            return stem + replacement if condition is None or condition(stem) else word
    return word


def _step1a(word):
    if word.endswith("ies") and len(word) == 4:
        return word[:-3] + "ie"
    return _first_rule(word, (("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)))


def _step1b(word):
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[:-len(suffix)]):
            stem = word[:-len(suffix)]
            break
    else:
        return word
    for suffix, replacement in (("at", "ate"), ("bl", "ble"), ("iz", "ize")):
        if stem.endswith(suffix):
            return stem[:-len(suffix)] + replacement
    if _double_consonant(stem):
        return stem[:-1] if stem[-1] not in "lsz" else stem
    return stem + "e" if measure(stem) == 1 and _cvc(stem) else stem


def _step1c(word):
    if word.endswith("y"):
        stem = word[:-1]
        return stem + "i" if len(stem) > 1 and _is_consonant(stem, len(stem) - 1) else word
    return word


STEP2 = (("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
         ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
         ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
         ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("fulli", "ful"))
STEP3 = (("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
         ("ness", ""))
STEP4 = ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
         "ate", "iti", "ous", "ive", "ize")


def _step2(word):
    if word.endswith("alli") and _positive(word[:-4]):
        return _step2(word[:-4] + "al")
    rules = tuple((s, r, _positive) for s, r in STEP2) + (("logi", "log", lambda stem: _positive(word[:-3])),)
    return _first_rule(word, rules)


def _step3(word):
    return _first_rule(word, tuple((s, r, _positive) for s, r in STEP3))


def _step4(word):
    rules = tuple((s, "", (lambda stem: _above_one(stem) and stem[-1] in "st") if s == "ion" else _above_one)
                  for s in STEP4)
    return _first_rule(word, rules)


def _step5a(word):
    if word.endswith("e"):
        stem = word[:-1]
        m = measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            return stem
    return word


def _step5b(word):
    if word.endswith("ll") and measure(word[:-1]) > 1:
        return word[:-1]
    return word


def stem(word):
    """The stem of one lower-case word."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if len(word) <= 2:
        return word
    for step in (_step1a, _step1b, _step1c, _step2, _step3, _step4, _step5a, _step5b):
        word = step(word)
    return word


def stem_all(words, min_length=4):
    """The stems of ``words``, those shorter than ``min_length`` unchanged (rouge-score stems words of more
    than 3 characters)."""
    return [stem(w) if len(w) >= min_length else w for w in words]
