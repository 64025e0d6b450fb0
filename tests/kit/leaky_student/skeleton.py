##############################################################################
# Homework 1: k-anonymity.  (A student's file, as handed in, for the grader's tests:
# every function prints the data it was given in every way a debugging student might,
# raw, CSV-quoted, as repr and as JSON, on stdout and stderr, then fails with an exception,
# an exit or a wrong output whose message quotes raw lines and cells.
# tests/kit/grading/test_hidden_leaks.py grades it.)
##############################################################################
import csv
import json
import os
import sys

DEBUG = True  # TODO turn off before submitting


class DatasetError(Exception):
    """Something in the dataset I did not expect."""


def read_dataset(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def write_dataset(rows, path, header=None):
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        if header is not None:
            writer.writerow(header)
        writer.writerows(rows)


def show(path):
    """Print the file every way I could think of, to see what I am dealing with."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    print(text)  # as it is on disk
    rows = read_dataset(path)
    quoted = csv.writer(sys.stdout, quoting=csv.QUOTE_ALL)
    plain = csv.writer(sys.stderr)
    for row in rows:
        quoted.writerow(row)
        plain.writerow(row)
        print(repr(row), json.dumps(row), file=sys.stderr)
        print(json.dumps(row, ensure_ascii=False), tuple(row))
        for cell in row:
            print(cell, repr(cell), json.dumps(cell), file=sys.stderr)
    sys.stdout.flush()
    return text, rows


def show_hierarchies(DGH_folder):
    for name in sorted(os.listdir(DGH_folder)):
        with open(os.path.join(DGH_folder, name), encoding="utf-8") as f:
            labels = [line.strip() for line in f if line.strip()]
        print(name, labels)
        print("\n".join(labels), file=sys.stderr)


if DEBUG and os.path.exists("adult-hw1.csv"):  # a quick look when the file is imported
    print("first rows:", read_dataset("adult-hw1.csv")[:3])


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    text, rows = show(raw_dataset_file)
    show(anonymized_dataset_file)
    show_hierarchies(DGH_folder)
    line = text.splitlines()[2]
    raise ValueError(f"cannot parse line 3: {line}")


def cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    text, rows = show(raw_dataset_file)
    raise DatasetError(f"bad cells {rows[1]!r} / {json.dumps(rows[2])}\n{text}")


def random_anonymizer(raw_dataset_file, DGH_folder, k, s, output_file):
    text, rows = show(raw_dataset_file)
    write_dataset(rows[1:], output_file)  # oops: the header is lost


def clustering_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    text, rows = show(raw_dataset_file)
    sys.exit(f"giving up on {rows[1]} and {text.splitlines()[3]}")


def bottomup_anonymizer(raw_dataset_file, DGH_folder, k, l, output_file):
    text, rows = show(raw_dataset_file)
    show_hierarchies(DGH_folder)
    counts = {}
    return counts[rows[1][-1]]  # KeyError with the cell


def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    text, rows = show(raw_dataset_file)
    assert len(rows) < 5, f"too many rows: {rows[:4]}"


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    text, rows = show(raw_dataset_file)
    header, data = rows[0], [list(row) for row in rows[1:]]
    data[1][0] = data[0][0]  # not a generalization of row 2's cell
    write_dataset(data, output_file, header)


if __name__ == "__main__":
    print(cost_MD("adult-hw1.csv", "anonymized.csv", "DGHs"))
