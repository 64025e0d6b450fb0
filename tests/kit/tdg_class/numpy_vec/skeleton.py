# -*- coding: utf-8 -*-
"""
Top-Down Greedy k-匿名, 用 numpy 向量化 (纯 python 的版本在全量数据上太慢了)

    python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
    python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv
"""
import os
import sys
import time

import numpy as np

QI = ['age', 'work_class', 'education_num', 'marital_status', 'occupation', 'race', 'sex',
      'native_country']
SENSITIVE = 'class'
SEED = 2024        # 随机种子
ROUNDS = 3


def read_table(path):
    with open(path, encoding='utf-8') as f:
        lines = [l.strip() for l in f if l.strip()]
    header = lines[0].split(',')
    return header, [l.split(',') for l in lines[1:]]


class Hierarchy:
    """一个分类属性的泛化层次, 所有结点编号, 预先算好两两 LCA 和每个结点的 NCP"""

    def __init__(self, path):
        paths = []
        with open(path, encoding='utf-8') as f:
            for line in f:
                if line.strip():
                    paths.append([x.strip() for x in line.split(';')])
        self.code = {}
        for p in paths:
            for x in p:
                if x not in self.code:
                    self.code[x] = len(self.code)
        self.names = list(self.code)
        n = len(self.names)
        self.parent = -np.ones(n, dtype=np.int64)
        leaves = np.zeros(n)
        self.is_leaf = np.zeros(n, dtype=bool)
        for p in paths:
            self.is_leaf[self.code[p[0]]] = True
            for a, b in zip(p, p[1:]):
                self.parent[self.code[a]] = self.code[b]
            for x in p:
                leaves[self.code[x]] += 1
        root = self.code[paths[0][-1]]
        self.ncp = np.where(self.is_leaf, 0.0, leaves / leaves[root])
        # 祖先链
        chains = []
        for i in range(n):
            c = [i]
            while self.parent[c[-1]] >= 0:
                c.append(int(self.parent[c[-1]]))
            chains.append(c)
        self.lca = np.zeros((n, n), dtype=np.int64)
        for a in range(n):
            for b in range(n):
                sb = set(chains[b])
                self.lca[a, b] = next(x for x in chains[a] if x in sb)
        self.pair_ncp = self.ncp[self.lca]       # 两个结点合并后的 NCP
        self.chains = chains

    def covers(self, g, v):
        return g in self.code and v in self.code and self.code[g] in self.chains[self.code[v]]


def load(raw_dataset_file, DGH_folder):
    header, rows = read_table(raw_dataset_file)
    hs = {}
    for q in QI:
        p = os.path.join(DGH_folder, q + '.txt')
        if os.path.exists(p):
            hs[q] = Hierarchy(p)
    num = [q for q in QI if q not in hs]
    cat = [q for q in QI if q in hs]
    X = np.array([[int(r[header.index(q)]) for q in num] for r in rows], dtype=np.int64)
    C = np.array([[hs[q].code[r[header.index(q)]] for q in cat] for r in rows], dtype=np.int64)
    span = (X.max(axis=0) - X.min(axis=0)).astype(float)
    span[span == 0] = 1.0      # 这一列全相等, 范围都是 0
    return header, rows, hs, num, cat, X, C, span


def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    header, rows, hs, num, cat, X, C, span = load(raw_dataset_file, DGH_folder)
    n = len(rows)
    if k < 1 or k > n:
        raise ValueError('k must be in [1, %d]' % n)
    rng = np.random.default_rng(SEED)
    H = [hs[q] for q in cat]

    def dist_from(i, idx):
        """记录 i 到 idx 里每条记录的距离 (向量)"""
        d = (np.abs(X[idx] - X[i]) / span).sum(axis=1)
        for j, h in enumerate(H):
            d += h.pair_ncp[C[idx, j], C[i, j]]
        return d

    def middle(idx):
        lo = X[idx].min(axis=0)
        hi = X[idx].max(axis=0)
        nodes = []
        for j, h in enumerate(H):
            vals = np.unique(C[idx, j])
            x = vals[0]
            for v in vals[1:]:
                x = h.lca[x, v]
            nodes.append(int(x))
        return lo, hi, nodes

    def mid_ncp(mid):
        lo, hi, nodes = mid
        return float(((hi - lo) / span).sum()) + sum(h.ncp[x] for h, x in zip(H, nodes))

    def to_middle(mid, idx):
        """idx 里每条记录并进 middle 之后的 NCP"""
        lo, hi, nodes = mid
        d = ((np.maximum(X[idx], hi) - np.minimum(X[idx], lo)) / span).sum(axis=1)
        for j, h in enumerate(H):
            d += h.pair_ncp[nodes[j], C[idx, j]]
        return d

    def total(idx):
        return len(idx) * mid_ncp(middle(idx))

    final = []
    todo = [np.arange(n)]
    while todo:
        P = todo.pop()
        if len(P) < 2 * k:
            final.append(P)
            continue
        u = P[rng.integers(len(P))]
        for r in range(ROUNDS):
            d = dist_from(u, P)
            d[P == u] = -1.0
            v = P[int(np.argmax(d))]       # argmax 取第一个最大值
            if r < ROUNDS - 1:
                u = v
        du = dist_from(u, P)
        dv = dist_from(v, P)
        to_u = du <= dv
        to_u[P == u] = True
        to_u[P == v] = False
        A, B = P[to_u], P[~to_u]
        if len(A) < k or len(B) < k:
            small, big = (A, B) if len(A) < k else (B, A)
            order = np.argsort(to_middle(middle(small), big), kind='stable')
            take = order[:k - len(small)]
            keep = np.ones(len(big), dtype=bool)
            keep[take] = False
            small2 = np.sort(np.concatenate([small, big[take]]))
            big2 = big[keep]
            if total(P) < total(small2) + total(big2):
                final.append(P)
                continue
            A, B = small2, big2
        todo.append(B)
        todo.append(A)

    # 每条记录的泛化结果
    out_q = {q: np.empty(n, dtype=object) for q in QI}
    for P in final:
        lo, hi, nodes = middle(P)
        for j, q in enumerate(num):
            out_q[q][P] = str(lo[j]) if lo[j] == hi[j] else '[%d-%d]' % (lo[j], hi[j])
        for j, q in enumerate(cat):
            out_q[q][P] = H[j].names[nodes[j]]
    cols = [c for c in header if c in QI or c == SENSITIVE]
    s_at = header.index(SENSITIVE)
    with open(output_file, 'w', encoding='utf-8') as f:
        f.write(','.join(cols) + '\n')
        for i in range(n):
            f.write(','.join(out_q[c][i] if c in QI else rows[i][s_at] for c in cols) + '\n')


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, rows, hs, num, cat, X, C, span = load(raw_dataset_file, DGH_folder)
    h2, anon = read_table(anonymized_dataset_file)
    if len(anon) != len(rows):
        raise ValueError('number of records differs')
    real_span = X.max(axis=0) - X.min(axis=0)
    total = 0.0
    for j, q in enumerate(num):
        at = h2.index(q)
        lo = np.empty(len(anon), dtype=np.int64)
        hi = np.empty(len(anon), dtype=np.int64)
        for i, r in enumerate(anon):
            cell = r[at]
            if cell.startswith('['):
                a, b = cell[1:-1].split('-')
                lo[i], hi[i] = int(a), int(b)
            else:
                lo[i] = hi[i] = int(cell)
        bad = (X[:, j] < lo) | (X[:, j] > hi)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError('%s row %d: %s does not cover %d' % (q, i + 1, anon[i][at], X[i, j]))
        if real_span[j] > 0:
            total += float((hi - lo).sum()) / real_span[j]
    for j, q in enumerate(cat):
        at = h2.index(q)
        h = hs[q]
        for i, r in enumerate(anon):
            if not h.covers(r[at], h.names[C[i, j]]):
                raise ValueError('%s row %d: %s does not cover %s' % (q, i + 1, r[at], h.names[C[i, j]]))
            total += h.ncp[h.code[r[at]]]
    return float(total)


if __name__ == '__main__':
    if len(sys.argv) < 5:
        print(__doc__)
        sys.exit(1)
    what, dghs, raw, out = sys.argv[1:5]
    if what == 'topdown_greedy':
        k = int(sys.argv[5])
        t0 = time.perf_counter()
        topdown_greedy(raw, dghs, k, out)
        print('topdown_greedy k=%d: %.2f s' % (k, time.perf_counter() - t0))
        print('NCP = %.2f' % cost_NCP(raw, out, dghs))
    elif what == 'cost_NCP':
        print('NCP = %.2f' % cost_NCP(raw, out, dghs))
