"""Entities as typed spans, decoded from BIO tag codes with an explicit tagging scheme.

Tags are coded as integers: 0 = ``O``, ``2k+1`` = ``B-<type k>``, ``2k+2`` =
``I-<type k>``. A *continuation* is an ``I-X`` right after a ``B-X`` or ``I-X``
of the same document. Cutting the tag stream before every position that is not
a continuation gives segments; which segments are entities is what the scheme
decides:

- ``IOB2`` (strict, seqeval ``mode="strict", scheme=IOB2``): a segment is an
  entity only if it starts with ``B-``; a stray ``I-`` starts nothing.
- ``CONLLEVAL`` (seqeval's default mode, conlleval.pl): a segment that starts
  with ``I-`` is an entity too.

Example, one document ``O I-PER I-PER O B-LOC I-PER``: IOB2 gives LOC [4, 5);
CONLLEVAL gives PER [1, 3), LOC [4, 5) and PER [5, 6). An empty stream has no entity.

References: seqeval's ``metrics/sequence_labeling.py`` (``get_entities``) and ``scheme.py`` (``IOB2``,
strict mode); the CoNLL-2000 ``conlleval`` script.

>>> tags = TagSet(["LOC", "PER"]).tags   # O, B-LOC, I-LOC, B-PER, I-PER
>>> codes = np.array([tags.index(t) for t in "O I-PER I-PER O B-LOC I-PER".split()])
>>> start = np.array([True, False, False, False, False, False])
>>> def entities(scheme):
...     e = decode(codes, start, scheme)
...     return [(["LOC", "PER"][k], a, b) for a, b, k in zip(e.start.tolist(), e.end.tolist(), e.type.tolist())]
>>> entities(IOB2), entities(CONLLEVAL)
([('LOC', 4, 5)], [('PER', 1, 3), ('LOC', 4, 5), ('PER', 5, 6)])
"""
from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class Scheme:
    name: str
    inside_starts_entity: bool
    description: str


IOB2 = Scheme("iob2", False, "strict IOB2: an entity starts only at B-X and continues over I-X of the same type")
CONLLEVAL = Scheme("conlleval", True, "conlleval chunking: an I-X that continues nothing starts an entity too")
SCHEMES = {s.name: s for s in (IOB2, CONLLEVAL)}


@dataclass(frozen=True)
class TagSet:
    """The tag vocabulary of a task: ``O`` plus ``B-``/``I-`` of each entity type."""

    types: Sequence[str]

    @property
    def tags(self):
        out = ["O"]
        for t in self.types:
            out += ["B-" + t, "I-" + t]
        return out


@dataclass
class Spans:
    """Entities as parallel arrays: global start, end (exclusive) and type index."""

    start: np.ndarray
    end: np.ndarray
    type: np.ndarray

    def __len__(self):
        return len(self.start)



def search_sorted(a, v, side="left", block=1 << 14):
    """``np.searchsorted(a, v, side)`` for sorted ``v``: each block of ``v`` searches only the stretch of ``a``
    between its first and last values, which stays in the cache.

    >>> search_sorted(np.array([1, 3, 5, 7]), np.array([0, 3, 4, 9]), block=2).tolist()
    [0, 1, 2, 4]
    """
    out = np.empty(len(v), dtype=np.intp)
    for k in range(0, len(v), block):
        part = v[k:k + block]
        lo = int(np.searchsorted(a, part[0], side))
        hi = int(np.searchsorted(a, part[-1], side))
        found = np.searchsorted(a[lo:hi], part, side)
        found += lo
        out[k:k + block] = found
    return out


def match(gold, pred):
    """Which gold and which predicted spans have an exact twin (same start, end and type).

    Returns two boolean masks (gold_hit, pred_hit). The spans of each side never overlap, so their starts
    are strictly increasing: a twin is the one gold span that starts where the prediction starts.

    >>> [m.tolist() for m in match(Spans(np.array([0, 4]), np.array([2, 6]), np.array([0, 1])),
    ...                            Spans(np.array([0, 4, 7]), np.array([2, 5, 8]), np.array([0, 1, 1])))]
    [[True, False], [True, False, False]]
    """
    gold_hit = np.zeros(len(gold), dtype=bool)
    if not len(gold):
        return gold_hit, np.zeros(len(pred), dtype=bool)
    at = np.minimum(search_sorted(gold.start, pred.start), len(gold) - 1)
    pred_hit = gold.start[at] == pred.start
    pred_hit &= gold.end[at] == pred.end
    pred_hit &= gold.type[at] == pred.type
    gold_hit[at[pred_hit]] = True
    return gold_hit, pred_hit


CHUNK = 1 << 20  # tokens handled at once: temporaries stay small (and in cache) on million-document streams


def _chunks(doc_start, n):
    """(a, b) slices of a stream of ``n`` tokens, each about CHUNK long, cut only where a document starts."""
    if n <= CHUNK:
        return [(0, n)]
    starts = np.flatnonzero(doc_start)
    at = np.searchsorted(starts, np.arange(CHUNK, n, CHUNK))   # the first document start past each mark
    cuts = np.unique(starts[at[at < len(starts)]])
    edges = [0] + [int(c) for c in cuts if 0 < c < n] + [n]
    return list(zip(edges[:-1], edges[1:]))


def _continuations(codes, doc_start):
    """Boolean mask of the positions that continue the previous tag's chunk: ``I-X`` (code 2k+2) right after
    ``B-X`` (2k+1) or ``I-X`` (2k+2) of the same document. Up to 7 types, a table of every (previous tag,
    tag) pair coded in a byte; from 8 types on, the same rule written with comparisons."""
    if not len(codes):
        return np.zeros(0, dtype=bool)
    lowest, highest = int(codes.min()), int(codes.max())
    if lowest >= 0 and (highest + 1) ** 2 <= 256:  # a table of every (previous tag, tag) pair
        width = highest + 1
        pair = np.empty(len(codes), dtype=np.uint8)
        pair[0] = codes[0]  # the previous tag of the first one is O
        np.multiply(codes[:-1], width, out=pair[1:], casting="unsafe")
        np.add(pair[1:], codes[1:], out=pair[1:], casting="unsafe")
        cont = _continuation_table(width)[pair]
        return np.greater(cont, doc_start, out=cont)  # and not at a document's start
    prev = np.empty_like(codes)
    prev[:1] = 0
    prev[1:] = codes[:-1]
    is_inside = (codes > 0) & (codes % 2 == 0)
    return is_inside & ((prev == codes) | (prev == codes - 1)) & ~doc_start


_TABLES = {}


def _continuation_table(width):
    """t[prev * width + tag]: ``tag`` is an I-X right after B-X or I-X."""
    if width not in _TABLES:
        prev, tag = np.divmod(np.arange(width * width), width)
        _TABLES[width] = (tag > 0) & (tag % 2 == 0) & ((prev == tag) | (prev == tag - 1))
    return _TABLES[width]


@dataclass
class Segments:
    """The non-O segments of a tag stream, in order: start, end (exclusive) and the code of the first tag.

    Every scheme's entities and the stray ``I-`` tags are read from them, so one pass over a stream serves
    both schemes and the error counts.
    """

    start: np.ndarray
    end: np.ndarray
    first: np.ndarray

    def entities(self, scheme):
        """The entities of ``scheme`` (Spans): every segment, or (IOB2) those that start with a ``B-``."""
        start, end, first = self.start, self.end, self.first
        if not scheme.inside_starts_entity:
            keep = first % 2 == 1
            start, end, first = start[keep], end[keep], first[keep]
        kind = first.astype(np.int64)  # 64-bit: the views gather types by index, fastest at this width
        kind -= 1
        kind //= 2
        return Spans(start, end, kind)

    def of_documents(self, keep, lengths):
        """The segments of the documents where ``keep`` is true (documents of ``lengths`` tags), placed as in
        the stream of those documents alone: a segment never crosses a document's edge.

        >>> s = Segments(np.array([0, 3, 5]), np.array([2, 4, 6]), np.array([1, 1, 3]))
        >>> [a.tolist() for a in vars(s.of_documents(np.array([True, False, True]), np.array([3, 2, 2]))).values()]
        [[0, 3], [2, 4], [1, 3]]
        """
        doc = np.searchsorted(np.cumsum(lengths), self.start, side="right")
        inside = keep[doc]
        removed = np.where(keep, 0, lengths)
        shift = (np.cumsum(removed) - removed)[doc[inside]]   # tags of dropped documents before each one
        return Segments(self.start[inside] - shift, self.end[inside] - shift, self.first[inside])

    def stray(self):
        """Positions of ``I-X`` tags that continue nothing (ill-formed under IOB2): the segments they start."""
        return self.start[self.first % 2 == 0]


def segments(codes, doc_start):
    """The Segments of a tag-code stream.

    ``codes``: int array of tag codes of all documents, concatenated;
    ``doc_start``: bool array, True at the first position of each document.
    Every non-O segment has exactly one first position (not a continuation)
    and one last position (not followed by a continuation), in the same order,
    so the segments are found without touching the ``O`` positions one by one.
    The stream is read a million tokens at a time, cut between documents.
    """
    codes = np.asarray(codes)
    doc_start = np.asarray(doc_start)
    opens = np.empty(len(codes), dtype=bool)    # the first tag of a segment
    closes = np.empty(len(codes), dtype=bool)   # the last tag of a segment
    for a, b in _chunks(doc_start, len(codes)):  # a chunk ends before a document starts: nothing continues it
        piece = codes[a:b]
        cont = _continuations(piece, doc_start[a:b])
        tagged = piece > 0
        np.greater(tagged, cont, out=opens[a:b])
        closes[b - 1:b] = tagged[-1:]
        np.greater(tagged[:-1], cont[1:], out=closes[a:b - 1])
    start = np.flatnonzero(opens)
    del opens
    end = np.flatnonzero(closes)
    del closes
    end += 1
    return Segments(start, end, codes[start])


def decode(codes, doc_start, scheme):
    """Entities of a tag-code stream under ``scheme`` (``segments`` has the details)."""
    return segments(codes, doc_start).entities(scheme)
