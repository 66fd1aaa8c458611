#!/usr/bin/env bash
# The main job: score the starting kit's sample submission on board A and board B of the shipped
# bank-comments competition, exactly as the platforms run score.py, and say where the outputs are; then make
# the seeded question-answering and text-generation demo competitions and score their samples on board A.
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
echo
echo "== Question answering and text generation: seeded demo data, a competition made by organizer new =="
# the data are invented by seeded generators (python -m organizer demo qa|generation): the same bytes every run
rm -rf out/demo_qa out/demo_generation
python -m organizer demo qa --out out/demo_qa_data
python -m organizer new qa out/demo_qa_data/test.json out/demo_qa --title "Invented towns: reading comprehension" \
    --dev-gold out/demo_qa_data/dev.json
python -m organizer score out/demo_qa A out/demo_qa/starting_kit/submission out/demo_qa_A
python -m organizer demo generation --out out/demo_generation_data
python -m organizer new generation out/demo_generation_data/test.csv out/demo_generation \
    --title "Titles of invented abstracts" --dev-gold out/demo_generation_data/dev.csv
python -m organizer score out/demo_generation A out/demo_generation/starting_kit/submission out/demo_generation_A
echo
echo "  out/demo_qa/, out/demo_generation/        the two competitions (bundle them: python -m organizer bundle DIR ZIP)"
echo "  out/demo_qa_A/output/, out/demo_generation_A/output/   their kit's sample scored on board A"
