#!/usr/bin/env bash
# The main job: score the starting kit's sample submission on board A and board B of the shipped
# bank-comments competition, exactly as the platforms run score.py, and say where the outputs are.
# Board B is sealed while its phase runs: the second run shows what participants see then, the third
# the board once the organizers reveal it.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/venv.sh requirements.txt
sample=starting_kit/sample_submission.csv
echo "== Board A (feedback phase) =="
python -m organizer score . A "$sample" out/board_A
echo
echo "== Board B while its phase runs (sealed) =="
python -m organizer score . B "$sample" out/board_B
echo
echo "== Board B revealed (after the phase) =="
python -m organizer score . B "$sample" out/board_B_revealed --reveal
echo
echo "Outputs (scores.txt, scores.json, detailed_results.html in each):"
echo "  out/board_A/output/           board A"
echo "  out/board_B/output/           board B as participants see it while sealed (placeholders)"
echo "  out/board_B_revealed/output/  board B revealed"
