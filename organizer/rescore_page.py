"""The re-scored leaderboard's page (leaderboard.html), in the competition's language.

Every text of the page is a ``scorer.problems.Message`` declared here once, in
English and Chinese, and written by ``scorer.report.render`` in the language of
the board config (``language: en|zh``), as score.py writes its own page. What
the page quotes stays as it is: numbers, team names, score keys, the
organizer's column labels and title, and the one-line error score.py wrote (in
the competition's language already). The CSV files beside the page keep their
English column names and codes (``scored``, ``identical``): they are read by
programs.

>>> report.words(TITLE(title="Toy", board="B"), "zh")
'Toy：榜单 B（重新评分）'
"""
from scorer.public import Message, report

KEYS_PER_TABLE = 7   # score columns per table of the page

TITLE = Message("rescore.title", "{title}: board {board}, re-scored", "{title}：榜单 {board}（重新评分）")
UNTITLED = Message("rescore.untitled", "Board {board}", "榜单 {board}")
SUMMARY = Message("rescore.summary", "{n} submissions, {scored} scored", "共 {n} 份提交，{scored} 份已评分")
# column headers
RANK = Message("rescore.column.rank", "rank", "名次")
TIER = Message("rescore.column.tier", "tier", "档次")
SUBMISSION = Message("rescore.column.submission", "submission", "提交")
P_PREVIOUS = Message("rescore.column.p_previous", "p vs previous", "与上一名的 p 值")
P_TIER = Message("rescore.column.p_tier", "p in tier", "档内 p 值")
ERROR = Message("rescore.column.error", "error", "错误")
# the ranking and its tiers
RANKING = Message("rescore.ranking", "Ranking on board {board}", "榜单 {board} 的排名")
NO_TIERS = Message("rescore.tiers.none", "No significance tiers: the primary score has no per-unit counts.",
                   "没有显著性档次：主要成绩没有逐单元的计数。")
TIERS_TOP = Message("rescore.tiers.top", "Tiers are given to the first {tested} of the {scored} scored submissions "
                    "(--tiers-top).", "只有排名前 {tested} 的提交（共 {scored} 份已评分）给出了档次（--tiers-top）。")
METHOD = Message(
    "rescore.tiers.method",
    "Tiers: a paired approximate randomization test over board {board}'s {n} {units} ({permutations} permutations, "
    "seed {seed}; each permutation swaps two submissions' per-unit counts on every unit with probability 1/2 and "
    "recomputes {key} from the sums). A submission starts a new tier when it differs from some member of the "
    "current tier at p < {alpha}; members of a tier are pairwise not significantly different. p vs previous: the "
    "test against the submission just above; p in tier: the smallest p against the members of its tier (the one "
    "that decides). No correction for multiple tests: of {pairs} adjacent pairs, about {chance} would differ at "
    "this level by chance alone.",
    "档次：在榜单 {board} 的 {n} 个{units}上做配对近似随机化检验（{permutations} 次置换，种子 {seed}；每次置换在每个"
    "单元上以 1/2 的概率交换两份提交的逐单元计数，再由计数之和重新计算 {key}）。一份提交与当前档次的某个成员在 "
    "p < {alpha} 水平上有差异时，开始新的档次；同一档次的成员两两之间没有显著差异。与上一名的 p 值：与紧邻其上的提交"
    "的检验；档内 p 值：与其档次各成员的检验中最小的 p 值（起决定作用的那一个）。未做多重检验校正：{pairs} 对相邻的"
    "提交中，仅凭偶然约有 {chance} 对会在这一水平上显出差异。")
# the boards side by side
SIDE_BY_SIDE = Message("rescore.side_by_side", "Boards side by side", "各榜单对照")
RANK_ON = Message("rescore.column.rank_on", "rank {board}", "榜单 {board} 名次")
SCORE_ON = Message("rescore.column.score_on", "{key} {board}", "榜单 {board} 的 {key}")
RANK_CHANGE = Message("rescore.column.rank_change", "rank change ({last} - {first})", "名次变化（{last} - {first}）")
SIDE_BY_SIDE_NOTE = Message(
    "rescore.side_by_side.note",
    "Each board's own rank by {label}; a positive change means the submission ranks lower on the second board.",
    "各榜单按 {label} 分别排名；变化为正表示该提交在第二个榜单上的名次更靠后。")
# similar submissions
SIMILAR = Message("rescore.similar", "Similar submissions", "相似的提交")
KIND = Message("rescore.column.kind", "kind", "类型")
SUBMISSIONS = Message("rescore.column.submissions", "submissions", "提交")
AGREEMENT = Message("rescore.column.agreement", "agreement on board {board}", "在榜单 {board} 上的一致率")
KINDS = {"identical": Message("rescore.similar.identical", "identical", "完全相同"),
         "similar": Message("rescore.similar.similar", "similar", "相似")}
PAIR = Message("rescore.similar.pair", "{a} ~ {b}: {agreement}", "{a} ~ {b}：{agreement}")
NONE_SIMILAR = Message(
    "rescore.similar.none",
    "No two submissions are identical or agree on {percent}% or more of board {board}'s {units}.",
    "没有两份提交完全相同，也没有两份提交在榜单 {board} 的{units}中有 {percent}% 或更多答案一致。")
SIMILAR_NOTE = Message(
    "rescore.similar.note",
    "Identical: the same answer on every unit after reading (row order, format, encoding and zipping do not count). "
    "Similar: the same answer on at least {percent}% of board {board}'s {units}. Two strong systems also agree on "
    "many units; look at the files before deciding.",
    "完全相同：读取后每个单元的答案都相同（行的顺序、文件格式、编码和压缩不计）。相似：在榜单 {board} 的{units}中至少 "
    "{percent}% 答案相同。两个强的系统也会在许多单元上一致；请先查看文件再作决定。")
# failures and every score
FAILED = Message("rescore.failed", "Failed submissions", "评分失败的提交")
EVERY_SCORE = Message("rescore.every_score", "Every score on board {board}", "榜单 {board} 的全部成绩")

# how a list of names and a list of pairs are joined, and sentences of a note, in each language
JOINS = {"en": (", ", "; ", " "), "zh": ("、", "；", "")}


def _joins(lang):
    return JOINS.get(lang, JOINS["en"])


def _score(value):
    return float(value) if value != "" else ""


def title(competition_title, board):
    """The page's title: the competition's title (or the board's name) and the board re-scored."""
    return TITLE(title=competition_title or UNTITLED(board=board), board=board)


def page(title, board, labels, primary, keys, rows, method, groups, sbs, threshold, unit_noun, lang="en"):
    """The leaderboard page: ranking with tiers, side by side, similar submissions, failures, every score.

    ``rows``: leaderboard.csv's rows (rank, tier, team, status, scores..., p vs previous, p in tier, error);
    ``sbs``: (the boards, side_by_side.csv's rows) or None; ``unit_noun``: the family's Message (or text);
    ``method``: the tiers' note (``method_note``).
    """
    names, pairs, _ = _joins(lang)
    label = labels.get(primary, primary)
    ranking = [[r[0], r[1], r[2], _score(r[4 + keys.index(primary)]) if primary in keys else "", r[-3], r[-2]]
               for r in rows if r[3] == "scored"]
    sections = [report.Section(RANKING(board=board), [
        report.Table([RANK, TIER, SUBMISSION, label, P_PREVIOUS, P_TIER], ranking, digits=4),
        report.Text(method, "note")])]
    if sbs is not None:
        boards, sbs_rows = sbs
        header = [SUBMISSION]
        for b in boards:
            header += [RANK_ON(board=b), SCORE_ON(key=primary, board=b)]
        header.append(RANK_CHANGE(last=boards[-1], first=boards[0]))
        sections.append(report.Section(SIDE_BY_SIDE, [report.Table(
            header, [[_score(v) if isinstance(v, float) else v for v in row] for row in sbs_rows], digits=4),
            report.Text(SIDE_BY_SIDE_NOTE(label=label), "note")]))
    percent = "%.0f" % (100 * threshold)
    similar_rows = [[KINDS[g.kind], names.join(g.teams),
                     pairs.join(report.words(PAIR(a=a, b=b, agreement="%.4f" % share), lang)
                                for a, b, share in g.pairs)]
                    for g in groups]
    sections.append(report.Section(SIMILAR, [
        report.Table([KIND, SUBMISSIONS, AGREEMENT(board=board)], similar_rows) if similar_rows else
        report.Text(NONE_SIMILAR(percent=percent, board=board, units=unit_noun), "note"),
        report.Text(SIMILAR_NOTE(percent=percent, board=board, units=unit_noun), "note")]))
    failed = [[r[2], r[-1]] for r in rows if r[3] == "failed"]
    if failed:
        sections.append(report.Section(FAILED, [report.Table([SUBMISSION, ERROR], failed)]))
    scored = [r for r in rows if r[3] == "scored"]
    tables = []
    for start in range(0, len(keys), KEYS_PER_TABLE):  # a few columns per table: none off-screen on a laptop
        part = list(range(start, min(start + KEYS_PER_TABLE, len(keys))))
        tables.append(report.Table([RANK, SUBMISSION] + [labels.get(keys[k], keys[k]) for k in part],
                                   [[r[0], r[2]] + [_score(r[4 + k]) for k in part] for r in scored], digits=4))
    sections.append(report.Section(EVERY_SCORE(board=board), tables))
    return report.render(title, sections, SUMMARY(n=len(rows), scored=len(ranking)), lang=lang)


def method_note(comp, group, alpha, permutations, seed, n_pairs, tested=0, scored=0, lang="en"):
    """The note under the ranking: how the tiers were found (or why there are none), in ``lang``."""
    if comp is None or group is None:
        return report.words(NO_TIERS, lang)
    board = comp.cfg.board
    note = report.words(METHOD(board=board, n=int(comp.boards.mask(board).sum()), units=comp.family.unit_noun,
                        permutations=permutations, seed=seed, key=comp.cfg.primary_key, alpha="%g" % alpha,
                        pairs=n_pairs, chance="%.1f" % (alpha * n_pairs)), lang)
    if tested < scored:
        note += _joins(lang)[2] + report.words(TIERS_TOP(tested=tested, scored=scored), lang)
    return note
