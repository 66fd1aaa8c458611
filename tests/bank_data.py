"""The real CCF BDCI 2021 gold, read in place, and seeded ways to damage it into predictions."""
import csv
import random

from helpers import shared

TYPES = ("BANK", "PRODUCT", "COMMENTS_N", "COMMENTS_ADJ")


def real_gold():
    """(ids, texts, tag lists, classes) of shared/data/bank_ner/train_data_public.csv."""
    with open(shared("bank_ner", "train_data_public.csv"), encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return ([r["id"] for r in rows], [r["text"] for r in rows],
            [r["BIO_anno"].split(" ") for r in rows], [int(r["class"]) for r in rows])


def _entities(tags):
    """(start, end, type) of well-formed B-/I- runs; plain Python, for building perturbations only."""
    out, i = [], 0
    while i < len(tags):
        if tags[i].startswith("B-"):
            j = i + 1
            while j < len(tags) and tags[j] == "I-" + tags[i][2:]:
                j += 1
            out.append((i, j, tags[i][2:]))
            i = j
        else:
            i += 1
    return out


def _write(tags, start, end, kind):
    tags[start] = "B-" + kind
    for k in range(start + 1, end):
        tags[k] = "I-" + kind


def perturb(tag_lists, classes, seed, moved=0.0, dropped=0.0, retyped=0.0, stray=0.0, spurious=0.0, flipped=0.0):
    """Damaged copies of the gold: each rate applies per entity (per character for stray/spurious)."""
    rng = random.Random(seed)
    out_tags, out_classes = [], []
    for tags, cls in zip(tag_lists, classes):
        tags = list(tags)
        for start, end, kind in _entities(tags):
            roll = rng.random()
            if roll < dropped:
                tags[start:end] = ["O"] * (end - start)
            elif roll < dropped + retyped:
                _write(tags, start, end, rng.choice([t for t in TYPES if t != kind]))
            elif roll < dropped + retyped + moved:
                new_end = max(start + 1, min(len(tags), end + rng.choice([-1, 1])))
                tags[start:end] = ["O"] * (end - start)
                _write(tags, start, new_end, kind)
        for k in range(len(tags)):
            roll = rng.random()
            if roll < stray:
                tags[k] = "I-" + rng.choice(TYPES)
            elif roll < stray + spurious and tags[k] == "O":
                tags[k] = "B-" + rng.choice(TYPES)
        if rng.random() < flipped:
            cls = rng.choice([c for c in (0, 1, 2) if c != cls])
        out_tags.append(tags)
        out_classes.append(cls)
    return out_tags, out_classes


def submission_csv(ids, tag_lists, classes):
    lines = ["id,BIO_anno,class"] + ["%s,%s,%d" % (i, " ".join(t), c) for i, t, c in zip(ids, tag_lists, classes)]
    return "\n".join(lines) + "\n"


def gold_csv(ids, texts, tag_lists, classes):
    import io
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["id", "text", "BIO_anno", "class"])
    for row in zip(ids, texts, (" ".join(t) for t in tag_lists), classes):
        writer.writerow(row)
    return buf.getvalue()
