"""Texts to token codes for the generation and question-answering kernels, every tokenizer declared once.

A batch of texts is one array of code points with the offsets of each text (``Texts``): rules that look at
characters (which ones are spaces, punctuation, Chinese, digits) run on the whole batch at once, and a token is
a span of that array. ``code_spans`` turns spans into integer codes, equal codes for equal strings, exactly
(a 64-bit hash brings candidates together and every token is compared with its group's first member code point
by code point; a collision sends the work to Python strings). No Python string is made per token.

The tokenizers (``TOKENIZERS``, the keys are the option values) give the tokens of:

- ``13a``: sacreBLEU 2.x's default (mteval-v13a): ``<skipped>`` dropped, ``-`` + newline joined, newlines
  made spaces, four HTML entities decoded, then the four rules of its regular-expression tokenizer on the text
  padded with a space at each end; then split at whitespace.
- ``zh``: sacreBLEU's Chinese tokenizer: the text stripped, a space around every character of its Chinese table
  (``ZH_RANGES``, as its comparisons of one-character strings actually read it), then the same four rules
  without padding.
- ``char``: every character that is not whitespace is a token (sacreBLEU's ``char``).
- ``none``: split at whitespace.

Whitespace is what Python's ``str.split()`` splits at (``SPACES``). sacreBLEU applies BLEU's tokenizer to the
text with trailing whitespace removed (``rstrip``), after lower-casing when asked.

>>> batch = tokenize(["The cat (a cat).", "3.5-4, ok"], "13a")
>>> [batch.strings(i) for i in range(2)]
[['The', 'cat', '(', 'a', 'cat', ')', '.'], ['3.5', '-', '4', ',', 'ok']]
>>> tokenize(["中文abc,好"], "zh").strings(0)
['中', '文', 'abc', ',', '好']
"""
from dataclasses import dataclass

import numpy as np

from ..bytelevel.cells import ASCII_SPACE, BYTE_MASKS, UNICODE_SPACES
from ..bytelevel.grouping import group_keys

# -- character classes, as data ----------------------------------------------------------------------------
SPACES = tuple(int(c) for c in np.flatnonzero(ASCII_SPACE)) + tuple(ord(c) for c in UNICODE_SPACES)
_SPACE_TABLE = np.zeros(0x3002, dtype=bool)   # every whitespace code point is below U+3001; the last entry
_SPACE_TABLE[list(SPACES)] = True              # (False) stands for every code point above

# sacreBLEU's regexp tokenizer, rule 1: a space on each side of these ASCII characters
REGEXP_ISOLATED = ((0x20, 0x26), (0x28, 0x2B), (0x2F, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E))
# sacreBLEU's table of Chinese characters (tokenizer_zh._UCODE_RANGES) as its comparisons read it: the
# extension B and compatibility supplement rows are written with 4-digit escapes ('\u20000' is U+2000 then
# '0'), so as one-character comparisons they cover U+2001..U+2A6D and U+2F81..U+2FA1
ZH_RANGES = ((0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D), (0xFA30, 0xFA6A),
             (0xFA70, 0xFAD9), (0x2001, 0x2A6D), (0x2F81, 0x2FA1), (0xFF00, 0xFFEF), (0x2E80, 0x2EFF),
             (0x3000, 0x303F), (0x31C0, 0x31EF), (0x2F00, 0x2FDF), (0x2FF0, 0x2FFF), (0x3100, 0x312F),
             (0x31A0, 0x31BF), (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0x2600, 0x26FF), (0x2700, 0x27BF),
             (0x3200, 0x32FF), (0x3300, 0x33FF))
# mteval-v13a's language-independent replacements, in order
V13A_REPLACEMENTS = (("<skipped>", ""), ("-\n", ""), ("\n", " "), ("&quot;", '"'), ("&amp;", "&"),
                     ("&lt;", "<"), ("&gt;", ">"))
# characters that may separate texts in one joined string while a rule runs on it: none of them is whitespace,
# a digit, punctuation, Chinese or a word character, so no rule matches across them (one absent from the
# texts is taken)
_SEPARATORS = tuple(chr(c) for c in list(range(0x00, 0x09)) + list(range(0x0E, 0x1C)) + [0x7F]) + \
    tuple(chr(c) for c in range(0xE000, 0xE010))
_DOT, _COMMA, _HYPHEN, _ZERO, _NINE = 0x2E, 0x2C, 0x2D, 0x30, 0x39


def in_ranges(cp, ranges):
    """Whether each code point lies in one of the inclusive ``ranges``.

    >>> in_ranges(np.array([0x20, 0x27, 0x2F]), REGEXP_ISOLATED).tolist()
    [True, False, True]
    """
    out = np.zeros(len(cp), dtype=bool)
    for lo, hi in ranges:
        out |= (cp >= lo) & (cp <= hi)
    return out


def is_space(cp):
    """Whether each code point is whitespace to ``str.split()``."""
    return _SPACE_TABLE[np.minimum(cp, len(_SPACE_TABLE) - 1)]


# -- a batch of texts ----------------------------------------------------------------------------------------
@dataclass
class Texts:
    """Text ``i`` is ``cp[offsets[i]:offsets[i + 1]]`` (code points, uint32)."""

    cp: np.ndarray
    offsets: np.ndarray

    def __len__(self):
        return len(self.offsets) - 1

    def text(self, i):
        return self.cp[self.offsets[i]:self.offsets[i + 1]].astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")

    def owner(self):
        """The text of every code point."""
        return np.repeat(np.arange(len(self), dtype=np.int64), np.diff(self.offsets))


def joined_apart(strings):
    """(``strings`` joined by a character of ``_SEPARATORS`` none of them holds, that character), or (None, None)
    when they hold every one; a join holds its separator only between the strings when it counts it that often.

    >>> joined_apart(["a", "b\\x00"])
    ('a\\x01b\\x00', '\\x01')
    """
    for sep in _SEPARATORS:
        text = sep.join(strings)
        if text.count(sep) == max(len(strings) - 1, 0):
            return text, sep
    return None, None


def separator_positions(cp, sep, n):
    """(positions of ``sep`` in the code points ``cp`` of ``n`` texts joined apart and then transformed, where each
    text starts): the check that a transformation kept exactly the n - 1 separators.

    >>> [a.tolist() for a in separator_positions(codepoints("ab\x01c"), "\x01", 2)]
    [[2], [0, 3]]
    >>> separator_positions(codepoints("abc"), "\x01", 2)   # a transformation that took a separator away
    Traceback (most recent call last):
    ...
    ValueError: a transformation changed the separators of a batch
    """
    at = np.flatnonzero(cp == ord(sep))
    if len(at) != max(n - 1, 0):
        raise ValueError("a transformation changed the separators of a batch")
    return at, np.concatenate(([0], at + 1)).astype(np.int64)


def to_texts(strings, transform=None):
    """The code points of ``strings`` (a sequence of str); ``transform`` (str -> str, optional) is applied to
    the texts joined by a separator none of them holds (one call for the batch), so it must neither create nor
    remove that separator, nor let a match cross it.

    >>> t = to_texts(["ab", "", "ç"])
    >>> t.cp.tolist(), t.offsets.tolist(), t.text(2)
    ([97, 98, 231], [0, 2, 2, 3], 'ç')
    """
    strings = list(strings)
    n = len(strings)
    if transform is None:
        joined = "".join(strings)
        cp = codepoints(joined)
        lengths = np.fromiter(map(len, strings), dtype=np.int64, count=n)
        return Texts(cp, np.concatenate(([0], np.cumsum(lengths))).astype(np.int64))
    if not n:   # no text: no separator to join them by (the batch would hold no separator, not -1 of them)
        return Texts(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64))
    joined, sep = joined_apart(strings)
    if sep is None:   # every separator is used by the texts themselves: one text at a time
        return to_texts([transform(s) for s in strings])
    cp = codepoints(transform(joined))
    del joined
    at, starts = separator_positions(cp, sep, n)
    ends = np.concatenate((at, [len(cp)]))
    keep = np.ones(len(cp), dtype=bool)
    keep[at] = False
    offsets = np.concatenate(([0], np.cumsum(ends - starts))).astype(np.int64)
    return Texts(cp[keep], offsets)


def codepoints(text):
    """The code points of ``text`` (int64)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int64)


# -- tokens ----------------------------------------------------------------------------------------------------
@dataclass
class Tokens:
    """Token ``k`` is code ``codes[k]``; text ``i`` holds tokens ``offsets[i]:offsets[i + 1]``; ``vocabulary``
    gives the string of each code (made when asked: only messages, stemming and tests need it)."""

    codes: np.ndarray
    offsets: np.ndarray
    vocabulary: object

    def __len__(self):
        return len(self.offsets) - 1

    def lengths(self):
        return np.diff(self.offsets)

    def strings(self, i):
        """The tokens of text ``i`` as str (for tests and messages)."""
        words = self.vocabulary()
        return [words[c] for c in self.codes[self.offsets[i]:self.offsets[i + 1]]]


def spans(texts, keep, gap=None):
    """(start, end) of every token: the maximal runs of code points where ``keep``, not crossing a text's
    boundary nor a position ``i`` where ``gap[i]`` (a space before code point i), in order.

    >>> t = to_texts(["ab c", "d"])
    >>> [a.tolist() for a in spans(t, ~is_space(t.cp))]
    [[0, 3, 4], [2, 4, 5]]
    """
    n = len(texts.cp)
    first = np.zeros(n + 1, dtype=bool)
    first[texts.offsets] = True
    begins = keep.copy()
    begins[1:] &= first[1:n] | ~keep[:-1] | (gap[1:n] if gap is not None else False)
    ends_after = keep.copy()
    ends_after[:-1] &= first[1:n] | ~keep[1:] | (gap[1:n] if gap is not None else False)
    return np.flatnonzero(begins), np.flatnonzero(ends_after) + 1


def token_offsets(texts, starts):
    """Per text, the offsets of its tokens among tokens starting at ``starts`` (sorted)."""
    return np.searchsorted(starts, texts.offsets, side="left").astype(np.int64)


_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _splitmix(x):
    x = x ^ (x >> np.uint64(30))
    x = x * _MIX1
    x = x ^ (x >> np.uint64(27))
    x = x * _MIX2
    return x ^ (x >> np.uint64(31))


def code_spans(cp, starts, ends):
    """(code of every span, position of each code's first span): equal code point sequences get equal codes,
    in order of first appearance; exact (see the module's docstring). Spans are non-empty.

    >>> cp = codepoints("abxab")
    >>> [a.tolist() for a in code_spans(cp, np.array([0, 2, 3, 0]), np.array([2, 3, 5, 1]))]
    [[0, 1, 0, 2], [0, 1, 3]]
    """
    n = len(starts)
    if not n:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    starts = np.asarray(starts, dtype=np.int64)
    lengths = (ends - starts).astype(np.int64, copy=False)
    key, long = _packed_keys(cp, starts, lengths)
    if len(long):   # spans too long to pack: hashed, and their keys made negative (packed keys are not)
        long_len = lengths[long]
        owner = np.repeat(np.arange(len(long), dtype=np.int64), long_len)
        rel = np.arange(len(owner), dtype=np.int64) - np.repeat(np.cumsum(long_len) - long_len, long_len)
        chars = cp[np.repeat(starts[long], long_len) + rel]
        with np.errstate(over="ignore"):
            term = _splitmix((chars.astype(np.uint64) << np.uint64(24)) ^ rel.astype(np.uint64))
            hashed = np.add.reduceat(term, np.cumsum(long_len) - long_len)
            hashed = _splitmix(hashed + long_len.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))
        key[long] = (hashed | np.uint64(1 << 63)).view(np.int64)
    codes, first = group_keys(key, ordered=True)
    wrong = False
    if len(long):   # a hashed span is checked against its group's first, code point by code point
        rep = first[codes[long]]
        same = lengths[long] == lengths[rep]
        if same.all():
            rep_chars = cp[np.repeat(starts[rep], long_len) + rel]
            wrong = (np.bincount(owner, weights=(rep_chars != chars), minlength=len(long)) > 0).any()
        else:
            wrong = True
    if wrong:   # a 64-bit collision: group the strings themselves
        text = cp.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
        seen = {}
        codes = np.fromiter((seen.setdefault(text[s:e], len(seen)) for s, e in zip(starts.tolist(), ends.tolist())),
                            dtype=np.int64, count=n)
        first = np.full(len(seen), n, dtype=np.int64)
        np.minimum.at(first, codes, np.arange(n, dtype=np.int64))
    return codes, first


def _packed_keys(cp, starts, lengths):
    """(key of every span, the spans too long for one): a short span's key is its code points plus one, packed
    into the bits of an int64 (below 2^62, 0 past its end), so equal keys are equal spans; long spans get -1.

    >>> from itertools import product
    >>> alphabet = [chr(0), "a", "z", "{", chr(127)]
    >>> words = ["".join(w) for k in (1, 2, 3) for w in product(alphabet, repeat=k)] + ["a" * 9, "a" * 10]
    >>> t = to_texts(words)
    >>> len(set(code_spans(t.cp, t.offsets[:-1], t.offsets[1:])[0].tolist())) == len(words)   # no two alike
    True
    """
    if cp.dtype == np.uint8:
        return _byte_keys(cp, starts, lengths)
    bits = int(cp.max() + 1).bit_length() if len(cp) else 1
    most = 62 // bits   # code points a key holds
    key = np.zeros(len(starts), dtype=np.int64)
    short = lengths <= most
    if short.all():
        long = np.zeros(0, dtype=np.int64)
        rows = None
    else:
        long = np.flatnonzero(~short)
        rows = np.flatnonzero(short)
    s, ln = (starts, lengths) if rows is None else (starts[rows], lengths[rows])
    part = np.zeros(len(s), dtype=np.int64)
    last = len(cp) - 1
    for k in range(int(ln.max()) if len(ln) else 0):
        part <<= bits
        part |= np.where(ln > k, cp[np.minimum(s + k, last)].astype(np.int64) + 1, 0)
    if rows is None:
        key = part
    else:
        key[rows] = part
        key[long] = -1
    return key, long


def _byte_keys(cp, starts, lengths):
    """``_packed_keys`` of one-byte code points (uint8): a span of at most 7 is read as the 8 bytes from its start
    at once (one unaligned 64-bit load per span), its own bytes kept and its length put in the eighth (below
    2^59: equal keys are equal spans).

    >>> _byte_keys(np.frombuffer(b"abab", dtype=np.uint8), np.array([0, 2, 0]), np.array([2, 2, 1]))[0].tolist()
    [144115188075881057, 144115188075881057, 72057594037928033]
    """
    short = lengths <= 7
    long = np.flatnonzero(~short) if not short.all() else np.zeros(0, dtype=np.int64)
    padded = np.zeros(len(cp) + 8, dtype=np.uint8)
    padded[:len(cp)] = cp
    words = np.ndarray((len(cp) + 1,), dtype="<u8", buffer=padded, strides=(1,))   # words[i]: bytes i..i+7
    key = words[starts]
    del padded, words
    length = np.minimum(lengths, 7).astype(np.uint64)
    key &= BYTE_MASKS[length]
    length <<= np.uint64(56)
    key |= length
    del length
    key = key.view(np.int64)
    key[long] = -1
    return key, long


def tokens_of(texts, starts, ends):
    """Tokens of the spans ``(starts, ends)`` of ``texts``."""
    codes, first = code_spans(texts.cp, starts, ends)
    offsets = token_offsets(texts, starts)

    made = []

    def vocabulary():   # made once, when first asked
        if not made:
            made.append([texts.cp[s:e].astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
                         for s, e in zip(starts[first].tolist(), ends[first].tolist())])
        return made[0]

    return Tokens(codes, offsets, vocabulary)


def recode(tokens, mapping):
    """``tokens`` with each code ``c`` replaced by the code of string ``mapping[c]`` (codes of equal strings
    merge, in order of first appearance)."""
    seen = {}
    new = np.fromiter((seen.setdefault(s, len(seen)) for s in mapping), dtype=np.int64, count=len(mapping))
    words = list(seen)
    codes = new[tokens.codes] if len(tokens.codes) else tokens.codes
    return Tokens(codes, tokens.offsets, lambda: words)


# -- sacreBLEU's tokenizers ------------------------------------------------------------------------------------
def _isolated_regexp(texts, cp, isolated, padded):
    """Positions with a space before them after sacreBLEU's regexp tokenizer (``tokenizer_re``) runs on each
    text, ``isolated`` being the characters that get a space on each side first (rule 1, and the Chinese
    characters of ``zh``); ``padded``: each text has a space at both ends (``13a``), else nothing (``zh``).

    The other three rules insert spaces only, scanning left to right without overlap: (2) a non-digit then
    ``.`` or ``,`` -> a space between and after; (3) ``.`` or ``,`` then a non-digit -> a space before and
    between; (4) a digit then ``-`` -> a space between and after. Which ``.`` and ``,`` they split depends on
    the runs of those characters and on what precedes and follows a run (a digit, anything else, or the end).
    """
    n = len(cp)
    gap = np.zeros(n + 1, dtype=bool)
    gap[:-1] |= isolated
    gap[1:] |= isolated
    seg_first = np.zeros(n + 1, dtype=bool)
    seg_first[texts.offsets] = True
    seg_last = np.zeros(n, dtype=bool)   # the last code point of its text
    seg_last[texts.offsets[1:][np.diff(texts.offsets) > 0] - 1] = True
    digit = (cp >= _ZERO) & (cp <= _NINE)
    pts = np.flatnonzero((cp == _DOT) | (cp == _COMMA))   # the points: the only places rules 2 and 3 change
    first_in_text = seg_first[pts]
    follows_point = np.zeros(len(pts), dtype=bool)
    follows_point[1:] = (pts[1:] == pts[:-1] + 1) & ~first_in_text[1:]
    # rule 2: runs of points; what precedes a run: 0 nothing, 1 a digit, 2 anything else
    prev_digit = digit[np.maximum(pts - 1, 0)] & ~first_in_text
    before = np.where(first_in_text, 2 if padded else 0, np.where(prev_digit, 1, 2))
    pos = _position_in_run(~follows_point)
    run_before = before[_run_first(~follows_point)]
    second = pts[np.where(run_before == 2, pos % 2 == 1, pos % 2 == 0)]
    gap[second] = True
    gap[second + 1] = True
    # rule 3: runs of points with no space inside, on the text rule 2 made
    joined = follows_point & ~gap[pts]
    pos = _position_in_run(~joined)
    last = np.ones(len(pts), dtype=bool)
    last[:-1] = ~joined[1:]
    is_second = np.zeros(n, dtype=bool)
    is_second[second] = True
    # what follows the last point of a run: 0 nothing, 1 a digit, 2 anything else (a space included)
    spaced = (gap[pts + 1] & ~seg_last[pts]) | is_second[pts]   # a space after it in its own text
    after = np.where(seg_last[pts] & ~spaced, 2 if padded else 0,
                     np.where(~spaced & digit[np.minimum(pts + 1, n - 1)] & ~seg_last[pts], 1, 2))
    run_first = _run_first(~joined)
    run_last = _run_last(last)
    run_length = run_last - run_first + 1
    first_of_pair = pts[(pos % 2 == 1) & ((pos < run_length) | (after[run_last] == 2))]
    gap[first_of_pair] = True
    gap[first_of_pair + 1] = True
    # rule 4: a digit then a hyphen (nothing above puts a space between them)
    hyphen_after_digit = np.zeros(n, dtype=bool)
    hyphen_after_digit[1:] = (cp[1:] == _HYPHEN) & digit[:-1] & ~seg_first[1:n]
    gap[:-1] |= hyphen_after_digit
    gap[1:] |= hyphen_after_digit
    return gap


def _position_in_run(starts):
    """1-based position of each item in its run (runs of consecutive items begin where ``starts``)."""
    idx = np.arange(len(starts))
    return idx - _run_first(starts) + 1


def _run_first(starts):
    """Index of the first item of each item's run."""
    return np.maximum.accumulate(np.where(starts, np.arange(len(starts)), 0)) if len(starts) else \
        np.zeros(0, dtype=np.int64)


def _run_last(lasts):
    """Index of the last item of each item's run (runs end where ``lasts``)."""
    n = len(lasts)
    if not n:
        return np.zeros(0, dtype=np.int64)
    return np.minimum.accumulate(np.where(lasts, np.arange(n), n - 1)[::-1])[::-1]


def _v13a(text):
    for old, new in V13A_REPLACEMENTS:
        text = text.replace(old, new)
    return text


def tokenize(strings, name, lowercase=False):
    """The tokens of BLEU's tokenizer ``name`` (``TOKENIZERS``) on each of ``strings``, as sacreBLEU 2.x applies
    it (trailing whitespace removed, lower-cased first when asked)."""
    strings = [s.lower().rstrip() if lowercase else s.rstrip() for s in strings]
    return TOKENIZERS[name](strings)


def _tokens_13a(strings):
    texts = to_texts(strings, _v13a)
    cp = texts.cp
    gap = _isolated_regexp(texts, cp, in_ranges(cp, REGEXP_ISOLATED), padded=True)
    return tokens_of(texts, *spans(texts, ~is_space(cp), gap))


def _tokens_zh(strings):
    texts = to_texts([s.strip() for s in strings])
    cp = texts.cp
    isolated = in_ranges(cp, REGEXP_ISOLATED) | in_ranges(cp, ZH_RANGES)
    gap = _isolated_regexp(texts, cp, isolated, padded=False)
    return tokens_of(texts, *spans(texts, ~is_space(cp), gap))


def _tokens_char(strings):
    texts = to_texts(strings)
    keep = ~is_space(texts.cp)
    starts = np.flatnonzero(keep)
    return tokens_of(texts, starts, starts + 1)


def _tokens_none(strings):
    texts = to_texts(strings)
    return tokens_of(texts, *spans(texts, ~is_space(texts.cp)))


TOKENIZERS = {"13a": _tokens_13a, "zh": _tokens_zh, "char": _tokens_char, "none": _tokens_none}


def words(strings):
    """Tokens split at whitespace (``str.split()``)."""
    return _tokens_none(list(strings))


def exact_matches(hypotheses, references, reference_segment):
    """Per hypothesis: 1 when it equals one of its references once both are stripped of whitespace at their
    ends (``str.strip``), else 0; ``references`` flat, ``reference_segment`` the hypothesis of each.

    >>> exact_matches([" a b", "c"], ["a b ", "x", "C"], np.array([0, 1, 1])).tolist()
    [1, 0]
    """
    hypotheses = [s.strip() for s in hypotheses]
    segment = np.asarray(reference_segment, dtype=np.int64)
    # one comparison of two str per reference (in C): no code point array, no coding of whole texts
    same = np.fromiter((hypotheses[i] == r.strip() for i, r in zip(segment.tolist(), references)), dtype=bool,
                       count=len(segment))
    out = np.zeros(len(hypotheses), dtype=np.int64)
    np.maximum.at(out, segment, same.astype(np.int64))
    return out
