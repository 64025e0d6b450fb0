#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""
实验一: k-匿名 (Samarati / Mondrian)，用 numpy 向量化实现

思路:
  1. 所有 QI 的取值先编码成整数 (np.unique 的 return_inverse)
  2. Samarati: 每个属性预先算一张表 gen_table[值编码, 层] = 泛化后的节点编码,
     一个向量的泛化就是几次数组索引; 等价类大小用 np.unique(axis=0) 算
     从高度 0 开始一层一层往上扫 (level-wise), 第一个有满足的向量的高度就是最低高度,
     这一层满足的向量里选等价类最多的那个
  3. Mondrian: 划分用下标数组表示, 每次选 "不同取值最多" 的那个 QI 来切
"""
import csv
import itertools
import os
import sys
import time

import numpy as np

SENSITIVE = "occupation"


def load(raw_dataset_file, DGH_folder):
    with open(raw_dataset_file, encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], [r for r in rows[1:] if r]
    table = np.array(rows, dtype=object)
    parents = {}
    for fn in sorted(os.listdir(DGH_folder)):
        if not fn.endswith(".txt"):
            continue
        p = {}
        with open(os.path.join(DGH_folder, fn), encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    c, par = line.strip().split(",")
                    p[c] = par
        parents[fn[:-4]] = p
    qi = [i for i, name in enumerate(header) if name in parents]
    return header, table, qi, parents


def path_to_root(p, v):
    out = [v]
    while out[-1] in p:
        out.append(p[out[-1]])
    return out


def write(output_file, header, columns, cols):
    """columns: 每一列一个数组 (已经泛化好), cols: 要输出的列"""
    with open(output_file, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow([header[i] for i in cols])
        w.writerows(zip(*[columns[i] for i in cols]))


# ---------------------------------------------------------------- Samarati

def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    if k < 1 or max_sup < 0:
        raise ValueError("参数不对: k=%s max_sup=%s" % (k, max_sup))
    header, table, qi, parents = load(raw_dataset_file, DGH_folder)
    n, m = table.shape[0], len(qi)

    codes = np.zeros((n, m), dtype=np.int64)
    gen_tables, labels, heights = [], [], []
    for j, i in enumerate(qi):
        values, inv = np.unique(table[:, i].astype(str), return_inverse=True)
        codes[:, j] = inv
        paths = [path_to_root(parents[header[i]], v) for v in values]
        h = len(paths[0]) - 1
        nodes = sorted({x for p in paths for x in p})
        node_id = {x: c for c, x in enumerate(nodes)}
        gen_tables.append(np.array([[node_id[x] for x in p] for p in paths]))   # (值个数, h+1)
        labels.append(np.array(nodes, dtype=object))
        heights.append(h)

    def classes(vec):
        g = np.stack([gen_tables[j][codes[:, j], vec[j]] for j in range(m)], axis=1)
        _, inv, cnt = np.unique(g, axis=0, return_inverse=True, return_counts=True)
        return g, cnt[inv.ravel()]          # 每条记录所在等价类的大小

    found = None
    for h in range(sum(heights) + 1):       # 一层一层往上
        best_num = -1
        for vec in itertools.product(*[range(x + 1) for x in heights]):
            if sum(vec) != h:
                continue
            g, size = classes(vec)
            if (size < k).sum() <= max_sup:
                # 选做: 同一高度满足的向量里选等价类个数最多的 (等价类越多越细, 可用性越好)
                num = len(np.unique(g[size >= k], axis=0))
                if num > best_num:
                    found, best_num = (vec, g, size), num
        if found:
            break
    if found is None:
        raise ValueError("找不到满足条件的泛化 (k=%d, max_sup=%d)" % (k, max_sup))
    vec, g, size = found
    keep = size >= k                      # 等价类小于 k 的记录删掉
    print("向量:", vec, "高度:", sum(vec), "删除:", int((~keep).sum()))

    columns = [table[keep, c] for c in range(table.shape[1])]
    for j, i in enumerate(qi):
        columns[i] = labels[j][g[keep, j]]
    cols = [c for c in range(len(header)) if c in qi or header[c] == SENSITIVE]
    write(output_file, header, columns, cols)


# ---------------------------------------------------------------- Mondrian

def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    header, table, qi, parents = load(raw_dataset_file, DGH_folder)
    n = table.shape[0]
    if n < k:
        raise ValueError("n < k")
    X = table[:, qi].astype(float)          # 只考虑数值型 QI
    raw = table[:, qi].astype(str)
    m = len(qi)

    finals = []
    todo = [np.arange(n)]
    while todo:
        part = todo.pop()
        sub = X[part]
        # 不同取值的个数, 越多越先切 (argsort 稳定, 一样多时按列顺序)
        distinct = np.array([len(np.unique(sub[:, j])) for j in range(m)])
        order = np.argsort(-distinct, kind="stable")
        done = False
        for j in order:
            if distinct[j] < 2:
                continue
            col = sub[:, j]
            split = np.sort(col)[(len(col) - 1) // 2]
            left = col <= split
            if left.sum() >= k and (~left).sum() > 0:     # 左边够 k 个就可以切
                todo.append(part[left])
                todo.append(part[~left])
                done = True
                break
        if not done:
            finals.append(part)

    out = raw.copy().astype(object)
    for part in finals:
        for j in range(m):
            col = X[part, j]
            lo, hi = part[np.argmin(col)], part[np.argmax(col)]
            if X[lo, j] == X[hi, j]:
                out[part, j] = raw[lo, j]
            else:
                out[part, j] = "[%s-%s]" % (raw[lo, j], raw[hi, j])
    print("Mondrian: %d 个等价类" % len(finals))
    columns = [table[:, c] for c in range(table.shape[1])]
    for j, i in enumerate(qi):
        columns[i] = out[:, j]
    cols = [c for c in range(len(header)) if c in qi or header[c] == SENSITIVE]
    write(output_file, header, columns, cols)


if __name__ == "__main__":
    if len(sys.argv) < 5:
        print("usage: lab1.py samarati|mondrian data.csv DGH_dir k [max_sup] out.csv")
        sys.exit(0)
    t0 = time.perf_counter()
    if sys.argv[1] == "samarati":
        samarati(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        mondrian(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    print("time: %.3f s" % (time.perf_counter() - t0))
