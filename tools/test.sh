#!/usr/bin/env bash
# Runs the whole test suite in .venv (created with the pinned runtime and the test oracles).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/venv.sh requirements-test.txt
python -m pytest -q -p no:cacheprovider -n auto "$@"
