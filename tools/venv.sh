# Sourced by the other scripts: makes .venv (once per requirements change) and activates it.
# Usage: . tools/venv.sh requirements-test.txt
set -euo pipefail
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_req="${1:-requirements.txt}"
_venv="$_root/.venv"
_stamp="$_venv/.installed-$(basename "$_req")"
_want="$(cat "$_root/requirements.txt" "$_root/$_req" | sha256sum | cut -c1-16)"
if [ ! -x "$_venv/bin/python" ]; then
  python3 -m venv "$_venv"
fi
if [ ! -f "$_stamp" ] || [ "$(cat "$_stamp")" != "$_want" ]; then
  echo "Installing $_req into .venv (first run only) ..."
  "$_venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$_root/$_req"
  echo "$_want" > "$_stamp"
fi
export PATH="$_venv/bin:$PATH"
