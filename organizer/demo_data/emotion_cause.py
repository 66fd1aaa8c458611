"""Generate the emotion-cause demo: gold of both subtasks, public test conversations, sample submission.

    python3 -m organizer demo emotion_cause [--conversations 200] [--seed 2024] [--out examples/emotion_cause]

Conversations are assembled from invented clauses: an utterance is one to three
clauses; an emotional utterance (about half) names its cause, a clause of
itself or of an earlier utterance, so every gold span is text found in its
utterance. Writes, in the real SemEval-2024 Task 3 format:

- reference_data/Subtask_1_gold.json (span pairs ``["4_joy", "2_we got the tickets"]``),
- reference_data/Subtask_2_gold.json (utterance pairs ``["4_joy", "2"]``),
- starting_kit/Subtask_1_test.json (the conversations, no emotions, no pairs),
- starting_kit/submission/Subtask_{1,2}_pred.json (the gold damaged as a mediocre system would).
"""
import json
import random

from ._files import demo_arguments

SPEAKERS = ["Mira", "Tobin", "Ada", "Kasper", "Lena", "Ravi", "Odile", "Jun"]
EMOTIONS = ("anger", "disgust", "fear", "joy", "sadness", "surprise")
SHARE = (0.14, 0.07, 0.07, 0.38, 0.14, 0.20)  # roughly the real gold shares
CAUSES = {
    "anger": ["somebody ate my lunch again", "the landlord raised the rent", "you read my diary",
              "the train left without us", "he lied about the car"],
    "disgust": ["the fridge smells of old fish", "there is hair in the soup", "he chews with his mouth open",
                "the sink is full of mould"],
    "fear": ["the lights went out in the basement", "someone is knocking at midnight", "the exam is tomorrow",
             "the dog next door got loose"],
    "joy": ["we got the tickets", "my sister had the baby", "the bakery gave us free cake",
            "I passed the driving test", "the band is playing our song", "we won the quiz night"],
    "sadness": ["the old cinema is closing", "my plant finally died", "she moved to another city",
                "nobody came to the party"],
    "surprise": ["the parcel arrived a week early", "you dyed your hair blue", "the cat opened the door",
                 "grandma joined a rock band", "it snowed in May"],
}
REACTIONS = {
    "anger": ["I cannot believe this", "this is so unfair", "stop it right now"],
    "disgust": ["that is gross", "ugh , no way", "I feel sick"],
    "fear": ["I am scared", "what do we do now", "please stay with me"],
    "joy": ["this is wonderful", "yes , finally", "I am so happy"],
    "sadness": ["I miss it already", "that is so sad", "I just want to cry"],
    "surprise": ["wait , really", "no way", "are you serious"],
}
NEUTRAL = ["did you see the news", "I will make some tea", "the bus comes at nine", "let me check my phone",
           "we should call Odile", "is that your coat", "I think it is Tuesday", "hand me the remote"]


def _utterance(rng, emotion, cause_clause):
    clauses = []
    if rng.random() < 0.4:
        clauses.append(rng.choice(NEUTRAL))
    if cause_clause:
        clauses.append(cause_clause)
    if emotion != "neutral":
        clauses.append(rng.choice(REACTIONS[emotion]))
    if not clauses:
        clauses.append(rng.choice(NEUTRAL))
    end = {"surprise": " ?", "anger": " !", "joy": " !"}.get(emotion, " .")
    return " , ".join(clauses) + end


def make_conversation(rng):
    """One conversation: its utterances (with emotion) and its subtask 1 and 2 pairs."""
    n = rng.randint(3, 9)
    utts, pairs1, pairs2 = [], [], []
    events = {}  # utterance number -> the cause clause it states
    for u in range(1, n + 1):
        emotional = rng.random() < 0.5
        emotion = rng.choices(EMOTIONS, SHARE)[0] if emotional else "neutral"
        clause = rng.choice(CAUSES[emotion if emotional else rng.choice(EMOTIONS)]) if rng.random() < 0.6 else ""
        if clause:
            events[u] = clause
        utts.append({"utterance_ID": u, "text": _utterance(rng, emotion, clause),
                     "speaker": rng.choice(SPEAKERS), "emotion": emotion})
        if not emotional:
            continue
        sources = [v for v in events if v <= u]
        for v in rng.sample(sources, min(len(sources), rng.randint(1, 2))):
            pairs1.append(["%d_%s" % (u, emotion), "%d_%s" % (v, events[v])])
            pairs2.append(["%d_%s" % (u, emotion), "%d" % v])
        if rng.random() < 0.15:  # a cause shown, not said: only in subtask 2
            v = rng.randint(1, u)
            if ["%d_%s" % (u, emotion), "%d" % v] not in pairs2:
                pairs2.append(["%d_%s" % (u, emotion), "%d" % v])
    return utts, pairs1, pairs2


def make_gold(n_conversations, seed, first_id=1):
    """(subtask 1 gold, subtask 2 gold) as lists of conversations."""
    rng = random.Random(seed)
    gold1, gold2 = [], []
    for k in range(n_conversations):
        cid = first_id + k
        utts, p1, p2 = make_conversation(rng)
        gold1.append({"conversation_ID": cid, "conversation": utts, "emotion-cause_pairs": p1})
        gold2.append({"conversation_ID": cid, "conversation": utts, "emotion-cause_pairs": p2})
    return gold1, gold2


def _span(utterance, text):
    tokens, want = utterance.split(), text.split()
    for i in range(len(tokens) - len(want) + 1):
        if tokens[i:i + len(want)] == want:
            return i, i + len(want)
    return 0, len(tokens)


def damage(gold1, gold2, seed):
    """Sample predictions: pairs dropped, spans cut or widened, emotions swapped, spurious pairs added."""
    rng = random.Random(seed)
    pred1, pred2 = [], []
    for c1, c2 in zip(gold1, gold2):
        texts = [u["text"] for u in c1["conversation"]]
        out1 = []
        for emo, cause in c1["emotion-cause_pairs"]:
            if rng.random() < 0.2:
                continue
            utt, text = cause.split("_", 1)
            start, end = _span(texts[int(utt) - 1], text)
            n_tokens = len(texts[int(utt) - 1].split())
            if rng.random() < 0.3:
                start, end = max(0, start - rng.randint(0, 2)), min(n_tokens, end + rng.randint(-1, 2))
                end = max(end, start + 1)
            if rng.random() < 0.1:
                emo = emo.split("_")[0] + "_" + rng.choice(EMOTIONS)
            out1.append([emo, "%s_%d_%d" % (utt, start, end)])
        out2 = [p for p in c2["emotion-cause_pairs"] if rng.random() > 0.15]
        if rng.random() < 0.3:
            u = rng.randint(1, len(texts))
            n_tokens = len(texts[u - 1].split())
            out1.append(["%d_%s" % (u, rng.choice(EMOTIONS)), "%d_0_%d" % (u, n_tokens)])
            out2.append(["%d_%s" % (u, rng.choice(EMOTIONS)), "%d" % u])
        pred1.append({"conversation_ID": c1["conversation_ID"], "emotion-cause_pairs": out1})
        pred2.append({"conversation_ID": c2["conversation_ID"], "emotion-cause_pairs": out2})
    return pred1, pred2


def public(gold):
    """The conversations as participants get them: no emotions, no pairs."""
    return [{"conversation_ID": c["conversation_ID"],
             "conversation": [{k: u[k] for k in ("utterance_ID", "text", "speaker")} for u in c["conversation"]]}
            for c in gold]


def _write(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv=None):
    args = demo_arguments(__doc__, "conversations", 200, 2024, "examples/emotion_cause", argv)
    out = args.out
    gold1, gold2 = make_gold(args.count, args.seed)
    pred1, pred2 = damage(gold1, gold2, args.seed + 1)
    _write(out / "reference_data" / "Subtask_1_gold.json", gold1)
    _write(out / "reference_data" / "Subtask_2_gold.json", gold2)
    _write(out / "starting_kit" / "Subtask_1_test.json", public(gold1))
    _write(out / "starting_kit" / "submission" / "Subtask_1_pred.json", pred1)
    _write(out / "starting_kit" / "submission" / "Subtask_2_pred.json", pred2)
    print("wrote %d conversations (%d span pairs, %d utterance pairs) to %s"
          % (len(gold1), sum(len(c["emotion-cause_pairs"]) for c in gold1),
             sum(len(c["emotion-cause_pairs"]) for c in gold2), out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
