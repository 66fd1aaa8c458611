"""Generate the view-sentiment demo: sentences, gold (SentenceId, View, Opinion) and a sample submission.

    python3 -m organizer demo view_sentiment [--sentences 2000] [--seed 2016] [--out examples/view_sentiment]

Sentences about invented car brands and models are assembled from phrase
pieces, so the views of every sentence and their opinions are known; about one
sentence in eight mentions no view at all. Opinions follow the real task's
proportions (mostly neutral). SentenceIds are zero-padded six-digit strings.
The sample submission is what a keyword-matching system would write: views
found by exact match (short brand names sometimes missed, a model sometimes
cut to its brand), and opinions mostly guessed as neutral.
"""

import numpy as np

from ._files import demo_arguments, write_csv

BRANDS = ["星驰", "远航", "凌云", "北辰", "银河", "赤兔", "青鸾", "白泽", "玄武", "朱雀", "天枢", "曜石"]
SERIES = ["S", "X", "GT", "Pro", "L", "EV", "Max", ""]
NUMBERS = ["3", "5", "7", "9", "300", "500", "60", "80"]
POSITIVE = ["动力很足", "油耗低", "空间宽敞", "做工扎实", "开起来很稳", "性价比高", "内饰漂亮"]
NEGATIVE = ["异响严重", "油耗太高", "刹车偏软", "售后太差", "变速箱顿挫", "胎噪大"]
NEUTRAL = ["刚提车", "在4S店看了", "和朋友聊到", "上周试驾了", "打算下个月买", "停在楼下", "报价出来了"]
FILLERS = ["说实话", "最近", "感觉", "听说", "总的来说", "其实", "今天", "朋友说"]
EMPTY = ["今天高速有点堵", "加油站排队排了半小时", "周末去郊区自驾", "驾照科目二终于过了", "洗车店又涨价了"]
OPINIONS = ("pos", "neu", "neg")


def views():
    """Every view name: brands alone and brand + series + number models."""
    models = [b + s + n for b in BRANDS for s in SERIES[:4] for n in NUMBERS[:4]]
    return BRANDS + models


def make_sentence(rng, names):
    """One sentence: (content, [(view, opinion), ...])."""
    if rng.random() < 0.12:
        return str(rng.choice(EMPTY)) + "。", []
    chosen = list(dict.fromkeys(rng.choice(names, size=int(rng.choice([1, 1, 1, 2, 2, 3])))))
    parts, labels = [], []
    for view in chosen:
        opinion = str(rng.choice(OPINIONS, p=[0.33, 0.56, 0.11]))
        phrase = {"pos": POSITIVE, "neu": NEUTRAL, "neg": NEGATIVE}[opinion]
        lead = str(rng.choice(FILLERS)) if rng.random() < 0.4 else ""
        parts.append(lead + view + str(rng.choice(phrase)))
        labels.append((view, opinion))
    return "，".join(parts) + "。", labels


def system_output(labels, rng, brands):
    """A plausible imperfect prediction for one sentence."""
    out = []
    for view, opinion in labels:
        roll = rng.random()
        if roll < 0.08:                                    # missed
            continue
        if roll < 0.14 and view not in brands:             # model cut to its brand
            view = next(b for b in brands if view.startswith(b))
        guess = opinion if rng.random() < 0.55 else "neu"  # timid: neutral when unsure
        out.append((view, guess))
    if rng.random() < 0.06:                                # spurious brand
        out.append((str(rng.choice(brands)), "neu"))
    return list(dict(out).items())                         # one opinion per view


def generate(n_sentences, seed):
    rng = np.random.default_rng(seed)
    names = np.array(views(), dtype=object)
    ids = ["%06d" % i for i in sorted(rng.choice(60000, size=n_sentences, replace=False))]
    sentences, gold, sample = [], [], []
    for sid in ids:
        content, labels = make_sentence(rng, names)
        sentences.append([sid, content])
        gold.extend([sid, v, o] for v, o in labels)
        sample.extend([sid, v, o] for v, o in system_output(labels, rng, BRANDS))
    return sentences, gold, sample


def main(argv=None):
    args = demo_arguments(__doc__, "sentences", 2000, 2016, "examples/view_sentiment", argv)
    out = args.out
    sentences, gold, sample = generate(args.count, args.seed)
    write_csv(out / "reference_data" / "gold.csv", ["SentenceId", "View", "Opinion"], gold, "\t")
    write_csv(out / "reference_data" / "sentences.csv", ["SentenceId"], [[s[0]] for s in sentences], "\t")
    write_csv(out / "starting_kit" / "test_public.csv", ["SentenceId", "Content"], sentences, "\t")
    write_csv(out / "starting_kit" / "sample_submission.csv", ["SentenceId", "View", "Opinion"], sample, ",")
    print("wrote %d sentences, %d gold views into %s" % (len(sentences), len(gold), out))


if __name__ == "__main__":
    main()
