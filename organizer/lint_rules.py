"""Every rule of ``python3 -m organizer check``, declared once: its code, level, platform, source and message.

The linter (organizer/check.py) decides *whether* a rule is broken and *where*; what it then says is the rule's
``message`` with the fields it found. docs/organizers.md holds the table of this list between two markers,
written by ``python3 -m organizer options``; a test keeps it in step, and another breaks every rule once.

The sources are read at these commits: codalab/codalab-competitions c7ef5e2 (CodaLab v1), its worker
codalab/competitions-v1-compute-worker 0453401, codalab/codabench c7dbc756 and Cloud-CV/EvalAI 0f04039.

>>> RULES["key-colon"].text(key="a:b")
"column key 'a:b' has a colon; scores.txt lines are split on the one colon"
"""
from dataclasses import dataclass

ERROR, WARNING = "ERROR", "WARNING"
V1, V2, BOTH, EVALAI, OURS = "CodaLab v1", "Codabench", "CodaLab v1, Codabench", "EvalAI", "ours"

V1_MODELS = "codalab-competitions apps/web/models.py"
V1_UNPACK = V1_MODELS + " `CompetitionDefBundle.unpack`"
V2_IMPORT = "codabench src/apps/competitions/unpackers/v1.py"
V2_UNPACK = "codabench src/apps/competitions/unpackers/v2.py"
V2_BASE = "codabench src/apps/competitions/unpackers/base_unpacker.py"
V1_WORKER = "competitions-v1-compute-worker worker.py `run` (the command split on single spaces, no shell)"
V2_WORKER = "codabench compute_worker/compute_worker.py `_run_program_directory`"
HIDDEN = "docs/organizers.md section 3 (who sees what on each platform)"


@dataclass(frozen=True)
class Rule:
    code: str       # what an organizer can search for
    level: str      # ERROR (check exits 1) or WARNING
    platform: str   # whose rule it is: CodaLab v1, Codabench, EvalAI, or ours (the scoring program's)
    summary: str    # the rule, for the docs table
    source: str     # where the platform does it (file and function), or why it is ours
    message: str    # what check prints, str.format fields in braces

    def text(self, **fields):
        return self.message.format(**fields)


_RULES = (
    # -- the folder, the zip and competition.yaml ----------------------------------------------------------
    Rule("path-not-bundle", ERROR, OURS, "the path is a competition folder or a bundle zip", "ours",
         "is {kind}; give a competition folder or a bundle zip"),
    Rule("path-unreadable", ERROR, OURS, "the bundle zip can be read", "ours", "cannot be read ({error})"),
    Rule("folder-unbundlable", ERROR, OURS, "the folder bundles as `python3 -m organizer bundle` does (its "
         "starting kit lists exactly the gold's units, its files are regular files, ...)", "ours",
         "cannot be bundled: {reason}"),
    Rule("folder-no-yaml", ERROR, BOTH, "the folder has a competition.yaml", V1_UNPACK, "no competition.yaml"),
    Rule("folder-loose-yaml", ERROR, V1, "no loose .yaml beside competition.yaml in the folder", V1_UNPACK +
         " (the first entry whose name contains '.yaml' is the definition)",
         "a loose .yaml beside competition.yaml; CodaLab takes the first entry whose name contains '.yaml' as the "
         "competition definition: move it into a data folder"),
    Rule("zip-bad", ERROR, BOTH, "the bundle is a zip", V1_UNPACK + "; " + V2_BASE, "is not a zip file"),
    Rule("zip-no-yaml", ERROR, BOTH, "competition.yaml is at the zip's root", V1_UNPACK + "; codabench "
         "src/apps/competitions/tasks.py `unpack_competition` (\"competition.yaml is missing from zip\")",
         "competition.yaml is not at the root of the zip (found: {found})"),
    Rule("zip-first-yaml", ERROR, V1, "competition.yaml is the first entry whose name contains .yaml", V1_UNPACK,
         "the first .yaml entry is {name}, which CodaLab v1 would read as the competition definition"),
    Rule("zip-second-yaml", ERROR, V1, "no other entry whose name contains .yaml", V1_UNPACK,
         "a second .yaml in the bundle; keep configs inside the nested zips"),
    Rule("yaml-invalid", ERROR, BOTH, "competition.yaml is UTF-8 YAML", V1_UNPACK + "; " + V2_BASE,
         "is not valid UTF-8 YAML ({error})"),
    Rule("not-mapping", ERROR, BOTH, "competition.yaml, each v1 phase and each v1 column is a mapping",
         V1_UNPACK + "; " + V2_IMPORT, "must be a mapping"),
    Rule("title-missing", ERROR, BOTH, "the competition has a title", V1_MODELS + " `Competition.title`; "
         "codabench src/apps/competitions/models.py `Competition.title`", "is missing"),
    Rule("title-long", ERROR, "CodaLab v1, EvalAI", "the title has at most 100 characters",
         V1_MODELS + " `Competition.title` and EvalAI apps/challenges/models.py `Challenge.title`: max_length 100",
         "is {length} characters; CodaLab v1 (Competition.title, apps/web/models.py) and EvalAI (Challenge.title, "
         "apps/challenges/models.py) allow at most {limit}: the upload fails"),
    Rule("v2-title-long", ERROR, V2, "a v2 title has at most 256 characters",
         "codabench src/apps/competitions/models.py `Competition.title`: max_length 256",
         "is {length} characters; Codabench allows at most {limit} (Competition.title)"),
    Rule("v2-title-portable", WARNING, "CodaLab v1, EvalAI", "a v2 title over 100 characters could not move to "
         "CodaLab v1 or EvalAI", V1_MODELS + " `Competition.title`; EvalAI `Challenge.title`",
         "is {length} characters: Codabench takes it, CodaLab v1 and EvalAI would not (at most {limit})"),
    Rule("docker-image-missing", ERROR, BOTH, "a docker image is set (the defaults are Python 2.7 on CodaLab v1, "
         "py37 with pandas 0.25 on Codabench)", V1_MODELS + " `Competition.competition_docker_image`; codabench "
         "src/apps/competitions/models.py `Competition.docker_image`",
         "no docker image set; the platforms' defaults are old (CodaLab: Python 2.7, Codabench: py37 with pandas "
         "0.25); set codalab/codalab-legacy:py312"),
    Rule("docker-image-old", ERROR, BOTH, "the image is not one known to lack python3 or our packages",
         "codalab/codalab-dockers (legacy images)",
         "{image} has {has}; the scoring program needs python3 with numpy 1.26.4, pandas 2.2.3, PyYAML 6.0.2 (use "
         "codalab/codalab-legacy:py312)"),
    Rule("docker-image-unknown", WARNING, BOTH, "the image is codalab/codalab-legacy:py312, known to have our "
         "packages", "codalab/codalab-dockers (legacy images)",
         "{image} is not known to have python3 with numpy 1.26.4, pandas 2.2.3, PyYAML 6.0.2 "
         "(codalab/codalab-legacy:py312 has them)"),

    # -- CodaLab v1 competition.yaml ----------------------------------------------------------------------
    Rule("v1-competition-field", ERROR, V1, "every top-level key is a Competition field",
         V1_UNPACK + " (`Competition(**fields)`)", "is not a CodaLab v1 competition field; the upload would crash "
         "(Competition(**fields)){hint}"),
    Rule("v1-html-missing", ERROR, V1, "`html` names the pages", V1_UNPACK,
         "is missing; it must name the overview, evaluation, terms and data pages"),
    Rule("v1-page-missing", ERROR, V1, "`html` has overview, evaluation, terms and data", V1_UNPACK +
         " (asserts `data`); " + V2_IMPORT + " (needs `terms`)", "is missing; CodaLab v1 requires it"),
    Rule("page-not-in-bundle", ERROR, BOTH, "each page named in `html` is at the bundle's root", V1_UNPACK,
         "{name} is not at the root of the bundle"),
    Rule("page-empty", ERROR, BOTH, "no page is empty", V2_IMPORT + " (an empty terms page fails)", "is empty"),
    Rule("image-missing", ERROR, V2, "a logo (`image`) is set", V2_IMPORT, "is missing; Codabench requires a logo"),
    Rule("image-not-in-bundle", ERROR, BOTH, "the logo is at the bundle's root", V2_IMPORT,
         "{name} is not at the root of the bundle"),
    Rule("v1-phases-missing", ERROR, BOTH, "there is at least one phase", V1_UNPACK + "; " + V2_IMPORT,
         "is missing or empty"),
    Rule("v1-phase-field", ERROR, V1, "every phase key is a CompetitionPhase field",
         V1_UNPACK + " (`CompetitionPhase(**spec)`)", "is not a CodaLab v1 phase field; the upload would crash{hint}"),
    Rule("v1-field", ERROR, BOTH, "each field of a v1 competition.yaml has the type and range of the model field "
         "it fills (the table of fields below)", V1_MODELS + " (`Competition`, `CompetitionPhase`, "
         "`SubmissionScoreDef`); " + V2_IMPORT, "{value!r} is not {what}; {why}"),
    Rule("v1-phasenumber", ERROR, V1, "each phase has a `phasenumber`, a whole number from 0", V1_UNPACK +
         "; " + V1_MODELS + " `CompetitionPhase.phasenumber` (PositiveIntegerField)",
         "is {value!r}; each phase needs a phasenumber, a whole number from 0"),
    Rule("v1-phasenumber-repeated", ERROR, V1, "no two phases share a `phasenumber`", V1_UNPACK,
         "phasenumber values repeat: {numbers}"),
    Rule("v1-phase-label-long", ERROR, V1, "a phase `label` has at most 50 characters",
         V1_MODELS + " `CompetitionPhase.label`: max_length 50", "is longer than {limit} characters"),
    Rule("v1-phase-description-long", ERROR, V1, "a phase `description` has at most 1000 characters",
         V1_MODELS + " `CompetitionPhase.description`: max_length 1000", "is longer than {limit} characters"),
    Rule("v1-start-date", ERROR, BOTH, "each phase has a `start_date`", V1_UNPACK + "; " + V2_IMPORT,
         "is missing or not a date"),
    Rule("v1-color", ERROR, V1, "a phase `color` is one of the model's choices",
         V1_MODELS + " `CompetitionPhase.COLOR_CHOICES`", "{value!r}; allowed: {allowed}"),
    Rule("v1-leaderboard-mode", ERROR, V1, "`leaderboard_management_mode` is default or hide_results",
         V1_UNPACK + " (any other value becomes default)",
         "{value!r} is silently replaced by 'default' (results visible); allowed: default, hide_results"),
    Rule("v1-phase-file-missing", ERROR, V1, "each phase names its `scoring_program` and `reference_data`",
         V1_UNPACK, "is missing"),
    Rule("phase-file-not-in-bundle", ERROR, BOTH, "a .zip a phase names is in the bundle", V1_UNPACK + "; " +
         V2_BASE, "{name} is not in the bundle"),
    Rule("v1-phase-dataset", WARNING, V1, "a phase's data names a .zip of the bundle (any other value is looked up "
         "as an existing dataset)", V1_UNPACK, "{value!r} is not a .zip: CodaLab looks it up as an existing dataset"),
    Rule("v1-first-auto-migration", WARNING, V1, "the first phase has no `auto_migration`", V1_UNPACK +
         " (forces it to False)", "is forced to False on the first phase"),
    Rule("v1-phase-order", ERROR, BOTH, "phases start in `phasenumber` order", V1_MODELS + " "
         "`CompetitionPhase` ordering; " + V2_BASE + " `_validate_phase_ordering`",
         "must be later than the previous phase's start ({previous}); phases run in phasenumber order"),
    Rule("v1-phase-gap", WARNING, V2, "a phase starts more than a day after the previous one", V2_IMPORT +
         " `_unpack_phases` (a phase ends one day before the next starts)", "Codabench ends the previous phase "
         "one day before this start, which is not after that phase's own start"),
    Rule("v1-kit-unnamed", WARNING, BOTH, "a starting_kit.zip in the bundle is named by a phase", V1_UNPACK,
         "starting_kit.zip is in the bundle but no phase names it (starting_kit: starting_kit.zip); participants "
         "will not see it"),
    Rule("v1-force-best-sealed", ERROR, V1, "a sealed phase has no `force_best_submission_to_leaderboard`",
         "codalab-competitions apps/web/utils.py `push_submission_to_leaderboard_if_best`",
         "is set on a sealed phase: CodaLab v1 would keep each participant's best submission by the placeholder "
         "scores (apps/web/utils.py push_submission_to_leaderboard_if_best), and the reveal could not tell which "
         "one the participant meant; remove it"),
    Rule("v1-leaderboards-extra", WARNING, V2, "one leaderboard (Codabench attaches only the first to the phases)",
         V2_BASE + " `_save_leaderboards`", "Codabench attaches only the first leaderboard to the phases of an "
         "imported bundle"),

    # -- CodaLab v1 leaderboard ---------------------------------------------------------------------------
    Rule("v1-leaderboard-missing", ERROR, BOTH, "`leaderboard` is set", V1_UNPACK + "; " + V2_IMPORT +
         " `_unpack_leaderboards`", "is missing"),
    Rule("v1-leaderboards-missing", ERROR, BOTH, "`leaderboard.leaderboards` names at least one leaderboard",
         V2_IMPORT + " `_unpack_leaderboards` (\"Could not find leaderboards\")", "is missing or empty"),
    Rule("v1-columns-missing", ERROR, BOTH, "`leaderboard.columns` has at least one column", V1_UNPACK,
         "is missing or empty"),
    Rule("v1-column-label-missing", ERROR, BOTH, "each column has a label", V1_MODELS +
         " `SubmissionScoreDef.label`", "is missing"),
    Rule("v1-column-leaderboard", ERROR, BOTH, "each column refers to one of the leaderboards", V1_UNPACK + "; " +
         V2_IMPORT + " `_unpack_leaderboards`", "must refer to one of the leaderboards ({labels})"),
    Rule("v1-numeric-format", ERROR, BOTH, "`numeric_format` is a whole number of decimals", V1_MODELS +
         " `CompetitionPhase.format_value`; " + V2_IMPORT + " `_unpack_leaderboards` (its `precision`)",
         "{value!r} is not a whole number of decimals"),
    Rule("v1-numeric-format-clamped", WARNING, V1, "`numeric_format` is in 1..10 (else clamped)", V1_MODELS +
         " `CompetitionPhase.format_value`", "{value} is clamped to 1..10"),
    Rule("column-sort", ERROR, BOTH, "a column sorts asc or desc", V1_MODELS + " `SubmissionScoreDef.sorting`; "
         "codabench src/apps/leaderboards/models.py `Column.sorting`", "{value!r}; allowed: asc, desc"),
    Rule("v1-computed", ERROR, V1, "a computed column's operation is Max, Avg or MRR", V1_MODELS +
         " `SubmissionComputedScore`", "operation must be Max, Avg or MRR"),
    Rule("v1-computed-field", ERROR, V1, "a computed column's fields are columns", V1_UNPACK,
         "{field!r} is not a column"),
    Rule("v1-computed-codabench", WARNING, V2, "no computed column (Codabench shows n/a)", V2_IMPORT +
         " `_unpack_leaderboards` (computed columns are not translated)",
         "Codabench does not translate computed columns (it shows n/a)"),
    Rule("key-colon", ERROR, BOTH, "no colon in a column key", "codalab-competitions apps/web/tasks.py "
         "`update_submission` (`line.split(\":\")`); codabench compute_worker.py `push_scores` (reads YAML)",
         "column key {key!r} has a colon; scores.txt lines are split on the one colon"),
    Rule("key-long", ERROR, V2, "a column key has at most 36 characters", "codabench "
         "src/apps/leaderboards/models.py `Column.key`: max_length 36 (CodaLab v1: 50)",
         "column key {key!r} is {length} characters; Codabench allows at most {limit}"),
    Rule("key-blank", ERROR, OURS, "a column key is not empty and has no surrounding spaces",
         "scores.txt keys are stripped when read", "column key {key!r} is empty or has surrounding spaces"),
    Rule("label-long-v1", ERROR, V1, "a column label has at most 50 characters", V1_MODELS +
         " `SubmissionScoreDef.label`: max_length 50",
         "{title!r} is {length} characters; CodaLab v1 allows at most {limit}"),
    Rule("label-long-codabench", ERROR, V2, "a v1 column label has at most 36 characters (Codabench copies it "
         "into `Column.title`)", "codabench src/apps/leaderboards/models.py `Column.title`: max_length 36; " +
         V2_IMPORT + " `_unpack_leaderboards`",
         "{title!r} is {length} characters; Codabench (which imports v1 bundles) allows at most {limit}: shorten it"),

    # -- the scoring program zip --------------------------------------------------------------------------
    Rule("zip-nested-bad", ERROR, BOTH, "a nested .zip is a zip", V1_UNPACK + "; " + V2_BASE,
         "{name} is not a zip file"),
    Rule("program-no-metadata", ERROR, BOTH, "the scoring program zip has `metadata` at its root",
         "competitions-v1-compute-worker worker.py `run`; " + V2_WORKER,
         "no metadata file at the root of the scoring program zip (its files must not sit in a folder)"),
    Rule("program-metadata-yaml", WARNING, V1, "the metadata file is named `metadata` (no extension)",
         "competitions-v1-compute-worker worker.py `run` (reads `metadata` only)",
         "CodaLab v1 reads only 'metadata' (no extension)"),
    Rule("program-file-missing", ERROR, OURS, "the program zip has score.py and scorer/", "the scoring program's "
         "own layout", "is missing"),
    Rule("program-pycache", WARNING, OURS, "the program zip has no __pycache__", "bytecode of another Python is "
         "dead weight", "contains __pycache__ folders"),
    Rule("program-metadata-bad", ERROR, BOTH, "the metadata is a YAML mapping with a command", V1_WORKER,
         "is not a YAML mapping with a command"),
    Rule("program-command-missing", ERROR, BOTH, "the metadata has a command", V1_WORKER, "command is missing"),
    Rule("program-command-spaces", ERROR, V1, "the command has single spaces only", V1_WORKER,
         "command {command!r} has a double or trailing space; v1 splits on single spaces"),
    Rule("program-command-python3", ERROR, BOTH, "the command starts with python3 (python is Python 2 on older "
         "images)", V1_WORKER, "command must start with python3 (python is Python 2 on older images): {command!r}"),
    Rule("program-command-shell", ERROR, BOTH, "the command uses no shell syntax", V1_WORKER,
         "command {command!r} uses shell syntax; the workers run it without a shell"),
    Rule("program-command-args", ERROR, BOTH, "the command passes $program/score.py, $input and $output, each as "
         "its own argument", V1_WORKER, "command {command!r} does not pass {var} as its own argument"),

    # -- each phase's reference data ----------------------------------------------------------------------
    Rule("reference-no-config", ERROR, OURS, "the reference zip has config.yaml at its root", "score.py reads "
         "INPUT/ref/config.yaml", "is missing; the reference zip needs config.yaml at its root"),
    Rule("reference-board-unnamed", WARNING, OURS, "the reference zip's name says its board "
         "(reference_data_<BOARD>.zip)", "how `python3 -m organizer bundle` names it",
         "{name} does not say its board (name it reference_data_<BOARD>.zip)"),
    Rule("reference-config", ERROR, OURS, "config.yaml loads (task, options)", "scorer/config.py",
         "{message}"),
    Rule("reference-board", ERROR, OURS, "config.yaml's board is the zip's board (`all` in the dev phase's "
         "reference_data_dev.zip)", "ours",
         "board is {board} but this is the reference data of board {expected}"),
    Rule("reference-file-missing", ERROR, OURS, "every file config.yaml names is in the zip", "ours",
         "{key} names {file}, which is not in {zip}"),
    Rule("reference-unloadable", ERROR, OURS, "the reference data loads", "ours",
         "the reference data does not load{detail}"),
    Rule("reference-whole-gold", ERROR, V2, "a phase's reference data holds its board's answers only (the "
         "public inputs, no board split)", "codabench src/apps/api/serializers/tasks.py `get_public_datasets`, "
         "src/apps/datasets/views.py `download` (every phase's data is served to anyone)",
         "holds the whole gold and the board split (no public_inputs): the phase of board {board} would upload the "
         "answers of every board, which Codabench serves to anyone; build the bundle with python3 -m organizer "
         "bundle (each phase gets its own board's answers only)"),
    Rule("reference-sealed-answers", ERROR, V2, "a sealed phase's reference data holds no answers",
         "codabench src/apps/api/serializers/tasks.py `get_public_datasets`",
         "board {board} is sealed, yet {zip} holds {answers}: answers that anyone could download while the phase "
         "runs (Codabench serves every phase's reference data); a sealed phase's reference data holds the config "
         "and the public inputs only"),
    Rule("column-not-written", ERROR, OURS, "every non-computed column key is written by the scoring program for "
         "the phase's task and options (interval keys only with `intervals: {in_scores: true}`; on the dev phase the "
         "first column only: the dev set may score fewer keys, whose columns stay empty there)",
         "scorer.tasks.families()[task].leaderboard_keys(options)",
         "is never written by the scoring program for task {task} (it writes: {written}); the column would show "
         "n/a{hint}"),
    Rule("ladder-no-history", WARNING, BOTH, "no `feedback.ladder` in a phase's config (the platforms give the "
         "scoring program no submission history)", "codalab-competitions commit 57e625b (an empty history); "
         "codabench compute_worker.py `_run_program_directory` (none)",
         "the Ladder continues a team's state through the submission history the platform gives the scoring "
         "program; CodaLab v1 has sent an empty history since codalab-competitions commit 57e625b (2017-02-19) and "
         "Codabench sends none, so there each submission is scored as the team's first (the Ladder only rounds to "
         "its step); keep the state with python3 -m organizer ladder instead (docs/report.md)"),
    Rule("primary-not-first", WARNING, OURS, "the first column is config.yaml's primary_key", "ours",
         "the first column is {first} but config.yaml's primary_key is {primary}"),

    # -- the hidden board -----------------------------------------------------------------------------------
    Rule("board-b-unsealed", ERROR, BOTH, "a phase that scores board B (or every unit while a split exists, or "
         "every test unit while the feedback phase scores the dev set) has `report: sealed`", HIDDEN,
         "scores board {board} with report: {report}, so participants would see its scores and detailed results "
         "while the phase runs (Codabench's v1 importer ignores leaderboard_management_mode, and both platforms "
         "serve detailed results to other users): add 'report: sealed' to board_{board}.yaml and reveal the board "
         "after the phase (python3 -m organizer reveal)"),
    Rule("feedback-test-answers", WARNING, V2, "a phase that shows its scores while it runs holds no test answers "
         "(also in a v1 bundle, which Codabench imports)", "codabench src/apps/api/serializers/tasks.py "
         "`PhaseTaskInstanceSerializer.get_public_datasets` (every phase's reference data in the public competition "
         "API); src/apps/datasets/views.py `download` (no permission check)",
         "holds the answers of {n} test item(s) ({answers}) and shows its scores while it runs: on Codabench anyone, "
         "logged out included, can download them while the competition runs, top this board by submitting them, and "
         "train or tune on them, which moves the final ranking too (CodaLab v1 shows a dataset's key to organizers "
         "only); to keep every test answer out of what Codabench serves, give the feedback phase the dev set "
         "(python3 -m organizer new --feedback dev) or keep the answers in a private image (docs/organizers.md "
         "section 3)"),
    Rule("sealed-v1-hide-results", WARNING, V1, "a sealed v1 phase uses `leaderboard_management_mode: "
         "hide_results`", HIDDEN, "a sealed phase on CodaLab v1 should also use hide_results (hides stdout and the "
         "output zip from the submitter)"),
    Rule("sealed-v2-output-zip", WARNING, V2, "a sealed v2 phase hides its output zip (`hide_score_output`)", HIDDEN,
         "set it to True: the scoring output zip is not needed by participants in a sealed phase"),
    Rule("sealed-v2-logs-hidden", WARNING, V2, "a sealed v2 phase shows its logs (`hide_output: false`), where "
         "participants read their format errors", HIDDEN, "is True: participants of this sealed phase cannot read "
         "their format errors (the logs are hidden); a sealed board prints no score, so False is safe"),
    Rule("v2-sealed-rule", ERROR, V2, "a sealed phase's leaderboard rule is one under which the reveal can make the "
         "board show the final ranking (Add, Add_And_Delete, Add_And_Delete_Multiple, Force_Last, or Force_Best with a "
         "primary column that sorts desc)", "codabench src/apps/api/views/submissions.py "
         "`SubmissionViewSet.submission_leaderboard_connection`; src/apps/leaderboards/strategies.py",
         "is {rule} while {phase} is sealed: {why}; use {allowed}"),
    Rule("v2-private-output", WARNING, V2, "no `private_output: true` in a v2 phase (the scoring program writes "
         "OUTPUT/private/ on CodaLab v1 only)", "codabench compute_worker/compute_worker.py `push_output` (the "
         "whole output folder goes to the output zip, nothing is kept apart)",
         "config.yaml has private_output: true, which Codabench runs ignore (OUTPUT/private/ is written on CodaLab "
         "v1 only)"),

    # -- the answers in a private scoring image (python3 -m organizer image; bundle --answers-image) --------
    Rule("answers-image-public", ERROR, V2, "a competition whose phases read their answers from the scoring image "
         "(`answers_dir`) names a docker image that is not a public one", "codabench src/apps/competitions/tasks.py "
         "`_send_to_compute_worker` (every run uses the competition's docker_image)",
         "config.yaml names answers_dir ({folder}), but the competition's docker image is {image}: the answers must "
         "be in the private image python3 -m organizer image builds; bundle with --answers-image TAG --queue VHOST"),
    Rule("answers-image-queue", ERROR, V2, "a competition whose answers are in its scoring image names the queue of "
         "the organizer's own worker (`queue:` its vhost)", V2_BASE + " `_unpack_queue` (looked up by vhost); "
         "codabench src/apps/competitions/tasks.py `_send_to_compute_worker`",
         "{problem}; the answers' image is private, so only the organizer's own worker (a Codabench queue with the "
         "registry's credentials) can pull it: bundle with --queue VHOST"),
    Rule("answers-image-mixed", ERROR, V2, "when one phase reads its answers from the scoring image, no phase's "
         "reference data holds answers", "codabench src/apps/api/serializers/tasks.py `get_public_datasets`",
         "{zip} holds {answers} while other phases read theirs from the scoring image: anyone could download "
         "them (Codabench serves every phase's reference data); bundle every phase with --answers-image"),
    Rule("answers-in-zip", ERROR, V2, "a phase that reads its answers from the scoring image holds none in its "
         "reference data", "codabench src/apps/api/serializers/tasks.py `get_public_datasets`",
         "config.yaml names answers_dir, yet {zip} holds {answers}, which anyone could download"),
    Rule("answers-dir-board", ERROR, OURS, "a phase's `answers_dir` is the image folder of its own board's answers",
         "organizer/answers_image.py (the folders python3 -m organizer image fills)",
         "answers_dir is {folder}, but board {board}'s answers are in {expected} of the image python3 -m organizer "
         "image builds"),
    Rule("answers-image-ingestion", ERROR, V2, "no ingestion program beside answers in the scoring image (the "
         "image runs our scoring program and nothing else)", V2_WORKER,
         "names an ingestion program, which the answers' image refuses to run (it runs the scoring program only, "
         "so that no other code reads the answers)"),
    Rule("answers-not-checked", WARNING, OURS, "the answers a phase reads from the scoring image are given to the "
         "linter (`check --answers`), so that it scores the sample on them", "ours",
         "the answers are in {folder} of the scoring image, not here: the phase was not scored; give their folder "
         "with --answers (the build context's answers/ of python3 -m organizer image)"),
    Rule("v1-queue", WARNING, V1, "a v1 competition.yaml with `queue` is for Codabench only", V1_UNPACK +
         " (`Competition(**fields)`); " + V2_BASE + " `_unpack_queue`",
         "Codabench's v1 importer reads it, CodaLab v1 would crash on it (Competition(**fields)): this bundle is "
         "for Codabench only"),

    # -- phase dates --------------------------------------------------------------------------------------
    Rule("phase-ended", WARNING, BOTH, "no phase has ended (its page refuses submissions); a v1 phase ends one day "
         "before the next starts (Codabench's importer), the last at `end_date`",
         "codabench src/static/riot/competitions/detail/submission_upload.tag; " + V2_IMPORT + " `_unpack_phases`; "
         + V1_MODELS + " `CompetitionPhase.is_active`",
         "ended on {date}: Codabench's page refuses submissions to a phase that has ended (submission_upload.tag) "
         "and CodaLab v1's API too (CompetitionPhase.is_active); move its dates if participants should still "
         "submit"),
    Rule("final-phase-open", WARNING, BOTH, "the final phase ends (after the reveal anyone could go on submitting "
         "and read the revealed board's scores)", HIDDEN,
         "is the final phase and never ends{after}; give it an end (end_date in a v1 competition.yaml, end in v2)"),

    # -- the starting kit -----------------------------------------------------------------------------------
    Rule("kit-repository-path", ERROR, OURS, "no kit file names a path of the organizers' repository (tools/, "
         "examples/, reference_data/, ..., \"repository root\")", "what a participant who has only the kit can do",
         "names {found!r}, a path of the organizers' repository that participants do not have; describe only what "
         "the kit holds"),
    Rule("kit-no-folder", WARNING, OURS, "the kit zip unpacks into one folder", "what a participant who has only "
         "the kit can do", "has {n} file(s) at the top of the zip ({first}): unzipping it spills them into the "
         "participant's current folder; put the kit in one folder (python3 -m organizer bundle makes starting_kit/)"),
    Rule("kit-dev-tool", WARNING, OURS, "the kit's README speaks of score_local.py only when the kit has dev data "
         "(`dev/config.yaml`)", "what a participant who has only the kit can do", "names score_local.py, but the "
         "kit has no dev data (dev/config.yaml) for it to score and the bundle does not ship it; describe only the "
         "tools the kit has"),
    Rule("kit-no-sample", WARNING, OURS, "the kit has a sample submission (`sample_submission.*` or `submission/`)",
         "what a participant who has only the kit can do", "has no sample submission (sample_submission.* or a "
         "submission/ folder): participants see no example of the format"),
    Rule("kit-sample-refused", ERROR, OURS, "the sample submission scores on every phase's reference data "
         "(placeholders on a sealed phase)", "what a participant who has only the kit can do",
         "the sample submission does not score on {phase} ({zip}): {message}"),
    Rule("kit-sample-crash", ERROR, OURS, "scoring the sample submission does not crash",
         "what a participant who has only the kit can do",
         "scoring the sample submission on {phase} fails ({error})"),
    Rule("kit-public-unloadable", ERROR, OURS, "the kit's public test inputs load", "validate.py reads them",
         "the public test inputs do not load: {message}"),
    Rule("kit-no-public", WARNING, OURS, "the kit has public test inputs (validate.py checks files offline "
         "against them)", "validate.py reads them", "has no public test inputs ({file}) for task {task}, so "
         "participants cannot check their files offline (validate.py)"),
    Rule("kit-ids", ERROR, OURS, "the kit's public test inputs list exactly the ids of each phase", "validate.py "
         "and the platform must agree", "its public test ids differ from those of {zip}: {only_kit} only in the "
         "kit{first_kit}, {only_gold} only in the phase{first_gold}; the kit must list exactly the test items"),
    Rule("kit-dev", ERROR, OURS, "the kit's dev/ loads with its own config.yaml", "score_local.py reads it",
         "the dev set does not load with its own config.yaml: {message}"),
    Rule("dev-phase-kit", ERROR, OURS, "the dev phase (reference_data_dev.zip) scores exactly the items of the kit's "
         "dev/", "what a participant who has only the kit can do",
         "scores other items than the kit's dev/ ({only_phase} only in the phase{first_phase}, {only_kit} only in "
         "the kit{first_kit}); participants predict the kit's dev items: build the bundle with python3 -m organizer "
         "bundle, which makes this phase's data from the kit's dev/"),
    Rule("dev-phase-test-items", ERROR, V2, "no item the dev phase scores is a test item",
         "codabench src/apps/api/serializers/tasks.py `get_public_datasets` (the dev phase's reference data, like "
         "the kit, is public)", "scores {n} test item(s) (first: {first}), whose answers are then in this public zip "
         "and in the kit; the dev set must share no id with the test set"),

    # -- Codabench v2 competition.yaml --------------------------------------------------------------------
    Rule("v2-field", ERROR, V2, "each field of a v2 competition.yaml has the type and range of the model field "
         "it fills (the table of fields below)", "codabench src/apps/competitions/models.py, "
         "src/apps/leaderboards/models.py, src/apps/tasks/models.py; " + V2_UNPACK, "{value!r} is not {what}; {why}"),
    Rule("v2-image", ERROR, V2, "a v2 `image` is set and in the bundle", V2_UNPACK,
         "is missing or not in the bundle"),
    Rule("v2-terms", ERROR, V2, "a v2 `terms` page is set, in the bundle and not empty", V2_UNPACK,
         "is missing, not in the bundle, or empty"),
    Rule("v2-pages-missing", ERROR, V2, "v2 `pages` is a list of {title, file}", V2_UNPACK,
         "is missing (a list of {{title, file}})"),
    Rule("v2-page", ERROR, V2, "each v2 page's file is in the bundle and not empty", V2_UNPACK,
         "{name!r} is not in the bundle or is empty"),
    Rule("v2-registration", WARNING, V2, "`registration_auto_approve` is set (the default False makes every "
         "participant wait for approval)", V2_UNPACK + " (default False)",
         "is missing, so Codabench's default (False) applies: every participant waits for manual approval; set it "
         "(a v1 bundle's has_registration: False means True)"),
    Rule("v2-leaderboard-singular", ERROR, V2, "v2 says `leaderboards` (plural)", V2_UNPACK,
         "v2 needs 'leaderboards' (plural): a list"),
    Rule("v2-leaderboards-missing", ERROR, V2, "v2 `leaderboards` is a non-empty list", V2_UNPACK,
         "is missing or empty"),
    Rule("v2-columns-missing", ERROR, V2, "each v2 leaderboard has columns", V2_UNPACK, "has no columns"),
    Rule("v2-submission-rule", ERROR, V2, "a v2 `submission_rule` is one Codabench knows",
         "codabench src/apps/leaderboards/models.py `Leaderboard.SUBMISSION_RULES`", "{value!r}; allowed: {allowed}"),
    Rule("v2-index-repeated", ERROR, V2, "v2 column indexes are unique", "codabench "
         "src/apps/leaderboards/models.py `Column.Meta.ordering` (by index)",
         "column indexes repeat: {indexes}"),
    Rule("v2-key-repeated", ERROR, V2, "v2 column keys are unique", "codabench src/apps/leaderboards/models.py "
         "`Column.Meta.unique_together` (leaderboard, key)", "column keys repeat: {keys}"),
    Rule("v2-column-title-missing", ERROR, V2, "each v2 column has a title", "codabench "
         "src/apps/leaderboards/models.py `Column.title`", "is missing"),
    Rule("v2-column-title-long", ERROR, V2, "a v2 column title has at most 36 characters", "codabench "
         "src/apps/leaderboards/models.py `Column.title`: max_length 36",
         "{title!r} is {length} characters; Codabench allows at most {limit}"),
    Rule("v2-precision", ERROR, V2, "a v2 column's precision is a whole number in 0..10", "codabench "
         "src/apps/leaderboards/models.py `Column.precision`", "{value!r} is not a whole number of decimals in 0..10"),
    Rule("v2-computation", ERROR, V2, "a v2 computation is sum, avg, min or max over other columns' indexes",
         "codabench src/apps/leaderboards/models.py `Column.computation`",
         "needs sum|avg|min|max and computation_indexes of other columns"),
    Rule("v2-leaderboards-extra", WARNING, V2, "one v2 leaderboard (only the first is attached to the phases)",
         V2_BASE + " `_save_leaderboards`", "only the first leaderboard is attached to the phases"),
    Rule("v2-task-index", ERROR, V2, "each v2 task has a unique index", V2_UNPACK, "is missing or repeated"),
    Rule("v2-task-program", ERROR, V2, "each v2 task names its scoring program", V2_UNPACK, "is missing"),
    Rule("v2-tasks-missing", ERROR, V2, "there is at least one v2 task", V2_UNPACK, "is missing or empty"),
    Rule("v2-phases-missing", ERROR, V2, "there is at least one v2 phase", V2_UNPACK, "is missing or empty"),
    Rule("v2-start", ERROR, V2, "each v2 phase has a start date", V2_UNPACK, "is missing or not a date"),
    Rule("v2-end-required", ERROR, V2, "every v2 phase but the last has an end", V2_BASE +
         " `_validate_phase_ordering`", "is required on every phase but the last"),
    Rule("v2-end-order", ERROR, V2, "a v2 phase ends after it starts", V2_BASE + " `_validate_phase_ordering`",
         "is not after the phase's start"),
    Rule("v2-phase-order", ERROR, V2, "a v2 phase starts after the previous one ends", V2_BASE +
         " `_validate_phase_ordering` (\"Phases dates conflict\")",
         "must be after the previous phase's end (Codabench: 'Phases dates conflict')"),
    Rule("v2-phase-task", ERROR, V2, "each task a v2 phase names is defined", V2_UNPACK, "task {task!r} is not defined"),
    Rule("v2-phase-tasks", ERROR, V2, "each v2 phase names its tasks", V2_UNPACK, "is missing"),
)

RULES = {rule.code: rule for rule in _RULES}
assert len(RULES) == len(_RULES), "a rule code is declared twice"

BEGIN = "<!-- lint rules: written by `python3 -m organizer options` from organizer/lint_rules.py; edit that -->"
END = "<!-- end of lint rules -->"
HEADER = "| code | level | platform | rule | source |\n|---|---|---|---|---|"


def table():
    """The marked block of docs/organizers.md: one row per rule, in declaration order."""
    def cell(text):
        return text.replace("|", "\\|").replace("\n", " ")
    rows = ["| `%s` | %s | %s | %s | %s |" % (r.code, r.level.lower(), r.platform, cell(r.summary), cell(r.source))
            for r in _RULES]
    return "\n".join([BEGIN, HEADER] + rows + [END])


# -- the fields of competition.yaml: each one's type and range, declared once ------------------------------------
# A field's value must be of its kind: a wrong type, or a value out of its range, is flagged with the field's rule
# (its ``code``, else v1-field or v2-field). The kinds follow the model field each value fills on the platform: a
# Django PositiveIntegerField or IntegerField takes a whole number (CodaLab v1's unpacker passes the YAML value to
# the model, Codabench's serializers check it), a BooleanField true or false, a CharField text up to its
# max_length, a DateTimeField a date. Where both platforms read a field and give a value a different meaning (0
# submissions a day: none on CodaLab v1, no limit on Codabench), the range leaves that value out.
INT_MAX = 2 ** 31 - 1   # PositiveIntegerField and IntegerField (PostgreSQL integer)
V2_MODELS = "codabench src/apps/competitions/models.py"
V2_LEADERBOARDS = "codabench src/apps/leaderboards/models.py"


@dataclass(frozen=True)
class Kind:
    """What a field takes: ``what`` in words, ``is_type`` (the value's type) and ``in_range`` (its value)."""

    what: str
    is_type: object       # value -> bool
    in_range: object      # value of the type -> bool
    limit: object = None  # the largest length or value, for the messages that quote it
    allowed: str = ""     # the values of a choice, for the messages that quote them
    outside: object = None   # a value of the type out of the range (None: every value of the type is in it)

    def problem(self, value):
        """None when ``value`` is of this kind, else "type" or "range"."""
        try:
            if not self.is_type(value):
                return "type"
            return None if self.in_range(value) else "range"
        except (TypeError, ValueError, OverflowError):
            return "range"


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def whole(low=0, high=INT_MAX, why=""):
    """A whole number in [low, high]."""
    what = "a whole number from %d%s" % (low, "" if high == INT_MAX else " to %d" % high)
    return Kind(what + why, lambda v: isinstance(v, int) and not isinstance(v, bool), lambda v: low <= v <= high,
                limit=high, outside=low - 1)


def boolean():
    return Kind("true or false", lambda v: isinstance(v, bool), lambda v: True)


def text(high=None, low=0, null=True, strict=False):
    """Text of ``low`` to ``high`` characters (a number is text too where the model keeps str(value); not where
    ``strict``: the unpacker calls .strip() on it); None allowed when ``null``."""
    what = "text" + (" of at most %d characters" % high if high else "")
    return Kind(what, lambda v: (null and v is None) or isinstance(v, str) or (_number(v) and not strict),
                lambda v: v is None or low <= len(str(v)) <= (high or len(str(v))), limit=high,
                outside="x" * (high + 1) if high else None)


def date(null=True):
    """A date: YAML's date or datetime, or ISO text (2026-01-05, 2026-01-05T12:00:00)."""
    import datetime as dt

    def parses(value):
        if value is None or isinstance(value, (dt.date, dt.datetime)):
            return True
        dt.datetime.fromisoformat(str(value).strip())
        return True
    return Kind("a date (YYYY-MM-DD, or with a time)", lambda v: (null and v is None) or isinstance(
        v, (str, dt.date, dt.datetime)), parses, outside="next monday")


def one_of(*choices):
    allowed = ", ".join(choices)
    return Kind("one of " + allowed, lambda v: isinstance(v, str), lambda v: v in choices, allowed=allowed,
                outside="other")


def mapping():
    return Kind("a mapping of keys", lambda v: isinstance(v, dict), lambda v: True)


def listing():
    return Kind("a list", lambda v: isinstance(v, list), lambda v: True)


def decimals():
    """CodaLab v1's ``numeric_format``: a CharField that ``format_value`` reads with int()."""
    return Kind("a whole number of decimals", lambda v: isinstance(v, (int, str)) and not isinstance(v, bool),
                lambda v: str(v).strip().isdigit(), outside="four")


# where a field is: the scopes check.py walks
COMPETITION, PHASE, LEADERBOARD, COLUMN = "competition", "phase", "leaderboard", "column"
V2_COMPETITION, V2_PHASE, V2_TASK, V2_BOARD, V2_COLUMN, V2_PAGE = ("v2", "v2 phase", "v2 task", "v2 leaderboard",
                                                                    "v2 column", "v2 page")
V1_SCOPES = (COMPETITION, PHASE, LEADERBOARD, COLUMN)
AT_LEAST_ONE = " (0 means no submission at all on CodaLab v1 and no limit on Codabench)"
SECONDS = " (seconds)"
COLORS = ("white", "orange", "yellow", "green", "blue", "purple")
MODES = ("default", "hide_results")
SORTS = ("asc", "desc")
V2_RULES = ("Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last", "Force_Latest_Multiple", "Force_Best")


@dataclass(frozen=True)
class Field:
    scope: str      # where the field is (COMPETITION, PHASE, ..., V2_COLUMN)
    name: str
    kind: Kind
    source: str     # the model field it fills, or the code that reads it
    code: str = ""  # the rule flagged when the value is out of its range ("": v1-field or v2-field)

    @property
    def rule(self):
        return "v1-field" if self.scope in V1_SCOPES else "v2-field"


def _fields():
    c, p, s = V1_MODELS + " `Competition.", V1_MODELS + " `CompetitionPhase.", V1_MODELS + " `SubmissionScoreDef."
    v2c, v2p = V2_MODELS + " `Competition.", V2_MODELS + " `Phase."
    out = []

    def add(scope, names, kind, source, code=""):
        for name in names.split():
            out.append(Field(scope, name, kind, source.replace("{}", name), code))

    # CodaLab v1: the competition (Competition(**fields)); Codabench's v1 importer reads the same keys
    add(COMPETITION, "title", text(100), c + "title`: max_length 100", "title-long")
    add(COMPETITION, "description", text(), c + "description` (TextField)")
    add(COMPETITION, "admin_names", text(), V1_UNPACK + " (usernames separated by commas; not read since it is "
        "removed before `Competition(**fields)`)")
    add(COMPETITION, "image", text(), c + "image` (a file of the bundle)")
    add(COMPETITION, "url_redirect", text(200), c + "url_redirect` (URLField)")
    add(COMPETITION, "competition_docker_image", text(128), c + "competition_docker_image`: max_length 128")
    add(COMPETITION, "start_date end_date", date(), c + "{}` (DateTimeField)")
    add(COMPETITION, "reward", whole(), c + "reward` (PositiveIntegerField)")
    add(COMPETITION, "has_registration published force_submission_to_leaderboard disallow_leaderboard_modifying "
        "enable_medical_image_viewer enable_detailed_results show_datasets_from_yaml allow_teams "
        "enable_per_submission_metadata allow_public_submissions enable_forum anonymous_leaderboard enable_teams "
        "require_team_approval hide_top_three hide_chart allow_organizer_teams", boolean(), c + "{}` (BooleanField)")
    add(COMPETITION, "html phases leaderboard", mapping(), V1_UNPACK)
    # CodaLab v1: each phase (CompetitionPhase(**spec)); Codabench's v1 importer reads the limits and dates
    add(PHASE, "phasenumber", whole(), p + "phasenumber` (PositiveIntegerField)", "v1-phasenumber")
    add(PHASE, "label", text(50), p + "label`: max_length 50", "v1-phase-label-long")
    add(PHASE, "description", text(1000), p + "description`: max_length 1000", "v1-phase-description-long")
    add(PHASE, "start_date", date(null=False), p + "start_date` (DateTimeField)", "v1-start-date")
    add(PHASE, "max_submissions max_submissions_per_day", whole(1, why=AT_LEAST_ONE),
        p + "{}` (PositiveIntegerField); " + V2_IMPORT + " `_unpack_phases`; " + v2p + "has_max_submissions`")
    add(PHASE, "execution_time_limit", whole(1, why=SECONDS), p + "execution_time_limit` (PositiveIntegerField, "
        "seconds); " + v2p + "execution_time_limit`")
    add(PHASE, "max_submission_size", whole(), p + "max_submission_size` (PositiveIntegerField, MB)")
    add(PHASE, "color", one_of(*COLORS), p + "COLOR_CHOICES`", "v1-color")
    add(PHASE, "leaderboard_management_mode", one_of(*MODES), V1_UNPACK + " (any other value becomes default)",
        "v1-leaderboard-mode")
    add(PHASE, "is_scoring_only auto_migration force_best_submission_to_leaderboard phase_never_ends "
        "delete_submissions_except_best_and_last disable_custom_docker_image", boolean(), p + "{}` (BooleanField)")
    add(PHASE, "scoring_program reference_data input_data public_data starting_kit ingestion_program", text(),
        p + "{}` (a zip of the bundle, or a dataset's key)")
    add(PHASE, "scoring_program_docker_image default_docker_image ingestion_program_docker_image", text(128),
        p + "{}`: max_length 128")
    add(PHASE, "datasets", mapping(), V1_UNPACK)
    # CodaLab v1: the leaderboards and their columns
    add(LEADERBOARD, "label", text(50, null=False, strict=True), V1_MODELS + " `SubmissionResultGroup.label`: "
        "max_length 50 (" + V1_UNPACK + " strips it)")
    add(LEADERBOARD, "rank", whole(), V1_MODELS + " `SubmissionResultGroup.ordering` (PositiveIntegerField)")
    add(COLUMN, "label", text(50, null=False, strict=True), s + "label`: max_length 50 (" + V1_UNPACK +
        " strips it)", "label-long-v1")
    add(COLUMN, "rank", whole(), s + "ordering` (PositiveIntegerField)")
    add(COLUMN, "numeric_format", decimals(), V1_MODELS + " `CompetitionPhase.format_value`", "v1-numeric-format")
    add(COLUMN, "sort", one_of(*SORTS), s + "sorting`; " + V2_LEADERBOARDS + " `Column.sorting`", "column-sort")
    add(COLUMN, "hidden", boolean(), V2_IMPORT + " `_unpack_leaderboards`; " + V2_LEADERBOARDS + " `Column.hidden`")
    add(COLUMN, "selection_default", whole(-INT_MAX - 1), s + "selection_default` (IntegerField)")
    add(COLUMN, "leaderboard computed", mapping(), V1_UNPACK)
    # Codabench v2
    add(V2_COMPETITION, "title", text(256), v2c + "title`: max_length 256", "v2-title-long")
    add(V2_COMPETITION, "description", text(), v2c + "description` (TextField)")
    add(V2_COMPETITION, "image terms", text(), V2_UNPACK + " (a file of the bundle)")
    add(V2_COMPETITION, "docker_image", text(128), v2c + "docker_image`: max_length 128")
    add(V2_COMPETITION, "registration_auto_approve enable_detailed_results", boolean(), v2c + "{}` (BooleanField)")
    add(V2_COMPETITION, "pages tasks phases leaderboards", listing(), V2_UNPACK)
    add(V2_PAGE, "title", text(256), V2_UNPACK + " `_unpack_pages`")
    add(V2_PAGE, "file", text(), V2_UNPACK + " `_unpack_pages` (a file of the bundle)")
    add(V2_PHASE, "index", whole(), v2p + "index` (PositiveIntegerField)")
    add(V2_PHASE, "name", text(256), v2p + "name`: max_length 256")
    add(V2_PHASE, "description", text(), v2p + "description` (TextField)")
    add(V2_PHASE, "start", date(null=False), v2p + "start` (DateTimeField)", "v2-start")
    add(V2_PHASE, "end", date(), v2p + "end` (DateTimeField)")
    add(V2_PHASE, "max_submissions_per_day", whole(1, why=AT_LEAST_ONE), v2p + "max_submissions_per_day` "
        "(PositiveIntegerField; 0 means no limit)")
    add(V2_PHASE, "max_submissions", whole(1, why=AT_LEAST_ONE), v2p + "max_submissions_per_person` "
        "(PositiveIntegerField; 0 means no limit)")
    add(V2_PHASE, "execution_time_limit", whole(1, why=SECONDS), v2p + "execution_time_limit` (PositiveIntegerField, "
        "seconds; 0 means the default)")
    add(V2_PHASE, "hide_score_output hide_output hide_prediction_output auto_migrate_to_this_phase", boolean(),
        v2p + "{}` (BooleanField)")
    add(V2_PHASE, "starting_kit public_data", text(), V2_UNPACK + " `_unpack_phases` (a zip of the bundle)")
    add(V2_PHASE, "tasks", listing(), V2_UNPACK + " `_unpack_phases`")
    add(V2_TASK, "index", whole(), V2_UNPACK + " `_unpack_tasks`")
    add(V2_TASK, "name", text(256), "codabench src/apps/tasks/models.py `Task.name`: max_length 256")
    add(V2_TASK, "scoring_program reference_data ingestion_program input_data", text(),
        V2_UNPACK + " `_unpack_tasks` (a zip of the bundle)")
    add(V2_BOARD, "title", text(64), V2_LEADERBOARDS + " `Leaderboard.title`: max_length 64")
    add(V2_BOARD, "key", text(36), V2_LEADERBOARDS + " `Leaderboard.key`: max_length 36")
    add(V2_BOARD, "submission_rule", one_of(*V2_RULES), V2_LEADERBOARDS + " `Leaderboard.SUBMISSION_RULES`",
        "v2-submission-rule")
    add(V2_BOARD, "hidden", boolean(), V2_LEADERBOARDS + " `Leaderboard.hidden` (BooleanField)")
    add(V2_BOARD, "columns", listing(), V2_UNPACK)
    add(V2_COLUMN, "title", text(36), V2_LEADERBOARDS + " `Column.title`: max_length 36", "v2-column-title-long")
    add(V2_COLUMN, "key", text(36), V2_LEADERBOARDS + " `Column.key`: max_length 36")
    add(V2_COLUMN, "index", whole(), V2_LEADERBOARDS + " `Column.index` (PositiveIntegerField)")
    add(V2_COLUMN, "sorting", one_of(*SORTS), V2_LEADERBOARDS + " `Column.sorting`", "column-sort")
    add(V2_COLUMN, "precision", whole(0, 10), V2_LEADERBOARDS + " `Column.precision`", "v2-precision")
    add(V2_COLUMN, "hidden", boolean(), V2_LEADERBOARDS + " `Column.hidden` (BooleanField)")
    return tuple(out)


FIELDS = _fields()
FIELDS_OF = {}
for _field in FIELDS:
    FIELDS_OF.setdefault(_field.scope, {})[_field.name] = _field
assert len(FIELDS) == sum(len(f) for f in FIELDS_OF.values()), "a field is declared twice"

def field_problems(scope, spec):
    """(field, "type" or "range") of each field of the mapping ``spec`` that ``scope`` declares and that is not of its
    kind."""
    if not isinstance(spec, dict):
        return
    for name, field in FIELDS_OF[scope].items():
        if name in spec:
            problem = field.kind.problem(spec[name])
            if problem is not None:
                yield field, problem


def v1_field_problems(comp):
    """(where, field, "type" or "range", value) of every field of a v1 competition.yaml mapping that is not of its
    kind."""
    blocks = [("competition.yaml: ", COMPETITION, comp)]
    phases = comp.get("phases")
    blocks += [("competition.yaml: phases.%s." % n, PHASE, spec) for n, spec in
               (phases.items() if isinstance(phases, dict) else ())]
    board = comp.get("leaderboard")
    for kind, scope in (("leaderboards", LEADERBOARD), ("columns", COLUMN)):
        block = board.get(kind) if isinstance(board, dict) else None
        blocks += [("competition.yaml: leaderboard.%s.%s." % (kind, key), scope, spec) for key, spec in
                   (block.items() if isinstance(block, dict) else ())]
    for prefix, scope, spec in blocks:
        for field, problem in field_problems(scope, spec):
            yield prefix + field.name, field, problem, spec[field.name]


def flag_fields(field, problem, value):
    """(the rule's code, the fields of its message) for ``value`` of ``field`` that is not of its kind."""
    code = field.code if problem == "range" and field.code else field.rule
    return code, dict(value=value, what=field.kind.what, why=WHY[problem], limit=field.kind.limit,
                      allowed=field.kind.allowed, length=len(str(value)), title=value)


WHY = {"type": "the upload fails or the platform stores another value", "range": "the platform refuses it or gives "
       "it another meaning"}

FIELDS_BEGIN = ("<!-- fields: written by `python3 -m organizer options` from organizer/lint_rules.py FIELDS; "
                "edit that -->")
FIELDS_END = "<!-- end of fields -->"
FIELDS_HEADER = "| where | field | takes | rule | source |\n|---|---|---|---|---|"


def fields_table():
    """The marked block of docs/organizers.md: one row per field of competition.yaml, in declaration order."""
    def cell(text_):
        return text_.replace("|", "\\|").replace("\n", " ")
    rows = ["| %s | `%s` | %s | `%s` | %s |" % (f.scope, f.name, cell(f.kind.what), f.code or f.rule, cell(f.source))
            for f in FIELDS]
    return "\n".join([FIELDS_BEGIN, FIELDS_HEADER] + rows + [FIELDS_END])
