#!/usr/bin/env bash
# Builds the project's Dockerfile and checks that the image scores exactly as the host does:
# board A and board B of every shipped competition (the top level and examples/*), each run the way
# the platforms run it (input read-only, output empty, no network), every output file compared byte
# for byte with a host run of the same input; then one bad upload (exit code 1, the same one line on
# stderr). Exits 0 when all agree, 1 on any difference, 77 (with the reason) when no container
# engine can be had here.
#
#   bash tools/docker_check.sh
#
# Engine: podman (rootful) with the runc runtime, installed with apt-get if missing. No image
# registry is needed: the image is built FROM a local Debian bookworm base made once with
# debootstrap (Python 3.11) and kept as localhost/scoring-program-base:bookworm for later runs,
# instead of python:3.12-slim. The built image stays as localhost/scoring-program:check (its
# layers make the next build fast); containers and temporary folders are removed on exit.
# Set DOCKER_CHECK_BASE to build on another base image the engine already has, DOCKER_CHECK_IMAGE to build
# under another tag, and DOCKER_CHECK_BUILD_ONLY=1 to stop once the image is built (what other checks build on).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

SKIP=77
SUITE=bookworm
BASE_IMAGE="${DOCKER_CHECK_BASE:-localhost/scoring-program-base:$SUITE}"
IMAGE="${DOCKER_CHECK_IMAGE:-localhost/scoring-program:check}"
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt   # Debian's ca-certificates; what pip trusts in the build
RUN_TIMEOUT=300

say() { echo "docker_check: $*"; }
skip() { echo "docker_check: SKIP: $*" >&2; exit "$SKIP"; }
failures=0
fail() { echo "docker_check: DIFFERENCE: $*" >&2; failures=$((failures + 1)); }
started=$SECONDS
lap() { say "$1 done (${2}s)"; }

# --- what is started here, and its removal on any exit ---------------------------------------
WORK=""
ROOTFS=""
PREFIX="docker_check_$$_"   # every container started here is named PREFIX<n>
cleanup() {
  local name mnt
  if command -v podman >/dev/null 2>&1; then
    for name in $(podman ps -a --filter "name=^$PREFIX" --format '{{.Names}}' 2>/dev/null); do
      podman rm -f --ignore "$name" >/dev/null 2>&1 || true
    done
  fi
  if [ -n "$ROOTFS" ]; then
    # debootstrap mounts /proc and /sys inside the root it builds; never delete through a mount
    for mnt in $(awk -v r="$ROOTFS/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r); do
      umount -l "$mnt" 2>/dev/null || true
    done
  fi
  if [ -n "$WORK" ] && [ -d "$WORK" ]; then
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the engine -------------------------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || skip "needs root (rootful podman; debootstrap makes the base image)"
bash tools/system_packages.sh podman runc debootstrap
command -v podman >/dev/null 2>&1 || skip "no container engine: podman is not installed and could not be installed here"

PODMAN=(podman)
# crun refuses some hosts' cgroup layouts; runc runs everywhere podman does
if command -v runc >/dev/null 2>&1; then PODMAN+=(--runtime runc); fi
# Without systemd as init, podman's default cgroup manager and event log are unavailable.
if [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ]; then
  PODMAN+=(--cgroup-manager cgroupfs --events-backend file)
fi
# Containers inherit limits podman would raise to its defaults; where even root cannot raise them
# above the hard limits, ask for the hard limits themselves (nproc at most 32768).
hard_nofile="$(ulimit -Hn)"; [ "$hard_nofile" = unlimited ] && hard_nofile=1048576
hard_nproc="$(ulimit -Hu)"; { [ "$hard_nproc" = unlimited ] || [ "$hard_nproc" -gt 32768 ]; } && hard_nproc=32768
LIMITS=(--ulimit "nofile=$hard_nofile:$hard_nofile" --ulimit "nproc=$hard_nproc:$hard_nproc")
"${PODMAN[@]}" info >/dev/null || { echo "docker_check: podman is installed but does not work here (above)" >&2; exit 1; }
say "engine: $(podman --version), runtime $(command -v runc >/dev/null && echo runc || echo default)"
lap "engine" $((SECONDS - started))

WORK="$(mktemp -d "${TMPDIR:-/tmp}/docker_check.XXXXXX")"

# --- the base image, made once ----------------------------------------------------------------
debian_mirror() {
  # the Debian archive apt uses here (deb822 .sources or one-line .list), else the default one
  local uri
  uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | sed -nE 's/^URIs:[[:space:]]*([^[:space:]]+).*/\1/p; s/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\2/p' \
    | grep -E '/debian/?$' | head -n 1 || true)"
  echo "${uri:-http://deb.debian.org/debian}"
}

t=$SECONDS
if "${PODMAN[@]}" image exists "$BASE_IMAGE"; then
  say "base image $BASE_IMAGE: reused"
else
  [ -z "${DOCKER_CHECK_BASE:-}" ] || { echo "docker_check: base image $BASE_IMAGE not found" >&2; exit 1; }
  command -v debootstrap >/dev/null 2>&1 || skip "cannot make the base image: debootstrap is not installed and could not be installed here"
  mirror="$(debian_mirror)"
  say "making base image $BASE_IMAGE (debootstrap $SUITE from $mirror; once) ..."
  ROOTFS="$WORK/rootfs"
  debootstrap --variant=minbase --include=python3,python3-pip,ca-certificates \
    "$SUITE" "$ROOTFS" "$mirror" >"$WORK/debootstrap.log" 2>&1 \
    || { tail -n 20 "$WORK/debootstrap.log" >&2; echo "docker_check: debootstrap failed" >&2; exit 1; }
  # as in the python:*-slim images, pip may install into the system interpreter
  rm -f "$ROOTFS"/usr/lib/python3*/EXTERNALLY-MANAGED
  rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
  tar -C "$ROOTFS" -c . | "${PODMAN[@]}" import --quiet --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' \
    - "$BASE_IMAGE" >/dev/null
  umount_left="$(awk -v r="$ROOTFS/" 'index($2, r) == 1' /proc/mounts)"
  [ -z "$umount_left" ] && rm -rf "$ROOTFS" && ROOTFS=""
fi
lap "base" $((SECONDS - t))

# --- the build: the project's Dockerfile, unchanged, only BASE swapped ------------------------
t=$SECONDS
context="$WORK/context"
mkdir -p "$context"
# the files the Dockerfile uses, without the host's bytecode caches
tar -C "$ROOT" --exclude=__pycache__ --exclude='*.pyc' -c Dockerfile scoring_program | tar -C "$context" -x
build_mounts=()
# pip in the build trusts the host's CA bundle (a TLS-intercepting proxy may sit between it and the
# package index); mounted read-only for the build only, so nothing of it is written to the image
if [ -f "$CA_BUNDLE" ]; then build_mounts=(-v "$CA_BUNDLE:$CA_BUNDLE:ro"); fi
old_id="$("${PODMAN[@]}" image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
say "building the Dockerfile FROM $BASE_IMAGE as $IMAGE ..."
"${PODMAN[@]}" build --pull=never --network host "${LIMITS[@]}" "${build_mounts[@]}" \
  --build-arg "BASE=$BASE_IMAGE" -t "$IMAGE" "$context" >"$WORK/build.log" 2>&1 \
  || { tail -n 30 "$WORK/build.log" >&2; echo "docker_check: build failed" >&2; exit 1; }
new_id="$("${PODMAN[@]}" image inspect --format '{{.Id}}' "$IMAGE")"
if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
  "${PODMAN[@]}" rmi "$old_id" >/dev/null 2>&1 || true   # the previous build, now untagged
fi
lap "build" $((SECONDS - t))
if [ "${DOCKER_CHECK_BUILD_ONLY:-}" = 1 ]; then
  say "built $IMAGE"
  exit 0
fi

n_containers=0
in_container() {
  # in_container IMAGE [podman run options...] -- [command...]: one run as a platform does it
  local image="$1" name opts=()
  shift
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  n_containers=$((n_containers + 1))
  name="$PREFIX${BASHPID}_$n_containers"   # unique in subshells too
  timeout "$RUN_TIMEOUT" "${PODMAN[@]}" run --rm --name "$name" --pull=never --network none "${LIMITS[@]}" \
    "${opts[@]}" "$image" "$@"
}

# --- the image holds exactly the pins, and none of the build's CA bundle ----------------------
t=$SECONDS
in_container "$IMAGE" -i -- python3 -c '
import sys
from importlib.metadata import distributions
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.utils import canonicalize_name
wanted = {}
for line in sys.stdin.read().splitlines():
    line = line.split("#", 1)[0].strip()
    if line and not line.startswith("-"):
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate():
            wanted[canonicalize_name(req.name)] = str(req.specifier).lstrip("=")
tools = {"pip", "setuptools", "wheel"}
have = {canonicalize_name(d.metadata["Name"]): d.version for d in distributions()}
have = {n: v for n, v in have.items() if n not in tools}
for name in sorted(set(wanted) | set(have)):
    if wanted.get(name) != have.get(name):
        print("%s: requirements.txt %s, image %s" % (name, wanted.get(name, "-"), have.get(name, "-")))
' <requirements.txt >"$WORK/pins.txt" || fail "could not list the image's packages"
if [ -s "$WORK/pins.txt" ]; then
  fail "the image's Python packages differ from requirements.txt:"; cat "$WORK/pins.txt" >&2
else
  say "image packages: exactly requirements.txt"
fi
if [ -f "$CA_BUNDLE" ]; then
  image_ca="$(in_container "$IMAGE" -- sha256sum "$CA_BUNDLE" || true)"
  base_ca="$(in_container "$BASE_IMAGE" -- sha256sum "$CA_BUNDLE" || true)"
  if [ "$image_ca" != "$base_ca" ]; then
    fail "$CA_BUNDLE in the image differs from the base image's (the build's mount leaked)"
  fi
fi
lap "image contents" $((SECONDS - t))

# --- board A and board B of every shipped competition: container vs host ---------------------
. tools/venv.sh requirements.txt >&2
unset SCORER_ORGANIZER   # a platform's run, not an organizer tool's

assemble() {
  # assemble COMPETITION BOARD SUBMISSION TARGET: the INPUT folder a platform gives score.py
  python - "$@" <<'EOF'
import sys
sys.path.insert(0, ".")
from pathlib import Path
from organizer.phase_data import assemble_input
competition, board, submission, target = sys.argv[1:]
assemble_input(Path(competition) / "reference_data", board, submission, target)
EOF
}

same_streams() {
  # same_streams RUN STREAM: host and container printed the same, once paths are the container's
  local run="$1" stream="$2"
  sed -e "s#$run/host_out#/app/output#g" -e "s#$run/input#/app/input#g" "$run/host.$stream" \
    | cmp -s - "$run/container.$stream"
}

score_both() {
  # score_both RUN: score RUN/input on the host and in the image; outputs and streams beside it
  local run="$1"
  mkdir -p "$run/host_out" "$run/container_out" "$run/cwd"
  host_rc=0
  (cd "$run/cwd" && python "$ROOT/scoring_program/score.py" "$run/input" "$run/host_out") \
    >"$run/host.stdout" 2>"$run/host.stderr" || host_rc=$?
  container_rc=0
  in_container "$IMAGE" -v "$run/input:/app/input:ro" -v "$run/container_out:/app/output" -- \
    >"$run/container.stdout" 2>"$run/container.stderr" || container_rc=$?
}

compare_outputs() {
  # compare_outputs LABEL RUN: every file of both output folders, byte for byte; sets $files
  local label="$1" run="$2"
  if ! diff -r "$run/host_out" "$run/container_out" >"$run/diff.txt" 2>&1; then
    fail "$label: output files differ:"; head -n 20 "$run/diff.txt" >&2
  fi
  files="$(find "$run/host_out" -type f | wc -l)"
}

t=$SECONDS
competitions=(.)
for dir in examples/*/; do
  [ -f "$dir/reference_data/board_A.yaml" ] && competitions+=("${dir%/}")
done
runs=0
for comp in "${competitions[@]}"; do
  submission=""
  for candidate in "$comp/starting_kit/sample_submission.csv" "$comp/starting_kit/submission"; do
    [ -e "$candidate" ] && { submission="$candidate"; break; }
  done
  label_comp="$( [ "$comp" = . ] && echo bank_comments || basename "$comp")"
  [ -n "$submission" ] || { fail "$label_comp: no starting-kit sample submission"; continue; }
  for board in A B; do
    [ -f "$comp/reference_data/board_$board.yaml" ] || fail "$label_comp: no board $board"
  done
  for config in "$comp"/reference_data/board_*.yaml; do
    board="$(basename "$config" .yaml)"; board="${board#board_}"
    label="$label_comp board $board"
    run="$WORK/runs/${label_comp}_$board"
    assemble "$comp" "$board" "$submission" "$run/input"
    score_both "$run"
    runs=$((runs + 1))
    before=$failures
    if [ "$host_rc" -ne 0 ] || [ "$container_rc" -ne 0 ]; then
      fail "$label: exit codes host $host_rc, container $container_rc (0 expected)"
      cat "$run/host.stderr" "$run/container.stderr" >&2
      continue
    fi
    compare_outputs "$label" "$run"
    [ "$files" -ge 3 ] || fail "$label: only $files output files"
    same_streams "$run" stdout || fail "$label: stdout differs"
    [ "$failures" -eq "$before" ] && say "$label: $files output files identical ($(head -n 1 "$run/host_out/scores.txt"))"
  done
done
[ "$runs" -ge $((2 * ${#competitions[@]})) ] || fail "only $runs boards scored in ${#competitions[@]} competitions"
lap "$runs boards" $((SECONDS - t))

# --- one bad upload: the bank sample without its class column --------------------------------
t=$SECONDS
bad="$WORK/bad/submission.csv"
mkdir -p "$(dirname "$bad")"
cut -d, -f1,2 starting_kit/sample_submission.csv >"$bad"
run="$WORK/runs/bad_upload"
assemble . A "$bad" "$run/input"
score_both "$run"
before=$failures
if [ "$host_rc" -ne 1 ] || [ "$container_rc" -ne 1 ]; then
  fail "bad upload: exit codes host $host_rc, container $container_rc (1 expected)"
fi
lines="$(grep -c . "$run/container.stderr" || true)"
if [ "$lines" -ne 1 ] || grep -q Traceback "$run/container.stderr"; then
  fail "bad upload: stderr is not one line:"; cat "$run/container.stderr" >&2
elif ! grep -q "$(basename "$bad")" "$run/container.stderr"; then
  fail "bad upload: the message does not name the file: $(cat "$run/container.stderr")"
fi
same_streams "$run" stderr || { fail "bad upload: stderr differs from the host's"; cat "$run/host.stderr" "$run/container.stderr" >&2; }
compare_outputs "bad upload" "$run"
[ "$failures" -eq "$before" ] && say "bad upload: exit 1, one line on stderr, as on the host: $(cat "$run/container.stderr")"
lap "bad upload" $((SECONDS - t))

if [ "$failures" -gt 0 ]; then
  echo "docker_check: FAILED: $failures difference(s) between the image and the host ($((SECONDS - started))s)" >&2
  exit 1
fi
say "OK: the image scores all $runs boards byte for byte as the host, and rejects a bad upload the same way ($((SECONDS - started))s)"
