# 数据隐私 实验1  k-anonymity
# Samarati: 二分查找 + 全域泛化 + 删除离群记录
# Mondrian: 严格多维划分, 选范围最大的维度切
# python3 lab1_kanonymity.py samarati|mondrian <数据> <DGH文件夹> <k> [maxSup] <输出>

import os
import sys
import csv
import time
import itertools
from collections import defaultdict

SENSITIVE_ATTR = "occupation"


def read_table(fname):
    f = open(fname, newline="", encoding="utf-8")
    r = csv.reader(f)
    head = next(r)
    rows = [x for x in r if x]
    f.close()
    return head, rows


def read_dgh_dir(folder):
    # {属性名: {孩子: 父亲}}
    dgh = {}
    for fn in os.listdir(folder):
        if not fn.endswith(".txt"):
            continue
        attr = os.path.splitext(fn)[0]
        dgh[attr] = {}
        for line in open(os.path.join(folder, fn), encoding="utf-8"):
            line = line.strip()
            if line:
                c, p = line.split(",")
                dgh[attr][c] = p
    return dgh


def up(tree, v, n):
    # v 往上走 n 步
    for _ in range(n):
        v = tree[v]
    return v


def depth(tree, v):
    d = 0
    while v in tree:
        v = tree[v]
        d += 1
    return d


def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    if k < 1 or max_sup < 0:
        raise ValueError("k >= 1, max_sup >= 0")
    head, rows = read_table(raw_dataset_file)
    dgh = read_dgh_dir(DGH_folder)
    QI = [i for i, a in enumerate(head) if a in dgh]
    H = [depth(dgh[head[i]], rows[0][i]) for i in QI]

    # 每种 QI 组合的记录数
    cnt = defaultdict(int)
    for r in rows:
        cnt[tuple(r[i] for i in QI)] += 1

    def classes(vec):
        c = defaultdict(int)
        for key, num in cnt.items():
            c[tuple(up(dgh[head[QI[j]]], key[j], vec[j]) for j in range(len(QI)))] += num
        return c

    def n_outliers(vec):
        # 等价类的记录数小于 k 的都算离群 (要删的)
        return sum(num for num in classes(vec).values() if num < k)

    vectors = list(itertools.product(*[range(h + 1) for h in H]))
    if n_outliers(tuple(H)) > max_sup:
        raise ValueError("top of the lattice does not satisfy")
    low, high, sol = 0, sum(H), tuple(H)
    while low < high:
        mid = (low + high) // 2
        ok = None
        for v in vectors:
            if sum(v) == mid and n_outliers(v) <= max_sup:
                ok = v
                break
        if ok:
            sol, high = ok, mid
        else:
            low = mid + 1
    print("sol =", sol)

    c = classes(sol)
    cols = [i for i in range(len(head)) if i in QI or head[i] == SENSITIVE_ATTR]
    out = open(output_file, "w", newline="", encoding="utf-8")
    w = csv.writer(out)
    w.writerow([head[i] for i in cols])
    for r in rows:
        g = tuple(up(dgh[head[QI[j]]], r[QI[j]], sol[j]) for j in range(len(QI)))
        if c[g] < k:
            continue  # 删除
        r2 = list(r)
        for j in range(len(QI)):
            r2[QI[j]] = g[j]
        w.writerow([r2[i] for i in cols])
    out.close()


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    head, rows = read_table(raw_dataset_file)
    dgh = read_dgh_dir(DGH_folder)
    QI = [i for i, a in enumerate(head) if a in dgh]
    if len(rows) < k:
        raise ValueError("not enough rows")
    val = [[int(r[i]) for i in QI] for r in rows]   # age 和 education_num 都是整数

    res = [list(r) for r in rows]
    stack = [list(range(len(rows)))]
    while stack:
        part = stack.pop()
        # 按范围 (max - min) 从大到小排维度
        ranges = []
        for j in range(len(QI)):
            vs = [val[x][j] for x in part]
            ranges.append((max(vs) - min(vs), j))
        ranges.sort(key=lambda t: -t[0])
        cut = False
        for rg, j in ranges:
            if rg == 0:
                break
            vs = sorted(val[x][j] for x in part)
            median = vs[(len(vs) - 1) // 2]
            left = [x for x in part if val[x][j] <= median]
            right = [x for x in part if val[x][j] > median]
            if len(left) >= k and len(right) >= k:
                stack.append(left)
                stack.append(right)
                cut = True
                break
        if not cut:
            for j in range(len(QI)):
                lo = min(val[x][j] for x in part)
                hi = max(val[x][j] for x in part)
                s = str(lo) if lo == hi else "[%d-%d]" % (lo, hi)
                for x in part:
                    res[x][QI[j]] = s

    cols = [i for i in range(len(head)) if i in QI or head[i] == SENSITIVE_ATTR]
    with open(output_file, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow([head[i] for i in cols])
        for r in res:
            w.writerow([r[i] for i in cols])


if len(sys.argv) >= 6:
    t = time.time()
    if sys.argv[1] == "samarati":
        samarati(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        mondrian(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    print("time:", time.time() - t)
