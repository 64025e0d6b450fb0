"""Worker part 5 of 7 (see grader/sandbox/worker.py): importing the student's module.
`load_module` imports it whole (mode "full") or, in mode "retry", runs its top-level
statements one at a time (`run_statements`), leaving out those `static_reason` names (the
`__main__` block, command-line code, experiments) and those that fail or run too long."""
import ast
import importlib.util
import sys
import time


GRADED = ("cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
          "bottomup_anonymizer", "samarati", "mondrian", "topdown_anonymizer",
          "datafly", "entropy_l", "t_closeness", "topdown_greedy", "kaca")
_COMMAND_LINE_CALLS = {"input", "parse_args", "parse_known_args", "getopt", "gnu_getopt",
                       "breakpoint"}


class StatementTimeout(BaseException):
    """Raised by the CPU timer when one top-level statement of a retry runs too long."""


def _main_guard(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either operand order)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    parts = [node.test.left, *node.test.comparators]
    names = {p.id for p in parts if isinstance(p, ast.Name)}
    texts = {p.value for p in parts if isinstance(p, ast.Constant)}
    return "__name__" in names and "__main__" in texts


def said(template: str, **params) -> tuple[str, dict]:
    """A reason in English and as data: kcheck.text's JSON of a Message (its id, the
    template, and its params; a student's text as {"verbatim": text}), which the grader reads
    back (the child cannot import kcheck)."""
    plain = {k: v["verbatim"] if isinstance(v, dict) else v for k, v in params.items()}
    return template.format(**plain), {"id": template, "params": params}


def static_reason(node: ast.stmt) -> tuple[str, dict | None]:
    """Why a top-level statement is left out of a retry without running it, in English and
    as data (`said`; ("", None) to run it): the `__main__` block, reading the command line
    or standard input, or running a graded function (an experiment)."""
    if _main_guard(node):
        return said('the `if __name__ == "__main__":` block')
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                         ast.ImportFrom)):
        return "", None
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in ("argv", "orig_argv") and isinstance(
                n.value, ast.Name) and n.value.id == "sys":
            return said("it reads the command line (sys.argv)")
        if isinstance(n, ast.Name) and n.id == "argv":
            return said("it reads the command line (argv)")
        if isinstance(n, ast.Attribute) and n.attr == "stdin":
            return said("it reads standard input")
        if isinstance(n, ast.Call):
            func = n.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if name in _COMMAND_LINE_CALLS:
                return said("it reads the command line or standard input ({name})",
                            name={"verbatim": name})
            if name in GRADED:
                return said("it runs {name} (an experiment)", name=name)
    return "", None


def _future_flags(tree: ast.Module) -> int:
    import __future__
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                feature = getattr(__future__, alias.name, None)
                flags |= getattr(feature, "compiler_flag", 0)
    return flags


def _lines(node: ast.stmt) -> list[int]:
    return [node.lineno, getattr(node, "end_lineno", None) or node.lineno]


def _failure(error: BaseException) -> tuple[str, dict | None]:
    """Why a statement failed, in English (at most 300 characters) and as data (`said`;
    None when the English had to be cut short inside the grader's words)."""
    if isinstance(error, StatementTimeout):
        return error.args
    if isinstance(error, SystemExit):
        return _cut(*said("it called sys.exit / exit (code {code})",
                          code={"verbatim": repr(error.code)}), "code")
    try:
        message = str(error)
    except Exception:  # noqa: BLE001
        message = ""
    return _cut(*said("it raised {kind}: {message}", kind={"verbatim": type(error).__name__},
                      message={"verbatim": message}), "message")


def _cut(reason: str, data: dict, last: str) -> tuple[str, dict | None]:
    """A reason cut to 300 characters, its data then holding the student's text of the
    field `last` as cut (None when the cut falls elsewhere)."""
    over = len(reason) - 300
    if over <= 0:
        return reason, data
    text = data["params"][last]["verbatim"]
    if not data["id"].endswith("{" + last + "}") or over > len(text):
        return reason[:300], None
    return said(data["id"], **{**data["params"], last: {"verbatim": text[:len(text) - over]}})


def run_statements(module, path: str, budget: float, statement_budget: float,
                   wall_budget: float, known: dict[int, str] | None = None) -> list[dict]:
    """Run the file's top-level statements one at a time in `module`, leaving out those
    `static_reason` names and those that fail (exception, sys.exit, more than
    `statement_budget` CPU seconds or three times that in wall-clock seconds). Once `budget`
    CPU seconds or `wall_budget` wall-clock seconds are used, only definitions and imports
    still run. `known` (first line -> reason) lists statements an earlier retry of the same
    file left out: they are left out again without running. Returns what was left out:
    lines, code, reason (and, for imports, the names they would have bound)."""
    import signal
    with open(path, "rb") as f:
        source = f.read()
    tree = ast.parse(source, filename=path)
    text = source.decode("utf-8", "replace").splitlines()
    flags = _future_flags(tree)
    dropped: list[dict] = []

    def on_cpu(signum, frame):
        raise StatementTimeout(*said("it used more than {limit} s of CPU time",
                                     limit=f"{statement_budget:g}"))

    def on_wall(signum, frame):
        raise StatementTimeout(*said("it ran for more than {limit} s (waiting)",
                                     limit=f"{3 * statement_budget:g}"))
    previous = signal.signal(signal.SIGPROF, on_cpu), signal.signal(signal.SIGALRM, on_wall)
    cpu_start, wall_start = time.process_time(), _perf()
    try:
        for node in tree.body:
            lines = _lines(node)
            code_line = text[node.lineno - 1].strip()[:120] if node.lineno <= len(text) else ""
            known_reason = (known or {}).get(node.lineno)
            reason, data = (known_reason, None) if known_reason else static_reason(node)
            definition = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                           ast.Import, ast.ImportFrom))
            cpu_left = budget - (time.process_time() - cpu_start)
            wall_left = wall_budget - (_perf() - wall_start)
            if not reason and not definition and min(cpu_left, wall_left) <= 0:
                reason, data = said("not run: the retry's time budget ({budget} s of CPU) was "
                                    "used up", budget=f"{budget:g}")
            if reason:
                dropped.append(_dropped(lines, code_line, reason, data))
                continue
            code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec",
                           flags=flags, dont_inherit=True)
            try:
                signal.setitimer(signal.ITIMER_PROF,
                                 max(0.05, min(statement_budget, max(cpu_left, 0.05))))
                signal.setitimer(signal.ITIMER_REAL,
                                 max(0.05, min(3 * statement_budget, max(wall_left, 0.05))))
                try:
                    exec(code, module.__dict__)
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except BaseException as error:  # noqa: BLE001 - every failure drops the statement
                entry = _dropped(lines, code_line, *_failure(error))
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    entry["binds"] = [(a.asname or a.name).partition(".")[0]
                                      for a in node.names if a.name != "*"]
                dropped.append(entry)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])
    return dropped


def _dropped(lines: list[int], code: str, reason: str, data: dict | None) -> dict:
    """A left-out statement: its lines, code and reason (and the reason as data, `said`)."""
    entry = {"lines": lines, "code": code, "reason": reason}
    if data is not None:
        entry["said"] = data
    return entry


def load_module(path: str, name: str, mode: str, budget: float = 10.0,
                wall_budget: float = 30.0, known: dict[int, str] | None = None):
    """Import the solution file as module `name`; returns (module, dropped statements).
    Mode "retry" runs the top-level statements one at a time (see `run_statements`)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if mode == "full":
        spec.loader.exec_module(module)
        return module, []
    dropped = run_statements(module, path, budget, max(1.0, budget / 2), wall_budget, known)
    return module, dropped
