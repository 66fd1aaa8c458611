"""A column of text cells as offsets into one UTF-8 byte buffer, and exact operations on whole columns.

A million ids or keywords as Python strings cost about 60 bytes each, and
comparing them needs a hash table per call; here cell ``i`` is
``buf[start[i]:end[i]]`` of the bytes the file was read from, and comparing,
grouping and looking up cells runs in numpy on 64-bit words of those bytes.
Every grouping is exact: a 64-bit key only brings candidates together, each
candidate is then compared with its group's first member byte for byte, and
on a collision (two different cells, one key) the work is redone with Python
strings.

>>> cells = Cells.from_strings(["b", " a ", "b", ""])
>>> cells.strip().tolist(), factorize(cells.strip(), ordered=True)[0].tolist(), duplicated(cells).tolist()
(['b', 'a', 'b', ''], [0, 1, 0, 2], [False, False, True, False])
>>> Index(Cells.from_strings(["x", "b"])).get_indexer(cells).tolist()
[1, -1, 1, -1]
"""
import numpy as np

_MIX = np.uint64(0x9E3779B97F4A7C15)   # odd multiplier that spreads the words into one key
_STEP = 0xC2B2AE3D27D4EB4F              # word k of a cell is offset by k times this before it is mixed
_FINAL = np.uint64(0xFF51AFD7ED558CCD)  # odd multiplier of the key's last mixing
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)   # the word mixer's second odd multiplier
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_NUL = 0
PROBE_ROUNDS = 64   # hash-table rounds before crowded keys are sorted or searched instead
_FAST_UFUNC_AT = np.lib.NumpyVersion(np.__version__) >= "1.25.0"   # before, ufunc.at was slower than a sort
BLOCK = 1 << 16   # cells per numpy pass in keys, comparisons and look-ups: temporaries stay in cache
SHORT_WORDS = 4   # cells of up to this many 8-byte words are read a word at a time across a block of cells
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
                partial = _bytes_set(words[at] & _MASKS[edge & 7]).astype(np.int64)  # its word's, before it
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


def _flat(counts, budget=None):
    """(segment, index) for every index below ``counts[segment]``, in order, at most ``budget`` pairs at a time:
    segments of any lengths read as one flat run, a long one split over several passes.

    >>> [(s.tolist(), i.tolist()) for s, i in _flat(np.array([2, 0, 3]), budget=4)]
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
        for seg, offset in _flat(hi - lo):
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
    for seg, offset in _flat(hi - lo):
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


# -- exact keys, grouping and look-up --------------------------------------------------------------
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
    return cells.words().at(start) & _MASKS[keep]


def keys(cells):
    """A 64-bit key per cell from its length and all its bytes; equal cells have equal keys.

    key = F(length * MIX + sum over the cell's words w_k of h(w_k, k)), with h(., k) and F bijections: a cell of
    up to eight bytes has a key of its own for its length (``same`` relies on it), and the sum over words lets
    a long cell be read as flat runs of words, in any number of passes.
    """
    out = np.empty(len(cells), dtype=np.uint64)
    for a in range(0, len(cells), BLOCK):  # a block of cells at a time: the word temporaries stay small
        out[a:a + BLOCK] = _block_keys(cells[a:a + BLOCK])
    return out


def _word_hash(word, k):
    """h(word, k): what word ``k`` adds to its cell's key (``word``: a fresh uint64 array, changed in place; ``k``
    an int, or an array of one ``k`` per word). A full 64-bit mixer (two multiplications, three shifts), a
    bijection for each k: with one multiplication the sum over words stayed nearly linear in the bytes, and
    cells that differ by +d in one word and -d at the same place of another (``品牌167型号5``, ``品牌197型号2``)
    collided."""
    word += np.uint64(_STEP * k % 2 ** 64) if isinstance(k, int) else k.astype(np.uint64) * np.uint64(_STEP)
    word ^= word >> np.uint64(33)
    word *= _MIX
    word ^= word >> np.uint64(29)
    word *= _MIX2
    word ^= word >> np.uint64(32)
    return word


def _block_keys(cells):
    lengths = cells.lengths()
    key = lengths.astype(np.uint64) * _MIX
    words = cells.words()
    short = lengths <= 8 * SHORT_WORDS
    rows = np.flatnonzero(short & (lengths > 0))
    at, left = cells.start[rows], lengths[rows]
    for k in range(SHORT_WORDS):  # word by word: each step reads the next eight bytes of the cells that have them
        if not len(rows):
            break
        key[rows] += _word_hash(words.at(at) & _MASKS[np.minimum(left, 8)], k)
        more = left > 8
        rows, at, left = rows[more], at[more] + 8, left[more] - 8
    rows = np.flatnonzero(~short)
    if len(rows):
        key[rows] += _long_word_sums(cells, rows)
    key ^= key >> np.uint64(29)
    key *= _FINAL
    key ^= key >> np.uint64(32)
    return key


def _long_word_sums(cells, rows):
    """The sum of h(w_k, k) over the words of each of the cells ``rows``, their words read as flat runs."""
    start, lengths = cells.start[rows].astype(np.int64), cells.lengths_at(rows).astype(np.int64)
    sums = np.zeros(len(rows), dtype=np.uint64)
    words = cells.words()
    for seg, k in _flat((lengths + 7) >> 3):
        h = _word_hash(words.at(start[seg] + 8 * k) & _MASKS[np.minimum(lengths[seg] - 8 * k, 8)], k)
        heads = np.flatnonzero(np.concatenate(([True], seg[1:] != seg[:-1])))
        sums[seg[heads]] += np.add.reduceat(h, heads)
    return sums


def same(a, rows_a, b, rows_b, equal_keys=False):
    """True where cell ``rows_a[k]`` of ``a`` has exactly the bytes of cell ``rows_b[k]`` of ``b``.

    ``equal_keys``: the pairs are known to have equal ``keys``; then cells of equal length up to 8 bytes are
    equal already (for one length, the key of a one-word cell is a bijection of that word).
    """
    ok = np.empty(len(rows_a), dtype=bool)
    for k in range(0, len(rows_a), BLOCK):
        ok[k:k + BLOCK] = _block_same(a, rows_a[k:k + BLOCK], b, rows_b[k:k + BLOCK], equal_keys)
    return ok


def _block_same(a, rows_a, b, rows_b, equal_keys):
    la, lb = a.lengths_at(rows_a), b.lengths_at(rows_b)
    ok = la == lb
    short = la <= 8 * SHORT_WORDS
    live = np.flatnonzero(ok & short & (la > (8 if equal_keys else 0)))
    words_a, words_b = a.words(), b.words()
    at_a, at_b, left = a.start[rows_a[live]], b.start[rows_b[live]], la[live]
    while len(live):  # word by word, only while the bytes so far are equal and there are more
        mask = _MASKS[np.minimum(left, 8)]
        equal = (words_a.at(at_a) & mask) == (words_b.at(at_b) & mask)
        ok[live] = equal
        more = equal & (left > 8)
        live, at_a, at_b, left = live[more], at_a[more] + 8, at_b[more] + 8, left[more] - 8
    long = np.flatnonzero(ok & ~short)
    if len(long):
        ok[long] = _same_long(a, a.start[rows_a[long]], b, b.start[rows_b[long]], la[long])
    return ok


def _same_long(a, start_a, b, start_b, lengths):
    """True where the ``lengths`` bytes at ``start_a`` of ``a`` equal those at ``start_b`` of ``b``: the words of
    every pair read as flat runs."""
    start_a, start_b, lengths = start_a.astype(np.int64), start_b.astype(np.int64), lengths.astype(np.int64)
    ok = np.ones(len(lengths), dtype=bool)
    words_a, words_b = a.words(), b.words()
    for seg, k in _flat((lengths + 7) >> 3):
        mask = _MASKS[np.minimum(lengths[seg] - 8 * k, 8)]
        differ = (words_a.at(start_a[seg] + 8 * k) & mask) != (words_b.at(start_b[seg] + 8 * k) & mask)
        ok[seg[differ]] = False
    return ok


def _same_as_first(cells, codes, first):
    """True when every cell has exactly the bytes of the first cell of its code (keys were equal)."""
    for a in range(0, len(cells), BLOCK):
        part = codes[a:a + BLOCK]
        if not _block_same(cells, np.arange(a, a + len(part)), cells, first[part], equal_keys=True).all():
            return False
    return True


def factorize(cells, ordered=False):
    """(codes, first): a code per cell, equal cells alike, and the first cell of each code (``first[code]``).

    Codes follow the order of first appearance (as ``pandas.factorize``); ``ordered`` says a caller relies
    on that order.
    """
    if not len(cells):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    codes, first = group_keys(keys(cells), ordered)
    if not _same_as_first(cells, codes, first):  # a key collision
        return _factorize_strings(cells.tolist())
    return codes, first


def group_keys(key, ordered=False):
    """(codes, first) for the equal values of ``key`` (1-D integers), as ``factorize`` gives for cells: codes
    in order of first appearance (``ordered`` is kept for callers that need no order; they get it anyway).

    Equal keys meet in a hash table (linear probing, at least two slots per key): a few vectorized
    rounds instead of a sort. Keys crafted to crowd the table take too many rounds; those are sorted.

    >>> [a.tolist() for a in group_keys(np.array([7, 3, 7, 5]), ordered=True)]
    [[0, 1, 0, 2], [0, 1, 3]]
    """
    n = len(key)
    if not n:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    key = np.ascontiguousarray(key)
    if not _FAST_UFUNC_AT:
        return _sorted_groups(key)
    owner = _hash_owners(key.view(np.uint64) if key.dtype.itemsize == 8 else key.astype(np.int64).view(np.uint64))
    if owner is None:
        return _sorted_groups(key)
    first = np.full(n, n, dtype=owner.dtype)
    np.minimum.at(first, owner, np.arange(n, dtype=owner.dtype))  # each group's first position, whoever owns it
    first_of = first[owner]
    del owner
    is_first = np.zeros(n, dtype=bool)
    is_first[first_of] = True
    code = np.cumsum(is_first) - 1
    return code[first_of], np.flatnonzero(is_first)


def _hash_owners(key):
    """For each key, the position of one key equal to it (the same for all of them), or None when probing
    would take more than PROBE_ROUNDS rounds."""
    n = len(key)
    bits = max(4, (2 * n - 1).bit_length())
    mask = (1 << bits) - 1
    small = np.int32 if n < 2 ** 31 else np.int64
    table = np.full(1 << bits, -1, dtype=small)       # slot -> the position of the key that holds it
    slot = ((key * _MIX) >> np.uint64(64 - bits)).view(np.int64)  # multiplicative hashing: the top bits
    table[slot] = np.arange(n, dtype=small)  # the first round: every slot is free; of several claimants, one wins
    owner = table[slot]
    moving = key[owner] != key
    live = np.flatnonzero(moving)
    slot = (slot[live] + 1) & mask
    for _ in range(PROBE_ROUNDS - 1):
        if not len(live):
            return owner
        held = table[slot]
        free = held < 0
        table[slot[free]] = live[free]
        held[free] = table[slot[free]]
        equal = key[held] == key[live]
        owner[live[equal]] = held[equal]
        moving = ~equal
        live, slot = live[moving], (slot[moving] + 1) & mask
    return owner if not len(live) else None


def _sorted_groups(key):
    """``group_keys`` by a stable sort: equal keys side by side."""
    n = len(key)
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(sorted_key[1:], sorted_key[:-1], out=new[1:])
    del sorted_key
    first = order[new]   # each key's first position (stable: the earliest of equal keys comes first)
    group = np.cumsum(new)
    del new
    group -= 1
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = group
    del order, group
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    return rank[inverse], first[by_first]


def _factorize_strings(strings):
    seen = {}
    codes = np.fromiter((seen.setdefault(s, len(seen)) for s in strings), dtype=np.int64, count=len(strings))
    return codes, np.unique(codes, return_index=True)[1]


def duplicated(cells):
    """True for a cell equal to an earlier one (``pandas.Series.duplicated``)."""
    codes, first = factorize(cells)
    dup = np.ones(len(cells), dtype=bool)
    dup[first] = False
    return dup


class Index:
    """Distinct cells and their positions; ``get_indexer`` finds other cells among them, exactly.

    The vocabulary's cells must be distinct (``ValueError`` otherwise).
    """

    def __init__(self, cells):
        self.cells = cells
        key = keys(cells)
        self.order = np.argsort(key, kind="stable").astype(offset_dtype(len(key)), copy=False)
        self.sorted_keys = key[self.order]
        self.by_string = None
        if len(key) > 1 and (self.sorted_keys[1:] == self.sorted_keys[:-1]).any():
            strings = cells.tolist()
            self.by_string = {s: k for k, s in enumerate(strings)}
            if len(self.by_string) != len(strings):
                raise ValueError("the cells of an Index must be distinct")
        # keys are uniform 64-bit values: their top bits cut the sorted keys into buckets of about one key,
        # so a look-up reads its bucket's start and a key or two instead of searching the whole array
        bits = max(1, int(len(key)).bit_length())
        self._shift = np.uint64(64 - bits)
        start = np.zeros((1 << bits) + 1, dtype=np.int32 if len(key) < 2 ** 31 else np.int64)
        np.cumsum(np.bincount((self.sorted_keys >> self._shift).astype(np.intp), minlength=1 << bits), out=start[1:])
        self._bucket_start = start

    def __len__(self):
        return len(self.cells)

    def get_indexer(self, cells):
        """Position of each of ``cells`` in the index, -1 where it is not there."""
        if self.by_string is not None:
            return np.array([self.by_string.get(s, -1) for s in cells.tolist()], dtype=np.int64)
        if not len(self.cells) or not len(cells):
            return np.full(len(cells), -1, dtype=np.int64)
        position = np.empty(len(cells), dtype=np.int64)
        for a in range(0, len(cells), BLOCK):  # a block at a time: the look-up's temporaries stay small
            position[a:a + BLOCK] = self._block_indexer(cells[a:a + BLOCK])
        return position

    def _block_indexer(self, cells):
        key = keys(cells)
        bucket = (key >> self._shift).view(np.int64)
        slot, end = self._bucket_start[bucket], self._bucket_start[bucket + 1]
        del bucket
        hit = slot < end
        hit &= self.sorted_keys[np.minimum(slot, len(self.sorted_keys) - 1)] == key
        found = np.where(hit, slot, -1)
        live = np.flatnonzero(~hit & (slot + 1 < end))
        for _ in range(PROBE_ROUNDS):  # the rest of a bucket's keys, one step each: few buckets hold more than two
            if not len(live):
                break
            at = slot[live] + 1
            slot[live] = at
            hit = self.sorted_keys[at] == key[live]
            found[live[hit]] = at[hit]
            live = live[~hit & (at + 1 < end[live])]
        if len(live):  # a crowded bucket: searched
            at = np.minimum(np.searchsorted(self.sorted_keys, key[live]), len(self.sorted_keys) - 1)
            hit = self.sorted_keys[at] == key[live]
            found[live[hit]] = at[hit]
        rows = np.flatnonzero(found >= 0)
        position = np.full(len(cells), -1, dtype=np.int64)
        candidate = self.order[found[rows]]
        exact = _block_same(cells, rows, self.cells, candidate, equal_keys=True)
        position[rows[exact]] = candidate[exact]
        return position

    def tolist(self):
        return self.cells.tolist()
