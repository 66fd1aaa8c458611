"""new for emotion_cause: the subtask-1 gold JSON (SemEval-2024 Task 3 format) and ``--subtask2-gold``.

Both subtasks are scored; a dev set (``--dev-gold``, subtask-1 format) is
scored on subtask 1.

The kit's Subtask_1_test.json holds the conversations with only their public
keys: the pairs are removed, and so is each utterance's ``emotion`` (half of
every answer). Baseline: every utterance whose text holds "!" feels joy,
caused by itself (subtask 1: its whole text; subtask 2: its number). The pages'
example makes up one pair: the second utterance of a conversation feels joy,
caused by a few tokens of the first, and the note shows how those tokens are
counted.
"""
import json
from pathlib import Path

from ..inputs import OrganizerError, read_bytes
from .base import Items, Start, code_list, plain, warnings_list
from .render import fill
from scorer.public import ReferenceDataError, ScoringError, read_json

PUBLIC_CONVERSATION = ("conversation_ID", "conversation")
PUBLIC_UTTERANCE = ("utterance_ID", "text", "speaker", "video_name", "video_source")
PAIRS = "emotion-cause_pairs"


class EmotionCauseStart(Start):
    family = "emotion_cause"
    sample = "submission/"
    dev_sample = "submission/"

    def arguments(self, parser):
        parser.add_argument("--subtask2-gold", help="emotion_cause: the subtask-2 gold JSON, of the same "
                            "conversations (required)")

    def read(self, gold, args, dev=False):
        what = "the dev gold" if dev else "the gold"
        if not dev and not args.subtask2_gold:
            raise SystemExit("emotion_cause needs --subtask2-gold FILE: the subtask-2 gold of the same conversations")
        data = _load(gold, what)
        reference = {"Subtask_1_gold.json": _dump(data)}
        if not dev:
            reference["Subtask_2_gold.json"] = _dump(_load(args.subtask2_gold, "the subtask-2 gold"))
        public = [{k: c[k] for k in PUBLIC_CONVERSATION if k in c} for c in data]
        for conv in public:
            conv["conversation"] = [{k: u[k] for k in PUBLIC_UTTERANCE if k in u} for u in conv["conversation"]]
        return Items(reference, {"Subtask_1_test.json": _dump(public)},
                     [str(c.get("conversation_ID")) for c in data], public)

    def files(self, args, dev=False):
        files = {"subtask1_gold": "Subtask_1_gold.json"}
        if not dev:
            files["subtask2_gold"] = "Subtask_2_gold.json"
        return files

    def options(self, args, dev=False):
        return {"subtasks": "1" if dev else "both"}

    def baseline(self, items, options, args):
        one, two = [], []
        for conv in items.inputs:
            pairs1, pairs2 = [], []
            for u, utterance in enumerate(conv["conversation"], start=1):
                tokens = len(str(utterance.get("text", "")).split())
                if "!" in str(utterance.get("text", "")) and tokens:
                    pairs1.append(["%d_joy" % u, "%d_0_%d" % (u, tokens)])
                    pairs2.append(["%d_joy" % u, "%d" % u])
            one.append({"conversation_ID": conv["conversation_ID"], PAIRS: pairs1})
            two.append({"conversation_ID": conv["conversation_ID"], PAIRS: pairs2})
        out = {self.sample + "Subtask_1_pred.json": _dump(one)}
        if options["subtasks"] in ("both", "2"):
            out[self.sample + "Subtask_2_pred.json"] = _dump(two)
        return out

    def example(self, items, sample, options, texts, args):
        """One made-up pair in the first conversation of two utterances or more whose first utterance has two tokens
        or more: utterance 2 feels joy, caused by tokens 1 to 3 of utterance 1 (its whole text when it has fewer
        than four tokens), in the file of the first subtask scored; the note lists the tokens with their numbers."""
        conversations = items.inputs
        pick = next((c for c in conversations if len(c["conversation"]) >= 2
                     and len(str(c["conversation"][0].get("text", "")).split()) >= 2), conversations[0])
        utterances = pick["conversation"]
        tokens = str(utterances[0].get("text", "")).split() if utterances else []
        start, end = (1, 4) if len(tokens) >= 4 else (0, len(tokens))
        cause, felt = 1, min(2, max(len(utterances), 1))
        pair1, pair2 = ["%d_joy" % felt, "%d_%d_%d" % (cause, start, end)], ["%d_joy" % felt, "%d" % cause]
        subtask1 = options["subtasks"] in ("1", "both")
        shown = {"conversation_ID": pick["conversation_ID"], PAIRS: [pair1 if subtask1 else pair2]}
        listed = end + 2 if len(tokens) > end + 3 else len(tokens)   # "and 1 more" would not save a token
        numbered = ["%d `%s`" % (k, plain(token)) for k, token in enumerate(tokens[:listed])]
        if len(tokens) > listed:
            numbered.append(fill(texts["example_more"], {"n": str(len(tokens) - listed)}))
        fields = {"ex_conv": plain(pick["conversation_ID"]), "ex_e": str(felt), "ex_c": str(cause),
                  "ex_start": str(start), "ex_last": str(end - 1), "ex_span": code_list([" ".join(tokens[start:end])]),
                  "ex_text": plain(" ".join(tokens)),
                  "ex_tokens": ("、" if texts["lang"] == "zh" else ", ").join(numbered),
                  "ex_subtask2": fill(texts["example_subtask2"], {"ex_pair2": json.dumps(pair2)})
                  if options["subtasks"] == "both" else ""}
        note = texts["example_note" if subtask1 else "example_note_2"]
        return {"example": "[%s,\n ...]" % json.dumps(shown, ensure_ascii=False), "example_note": fill(note, fields)}

    def values(self, options, texts, items):
        subtasks = options["subtasks"]
        return {"summary_causes": texts["summary_" + subtasks], "files": texts["files_" + subtasks],
                "absent": texts["absent_" + subtasks], "each_file": texts["each_file_" + subtasks],
                "metric_subtasks": texts["metric_" + subtasks], "mode": texts["mode_" + options["mode"]],
                "pair_rules": texts["pairs_" + subtasks],
                # how cause texts become positions matters only where spans are scored (subtask 1)
                "token_rule": texts["token_rule_text"] if subtasks in ("1", "both") else "",
                "unfound": texts["unfound_" + options["mode"]],
                "check_finds": texts["check_finds_" + options["mode"]],
                "kit_check_finds": texts["kit_check_finds_" + options["mode"]],
                "kit_warnings": warnings_list((["absent"] if subtasks == "both" else []) + ["no_pair", "neutral"],
                                              texts),
                # --feedback dev: the dev set (subtask-1 gold) leaves the subtask-2 columns of its board empty
                "dev_note": texts["dev_note_both"] if subtasks == "both" else ""}


def _load(path, what):
    """A gold file's JSON, read as the scoring program reads it (encodings, depth, damage refused)."""
    data = read_bytes(path, what)
    try:
        value = read_json(data, Path(path).name, ReferenceDataError)
    except ScoringError as exc:
        raise OrganizerError("%s %s: %s" % (what, path, exc.text("en")))
    if not isinstance(value, list) or not value or not all(
            isinstance(c, dict) and isinstance(c.get("conversation"), list) for c in value):
        raise OrganizerError("%s %s is not a non-empty list of conversations ({\"conversation_ID\", \"conversation\": "
                             "[...], \"%s\": [...]})" % (what, path, PAIRS))
    return value


def _dump(value):
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


START = EmotionCauseStart()
