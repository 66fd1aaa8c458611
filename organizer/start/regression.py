"""new for regression: gold ``id,value`` (plus any input columns); the kit shows every column but ``value``.

Baseline: with a dev set (``--dev-gold``, whose values ship in the kit), a least-squares line on the public
numeric column that best predicts the dev values (their mean when no column is numeric); without one, a
constant: the middle of ``value_range`` when the options state it, else 0. Only public data is read.

A gold with a negative value turns RMSLE off (``options.rmsle: false``): RMSLE takes log(1 + value). On a gold
whose every value is 0 or more, RMSLE is scored only when the organizer asks (``--option rmsle=true``), and
``new`` says so. The option given on the command line wins.
"""
import numpy as np

from ..inputs import OrganizerError
from .base import Items, Start, code_list, csv_bytes, read_table, text_columns, warnings_list
from .render import fill
from scorer.public import numbers

ANSWERS = ("value",)


class RegressionStart(Start):
    family = "regression"

    def read(self, gold, args, dev=False):
        what = "the dev gold" if dev else "the gold"
        frame = read_table(gold, ["id", "value"], what)
        values = _numbers(frame, "%s %s" % (what, gold))   # a value that is no number: said before anything is made
        public = frame[["id"] + text_columns(frame, ("id",) + ANSWERS)]
        return Items({"gold.csv": csv_bytes(frame[["id", "value"]])}, {"test_public.csv": csv_bytes(public)},
                     frame["id"].str.strip().tolist(), public, extra={"values": values})

    def options(self, args, dev=False):
        values = _numbers(read_table(args.gold, ["id", "value"], "the gold"), "the gold %s" % args.gold)
        if len(values) and values.min() < 0:
            print("note: the gold holds negative values, so RMSLE (log(1 + value)) cannot be scored; written as "
                  "options.rmsle: false")
            return {"rmsle": False}
        return {}

    def notes(self, options, test, args):
        """RMSLE is scored only when the organizer asks: said when every gold value would allow it."""
        asked = any(item.partition("=")[0].strip() == "rmsle" for item in args.option)
        if not options.get("rmsle") and not asked and test.extra["values"].min() >= 0:
            return ["every gold value is 0 or more, so RMSLE (log(1 + value)) could be scored too: add --option "
                    "rmsle=true (a negative prediction is then refused)"]
        return []

    def baseline(self, items, options, args):
        inputs = items.inputs
        predicted = np.full(len(inputs), _constant(options))
        if args.dev_gold:
            dev = read_table(args.dev_gold, ["id", "value"], "the dev gold")
            target = _numbers(dev, "the dev gold %s" % args.dev_gold)
            fit = _best_line(dev, target, inputs)
            predicted = fit if fit is not None else np.full(len(inputs), float(np.mean(target)))
        if options.get("rmsle", False):
            predicted = np.maximum(predicted, 0.0)   # RMSLE refuses negative values
        out = inputs[["id"]].copy()
        out["value"] = ["%.6g" % v for v in predicted]
        return {self.sample: csv_bytes(out)}

    def values(self, options, texts, items):
        span = options["value_range"]
        keys = ["same", "ids"] + (["scale"] if span is not None else [])
        low, high = ("%g" % span[0], "%g" % span[1]) if span else ("", "")
        return {"kit_warnings": warnings_list(keys, dict(texts, warn_scale=fill(texts["warn_scale"],
                                                                                {"low": low, "high": high}))),
                "public_columns": code_list(list(items.inputs.columns), texts["lang"]),
                "rmsle_rule": texts["rmsle_on" if options["rmsle"] else "rmsle_off"],
                "rmsle_metric": texts["rmsle_metric_on"] if options["rmsle"] else "",   # a key only when asked for
                "smape_rule": texts["smape_" + options["smape_zero"]],
                "range_rule": texts["range_none"] if span is None else texts["range_some"],
                "low": "%g" % span[0] if span else "", "high": "%g" % span[1] if span else ""}


def _numbers(frame, what):
    """The ``value`` column of a gold table as floats, read as the scoring program reads it (OrganizerError naming the
    first value that is not one finite number)."""
    values, counts = numbers(frame["value"].tolist())
    wrong = np.flatnonzero(counts != 1)
    if not len(wrong):
        wrong = np.flatnonzero(~np.isfinite(values))
    if len(wrong):
        i = int(wrong[0])
        raise OrganizerError("%s, id %s, column value: %r is not a number; every gold value must be one finite number "
                             "(a plain decimal such as 2.5)" % (what, frame["id"].iloc[i].strip(),
                                                                frame["value"].iloc[i]))
    return values


def _constant(options):
    span = options.get("value_range")
    return (span[0] + span[1]) / 2.0 if span else 0.0


def _numeric(frame):
    """{column: its values} for every column but id and value whose every cell reads as a finite number."""
    found = {}
    for column in text_columns(frame, ("id",) + ANSWERS):
        values = np.asarray([_float(v) for v in frame[column]], dtype=float)
        if len(values) and np.isfinite(values).all():
            found[column] = values
    return found


def _float(text):
    try:
        return float(text)
    except ValueError:
        return float("nan")


def _best_line(dev, target, inputs):
    """Predictions for ``inputs`` from the line (least squares on the dev set) of the shared numeric column that
    correlates most with the dev values, or None when there is none."""
    dev_columns, test_columns = _numeric(dev), _numeric(inputs)
    best = None
    for column in dev_columns:
        x = dev_columns[column]
        if column not in test_columns or np.ptp(x) == 0 or np.ptp(target) == 0:
            continue
        r = abs(float(np.corrcoef(x, target)[0, 1]))
        if best is None or r > best[0]:
            best = (r, column)
    if best is None:
        return None
    x = dev_columns[best[1]]
    slope, intercept = np.polyfit(x, target, 1)
    return intercept + slope * test_columns[best[1]]


START = RegressionStart()
