"""Generate the multi-label demo: support tickets tagged with topics (all invented, seeded).

    python3 -m organizer demo multilabel [--tickets 3000] [--seed 2009] [--out examples/multilabel]

Writes reference_data/{labels.txt,gold.csv}, starting_kit/{labels.txt,test_public.csv,
sample_submission.csv} and logo.png. Each ticket has 0 to 3 topics (a few have
none); its main topic has grade 2, the others grade 1. Texts are assembled from
phrases tied to the topics, so the topics can be learned. The sample
submission is a noisy scorer's output: the 5 best-scored topics with scores.
Board split afterwards: ``python3 -m organizer boards examples/multilabel``.
"""
import struct
import zlib
from pathlib import Path

import numpy as np

from ._files import demo_arguments, write_csv

TOPICS = {
    "billing": ["I was charged twice this month", "the invoice total looks wrong", "why is my bill higher"],
    "refund": ["I want my money back", "still waiting for the refund", "please refund the order"],
    "login": ["I cannot sign in", "the login page keeps spinning", "two-factor code never arrives"],
    "password_reset": ["the reset link has expired", "forgot my password again", "reset email never came"],
    "shipping": ["which carrier do you use", "can you ship to my country", "shipping cost is too high"],
    "late_delivery": ["the parcel is a week late", "tracking has not moved for days", "delivery date passed"],
    "damaged_item": ["the box arrived crushed", "the screen was cracked on arrival", "parts are missing"],
    "returns": ["how do I send this back", "I need a return label", "can I exchange the size"],
    "subscription": ["how do I upgrade my plan", "the annual plan renewed", "switch me to monthly"],
    "cancellation": ["please cancel my account", "I want to stop the subscription", "close my membership"],
    "app_crash": ["the app closes on start", "it crashes when I open settings", "the app freezes and quits"],
    "slow_performance": ["everything loads very slowly", "the dashboard takes a minute", "sync is so slow"],
    "bug_report": ["the export button does nothing", "numbers are rounded wrongly", "the filter ignores dates"],
    "feature_request": ["please add a dark mode", "it would be nice to export to CSV", "add a calendar view"],
    "privacy": ["delete all my personal data", "who can see my profile", "what data do you keep"],
    "security": ["someone logged into my account", "I got a suspicious email from you", "my card was used"],
    "payment_failed": ["my card was declined", "the payment did not go through", "checkout shows an error"],
    "discount": ["the coupon code does not work", "is there a student discount", "promo was not applied"],
    "praise": ["thanks for the quick help", "great service as always", "love the new update"],
    "notifications": ["too many emails from you", "push alerts stopped working", "turn off the reminders"],
}
FILLERS = ["Hello,", "Hi team,", "Good morning.", "Urgent:", "Quick question:", "", "", ""]
ENDINGS = ["Thanks.", "Please help.", "Regards.", "Any update?", "", ""]
N_SHOWN = 5  # topics per row in the sample submission


def topic_names():
    return list(TOPICS)


def make_tickets(n, rng):
    """(texts, topic code lists) of n tickets; topic popularity is skewed, like real queues."""
    names = topic_names()
    weight = 1.0 / np.arange(1, len(names) + 1) ** 0.8
    popularity = rng.permutation(weight / weight.sum())
    texts, codes = [], []
    for _ in range(n):
        count = int(rng.choice([0, 1, 2, 3], p=[0.03, 0.57, 0.3, 0.1]))
        chosen = [int(c) for c in rng.choice(len(names), size=count, replace=False, p=popularity)]
        parts = [str(rng.choice(FILLERS))]
        for c in chosen:
            parts.append(str(rng.choice(TOPICS[names[c]])) + ".")
        if not chosen:
            parts.append(str(rng.choice(["Just checking in.", "Is anyone there?", "See attached."])))
        parts.append(str(rng.choice(ENDINGS)))
        texts.append(" ".join(p for p in parts if p))
        codes.append(chosen)
    return texts, codes


def noisy_scores(codes, n_labels, rng):
    """Scores in [0, 1) of a mediocre classifier: gold topics (main topic most) score higher, plus noise."""
    scores = rng.random((len(codes), n_labels)) * 0.55
    for i, row in enumerate(codes):
        for rank, c in enumerate(row):
            scores[i, c] += (0.45 if rank == 0 else 0.3) * rng.random() + 0.1
    return np.minimum(scores, 0.999)


def tiny_png(size=32):
    """A small two-colour logo (PNG), made here so the demo needs no binary asset."""
    y, x = np.mgrid[0:size, 0:size]
    stripes = ((x // 4 + y // 8) % 2).astype(np.uint8)
    rgb = np.stack([40 + 150 * stripes, 90 + 60 * stripes, 170 - 40 * stripes], axis=-1).astype(np.uint8)
    raw = b"".join(b"\0" + rgb[r].tobytes() for r in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def generate(out, n, seed):
    rng = np.random.default_rng(seed)
    names = topic_names()
    texts, codes = make_tickets(n, rng)
    ids = ["t%05d" % (i + 1) for i in range(n)]
    gold = [[i, " ".join(names[c] for c in row), " ".join("2" if r == 0 else "1" for r in range(len(row)))]
            for i, row in zip(ids, codes)]
    scores = noisy_scores(codes, len(names), rng)
    order = np.argsort(-scores, axis=1, kind="stable")[:, :N_SHOWN]
    sample = [[i, " ".join(names[c] for c in row), " ".join("%.3f" % scores[k, c] for c in row)]
              for k, (i, row) in enumerate(zip(ids, order))]
    out = Path(out)
    labels_text = "\n".join(names) + "\n"
    for folder in ("reference_data", "starting_kit"):
        (out / folder).mkdir(parents=True, exist_ok=True)
        (out / folder / "labels.txt").write_text(labels_text, encoding="utf-8")
    write_csv(out / "reference_data" / "gold.csv", ["id", "labels", "grades"], gold)
    write_csv(out / "starting_kit" / "test_public.csv", ["id", "text"], [[i, t] for i, t in zip(ids, texts)])
    write_csv(out / "starting_kit" / "sample_submission.csv", ["id", "labels", "scores"], sample)
    (out / "logo.png").write_bytes(tiny_png())
    return len(ids)


def main(argv=None):
    args = demo_arguments(__doc__, "tickets", 3000, 2009, "examples/multilabel", argv)
    n = generate(args.out, args.count, args.seed)
    print("wrote %d tickets into %s" % (n, args.out))


if __name__ == "__main__":
    main()
