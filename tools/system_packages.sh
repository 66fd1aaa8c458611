#!/usr/bin/env bash
# Installs the Debian packages the test suite uses, if some are missing and this can be done here
# (root with apt-get). Installs nothing when all are present; otherwise prints one note and goes on,
# so a machine without them still runs every test that does not need them (those say why they skip).
#
#   bash tools/system_packages.sh              # the whole list below
#   bash tools/system_packages.sh podman runc  # only these
#
# podman, runc, debootstrap: the container engine tools/docker_check.sh builds and runs the image with.
# chromium: headless browser tests.
set -uo pipefail

packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
  packages=(podman runc debootstrap chromium)
fi

installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "Note: no apt-get/dpkg here; not installing system packages (${packages[*]}). Tests that need them skip." >&2
  exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
  installed "$pkg" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "Note: system packages missing (${missing[*]}) and not root, so not installing them. Tests that need them skip." >&2
  exit 0
fi

echo "Installing system packages: ${missing[*]} (first run only) ..." >&2
export DEBIAN_FRONTEND=noninteractive
apt_opts=(-q -o DPkg::Lock::Timeout=300)
if ! apt-get "${apt_opts[@]}" update >/dev/null \
   || ! apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null; then
  echo "Note: could not install ${missing[*]} with apt-get (see its message above). Tests that need them skip." >&2
fi
exit 0
