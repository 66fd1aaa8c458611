#!/usr/bin/env bash
# Runs the whole test suite in .venv (created with the pinned runtime and the test oracles).
# As root with apt-get, first installs the system packages some tests use (tools/system_packages.sh:
# nothing to do once they are there; elsewhere a note, and those tests skip saying why).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/system_packages.sh
. tools/venv.sh requirements-test.txt
python -m pytest -q -rs -p no:cacheprovider -n auto "$@"
