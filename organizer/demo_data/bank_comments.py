"""Generate the shipped bank-comments demo: gold, public test texts and a sample submission.

    python3 -m organizer demo bank_comments [--docs 5000] [--seed 2021] [--out .]

Comments are assembled from invented phrase pieces (banks, products, aspects,
opinion words, fillers), so every character has a known tag and every comment a
sentiment class in the proportions of the real task (mostly neutral). The
sample submission is the gold damaged the way a mediocre system would be:
dropped, re-typed and shifted entities, stray I- tags and flipped classes.
"""

import numpy as np

from ._files import demo_arguments, write_csv

BANKS = ["招商银行", "建设银行", "工商银行", "交行", "浦发", "广发", "中信", "民生银行", "邮储", "农行", "兴业", "光大"]
PRODUCTS = ["信用卡", "白金卡", "储蓄卡", "金卡", "联名卡", "分期", "房贷", "车贷", "现金贷", "理财", "备用金", "App"]
ASPECTS = ["额度", "利息", "年费", "服务", "态度", "积分", "提额", "客服", "费率", "审批", "还款", "风控"]
POSITIVE = ["很好", "不错", "方便", "划算", "快", "给力", "贴心", "实惠"]
NEGATIVE = ["太差", "麻烦", "坑", "慢", "离谱", "难用", "太高", "垃圾"]
NEUTRAL = ["一般", "还行", "正常", "高", "低", "多", "少"]
FILLERS = ["我的", "最近", "听说", "昨天申请了", "感觉", "这次", "今年", "就是", "其实", "那个", "有人说",
           "刚办了", "打电话问了", "好像", "还是", "去年", "朋友说"]
PUNCT = ["，", "。", "！", "？", "…", "~", "", "", ""]
TYPES = ("BANK", "PRODUCT", "COMMENTS_N", "COMMENTS_ADJ")


def _piece(text, kind):
    if kind is None:
        return text, ["O"] * len(text)
    return text, ["B-" + kind] + ["I-" + kind] * (len(text) - 1)


def make_comment(rng):
    """One comment: (text, tags, class)."""
    cls = int(rng.choice([2, 0, 1], p=[0.84, 0.11, 0.05]))
    opinions = {2: NEUTRAL, 0: NEGATIVE, 1: POSITIVE}[cls]
    pieces = []
    for _ in range(int(rng.integers(1, 4))):  # clauses
        if rng.random() < 0.5:
            pieces.append(_piece(rng.choice(FILLERS), None))
        if rng.random() < 0.55:
            pieces.append(_piece(rng.choice(BANKS), "BANK"))
        if rng.random() < 0.6:
            pieces.append(_piece(rng.choice(PRODUCTS), "PRODUCT"))
        if rng.random() < 0.25:
            pieces.append(_piece(rng.choice(FILLERS), None))
        if rng.random() < 0.7:
            pieces.append(_piece(rng.choice(ASPECTS), "COMMENTS_N"))
            if rng.random() < 0.8:
                if rng.random() < 0.4:
                    pieces.append(_piece(rng.choice(["真的", "有点", "特别", "挺", "很"]), None))
                pieces.append(_piece(rng.choice(opinions), "COMMENTS_ADJ"))
        pieces.append(_piece(rng.choice(PUNCT), None))
    if not any(t for _, t in pieces):
        pieces.append(_piece(rng.choice(FILLERS), None))
    text = "".join(p for p, _ in pieces)
    tags = [t for _, ts in pieces for t in ts]
    return text, tags, cls


def damage(tags, cls, rng):
    """A plausible system output for one comment."""
    tags = list(tags)
    i = 0
    while i < len(tags):
        if tags[i].startswith("B-"):
            j = i + 1
            while j < len(tags) and tags[j] == "I-" + tags[i][2:]:
                j += 1
            roll = rng.random()
            if roll < 0.10:                       # missed entity
                tags[i:j] = ["O"] * (j - i)
            elif roll < 0.16:                     # wrong type
                other = rng.choice([t for t in TYPES if t != tags[i][2:]])
                tags[i:j] = ["B-" + other] + ["I-" + other] * (j - i - 1)
            elif roll < 0.22 and j - i > 1:       # boundary cut short
                tags[j - 1] = "O"
            elif roll < 0.25 and i + 1 < j:       # B lost: a stray I- remains
                tags[i] = "O"
            i = j
        else:
            if tags[i] == "O" and rng.random() < 0.01:   # spurious one-character entity
                tags[i] = "B-" + rng.choice(TYPES)
            i += 1
    if rng.random() < 0.2:
        cls = int(rng.choice([c for c in (0, 1, 2) if c != cls]))
    return tags, cls


def generate(n_docs, seed):
    rng = np.random.default_rng(seed)
    gold, public, sample = [], [], []
    for doc in range(n_docs):
        text, tags, cls = make_comment(rng)
        gold.append([doc, text, " ".join(tags), cls])
        public.append([doc, text])
        pred, pcls = damage(tags, cls, rng)
        sample.append([doc, " ".join(pred), pcls])
    return gold, public, sample


def main(argv=None):
    args = demo_arguments(__doc__, "docs", 5000, 2021, "", argv)
    out = args.out
    gold, public, sample = generate(args.count, args.seed)
    write_csv(out / "reference_data" / "gold.csv", ["id", "text", "BIO_anno", "class"], gold)
    write_csv(out / "starting_kit" / "test_public.csv", ["id", "text"], public)
    write_csv(out / "starting_kit" / "sample_submission.csv", ["id", "BIO_anno", "class"], sample)
    print("wrote %d comments into %s" % (args.count, out))


if __name__ == "__main__":
    main()
