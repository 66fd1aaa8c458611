"""What the tools around the scorer may use of it: the names of ``EXPORTS``, and nothing else.

organizer/, adapters/, benchmarks/ and starting_kit/ import the scorer through this module only
(``from scorer.public import Competition, publish``); tests/test_architecture.py refuses any other import of
the scorer from those folders, and a name here that they no longer use. Inside the scorer, modules import each
other directly: a module may move between packages, and only this table follows it.

A name is imported from its module on first use, so that a tool pays for what it uses only (the EvalAI adapter
imports no family to print a line; ``python3 -m organizer options`` no Competition).

>>> from scorer.public import Competition, report
>>> Competition.__module__, report.__name__
('scorer.api', 'scorer.report')
"""
import importlib

# public name -> the module of the scorer that defines it (for a module itself: the module)
EXPORTS = {
    # the one API: a task and its contract, a competition and its boards, a submission read and scored
    "Task": "api", "Competition": "api", "NoOfflineCheck": "api", "public_positions": "api",
    "SubmittedFile": "discovery", "submission_cap": "limits",
    # configuration: config.yaml read and checked, a family's options
    "parse_config": "config", "load_config": "config", "find_config": "config", "read_raw": "config",
    "task_only": "config", "aware_time": "config", "Option": "config", "Check": "config", "Feedback": "config",
    "INTERVAL_SUFFIXES": "config",
    # the families, the board split, and what an organizer tool reads as a family reads it
    "families": "tasks", "assign": "boards", "table_of": "tables", "decode": "textio",
    "read_json": "tasks.emotion_cause", "numbers": "bytelevel.tokens", "TagSet": "metrics.spans",
    # what a board publishes, the Ladder, and which program, config and answers scored it
    "publish": "publish.policy", "History": "publish.policy", "round_all": "publish.policy",
    "primary_interval": "publish.policy", "ladder": "publish.ladder", "provenance": "publish.provenance",
    "digests": "digests",
    # score.py's own run, what it prints, and the organizer's mark on a run
    "run_once": "platform.cli", "SAID_SCORED": "platform.cli", "HIDDEN_REFERENCE": "platform.cli",
    "INTERNAL": "platform.cli", "ORGANIZER_ENV": "platform.hosts",
    # intervals and paired tests from per-unit counts
    "DEFAULT_SEED": "resampling", "paired_randomization": "resampling", "distinct_rows": "resampling",
    # the page, the scores files' numbers and order
    "report": "report", "format_number": "outputs", "ordered_keys": "outputs",
    # problems and messages: the errors and their exit codes, the texts in both languages, quoting
    "ScoringError": "errors", "SubmissionError": "errors", "ReferenceDataError": "errors", "ConfigError": "errors",
    "Message": "problems", "MESSAGES": "problems", "LANGUAGES": "i18n", "error_line": "i18n",
    "clip": "quoting", "printable": "quoting",
    # the starting kit's tools (validate.py, score_local.py)
    "kit": "kit",
    # the text kernels, timed by the benchmarks beside sacreBLEU and rouge-score
    "bleu": "metrics.bleu", "chrf": "metrics.chrf", "rouge": "metrics.rouge",
}

__all__ = sorted(EXPORTS) + ["every_message"]


def __getattr__(name):
    module = EXPORTS.get(name)
    if module is None:
        raise AttributeError("scorer.public has no %r: the tools use the scorer through EXPORTS only" % name)
    found = importlib.import_module("%s.%s" % (__package__, module))
    value = found if module.rpartition(".")[2] == name else getattr(found, name)
    globals()[name] = value   # the next use is a plain look-up
    return value


def __dir__():
    return __all__


def every_message():
    """Every Message the scorer declares, by key (every module imported: each registers its own)."""
    import pkgutil
    package = importlib.import_module(__package__)
    for info in pkgutil.walk_packages(package.__path__, __package__ + "."):
        importlib.import_module(info.name)
    return importlib.import_module(__package__ + ".problems").MESSAGES
