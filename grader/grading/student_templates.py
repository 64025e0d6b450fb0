"""The English sentences the grader writes about a submission, with `{field}`s: what
grader/gradebook/student_messages.py matches a record's sentence against. Each is a catalog
message (`_` marks it for grader/catalogs.py; it returns its argument). A new or reworded
sentence in grader/grading, grader/sandbox or kanon/rules needs its template here and a
translation in every catalog (tests/kit/languages makes each with its own module).
"""
from __future__ import annotations

__all__ = ["TEMPLATES", "NAME_PHRASES"]


def _(text: str) -> str:
    """Marks a template for the catalog (grader/catalogs.py extracts `_("...")`)."""
    return text


TEMPLATES: tuple[str, ...] = (
    # grader/grading/rules_judge.py and compare.py: verdicts
    _("a right answer: it keeps every rule of the handout"),
    _("valid and k-anonymous, but it breaks {rules}"),
    _("it breaks {rules}"),
    _("rule \"{rule}\": {detail}"),
    _("the output is not a readable dataset: {why}"),
    _("identical to the reference output"),
    _("identical to the reference output (as parsed CSV)"),
    _("not a valid generalization: {problem}"),
    _("valid, but not {what}: {problem}"),
    _("valid and {what}, but not the reference output: {difference}"),
    _("returned {value}, correct"),
    _("returned {value}; that is not the correct cost"),
    # grader/grading/judge.py: what the call did
    _("raised {kind} as the contract requires"),
    _("should raise {error}, but returned normally"),
    _("returned {shown}, not a number"),
    _("returned without writing the output file (`output_file`, here {name})"),
    _("the output file {name} is a link or not a regular file; the grader does not follow "
      "links"),
    _("the grader could not read what the call reported ({why}); a TA will look at it"),
    _("the grader could not read what the call reported; a TA will look at it"),
    _("did not finish within the wall-clock backstop of {wall} s (it waited rather than "
      "computed; its CPU-time limit is {limit} s)"),
    _("ran out of time: it used its whole CPU-time limit of {limit} s for this case ({rows} "
      "rows)"),
    _("ran out of memory (limit {mb} MB) at {where}"),
    _("ran out of memory (limit {mb} MB): {error}"),
    _("ran out of memory (limit {mb} MB)"),
    _("wrote more than {mb} MB of files in its folder"),
    _("wrote a file larger than {mb} MB"),
    _("the process was killed by {signal}"),
    _("the process ended (exit code {code}) without returning, e.g. through os._exit"),
    _("the process ended without returning, e.g. through os._exit"),
    _("called sys.exit / exit (code {code})"),
    _("called sys.exit / exit"),
    _("raised NotImplementedError"),
    _("raised {kind} at {where}: {refusal}"),
    _("raised {kind} at {where}"),
    _("raised {kind}: {message}"),
    _("raised {kind}"),
    _("a subclass of {name}"),
    _("an exception"),
    _("an object of another type"),
    # grader/grading/shrink/probe.py: a counterexample's call that gave no answer
    _("ended with status {status}"),
    _("did not return a number"),
    _("did not write the output file"),
    # grader/grading/case_runner.py, time_policy.py, grade.py, static.py
    _("your file could not be imported again: {problem}"),
    _("your file could not be imported: {problem}"),
    _("`{name}` is not a function of your module."),
    _("`{name}` cannot be called as the handout says: {problem}"),
    _("`{name}` only raises NotImplementedError."),
    _("`{name}` is not defined at the top level of the file."),
    _("`{name}` is a class; it is called like a function."),
    _("it requires {n} arguments, the contract passes {arity}"),
    _("it takes {n} arguments, the contract passes {arity}"),
    _("tried to open the grader's own files; the access was refused, recorded in the grade "
      "record, and this case earns no points"),
    _("your code left {n} processes running after the call returned; they were killed"),
    _("your code left {n} process running after the call returned; it was killed"),
    _("{first}; {second}"),
    _("not run: `{function}` ran out of time twice (on the cases \"{first}\" ({rows1} rows) "
      "and \"{second}\" ({rows2} rows)), so its later cases, on datasets as large or larger, "
      "are skipped"),
    _("ran under a shortened limit of {limit} s after an earlier timeout (on the case "
      "\"{name}\"; this case's own limit is {own} s)"),
    _("{note}: {message}"),
    _("no solution file found"),
    _("syntax error: {error}"),
    _("the submission could not be unpacked safely"),
    # notes: grader/grading/solution.py, grade.py, intake.py, session_keeper.py, case_runner.py
    _("No {name} in your submission; graded {chosen}, the file that defines the most graded "
      "functions."),
    _("No Python file in your submission defines any of the graded functions."),
    _("{chosen} is still the untouched skeleton; graded {better}, which implements the "
      "functions."),
    _("Data files in your submission are not used (each case supplies its own adult-hw1.csv "
      "and DGHs): {files}."),
    _("Notebooks are not graded when a .py solution exists: {files}."),
    _("No .py solution: graded the code cells of {notebook} (shell and magic lines commented "
      "out). Hand in a .py file next time."),
    _("{file} cannot be parsed: {error}."),
    _("Your submission was not graded: {why}."),
    _("Unpacked the zip inside your submission: {name}."),
    _("Another submission has the same student id {base}; this one ({source}) is graded as "
      "{student}."),
    _("Importing your file failed ({problem}). The grader imported it again one top-level "
      "statement at a time, and that failed too: {retry}."),
    _("Your file printed {n} bytes more than the grader keeps while it was imported."),
    _("Your file could not be imported again after a case ended its process: {problem}."),
    _("it used more than the import's CPU-time limit of {limit} s"),
    _("it did not finish within the import's wall-clock backstop of {wall} s (it waited rather "
      "than computed)"),
    _("it called sys.exit / exit (code {code}) while importing"),
    _("the process died while importing ({signal})"),
    _("it ran out of memory while importing"),
    _("Your functions print a lot (case {case}: {n} bytes beyond the {kb} KB the grader "
      "keeps). Printing costs time; remove debugging output."),
    # grader/grading/results.py, session_keeper.py, sandbox/worker_parts/retry.py, intake.py
    _("Your code tried to open the grader's own files {where}. The access was refused and "
      "recorded in your grade record."),
    _("in case {case}"),
    _("while your file was imported"),
    _("Importing your file failed ({problem}). It was imported again one top-level statement "
      "at a time and graded that way, leaving out: {left_out}. Keep command-line code and "
      "experiments under `if __name__ == \"__main__\":`."),
    _("line {n} (`{code}`: {reason})"),
    _("lines {span} (`{code}`: {reason})"),
    _("and {n} more"),
    _("nothing"),
    _("{message} (line {n}, `{code}`, was left out: {reason})"),
    _('the `if __name__ == "__main__":` block'),
    _("it reads the command line (sys.argv)"),
    _("it reads the command line (argv)"),
    _("it reads standard input"),
    _("it reads the command line or standard input ({name})"),
    _("it runs {name} (an experiment)"),
    _("not run: the retry's time budget ({budget} s of CPU) was used up"),
    _("it used more than {limit} s of CPU time"),
    _("it ran for more than {limit} s (waiting)"),
    _("it called sys.exit / exit (code {code})"),
    _("it raised {kind}: {message}"),
    _("{file}, line {line}"),
    _("{name} is not available: this course allows {rule}"),
    _("only the standard library"),
    _("only {names} and the standard library"),
    _("the archive has more than {n} files"),
    _("the archive holds an absolute path: {name}"),
    _("the archive holds a path with '..': {name}"),
    _("the archive holds a symbolic link: {name}"),
    _("{name} is not a readable zip file ({why})"),
    _("the archive has {n} entries"),
    _("the archive holds {name} twice"),
    _("the archive unpacks to more than {mb} MB"),
    _("{name} cannot be unpacked ({why})"),
    _("the submission holds a symbolic link: {name}"),
    _("the submission is larger than the caps ({files} files, {mb} MB)"),
    # grader/grading/manual_check.py: a manual part's check line
    _("graded by course staff"),
    _("not checked: {reason}"),
    _("the submission could not be unpacked"),
    _("the grader failed on this submission"),
    _("no {part}: no file matching {globs}"),
    _("{file} found; graded by course staff"),
    _("{file} found, {pages} pages; graded by course staff"),
    _("{file} found, 1 page; graded by course staff"),
    _("{file} is not a PDF ({why})"),
    _("{file} is not a readable PDF ({why})"),
    _("{file} has {pages} pages, more than the {allowed} allowed"),
    _("{file} found; page count not checked: {why}; graded by course staff"),
    _("it does not start like one"),
    _("a zip archive, e.g. a Word .docx file renamed"),
    _("an old Word .doc file renamed"),
    _("an RTF file renamed"),
    _("pypdf cannot open it"),
    _("it has no page"),
    _("pypdf is not installed (pip install -e \".[pdf]\")"),
    _("{text} ({n} files match {globs}: {files}; the first, {file}, was taken)"),
    # grader/grading/privacy_summary.py
    _("k reached: {k} ({classes} classes of {low} to {high} rows)"),
    _("k reached: {k} ({classes} classes of {size} rows)"),
    _("k reached: {k} (1 class of {size} rows)"),
    _("{summary}; distinct l: {l}"),
    _("{summary}, {n} rows deleted"),
    _("{summary}, {n} rows suppressed"),
    _("{summary}, 1 row deleted"),
    _("{summary}, 1 row suppressed"),
    # kanon/rules: a broken rule's detail
    _("the header differs from the released columns {columns} (in the raw file's order)"),
    _("the header is {header}, but the released columns are {columns} (in the raw file's "
      "order)"),
    _("the output has {n} data rows, but the raw file has {raw} and every record is released"),
    _("the output has {n} data rows, more than the raw file's {raw}"),
    _("the header differs from the raw file's header"),
    _("the header {header} differs from the raw file's {raw}"),
    _("the output has {n} data rows, the raw file has {raw}"),
    _("data row {n} has {cells} cells, the header has {columns} columns"),
    _("not UTF-8 text ({why} at byte {n})"),
    _("not a readable CSV file ({why})"),
    _("the file is empty; the first row must name the columns"),
    _("column name {name} appears twice in the header"),
    _("a column name appears twice in the header"),
    _("the class of data row {row} has {n} row(s) (data rows {rows}), fewer than k = {k}"),
    _("the equivalence class of data row {row} has {n} row(s); k = {k}"),
    _("first difference at data row {row}, column {column}: expected {expected}, got {got}"),
    _("first difference at data row {row}, column {column}"),
    _("the rows differ"),
    _("no tree of strict median cuts with these classes as leaves was found within the "
      "search's limit"),
    # kanon/rules: the details of full-domain (Samarati) and Mondrian rules
    _("the classes are not the leaves of a tree of strict median cuts: {named} ({rows} rows) "
      "has no allowable cut on any QI that keeps every class whole ({reasons})"),
    _("the whole table"),
    _("the partition of the classes of data rows {rows}"),
    _("{column}: the {at} splits the class of data row {row}"),
    _("{column}: the {at} leaves no row above it"),
    _("{column}: the {at} leaves a side of {n} rows, fewer than k = {k}"),
    _("{column}: a row's value is the partition's common ancestor itself"),
    _("median cut ({bound})"),
    _("median cut"),
    _("cut into the children of the common ancestor"),
    _("cut into the children of its LCA"),
    _("the class of data row {row} ({n} rows) still admits an allowable {how} on column "
      "{column} (every part would keep at least k = {k} rows), so Mondrian would have cut it"),
    _("the class of data row {row} ({n} rows), column {column}: the cell {told}"),
    _("is {cell}, but {what} is {expected}"),
    _("is not {what}"),
    _("the class's [min-max] range (its value when min = max)"),
    _("the lowest common ancestor of the class's values"),
    _("data row {row}, column {column}: {detail}"),
    _("data row {row} of the output, column {column}: {detail}"),
    _("the cell {cell} does not cover the raw value {raw}"),
    _("the cell does not cover the raw value"),
    _("the cell {cell} is neither a label of the column's hierarchy nor an interval [lo-hi]"),
    _("the cell is neither a label of the column's hierarchy nor an interval [lo-hi]"),
    _("the cell {cell} is an interval without finite bounds lo < hi"),
    _("the cell is an interval without finite bounds lo < hi"),
    _("the cell {cell} is an interval, but the column is not numeric"),
    _("the cell is an interval, but the column is not numeric"),
    _("the cell {cell} differs from the raw one {raw}; non-QI cells are copied unchanged"),
    _("the cell differs from the raw one; non-QI cells are copied unchanged"),
    _("the cell {cell} differs from its record's (raw data row {raw_row}) {raw}; non-QI cells "
      "are copied unchanged"),
    _("the cell differs from its record's (raw data row {raw_row}); non-QI cells are copied "
      "unchanged"),
    _("the cell {cell} is not a label of the column's hierarchy"),
    _("the cell is not a label of the column's hierarchy"),
    _("the cell {cell} generalizes no raw value of the column at any level"),
    _("the cell generalizes no raw value of the column at any level"),
    _("no single level of the hierarchy gives this cell and every cell above it in the column"),
    _("data rows {first} and {second} of the output, column {column}: the cells are at "
      "different levels of the hierarchy ({levels1} and {levels2}), but full-domain "
      "generalization puts a column at one level"),
    _("level {n}"),
    _("levels {list}"),
    _("data row {row} of the output matches no raw record generalized by vector {vector}: the "
      "closest, raw data row {raw}, {closest}"),
    _("generalizes to {label} in column {column}, not {cell}"),
    _("generalizes to another cell in column {column}"),
    _("data row {row} of the output repeats a record or breaks the raw order: under vector "
      "{vector}, no raw data row after {after} generalizes to its cells (the output releases "
      "records in raw order, each at most once)"),
    _("the output is generalized by vector {vector}, which leaves {n} outliers (records in "
      "classes of fewer than k = {k}), more than max_sup = {max_sup}"),
    _("the output's vector {vector} has height {height}, but vector {lower} of height {low} "
      "already satisfies k = {k} with at most max_sup = {max_sup} outliers"),
    _("raw data row {row} is an outlier of vector {vector} (its class has fewer than k = {k} "
      "records) and must be deleted, but it is released as data row {out} of the output"),
    _("raw data row {row} is in a class of at least k = {k} records under vector {vector}, so "
      "it must be released, but the output leaves it out"),
    # kanon/rules: an interval [v-v], and a record written with root cells instead of deleted
    _("the cell {cell} is an interval with lo = hi, but an interval needs lo < hi: where the "
      "smallest and largest values are equal, the cell keeps the raw value {raw}"),
    _("the cell is an interval with lo = hi, but an interval needs lo < hi: where the smallest "
      "and largest values are equal, the cell keeps the raw value"),
    _("the cell {cell} is an interval with lo > hi, but an interval needs lo < hi"),
    _("the cell is an interval with lo > hi, but an interval needs lo < hi"),
    _("data row {row} of the output has every QI cell at its hierarchy's root ({roots}) and "
      "other rows do not: no single vector generalizes both (a suppressed record is deleted, "
      "not released with its QI cells at the root)"),
    _("data row {row} of the output has every QI cell at its hierarchy's root and other rows "
      "do not: no single vector generalizes both (a suppressed record is deleted, not released "
      "with its QI cells at the root)"),
    _("data row {row} of the output is a suppressed record (every QI cell at the root): it "
      "must be deleted (left out of the output), not released"),
    # grader/grading/rules_judge.py: a hidden case's broken rule (its row and column only)
    _("rule \"{rule}\" at data row {row}, column {column}"),
    _("rule \"{rule}\" at data row {row}"),
    _("rule \"{rule}\" at raw data row {row}"),
    _("rule \"{rule}\" at column {column}"),
    _("rule \"{rule}\""),
    # grader/grading/compare.py: an exactly judged part's details
    _("output {cell} is not an ancestor of the raw value {raw}"),
    _("output is not an ancestor of the raw value"),
    _("interval {cell} does not contain the raw value {raw} (or lo >= hi)"),
    _("interval does not contain the raw value (or lo >= hi)"),
    _("output {cell} is not {what}"),
    _("output is not {what}"),
    _("a label of the column's hierarchy"),
    _("a label of the column's hierarchy or an interval [lo-hi]"),
    _("{n} rows are suppressed (all QIs at the root) but max_sup = {max_sup} and k = {k}"),
    _("the equivalence class of data row {row} has {n} distinct value(s) of {column}; l = {l}"),
    _("the dataset has no single sensitive column"),
    _("non-QI cells must be copied unchanged (raw {raw}, output {out})"),
    _("non-QI cells must be copied unchanged"),
    _("k-anonymous and l-diverse"),
    _("k-anonymous after suppressing at most max_sup rows"),
    _("k-anonymous"),
    _("{n} (the header is not counted)"),
)
"""Every English sentence the grader writes about a submission (with `{field}`s). Among those
matching a whole sentence, one starting with words wins over one starting with a field, then
the one with the most literal text."""

NAME_PHRASES: tuple[str, ...] = (
    _("{n} rows"),
    _("ages {low}-{high}"),
    _("{column} as a categorical QI"),
    _("no suppression"),
)
"""The phrases of the kit's case names (a name's comma-separated parts)."""
