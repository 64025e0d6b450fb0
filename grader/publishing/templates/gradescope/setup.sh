#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (Ubuntu; the default
# base image is 22.04, whose python3 is 3.10). The kit needs Python >= 3.11 and numpy: use the
# image's python3 when it is new enough, else apt's python3.11 (Ubuntu 22.04 universe), else
# the deadsnakes PPA. numpy goes into a virtual environment at /autograder/venv, which
# run_autograder uses. To try this script elsewhere: KANON_AUTOGRADER_ROOT moves /autograder,
# KANON_AUTOGRADER_VENV_OPTIONS adds options to `python -m venv`.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${KANON_AUTOGRADER_ROOT:-/autograder}/venv"

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }

find_python() {
    local candidate
    for candidate in python3 python3.13 python3.12 python3.11; do
        if command -v "$candidate" >/dev/null && new_enough "$candidate"; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

apt-get update
python="$(find_python || true)"
if [ -z "$python" ]; then
    if ! apt-get install -y python3.11 python3.11-venv; then
        apt-get install -y software-properties-common
        add-apt-repository -y ppa:deadsnakes/ppa
        apt-get update
        apt-get install -y python3.11 python3.11-venv
    fi
    python="$(command -v python3.11)"
fi
# Debian and Ubuntu ship the venv module's pip bootstrap (ensurepip) as pythonX.Y-venv.
if ! "$python" -c 'import ensurepip' 2>/dev/null; then
    apt-get install -y "python$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv"
fi

# bubblewrap lets the grader hide its cases from submitted code when the container allows
# namespaces; the grader checks at run time and otherwise uses plain child processes.
apt-get install -y bubblewrap || true

# shellcheck disable=SC2086
"$python" -m venv ${KANON_AUTOGRADER_VENV_OPTIONS:-} "$venv"
"$venv/bin/python" -m pip install --disable-pip-version-check -r "$source_dir/requirements.txt"
"$venv/bin/python" -c 'import numpy, sys; print("autograder ready: Python", sys.version.split()[0], "numpy", numpy.__version__)'
