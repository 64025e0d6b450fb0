"""Make the disguised copies of the labelled similarity set (run once; its output is committed).

    python tests/kit/similarity_set/make_set.py

originals/<name>.py are independent solutions of cost_MD, cost_LM and clustering_anonymizer
written on the kit's skeleton (each a student's own code, the skeleton's helpers assumed).
For each one this writes copies/<name>-<disguise>.py:

  renamed    every identifier the student chose (functions, parameters, variables) renamed
  reordered  the top-level definitions in another order
  reworded   comments and docstrings rewritten, string and number literals changed
  split      the last loop of clustering_anonymizer moved into a new helper function
  disguised  renamed + reordered + reworded together
  padded     renamed, and a no-op statement inserted after every second statement of every
             block (the hardest: no long run of the original is left intact)

A copy and its original (and two copies of one original) form a positive pair; solutions of
different originals a negative one. tests/kit/similarity/test_similarity_set.py builds a class from
them (the skeleton's text first, as a student's file has it) and measures precision and
recall of `python -m grader similarity`'s engine.
"""
from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEEP = {"cost_MD", "cost_LM", "clustering_anonymizer", "read_dataset", "read_DGHs",
        "write_dataset", "np", "self"} | set(dir(builtins))
WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta", "zeta", "rho",
         "tau", "phi", "chi", "psi", "eta", "iota", "lam", "mu", "nu", "xi", "pi", "ups"]
DISGUISES = ("renamed", "reordered", "reworded", "split", "disguised", "padded")
PADDING = ["checked = True", "assert True", "pass", "_ = None"]


def chosen_names(source: str) -> list[str]:
    """Names the student defined: functions, classes, parameters, assigned variables."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return sorted(names - KEEP)


def rename(source: str) -> str:
    mapping = {n: f"{WORDS[i % len(WORDS)]}{i // len(WORDS) or ''}_{n[:2].lower()}"
               for i, n in enumerate(chosen_names(source))}
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    out = []
    for i, tok in enumerate(tokens):
        after_dot = i > 0 and tokens[i - 1].string == "."
        if tok.type == tokenize.NAME and tok.string in mapping and not after_dot:
            tok = tok._replace(string=mapping[tok.string])
        out.append(tok)
    return tokenize.untokenize(out)


def blocks(source: str) -> tuple[list[str], list[str]]:
    """(header lines before the first definition, top-level definitions as text blocks)."""
    lines = source.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if re.match(r"(def|class) ", line)]
    head = lines[:starts[0]]
    out = []
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        out.append("".join(lines[a:b]).rstrip("\n") + "\n\n\n")
    return head, out


def reorder(source: str) -> str:
    head, defs = blocks(source)
    return "".join(head) + "".join(defs[1::2] + defs[0::2])


def reword(source: str) -> str:
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    out = []
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            tok = tok._replace(string="# " + " ".join(reversed(tok.string[1:].split())) + " (mine)")
        elif tok.type == tokenize.STRING:
            quote = tok.string[-3:] if tok.string.endswith(('"""', "'''")) else tok.string[-1]
            prefix = re.match(r"[a-zA-Z]*", tok.string).group(0)
            body = tok.string[len(prefix) + len(quote):-len(quote)]
            parts = re.split(r"(\{[^{}]*\})", body)  # f-string fields stay as they are
            body = "".join(p if p.startswith("{") else p.upper().replace("ROW", "line")
                           for p in parts)
            tok = tok._replace(string=prefix + quote + body + " !" + quote)
        elif tok.type == tokenize.NUMBER and tok.string not in ("0", "1", "2"):
            tok = tok._replace(string=str(eval(tok.string) * 10) if "e" not in tok.string
                               else "1e-10")
        out.append(tok)
    return tokenize.untokenize(out)


def split(source: str) -> str:
    """Move clustering_anonymizer's last top-level loop into a helper function."""
    tree = ast.parse(source)
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef)
                and n.name == "clustering_anonymizer")
    loop = [s for s in func.body if isinstance(s, (ast.For, ast.While))][-1]
    lines = source.splitlines(keepends=True)
    block = lines[loop.lineno - 1:loop.end_lineno]
    local = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Store)} | {a.arg for a in func.args.args}
    stored = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name)
              and isinstance(n.ctx, ast.Store)}
    used = sorted({n.id for n in ast.walk(loop) if isinstance(n, ast.Name)} & local - stored)
    helper = (f"def generalize_all({', '.join(used)}):\n"
              f"    \"\"\"Replace each group's cells by their common ancestors.\"\"\"\n"
              + "".join(block) + "\n\n")
    call = f"    generalize_all({', '.join(used)})\n"
    body = lines[:loop.lineno - 1] + [call] + lines[loop.end_lineno:]
    at = func.lineno - 1 - len(func.decorator_list)
    return "".join(body[:at]) + helper + "".join(body[at:])


def pad(source: str) -> str:
    """Insert a no-op statement after every second statement of every block."""
    lines = source.splitlines(keepends=True)
    inserts: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if not isinstance(block, list) or isinstance(node, ast.Module):
                continue
            for i, stmt in enumerate(block):
                if i % 2 == 1 and isinstance(stmt, ast.stmt):
                    text = PADDING[len(inserts) % len(PADDING)]
                    inserts.append((stmt.end_lineno, " " * stmt.col_offset + text + "\n"))
    for line, text in sorted(inserts, reverse=True):
        lines.insert(line, text)
    return "".join(lines)


def main() -> None:
    (HERE / "copies").mkdir(exist_ok=True)
    for original in sorted((HERE / "originals").glob("*.py")):
        source = original.read_text(encoding="utf-8")
        made = {"renamed": rename(source), "reordered": reorder(source),
                "reworded": reword(source), "split": split(source),
                "disguised": reword(reorder(rename(source))), "padded": pad(rename(source))}
        for disguise, text in made.items():
            ast.parse(text)  # every copy is valid Python
            (HERE / "copies" / f"{original.stem}-{disguise}.py").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
