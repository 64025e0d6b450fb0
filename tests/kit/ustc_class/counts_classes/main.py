# -*- coding: utf-8 -*-
# 实验一: k-匿名
#   Samarati  —— 用课件上的二分查找, Lattice 类负责泛化和统计
#   Mondrian  —— 严格划分, 选归一化范围最大的属性, 切不了换下一个属性
# 运行: python main.py            (默认参数 k=10, maxSup=20, 数据在 data/ 下面)

import csv
import os
import sys
import time
from itertools import product

from hierarchy import Hierarchy

SENSITIVE = "occupation"


class Table:
    def __init__(self, path, dgh_folder):
        with open(path, encoding="utf-8") as f:
            reader = csv.reader(f)
            self.header = next(reader)
            self.rows = [r for r in reader if r]
        self.dgh = {}
        for fn in os.listdir(dgh_folder):
            if fn.endswith(".txt"):
                self.dgh[fn[:-4]] = Hierarchy(os.path.join(dgh_folder, fn))
        self.qi = [i for i, name in enumerate(self.header) if name in self.dgh]
        self.out_cols = [i for i, name in enumerate(self.header)
                         if i in self.qi or name == SENSITIVE]

    def save(self, path, rows):
        with open(path, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow([self.header[i] for i in self.out_cols])
            for r in rows:
                w.writerow([r[i] for i in self.out_cols])


class Lattice:
    def __init__(self, table, k):
        self.t = table
        self.k = k
        self.trees = [table.dgh[table.header[i]] for i in table.qi]
        self.heights = [tr.height for tr in self.trees]
        self.count = {}
        for r in table.rows:
            key = tuple(r[i] for i in table.qi)
            self.count[key] = self.count.get(key, 0) + 1

    def nodes(self, h):
        """高度为 h 的所有格点"""
        return [v for v in product(*[range(x + 1) for x in self.heights]) if sum(v) == h]

    def key(self, values, vec):
        return tuple(tr.up(v, l) for tr, v, l in zip(self.trees, values, vec))

    def sizes(self, vec):
        s = {}
        for values, c in self.count.items():
            g = self.key(values, vec)
            s[g] = s.get(g, 0) + c
        return s

    def small_classes(self, vec):
        """不满足 k 的等价类 (这些要被隐匿)"""
        return [g for g, c in self.sizes(vec).items() if c < self.k]


def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    if k < 1 or max_sup < 0:
        raise ValueError("bad k or max_sup")
    t = Table(raw_dataset_file, DGH_folder)
    lat = Lattice(t, k)
    top = tuple(lat.heights)
    if len(lat.small_classes(top)) > max_sup:
        raise ValueError("no solution")
    low, high, sol = 0, sum(top), top
    while low < high:
        mid = (low + high) // 2
        ok = None
        for vec in lat.nodes(mid):
            # 隐匿的个数不超过 maxSup 就满足
            if len(lat.small_classes(vec)) <= max_sup:
                ok = vec
                break
        if ok is not None:
            sol, high = ok, mid
        else:
            low = mid + 1
    print("Samarati 结果:", sol)
    sizes = lat.sizes(sol)
    out = []
    for r in t.rows:
        g = lat.key(tuple(r[i] for i in t.qi), sol)
        if sizes[g] < k:
            continue
        r = list(r)
        for j, i in enumerate(t.qi):
            r[i] = g[j]
        out.append(r)
    print("输出", len(out), "条, 删除", len(t.rows) - len(out), "条")
    t.save(output_file, out)


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    t = Table(raw_dataset_file, DGH_folder)
    n = len(t.rows)
    if n < k:
        raise ValueError("n < k")
    num = {}
    for i in t.qi:
        try:
            num[i] = [float(r[i]) for r in t.rows]
        except ValueError:
            num[i] = None        # 分类属性
    span = {}
    for i in t.qi:
        if num[i] is not None:
            span[i] = max(num[i]) - min(num[i])
        else:
            span[i] = t.dgh[t.header[i]].leaves(t.dgh[t.header[i]].root) - 1

    def width(part, i):
        if span[i] == 0:
            return 0.0
        if num[i] is not None:
            vs = [num[i][r] for r in part]
            return (max(vs) - min(vs)) / span[i]
        tree = t.dgh[t.header[i]]
        return (tree.leaves(tree.lca([t.rows[r][i] for r in part])) - 1) / span[i]

    def split(part, i):
        if num[i] is not None:
            vs = sorted(num[i][r] for r in part)
            med = vs[(len(vs) - 1) // 2]
            return [[r for r in part if num[i][r] <= med], [r for r in part if num[i][r] > med]]
        tree = t.dgh[t.header[i]]
        lca = tree.lca([t.rows[r][i] for r in part])
        groups = {}
        for r in part:
            c = tree.child_towards(lca, t.rows[r][i])
            if c is None:
                return None
            groups.setdefault(c, []).append(r)
        return list(groups.values()) if len(groups) > 1 else None

    res = [list(r) for r in t.rows]
    todo = [list(range(n))]
    while todo:
        part = todo.pop()
        for i in sorted(t.qi, key=lambda i: -width(part, i)):
            if width(part, i) == 0:
                continue
            pieces = split(part, i)
            if pieces and min(len(p) for p in pieces) >= k:
                todo.extend(pieces)
                break
        else:
            for i in t.qi:
                if num[i] is not None:
                    lo = min(part, key=lambda r: num[i][r])
                    hi = max(part, key=lambda r: num[i][r])
                    if num[i][lo] == num[i][hi]:
                        cell = t.rows[lo][i]
                    else:
                        cell = "[%s-%s]" % (t.rows[lo][i], t.rows[hi][i])
                else:
                    cell = t.dgh[t.header[i]].lca([t.rows[r][i] for r in part])
                for r in part:
                    res[r][i] = cell
    t.save(output_file, res)


if __name__ == "__main__":
    data = sys.argv[1] if len(sys.argv) > 1 else "data/adult.csv"
    dghs = sys.argv[2] if len(sys.argv) > 2 else "data/DGHs"
    start = time.time()
    samarati(data, dghs, 10, 20, "samarati_out.csv")
    print("samarati: %.2fs" % (time.time() - start))
    start = time.time()
    mondrian(data, dghs, 10, "mondrian_out.csv")
    print("mondrian: %.2fs" % (time.time() - start))
