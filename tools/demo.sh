#!/usr/bin/env bash
# The main job: score the starting kit's sample submission on board A and board B of the shipped
# bank-comments competition, exactly as the platforms run score.py, and say where the outputs are.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/venv.sh requirements.txt
for board in A B; do
  echo "== Board $board =="
  python tools/score_board.py . "$board" starting_kit/sample_submission.csv "out/board_$board"
  echo
done
echo "Outputs: out/board_A/output/ and out/board_B/output/ (scores.txt, scores.json, detailed_results.html)"
