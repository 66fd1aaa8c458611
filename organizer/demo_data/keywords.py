"""Generate the keyword demo: abstracts, gold keyword sets and a sample submission.

    python3 -m organizer demo keywords [--docs 1500] [--seed 2022] [--out examples/keywords]

Each invented field has its own terms, built from a field's stems and generic
method words ("颗粒流" + "建模"); a document takes 2 to 6 of them as its gold
keywords (joined by "_") and its abstract mentions most of them in template
sentences. The sample submission is what an extractive system would give: some
keywords kept, some replaced by other terms of the abstract's field, a few
documents with an empty row or no row.
"""

import numpy as np

from ._files import demo_arguments, write_csv

FIELDS = {
    "材料": ["颗粒流", "晶界", "涂层", "纤维束", "合金相", "孔隙率", "薄膜"],
    "医学": ["血糖波动", "肝酶", "炎症因子", "靶向给药", "肠道菌群", "骨密度", "心率变异"],
    "水利": ["径流", "泥沙输移", "渗流场", "堤防", "水库调度", "河床演变", "地下水位"],
    "计算": ["图嵌入", "稀疏编码", "注意力机制", "联邦训练", "哈希检索", "知识蒸馏", "对比学习"],
    "农学": ["根系构型", "氮素利用", "穗粒数", "土壤墒情", "抗旱性", "秸秆还田", "叶绿素荧光"],
}
METHODS = ["", "建模", "优化", "检测", "评价", "数值模拟", "实验研究", "机理"]
TEMPLATES = ["本文研究了{}的变化规律", "基于{}提出了一种新方法", "结果表明{}显著影响性能",
             "采用{}进行对比分析", "讨论了{}与结构参数的关系", "构建了{}的预测模型"]


def field_terms():
    """field -> its terms (stem alone or stem + method word)."""
    return {f: [s + m for s in stems for m in METHODS] for f, stems in FIELDS.items()}


def make_document(rng, terms):
    """(abstract, gold keywords) of one document."""
    field = str(rng.choice(list(terms)))
    pool = terms[field]
    keywords = list(dict.fromkeys(str(t) for t in rng.choice(pool, size=int(rng.integers(2, 7)))))
    mentioned = [k for k in keywords if rng.random() < 0.85] or keywords[:1]
    sentences = [str(rng.choice(TEMPLATES)).format(k) for k in mentioned]
    return "，".join(sentences) + "。", keywords, field


def system_output(keywords, field, rng, terms):
    """A plausible imperfect keyword set, or None for a document left out."""
    roll = rng.random()
    if roll < 0.02:
        return None
    if roll < 0.05:
        return []
    out = [k for k in keywords if rng.random() < 0.7]
    out += [str(t) for t in rng.choice(terms[field], size=int(rng.integers(0, 3)))]
    return list(dict.fromkeys(out))


def generate(n_docs, seed):
    rng = np.random.default_rng(seed)
    terms = field_terms()
    ids = ["kw%05d" % i for i in range(1, n_docs + 1)]
    public, gold, sample = [], [], []
    for doc in ids:
        abstract, keywords, field = make_document(rng, terms)
        public.append([doc, abstract])
        gold.append([doc, "_".join(keywords), field])
        predicted = system_output(keywords, field, rng, terms)
        if predicted is not None:
            sample.append([doc, "_".join(predicted)])
    return public, gold, sample


def main(argv=None):
    args = demo_arguments(__doc__, "docs", 1500, 2022, "examples/keywords", argv)
    out = args.out
    public, gold, sample = generate(args.count, args.seed)
    write_csv(out / "reference_data" / "gold.csv", ["id", "keywords", "field"], gold)
    write_csv(out / "starting_kit" / "test_public.csv", ["id", "abstract"], public)
    write_csv(out / "starting_kit" / "sample_submission.csv", ["id", "keywords"], sample)
    print("wrote %d documents into %s" % (len(gold), out))


if __name__ == "__main__":
    main()
