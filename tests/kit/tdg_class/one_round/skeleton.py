# -*- coding: utf-8 -*-
"""Top-Down Greedy k-anonymity (大数据安全与隐私 实验)

python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv

说明: 论文里说找最远点对迭代几次效果就差不多了, 我试了一下 1 轮和 3 轮的 NCP 差不多,
1 轮快很多, 所以这里只找一轮: u 随机, v = 离 u 最远的记录.
"""
import csv
import os
import random
import sys
import time

sys.setrecursionlimit(1000000)

QI_NAMES = ('age', 'work_class', 'education_num', 'marital_status', 'occupation',
            'race', 'sex', 'native_country')
SENSITIVE = 'class'
RNG = random.Random(2024)   # 随机数发生器, 种子固定


def load_table(fname):
    with open(fname, newline='', encoding='utf-8') as f:
        rows = [r for r in csv.reader(f) if r]
    return rows[0], rows[1:]


def load_tree(fname):
    """层次文件 -> (结点编号, 每个叶子到根的路径(编号), 每个结点的 NCP)"""
    paths = []
    with open(fname, encoding='utf-8') as f:
        for line in f:
            if line.strip():
                paths.append([x.strip() for x in line.split(';')])
    ids = {}
    for p in paths:
        for x in p:
            ids.setdefault(x, len(ids))
    nleaf = [0] * len(ids)
    for p in paths:
        for x in p:
            nleaf[ids[x]] += 1
    total = nleaf[ids[paths[0][-1]]]
    leaf = set(ids[p[0]] for p in paths)
    ncp = [0.0 if i in leaf else nleaf[i] / total for i in range(len(ids))]
    up = {}
    for p in paths:
        for a, b in zip(p, p[1:]):
            up[ids[a]] = ids[b]
    names = [None] * len(ids)
    for x, i in ids.items():
        names[i] = x
    return ids, names, up, ncp


def chain(up, x):
    res = [x]
    while res[-1] in up:
        res.append(up[res[-1]])
    return res


def lca_table(up, n):
    """所有结点两两的最近公共祖先 (结点不多, 直接打表)"""
    table = [[0] * n for _ in range(n)]
    for a in range(n):
        ca = chain(up, a)
        for b in range(n):
            cb = set(chain(up, b))
            for x in ca:
                if x in cb:
                    table[a][b] = x
                    break
    return table


def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    header, table = load_table(raw_dataset_file)
    n = len(table)
    if k < 1 or k > n:
        raise ValueError('invalid k: %r' % (k,))
    cols = [header.index(q) for q in QI_NAMES]
    m = len(cols)
    trees = {}
    for j, q in enumerate(QI_NAMES):
        path = os.path.join(DGH_folder, q + '.txt')
        if os.path.isfile(path):
            ids, names, up, ncp = load_tree(path)
            trees[j] = (ids, names, ncp, lca_table(up, len(ids)))
    num = [j for j in range(m) if j not in trees]
    cat = [j for j in range(m) if j in trees]

    # 编码: 数值型 int, 分类型 结点编号
    data = []
    for row in table:
        rec = [0] * m
        for j in range(m):
            v = row[cols[j]]
            rec[j] = trees[j][0][v] if j in trees else int(v)
        data.append(rec)
    width = [0.0] * m
    for j in num:
        vs = [r[j] for r in data]
        width[j] = float(max(vs) - min(vs)) or 1.0   # 全一样的列 NCP 都是 0, 除数随便

    def d(a, b):
        s = 0.0
        for j in num:
            s += abs(a[j] - b[j]) / width[j]
        for j in cat:
            x, y = a[j], b[j]
            if x != y:
                t = trees[j]
                s += t[2][t[3][x][y]]
        return s

    def summarize(idx):
        """middle: 数值型 [lo, hi], 分类型 LCA 的编号"""
        s = [None] * m
        for j in num:
            vs = [data[i][j] for i in idx]
            s[j] = [min(vs), max(vs)]
        for j in cat:
            t = trees[j][3]
            x = data[idx[0]][j]
            for i in idx:
                x = t[x][data[i][j]]
            s[j] = x
        return s

    def ncp_of(s):
        c = 0.0
        for j in num:
            c += (s[j][1] - s[j][0]) / width[j]
        for j in cat:
            c += trees[j][2][s[j]]
        return c

    def ncp_plus(s, rec):
        c = 0.0
        for j in num:
            c += (max(s[j][1], rec[j]) - min(s[j][0], rec[j])) / width[j]
        for j in cat:
            c += trees[j][2][trees[j][3][s[j]][rec[j]]]
        return c

    parts = []

    def anonymize(idx):
        if len(idx) < 2 * k:
            parts.append(idx)
            return
        u = RNG.choice(idx)
        du = data[u]
        v, far = None, -1.0
        for i in idx:
            if i != u:
                x = d(du, data[i])
                if x > far:
                    v, far = i, x
        dv = data[v]
        a, b = [], []
        for i in idx:
            if i == u or (i != v and d(data[i], du) <= d(data[i], dv)):
                a.append(i)
            else:
                b.append(i)
        if len(a) < k or len(b) < k:
            if len(b) < k:
                a, b = b, a          # a 是小的那一组
            s = summarize(a)
            near = sorted(b, key=lambda i: ncp_plus(s, data[i]))[:k - len(a)]
            taken = set(near)
            a2 = sorted(a + near)
            b2 = [i for i in b if i not in taken]
            move = len(a2) * ncp_of(summarize(a2)) + len(b2) * ncp_of(summarize(b2))
            merge = len(idx) * ncp_of(summarize(idx))
            if merge < move:
                parts.append(idx)
                return
            a, b = a2, b2
        anonymize(a)
        anonymize(b)

    anonymize(list(range(n)))

    out = [None] * n
    for idx in parts:
        s = summarize(idx)
        cells = []
        for j in range(m):
            if j in trees:
                cells.append(trees[j][1][s[j]])
            elif s[j][0] == s[j][1]:
                cells.append(str(s[j][0]))
            else:
                cells.append('[%d-%d]' % (s[j][0], s[j][1]))
        for i in idx:
            out[i] = cells
    keep = [c for c in range(len(header)) if header[c] in QI_NAMES or header[c] == SENSITIVE]
    with open(output_file, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow([header[c] for c in keep])
        for i, row in enumerate(table):
            w.writerow([out[i][QI_NAMES.index(header[c])] if header[c] in QI_NAMES else row[c]
                        for c in keep])


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, table = load_table(raw_dataset_file)
    h2, anon = load_table(anonymized_dataset_file)
    if len(table) != len(anon):
        raise ValueError('record numbers differ')
    total = 0.0
    for q in QI_NAMES:
        c1, c2 = header.index(q), h2.index(q)
        path = os.path.join(DGH_folder, q + '.txt')
        if os.path.isfile(path):
            ids, names, up, ncp = load_tree(path)
            for r, g in zip(table, anon):
                if r[c1] not in ids or g[c2] not in ids or ids[g[c2]] not in chain(up, ids[r[c1]]):
                    raise ValueError('%s: %s does not cover %s' % (q, g[c2], r[c1]))
                total += ncp[ids[g[c2]]]
        else:
            vs = [int(r[c1]) for r in table]
            width = max(vs) - min(vs)
            for v, g in zip(vs, anon):
                cell = g[c2]
                if cell[:1] == '[':
                    lo, hi = cell[1:-1].split('-')
                    lo, hi = int(lo), int(hi)
                else:
                    lo = hi = int(cell)
                if v < lo or v > hi:
                    raise ValueError('%s: %s does not cover %d' % (q, cell, v))
                if width > 0:
                    total += (hi - lo) / width
    return total


if __name__ == '__main__':
    if len(sys.argv) >= 6 and sys.argv[1] == 'topdown_greedy':
        t0 = time.time()
        topdown_greedy(sys.argv[3], sys.argv[2], int(sys.argv[5]), sys.argv[4])
        print('done in %.1fs' % (time.time() - t0))
        print('NCP = %.3f' % cost_NCP(sys.argv[3], sys.argv[4], sys.argv[2]))
    elif len(sys.argv) >= 5 and sys.argv[1] == 'cost_NCP':
        print('NCP = %.3f' % cost_NCP(sys.argv[3], sys.argv[4], sys.argv[2]))
    else:
        print(__doc__)
