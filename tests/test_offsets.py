"""Cells read from a file hold 32-bit offsets (half the memory of 64-bit ones); every operation gives the same.

csvscan gives int32 offsets for any file under 2 GiB; Cells.from_strings gives int64 ones. Here the same
strings are laid out as a CSV line would hold them (other bytes between the cells, so offsets are not
contiguous), once with each offset type, and every kernel the families use is compared on both and against
plain Python where Python has the answer.
"""
import numpy as np
from hypothesis import given, settings, strategies as st

from scorer.bytelevel import csvscan
from scorer.bytelevel.cells import Cells, offset_dtype
from scorer.bytelevel.grouping import Index, duplicated, factorize
from scorer.metrics.sets import code_cells, code_items
from scorer.bytelevel.tagcodes import encode_cells
from scorer.bytelevel.tokens import coded, numbers, token_counts

from helpers import split_tokens

WORDS = st.sampled_from(["a", "b", "ab", " a ", "A", "ａ", "字", "B-X", "I-X", "O", "0.25", "1e-3", "long keyword X",
                         "\u3000b", "", "x_y", "12", "keyword " * 9, "字" * 30, " " * 70 + "x", "\u3000" * 25])
CELLS = st.lists(st.lists(WORDS, max_size=4).map(" ".join) | WORDS, min_size=1, max_size=20)


def laid_out(strings, dtype):
    """Cells of ``strings`` inside one buffer with a comma and a byte of another column between them."""
    parts, start, end, at = [], [], [], 0
    for s in strings:
        raw = s.encode("utf-8")
        start.append(at)
        end.append(at + len(raw))
        parts.append(raw + b",z,")
        at += len(raw) + 3
    buf = np.frombuffer(b"".join(parts), dtype=np.uint8)
    return Cells(buf, np.array(start, dtype=dtype), np.array(end, dtype=dtype))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(strings=CELLS, other=CELLS)
def test_every_kernel_gives_the_same_on_32_and_64_bit_offsets(strings, other):
    small, large = laid_out(strings, np.int32), laid_out(strings, np.int64)
    assert small.start.dtype == np.int32 and large.start.dtype == np.int64
    for cells in (small, large):
        assert cells.tolist() == strings
        assert cells.strip().tolist() == [s.strip() for s in strings]
        assert cells.char_lengths().tolist() == [len(s) for s in strings]
        assert cells.compact().tolist() == strings
        codes, first = factorize(cells, ordered=True)
        seen = {}
        assert codes.tolist() == [seen.setdefault(s, len(seen)) for s in strings]
        assert duplicated(cells).tolist() == [s in strings[:k] for k, s in enumerate(strings)]
        distinct = list(dict.fromkeys(other))
        where = {s: k for k, s in enumerate(distinct)}
        assert Index(laid_out(distinct, cells.start.dtype)).get_indexer(cells).tolist() == [where.get(s, -1)
                                                                                          for s in strings]
        assert token_counts(cells).tolist() == [len(split_tokens(s)) for s in strings]
    tags = ["O", "B-X", "I-X"]
    assert encode_cells(small, tags).codes.tolist() == encode_cells(large, tags).codes.tolist()
    assert coded(small, tags).codes.tolist() == coded(large, tags).codes.tolist()
    a, b = numbers(small), numbers(large)
    assert np.array_equal(a[0], b[0], equal_nan=True) and a[1].tolist() == b[1].tolist()
    for (ra, ca, ia), (rb, cb, ib) in [(code_items(small, "_", ["strip"]), code_items(large, "_", ["strip"]))]:
        assert ra.tolist() == rb.tolist() and ca.tolist() == cb.tolist() and ia.tolist() == ib.tolist()
    ca, da = code_cells(small, ["strip", "casefold"])
    cb, db = code_cells(large, ["strip", "casefold"])
    assert ca.tolist() == cb.tolist() and da.tolist() == db.tolist()


def test_offsets_are_32_bit_below_two_gibibytes():
    assert offset_dtype(0) == np.int32 and offset_dtype(2 ** 31 - 2 ** 16 - 1) == np.int32
    assert offset_dtype(2 ** 31 - 2 ** 16) == np.int64 and offset_dtype(5 * 2 ** 30) == np.int64
    scanned = csvscan.scan(b'id,text\n1,"a, b"\n2,c\n', ",", skip_blank_lines=True)
    assert scanned.start.dtype == np.int32 and scanned.line.dtype == np.int32
    assert scanned.cells(1).tolist() == ["a, b", "c"] and scanned.line.tolist() == [2, 3]
