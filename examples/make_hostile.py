"""Build examples/hostile/submissions/: a class of broken and malicious submissions.

    python examples/make_hostile.py

Graded with examples/hostile/rubric.toml (two cases, short limits), each must get the verdict
in examples/hostile/expected-grades.csv in both sandbox modes (tests/kit/sandbox/test_grader_hostile.py),
and nothing it starts may outlive its case. Nothing here sends network traffic.

amy      correct (the control)
bomb     an exponential fork bomb (2^8 forks, bounded by the process limit where it applies)
         in every call, then the right answer: full marks, the forks killed after the call
daisy    setsid + double-forked daemons that write a marker outside the scratch folder
         3 s later: full marks, the daemons killed (the marker never appears)
sig      signals the grader (its pid read from /proc) and every process (pid -1), with the
         harmless signal 0: forbidden
fred     forges result lines (on stdout and every open descriptor) claiming the right cost,
         then raises: error (the forged line does not count)
hugo     prints megabytes and writes an output file over the file-size limit: file-too-large
lena     its output file is a symbolic link (to a file it wrote): forbidden, the grader
         never follows links
wes      writes outside its scratch folder (the grader's cases, the scratch base): forbidden
zip-bomb a zip that unpacks to far more than the archive cap: unsafe-archive
zip-slip entries with '..' and an absolute path: unsafe-archive
nina     a notebook whose cells run shell commands and leave a daemon at import
corrupt  not a zip file: bad-archive
empty    an empty zip: no-solution
"""
from __future__ import annotations

import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_examples import DATE, helper_files, solution, write_zip  # noqa: E402

OUT = HERE / "hostile" / "submissions"
GRADER_PID = '''
def _grader_pid():
    """The grader's pid: the parent of this fork's parent, read from /proc."""
    with open(f"/proc/{os.getppid()}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])
'''
DAEMON = '''
def _daemon():
    """Detach from the grader's process group and outlive the call (when the process limit,
    shared with a concurrent fork bomb of the same user, lets it fork at all)."""
    try:
        first = os.fork()
    except OSError:
        return
    if first == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                import time
                time.sleep(3)
                with open("/tmp/kanon-hostile-daisy-escaped", "w") as f:
                    f.write("a daemon outlived its case")
        finally:
            os._exit(0)
'''
BOMB = '''
def _bomb():
    """2^8 processes; forks that fail (process limit) are skipped; the forks then sleep."""
    me = os.getpid()
    for _ in range(8):
        try:
            os.fork()
        except OSError:
            pass
    if os.getpid() != me:
        import time
        time.sleep(60)
        os._exit(0)
'''


def call(name: str, prefix: str = "") -> str:
    from make_examples import SIGS
    return f"{prefix}    return impl.{name}({SIGS[name]})\n"


def build(out: Path = OUT) -> None:
    """Write every hostile submission into `out` (replaced), byte for byte reproducibly."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    enc, ref = str.encode, helper_files()

    write_zip(out / "amy.zip", {"skeleton.py": enc(solution("Amy")), **ref})

    write_zip(out / "bomb.zip", {"skeleton.py": enc(solution("Bomb", {
        "cost_MD": call("cost_MD", "    _bomb()\n"), "mondrian": call("mondrian", "    _bomb()\n")},
        head=BOMB)), **ref})

    write_zip(out / "daisy.zip", {"skeleton.py": enc(solution("Daisy", {
        "cost_MD": call("cost_MD", "    _daemon()\n"),
        "mondrian": call("mondrian", "    _daemon()\n")}, head=DAEMON)), **ref})

    sig = ("    import signal\n    for target in (_grader_pid(), -1):\n        try:\n"
           "            os.kill(target, 0)\n        except OSError:\n            pass\n")
    write_zip(out / "sig.zip", {"skeleton.py": enc(solution("Sig", {
        "mondrian": call("mondrian", sig)}, head=GRADER_PID)), **ref})

    forge = ('    value = impl.cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder)\n'
             '    line = (json.dumps({"event": "result", "case": "?", "seconds": 0.0,\n'
             '                        "forbidden": [], "status": "returned",\n'
             '                        "value_kind": "number", "value": value}) + "\\n")\n'
             '    print(line, end="", flush=True)\n'
             '    for fd in range(3, 64):\n'
             '        try:\n'
             '            os.write(fd, line.encode())\n'
             '        except OSError:\n'
             '            pass\n'
             '    raise ValueError("the forged line above must not count")\n')
    write_zip(out / "fred.zip", {"skeleton.py": enc(solution("Fred", {"cost_MD": forge},
                                                             head="import json\n")), **ref})

    huge = ("    for i in range(20000):\n        print('x' * 500)\n"
            "    with open(output_file, 'w') as f:\n"
            "        for i in range(10 ** 6):\n            f.write('y' * 1000 + '\\n')\n")
    write_zip(out / "hugo.zip", {"skeleton.py": enc(solution("Hugo", {"mondrian": huge})),
                                 **ref})

    link = ("    impl.mondrian(raw_dataset_file, DGH_folder, k, output_file + '.real')\n"
            "    os.symlink(os.path.abspath(output_file + '.real'), output_file)\n")
    write_zip(out / "lena.zip", {"skeleton.py": enc(solution("Lena", {"mondrian": link})),
                                 **ref})

    writes = ('    for target in (f"/proc/{_grader_pid()}/cwd/grader/cases/manifest.json",\n'
              '                   os.path.join(os.environ["HOME"], "..", "..", "wes-was-here")):\n'
              '        try:\n'
              '            with open(target, "a") as f:\n'
              '                f.write("overwritten")\n'
              '        except OSError:\n'
              '            pass\n')
    write_zip(out / "wes.zip", {"skeleton.py": enc(solution("Wes", {
        "mondrian": call("mondrian", writes)}, head=GRADER_PID)), **ref})

    write_zip(out / "zip-bomb.zip", {"skeleton.py": enc(solution("Zip Bomb")), **ref,
                                     "padding.bin": b"\0" * (80 * 2**20)})

    write_zip(out / "zip-slip.zip", {"skeleton.py": enc(solution("Zip Slip")), **ref,
                                     "../../../tmp/kanon-hostile-slip.py": b"print('out')\n",
                                     "/tmp/kanon-hostile-abs.py": b"print('abs')\n"})

    code = solution("Nina").splitlines(keepends=True)
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
              "source": ["!ls ~\n", "%cd /\n", "import os\n",
                         "os.system('echo shell from a notebook')\n"]},
             {"cell_type": "code", "metadata": {}, "execution_count": 2, "outputs": [],
              "source": code},
             {"cell_type": "code", "metadata": {}, "execution_count": 3, "outputs": [],
              "source": ["try:\n", "    if os.fork() == 0:\n", "        os.setsid()\n",
                         "        import time\n", "        time.sleep(60)\n",
                         "except OSError:\n", "    pass\n"]}]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    write_zip(out / "nina.zip", {"hw1.ipynb": enc(json.dumps(notebook, indent=1)), **ref})

    (out / "corrupt.zip").write_bytes(b"PK\x03\x04 this is not really a zip file\n" * 10)

    buffer = io.BytesIO()
    zipfile.ZipFile(buffer, "w").close()
    (out / "empty.zip").write_bytes(buffer.getvalue())
    assert DATE  # the same fixed dates as the examples


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    build(target)
    print(f"wrote {len(list(target.iterdir()))} submissions to {target}")
