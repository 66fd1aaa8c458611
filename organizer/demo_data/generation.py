"""Generate the text-generation demo: invented abstracts and their titles (the CSL title task's shape), a test
table and a dev table in the gold format ``id,abstract,reference``; a few ids get a second reference title.

    python3 -m organizer demo generation [--texts 600] [--seed 2035] [--out out/demo_generation_data]

Each abstract says, in template sentences, that a method was applied to a problem of a field and what it
improved; its title names the method and the problem ("Graph attention for flood forecasting"), a second
reference orders them the other way. ``python3 -m organizer new generation OUT/test.csv ... --dev-gold
OUT/dev.csv`` makes the competition.
"""
import numpy as np

from ._files import demo_arguments, write_csv

METHODS = ["graph attention", "sparse coding", "transfer learning", "contrastive training", "random forests",
           "federated averaging", "knowledge distillation", "wavelet features"]
PROBLEMS = ["flood forecasting", "crop yield estimation", "fault detection in gearboxes", "retinal image grading",
            "traffic flow prediction", "protein contact maps", "bridge crack detection", "power load balancing"]
GAINS = ["accuracy", "robustness", "training time", "memory use", "calibration"]
OPENERS = ["This paper studies {problem}.", "We address {problem} in noisy settings.",
           "{problem_cap} remains hard at scale."]
MIDDLES = ["We apply {method} to it and compare it with three baselines.",
           "A model based on {method} is proposed.", "We adapt {method} to the data of the task."]
CLOSERS = ["Experiments show clear gains in {gain}.", "Results improve {gain} on two public data sets.",
           "The method also reduces {gain} costs."]


def generate(n, seed, prefix):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        method, problem = str(rng.choice(METHODS)), str(rng.choice(PROBLEMS))
        gain = str(rng.choice(GAINS))
        abstract = " ".join([str(rng.choice(OPENERS)).format(problem=problem, problem_cap=problem.capitalize()),
                             str(rng.choice(MIDDLES)).format(method=method),
                             str(rng.choice(CLOSERS)).format(gain=gain)])
        unit = "%s%05d" % (prefix, i)
        rows.append([unit, abstract, "%s for %s" % (method.capitalize(), problem)])
        if rng.random() < 0.2:
            rows.append([unit, abstract, "%s with %s" % (problem.capitalize(), method)])
    return rows


def main(argv=None):
    args = demo_arguments(__doc__, "texts", 600, 2035, "out/demo_generation_data", argv)
    for name, count, seed, prefix in (("test.csv", args.count, args.seed, "g"),
                                      ("dev.csv", max(args.count // 4, 2), args.seed + 1, "dev")):
        write_csv(args.out / name, ["id", "abstract", "reference"], generate(count, seed, prefix))
    print("wrote test.csv (%d texts) and dev.csv into %s" % (args.count, args.out))


if __name__ == "__main__":
    main()
