"""A column of text cells as offsets into one UTF-8 byte buffer, and exact operations on whole columns.

A million ids or keywords as Python strings cost about 60 bytes each; here cell ``i`` is
``buf[start[i]:end[i]]`` of the bytes the file was read from, and stripping, measuring, comparing with a
constant, joining and copying cells runs in numpy on 64-bit words of those bytes. Grouping and looking cells
up (``factorize``, ``duplicated``, ``Index``) is ``grouping``'s.

>>> cells = Cells.from_strings(["b", " a ", "b", ""])
>>> cells.strip().tolist(), cells.equals("b").tolist(), cells.char_lengths().tolist()
(['b', 'a', 'b', ''], [True, False, True, False], [1, 3, 1, 0])
"""
import numpy as np

BYTE_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)   # k low bytes
_NUL = 0
BLOCK = 1 << 16   # cells per numpy pass in keys, comparisons and look-ups: temporaries stay in cache
RUN = 1 << 16     # words (or bytes) of longer cells read per pass, a cell's own split over passes if need be
SLICE_BYTES = 1 << 12    # a cell at least this long is copied as one slice; shorter ones a block at a time
GATHER_BYTES = 1 << 18   # bytes of shorter cells copied per pass (each byte costs a few 8-byte indices)
STRIP_ROUNDS = 16        # spaces taken off each end one at a time, before longer runs are searched in windows
STRIP_WINDOW = 64        # bytes of the first such window; each next one is twice as wide
LONG_CELL = 1 << 20      # a cell longer than this has its characters counted a few megabytes at a time

# the characters Python's str.strip() removes: ASCII ones as bytes, the others as their UTF-8 encodings
ASCII_SPACE = np.zeros(256, dtype=bool)
ASCII_SPACE[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True
UNICODE_SPACES = ("\x85", "\xa0", "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006",
                  "\u2007", "\u2008", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000")
_WIDE_SPACES = {2: [], 3: []}
_SPACE_FIRST, _SPACE_LAST = ASCII_SPACE.copy(), ASCII_SPACE.copy()   # bytes a space can begin or end with
for _c in UNICODE_SPACES:
    _b = _c.encode("utf-8")
    _WIDE_SPACES[len(_b)].append(int.from_bytes(_b, "big"))
    _SPACE_FIRST[_b[0]] = _SPACE_LAST[_b[-1]] = True


class Cells:
    """Cell ``i`` is ``buf[start[i]:end[i]]``, UTF-8 text without NUL; ``buf`` is a uint8 array shared by many."""

    __slots__ = ("buf", "start", "end", "_words")

    def __init__(self, buf, start, end):
        self.buf = buf
        self.start = _offsets(start)
        self.end = _offsets(end)
        self._words = None

    @classmethod
    def from_strings(cls, strings):
        """Cells holding ``strings`` (any sequence of str without NUL), one joined buffer."""
        if not len(strings):
            return cls(np.zeros(0, np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64))
        try:
            data = "\0".join(strings).encode("utf-8", "surrogatepass")
        except TypeError:  # not all str
            strings = [s if type(s) is str else str(s) for s in strings]
            data = "\0".join(strings).encode("utf-8", "surrogatepass")
        buf = np.frombuffer(data, dtype=np.uint8)
        nul = np.flatnonzero(buf == _NUL)
        if len(nul) == len(strings) - 1:
            return cls(buf, np.concatenate(([0], nul + 1)), np.concatenate((nul, [len(buf)])))
        encoded = [s.encode("utf-8", "surrogatepass") for s in strings]  # a string holds NUL itself
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        end = np.cumsum(lengths)
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8), end - lengths, end)

    def __len__(self):
        return len(self.start)

    def __getitem__(self, index):
        """The cells at ``index`` (a boolean mask, an index array or a slice), sharing the buffer."""
        return Cells(self.buf, self.start[index], self.end[index])

    def lengths(self):
        """Byte length of every cell."""
        return self.end - self.start

    def lengths_at(self, rows):
        """Byte length of the cells ``rows`` (an index array)."""
        return self.end[rows] - self.start[rows]

    def text(self, i):
        """Cell ``i`` as a str."""
        i = int(i)
        return bytes(self.buf[self.start[i]:self.end[i]]).decode("utf-8", "surrogatepass")

    def tolist(self):
        """Every cell as a str (for messages, options off the fast path and small tables)."""
        if not len(self):
            return []
        return joined(self, b"\0").decode("utf-8", "surrogatepass").split("\0")

    def to_objects(self):
        """An object array of str."""
        out = np.empty(len(self), dtype=object)
        out[:] = self.tolist()
        return out

    def without_bytes(self, offsets):
        """A compact copy of the cells without the bytes at ``offsets`` (sorted offsets into the buffer, each inside
        a cell): the cells that hold none are copied as they are, the others a block at a time, those bytes taken
        out by one mask.

        >>> c = Cells.from_strings(['a""b', 'x', '""'])
        >>> c.without_bytes(np.array([1, 7])).tolist()
        ['a"b', 'x', '"']
        """
        lengths = self.lengths().astype(np.int64)
        first, last = np.searchsorted(offsets, self.start), np.searchsorted(offsets, self.end)
        taken = last - first
        kept = lengths - taken
        end = np.cumsum(kept)
        start = end - kept
        out = np.empty(int(end[-1]) if len(end) else 0, dtype=np.uint8)
        _gather(self, np.flatnonzero(taken == 0), out, start)
        touched = np.flatnonzero(taken > 0)
        if len(touched):
            part = self[touched]
            part_end = np.cumsum(lengths[touched])
            part_start = part_end - lengths[touched]
            joined_bytes = np.empty(int(part_end[-1]), dtype=np.uint8)
            _gather(part, np.arange(len(touched)), joined_bytes, part_start)
            n_taken = taken[touched]
            cell = np.repeat(np.arange(len(touched)), n_taken)
            rank = np.arange(len(cell)) - np.repeat(np.cumsum(n_taken) - n_taken, n_taken)
            where = offsets[first[touched][cell] + rank]   # the offsets inside each touched cell, in order
            keep = np.ones(len(joined_bytes), dtype=bool)
            keep[part_start[cell] + (where - part.start[cell])] = False
            packed = joined_bytes[keep]
            packed_end = np.cumsum(kept[touched])
            _gather(Cells(packed, packed_end - kept[touched], packed_end), np.arange(len(touched)), out,
                    start[touched])
        small = offset_dtype(len(out))
        return Cells(out, start.astype(small, copy=False), end.astype(small, copy=False))

    def compact(self):
        """A copy holding only these cells' bytes, in order: the buffer they were cut from can go.

        >>> c = Cells.from_strings(["ab", "cde"])[1:]
        >>> c.compact().tolist(), len(c.compact().buf)
        (['cde'], 3)
        """
        lengths = self.lengths()
        end = np.cumsum(lengths)
        start = end - lengths
        out = np.empty(int(end[-1]) if len(end) else 0, dtype=np.uint8)
        _gather(self, np.arange(len(self)), out, start)
        small = offset_dtype(len(out))
        return Cells(out, start.astype(small, copy=False), end.astype(small, copy=False))

    def words(self):
        if self._words is None:
            self._words = _Words(self.buf)
        return self._words

    # -- per-cell facts ---------------------------------------------------------------------------
    def equals(self, value):
        """True where the cell is exactly ``value`` (a str)."""
        raw = value.encode("utf-8")
        hit = self.lengths() == len(raw)
        rows = np.flatnonzero(hit)
        for w in range(0, len(raw), 8):  # one pass per eight bytes of the (short) constant
            if not len(rows):
                break
            ok = word(self, rows, w // 8) == np.uint64(int.from_bytes(raw[w:w + 8], "little"))
            hit[rows[~ok]] = False
            rows = rows[ok]
        return hit

    def isin(self, values):
        """True where the cell is one of ``values`` (a few str)."""
        hit = np.zeros(len(self), dtype=bool)
        for value in values:
            hit |= self.equals(value)
        return hit

    def contains(self, value):
        """True where ``value`` (a str) occurs in the cell."""
        raw = value.encode("utf-8")
        out = np.zeros(len(self), dtype=bool)
        if not raw:
            out[:] = True
            return out
        source = self.buf.base  # the bytes the buffer was read from: a match must lie in them
        if isinstance(source, bytes) and len(source) == len(self.buf) and len(self):
            if source.find(raw, int(self.start.min()), int(self.end.max())) < 0:
                return out
        data = joined(self, b"\0")  # cells never hold NUL, so no match crosses two cells
        if raw not in data:
            return out
        hits = find_all(np.frombuffer(data, dtype=np.uint8), raw, 0, len(data))
        starts = np.cumsum(self.lengths() + 1) - self.lengths() - 1
        out[np.searchsorted(starts, hits, side="right") - 1] = True
        return out

    def strip(self):
        """The cells without leading and trailing white space, exactly as ``str.strip()`` (Unicode spaces too).

        Cells whose first and last bytes can begin and end no space (nearly always all of them) are given
        back as they are, sharing the offsets.
        """
        if not self._may_be_padded():
            return Cells(self.buf, self.start, self.end)
        start, end = self.start.copy(), self.end.copy()
        buf = self.buf
        for _ in range(STRIP_ROUNDS):  # each round takes one space character off each end that has one
            if not len(start):
                break
            moved = False
            for edge, sign, leading in ((start, 1, True), (end, -1, False)):
                rows = np.flatnonzero(start < end)
                if len(rows):
                    width = _space_width(buf, start[rows], end[rows], leading=leading)
                    took = width > 0
                    if took.any():
                        edge[rows[took]] += sign * width[took]
                        moved = True
            if not moved:
                return Cells(buf, start, end)
        # more spaces than the rounds took at some end: the rest of each such run is found in windows
        rows = np.flatnonzero(start < end)
        rows = rows[_space_width(buf, start[rows], end[rows], True) > 0]
        start[rows] = _first_nonspace(buf, start[rows], end[rows])
        rows = np.flatnonzero(start < end)
        rows = rows[_space_width(buf, start[rows], end[rows], False) > 0]
        end[rows] = _end_of_last_nonspace(buf, start[rows], end[rows])
        return Cells(buf, start, end)

    def without_leading(self, char):
        """The cells without the run of ``char`` (one ASCII character) they begin with, as ``str.lstrip(char)``.

        >>> Cells.from_strings(["007", "0", "70", ""]).without_leading("0").tolist()
        ['7', '', '70', '']
        """
        byte = ord(char)
        start = self.start.copy()
        if not len(self.buf):
            return Cells(self.buf, start, self.end)
        rows = np.flatnonzero((start < self.end) & (self.buf[np.minimum(start, len(self.buf) - 1)] == byte))
        start[rows] = _first_where(self.buf, start[rows], self.end[rows], _other_bytes(byte))
        return Cells(self.buf, start, self.end)

    def _may_be_padded(self):
        """False when no non-empty cell starts with a byte that can begin a space or ends with one that can end one."""
        if not len(self.buf):
            return False
        last = len(self.buf) - 1
        for a in range(0, len(self), BLOCK):
            start, end = self.start[a:a + BLOCK], self.end[a:a + BLOCK]
            edge = _SPACE_FIRST[self.buf[np.minimum(start, last)]] | _SPACE_LAST[self.buf[np.maximum(end - 1, 0)]]
            if (edge & (start < end)).any():
                return True
        return False

    def char_lengths(self):
        """Characters (code points) in each cell: its bytes minus UTF-8 continuation bytes."""
        out = self.lengths().copy()
        is_long = out > LONG_CELL
        long = np.flatnonzero(is_long)
        for i in long.tolist():  # each at least a megabyte: a few megabytes of it at a time
            for a in range(int(self.start[i]), int(self.end[i]), 4 * LONG_CELL):
                piece = self.buf[a:min(a + 4 * LONG_CELL, int(self.end[i]))]
                out[i] -= int(np.count_nonzero((piece & np.uint8(0xC0)) == 0x80))
        short = np.flatnonzero(~is_long) if len(long) else slice(None)
        start, end = self.start[short], self.end[short]
        rows_of = np.arange(len(out))[short]
        for rows, lo, hi in _spans(start, end, 1 << 22):
            lo -= lo % 8  # whole words from here
            n_words = -(-(hi - lo) // 8)
            words = np.zeros(n_words + 1, dtype=np.uint64)  # one zero word past the end
            words.view(np.uint8)[:hi - lo] = self.buf[lo:hi]
            # the top bit of each byte 10xxxxxx (a continuation byte): bit 7 set, bit 6 clear
            words &= ~(words << np.uint64(1))
            words &= np.uint64(0x8080808080808080)
            if not words.any():
                continue
            before = np.zeros(n_words + 2, dtype=np.uint64)   # continuation bytes in the words before each
            np.cumsum(_bytes_set(words), out=before[1:])
            before = before.astype(np.int64)
            cells = rows_of[rows]
            for edge, sign in ((end[rows] - lo, -1), (start[rows] - lo, 1)):
                at = edge >> 3
                partial = _bytes_set(words[at] & BYTE_MASKS[edge & 7]).astype(np.int64)  # its word's, before it
                partial += before[at]
                out[cells] += sign * partial
        return out


def offset_dtype(n_bytes):
    """The integer type of offsets into a buffer of ``n_bytes``: 32 bits while they fit (half the memory)."""
    return np.int32 if n_bytes < 2 ** 31 - 2 ** 16 else np.int64


def offset_value(offsets, value):
    """``value`` as a number of the type of ``offsets`` (capped at its largest), to search them with: numpy would
    otherwise copy a 32-bit array to 64 bits for every search, a pass over it each time.

    >>> offset_value(np.zeros(2, np.int32), 2 ** 40).dtype, int(offset_value(np.zeros(2, np.int32), 2 ** 40))
    (dtype('int32'), 2147483647)
    """
    kind = offsets.dtype.type
    return kind(min(value, np.iinfo(kind).max))


def _offsets(values):
    values = np.asarray(values)
    return values if values.dtype == np.int32 or values.dtype == np.int64 else values.astype(np.int64)


def _bytes_set(words):
    """How many bytes of each word have their top bit set (words holding only top bits, 0x80 or 0)."""
    return ((words >> np.uint64(7)) * np.uint64(0x0101010101010101)) >> np.uint64(56)


def _space_width(buf, start, end, leading):
    """Byte width of the white-space character at the start (or end) of each non-empty cell, 0 if none."""
    n = end - start
    if leading:
        first = buf[start]
        width = ASCII_SPACE[first].astype(np.int64)
        wide = np.flatnonzero(first >= 0xC2)
    else:
        last = buf[end - 1]
        width = ASCII_SPACE[last].astype(np.int64)
        wide = np.flatnonzero(last >= 0x80)
    for size, codes in _WIDE_SPACES.items():
        rows = wide[n[wide] >= size]
        if not len(rows):
            continue
        at = start[rows] if leading else end[rows] - size
        value = np.zeros(len(rows), dtype=np.int64)
        for k in range(size):
            value = (value << 8) | buf[at + k]
        width[rows[np.isin(value, codes)]] = size
    return width


def _spans(start, end, budget):
    """(indices, lo, hi): groups of the cells ``[start, end)``, in buffer order, whose bytes lie in buf[lo:hi] of
    about ``budget`` bytes (more by the longest cell)."""
    if not len(start):
        return
    order = np.argsort(start, kind="stable")
    start, end = start[order], end[order]
    reach = np.maximum.accumulate(end)
    k = 0
    while k < len(order):
        lo = int(start[k])
        stop = int(np.searchsorted(start, offset_value(start, lo + budget), side="left"))
        stop = max(stop, k + 1)
        yield order[k:stop], lo, int(reach[stop - 1])
        k = stop


def segment_indices(counts, budget=None):
    """(segment, index) for every index below ``counts[segment]``, in order, at most ``budget`` pairs at a time:
    segments of any lengths read as one flat run, a long one split over several passes.

    >>> [(s.tolist(), i.tolist()) for s, i in segment_indices(np.array([2, 0, 3]), budget=4)]
    [([0, 0, 2, 2], [0, 1, 0, 1]), ([2], [2])]
    """
    budget = budget or RUN
    counts = np.asarray(counts, dtype=np.int64)
    ends = np.cumsum(counts)
    total = int(ends[-1]) if len(ends) else 0
    for lo in range(0, total, budget):
        hi = min(total, lo + budget)
        first = int(np.searchsorted(ends, lo, side="right"))
        last = int(np.searchsorted(ends, hi - 1, side="right"))
        segments = np.arange(first, last + 1)
        begin = ends[segments] - counts[segments]
        taken = np.minimum(ends[segments], hi) - np.maximum(begin, lo)
        yield np.repeat(segments, taken), np.arange(lo, hi) - np.repeat(begin, taken)


def _first_nonspace(buf, start, end):
    """For each cell ``[start, end)`` beginning with white space, where its first other character begins (its end
    when it is all space)."""
    return _first_where(buf, start, end, _nonspace_starts)


def _first_where(buf, start, end, found_in):
    """For each cell ``[start, end)``, the first offset that ``found_in(buf, lo, hi, end)`` gives (the (cell, offset)
    pairs it finds in the windows ``[lo, hi)``, in order), or the cell's end: windows of doubling width from the
    start, so a long run before the first find costs its bytes, whatever the cells' lengths."""
    start, end = start.astype(np.int64), end.astype(np.int64)
    found = end.copy()
    width = STRIP_WINDOW
    todo = np.arange(len(start))
    lo = start.copy()
    while len(todo):
        hi = np.minimum(lo[todo] + width, end[todo])
        seg, pos = found_in(buf, lo[todo], hi, end[todo])
        first = np.full(len(todo), -1, dtype=np.int64)
        heads = np.flatnonzero(np.concatenate(([True], seg[1:] != seg[:-1]))) if len(seg) else seg
        first[seg[heads]] = pos[heads]   # cells, and positions within each, come in rising order
        hit = first >= 0
        found[todo[hit]] = first[hit]
        lo[todo] = hi
        todo = todo[~hit & (hi < end[todo])]
        width *= 2
    return found


def _end_of_last_nonspace(buf, start, end):
    """For each cell ``[start, end)`` ending with white space (and holding other characters), where its last
    character that is no white space ends: windows of doubling width from the end."""
    start, end = start.astype(np.int64), end.astype(np.int64)
    found = start.copy()
    width = STRIP_WINDOW
    todo = np.arange(len(start))
    hi = end.copy()
    while len(todo):
        lo = np.maximum(hi[todo] - width, start[todo])
        seg, pos = _nonspace_starts(buf, lo, hi[todo], end[todo])
        last = np.full(len(todo), -1, dtype=np.int64)
        tails = np.flatnonzero(np.concatenate((seg[1:] != seg[:-1], [True]))) if len(seg) else seg
        last[seg[tails]] = pos[tails]   # cells, and positions within each, come in rising order
        hit = last >= 0
        lead = buf[last[hit]]
        found[todo[hit]] = last[hit] + 1 + (lead >= 0xC0) + (lead >= 0xE0) + (lead >= 0xF0)   # its UTF-8 length
        hi[todo] = lo
        todo = todo[~hit & (lo > start[todo])]
        width *= 2
    return found


def _other_bytes(byte):
    """A ``found_in`` for ``_first_where``: the offsets in the windows whose byte is not ``byte``."""
    def found_in(buf, lo, hi, end):
        segs, positions = [], []
        for seg, offset in segment_indices(hi - lo):
            pos = lo[seg] + offset
            keep = buf[pos] != byte
            segs.append(seg[keep])
            positions.append(pos[keep])
        if not segs:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(segs), np.concatenate(positions)
    return found_in


def _nonspace_starts(buf, lo, hi, end):
    """(cell, position) of every byte in the windows ``[lo, hi)`` that begins a character that is no white space
    (``end``: each cell's end, which a space must not cross), in order."""
    segs, positions = [], []
    for seg, offset in segment_indices(hi - lo):
        pos = lo[seg] + offset
        keep = (buf[pos] & np.uint8(0xC0)) != 0x80   # the first byte of a character
        keep &= _space_width(buf, pos, end[seg], leading=True) == 0
        segs.append(seg[keep])
        positions.append(pos[keep])
    if not segs:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(segs), np.concatenate(positions)


def find_all(buf, raw, lo, hi):
    """Start offsets of every occurrence of the bytes ``raw`` in ``buf[lo:hi]`` (overlapping ones too)."""
    first = raw[0]
    out = []
    step = 1 << 22
    for a in range(lo, hi, step):
        b = min(hi, a + step + len(raw) - 1)
        piece = buf[a:b]
        cand = np.flatnonzero(piece[:max(0, min(step, b - a - len(raw) + 1))] == first)
        for k in range(1, len(raw)):
            if not len(cand):
                break
            cand = cand[piece[cand + k] == raw[k]]
        out.append(cand + a)
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def concatenate_freeing(parts, dtype=np.int64):
    """``np.concatenate(parts)`` as ``dtype``, freeing each part once copied (``parts`` is emptied): the whole
    never exists twice, as it would while ``np.concatenate`` holds the parts and the result.

    >>> parts = [np.array([1, 2]), np.array([3])]
    >>> concatenate_freeing(parts).tolist(), parts
    ([1, 2, 3], [])
    """
    out = np.empty(sum(len(p) for p in parts), dtype=dtype)
    at = 0
    parts.reverse()
    while parts:
        part = parts.pop()
        out[at:at + len(part)] = part
        at += len(part)
    return out


def joined(cells, separator):
    """The bytes of every cell, in order, with ``separator`` (bytes) between them."""
    n = len(cells)
    if not n:
        return b""
    lengths = cells.lengths()
    sep = np.frombuffer(separator, dtype=np.uint8)
    out = np.empty(int(lengths.sum()) + len(sep) * (n - 1), dtype=np.uint8)
    at = np.cumsum(lengths + len(sep)) - lengths - len(sep)
    for k, byte in enumerate(sep):
        out[at[1:] - len(sep) + k] = byte
    _gather(cells, np.arange(n), out, at)
    return out.tobytes()


def _gather(cells, rows, out, at):
    """Copy the bytes of cells ``rows`` into ``out``, cell ``rows[k]`` at ``at[rows[k]]``.

    A long cell is one slice copy; the others are copied a block of about GATHER_BYTES at a time, each byte
    through an index, so the index arrays stay small whatever the cells' lengths.
    """
    lengths = cells.lengths()
    counts = lengths[rows]
    long = counts >= SLICE_BYTES
    if long.any():
        for i in rows[long].tolist():
            begin, n, to = int(cells.start[i]), int(lengths[i]), int(at[i])
            out[to:to + n] = cells.buf[begin:begin + n]
        rows, counts = rows[~long], counts[~long]
    ends = np.cumsum(counts, dtype=np.int64)
    k = 0
    while k < len(rows):
        done = int(ends[k - 1]) if k else 0
        stop = int(np.searchsorted(ends, done + GATHER_BYTES, side="right"))
        stop = min(max(stop, k + 1), k + BLOCK)
        part, n = rows[k:stop], counts[k:stop]
        k = stop
        total = int(n.sum())
        if not total:
            continue
        shift = np.repeat(np.cumsum(n) - n, n)
        offset = np.arange(total) - shift
        out[np.repeat(at[part], n) + offset] = cells.buf[np.repeat(cells.start[part], n) + offset]


# -- words of cells ---------------------------------------------------------------------------------
class _Words:
    """The little-endian 8-byte word at any offset of a buffer; bytes past its end read as 0."""

    def __init__(self, buf):
        n = len(buf)
        self.n = n
        if n >= 8:
            self.view = np.ndarray(shape=(n - 7,), dtype="<u8", buffer=buf, strides=(1,))
        else:
            self.view = np.zeros(0, dtype=np.uint64)
        k = min(n, 8)
        tail = np.zeros(16, dtype=np.uint8)
        tail[:k] = buf[n - k:]
        self.tail = np.ndarray(shape=(9,), dtype="<u8", buffer=tail, strides=(1,))
        self.tail_from = n - k

    def at(self, pos):
        if not len(pos) or int(pos.max()) < self.n - 7:  # the usual case: no word runs past the end
            return self.view[pos]
        inside = pos < self.n - 7
        out = np.empty(len(pos), dtype=np.uint64)
        out[inside] = self.view[pos[inside]]
        out[~inside] = self.tail[np.minimum(pos[~inside] - self.tail_from, 8)]  # past the end: zeros
        return out


def word(cells, rows, w):
    """Word ``w`` (bytes 8w..8w+7) of the cells ``rows``, zero past each cell's end."""
    start = cells.start[rows] + 8 * w
    keep = np.clip(cells.end[rows] - start, 0, 8)
    return cells.words().at(start) & BYTE_MASKS[keep]
