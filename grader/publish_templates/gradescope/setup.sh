#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (Ubuntu; the default
# base image is 22.04, whose python3 is 3.10). The kit needs Python >= 3.11 and numpy: use the
# image's python3 when it is new enough, else apt's python3.11 (Ubuntu 22.04 universe), else
# the deadsnakes PPA. Everything the grader needs goes into a virtual environment at
# /autograder/venv, which run_autograder uses.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv=/autograder/venv

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }

find_python() {
    for candidate in python3 python3.13 python3.12 python3.11; do
        if command -v "$candidate" >/dev/null && new_enough "$candidate"; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

python="$(find_python || true)"
if [ -z "$python" ]; then
    apt-get update
    if ! apt-get install -y python3.11 python3.11-venv; then
        apt-get install -y software-properties-common
        add-apt-repository -y ppa:deadsnakes/ppa
        apt-get update
        apt-get install -y python3.11 python3.11-venv
    fi
    python="$(command -v python3.11)"
else
    # The venv module (ensurepip) is a separate package on Debian/Ubuntu.
    version="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    "$python" -m venv --help >/dev/null 2>&1 && "$python" -c 'import ensurepip' 2>/dev/null \
        || { apt-get update && apt-get install -y "python${version}-venv"; }
fi

# bubblewrap lets the grader hide its cases from submitted code when the container allows
# namespaces; the grader checks at run time and falls back to plain child processes.
apt-get install -y bubblewrap || true

"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --upgrade pip
"$venv/bin/python" -m pip install -r "$source_dir/requirements.txt"
"$venv/bin/python" -c 'import numpy, sys; print("autograder ready: Python", sys.version.split()[0], "numpy", numpy.__version__)'
