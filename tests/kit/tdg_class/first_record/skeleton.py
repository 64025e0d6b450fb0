# -*- coding: utf-8 -*-
# =============================================================
#  实验二  Top-Down Greedy 算法实现 k-匿名
#  python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
#  python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv
#
#  起点: 每个划分的第一条记录 (不用随机数, 每次跑结果都一样, 好调试)
# =============================================================
import os
import sys
import time

from tree import Tree

sys.setrecursionlimit(20000)

QIS = ['age', 'work_class', 'education_num', 'marital_status',
       'occupation', 'race', 'sex', 'native_country']
SA = 'class'


def read_file(path):
    f = open(path, 'r', encoding='utf-8')
    header = f.readline().strip().split(',')
    rows = []
    for line in f.readlines():
        line = line.strip()
        if len(line) > 0:
            rows.append(line.split(','))
    f.close()
    return header, rows


def read_trees(DGH_folder):
    trees = {}
    for q in QIS:
        fname = os.path.join(DGH_folder, q + '.txt')
        if os.path.exists(fname):
            trees[q] = Tree(fname)
    return trees


class Anonymizer:
    def __init__(self, header, rows, trees, k):
        self.k = k
        self.trees = [trees.get(q) for q in QIS]   # 数值型是 None
        self.pos = [header.index(q) for q in QIS]
        self.qi = []
        for r in rows:
            self.qi.append([r[p] if t is not None else int(r[p]) for p, t in zip(self.pos, self.trees)])
        self.span = []
        for j, t in enumerate(self.trees):
            if t is None:
                col = [x[j] for x in self.qi]
                self.span.append(max(col) - min(col))
            else:
                self.span.append(None)
        self.parts = []

    # ---------- NCP ----------
    def gen_cost(self, g):
        """g 是 middle, 数值型是 (lo, hi), 分类型是结点名"""
        c = 0.0
        for j, t in enumerate(self.trees):
            if t is None:
                if self.span[j] > 0:
                    c += (g[j][1] - g[j][0]) / self.span[j]
            else:
                c += t.ncp(g[j])
        return c

    def distance(self, x, y):
        a, b = self.qi[x], self.qi[y]
        c = 0.0
        for j, t in enumerate(self.trees):
            if t is None:
                if self.span[j] > 0:
                    c += abs(a[j] - b[j]) / self.span[j]
            elif a[j] != b[j]:
                c += t.ncp(t.lca(a[j], b[j]))
        return c

    def middle(self, members):
        g = []
        for j, t in enumerate(self.trees):
            vals = [self.qi[i][j] for i in members]
            if t is None:
                g.append((min(vals), max(vals)))
            else:
                x = vals[0]
                for v in set(vals):
                    x = t.lca(x, v)
                g.append(x)
        return g

    def merged_cost(self, g, i):
        """middle g 加上记录 i"""
        a = self.qi[i]
        c = 0.0
        for j, t in enumerate(self.trees):
            if t is None:
                if self.span[j] > 0:
                    c += (max(g[j][1], a[j]) - min(g[j][0], a[j])) / self.span[j]
            else:
                c += t.ncp(t.lca(g[j], a[j]))
        return c

    def total(self, members):
        return len(members) * self.gen_cost(self.middle(members))

    # ---------- 算法 ----------
    def furthest(self, u, members):
        best, far = None, -1.0
        for i in members:
            if i != u:
                dd = self.distance(u, i)
                if dd > far:
                    best, far = i, dd
        return best

    def anonymize(self, members):
        k = self.k
        if len(members) < 2 * k:
            self.parts.append(members)
            return
        u = members[0]                  # 第一条记录作起点
        for rnd in range(3):
            v = self.furthest(u, members)
            if rnd < 2:
                u = v
        group_u, group_v = [], []
        for i in members:
            if i == u:
                group_u.append(i)
            elif i == v:
                group_v.append(i)
            elif self.distance(i, u) <= self.distance(i, v):
                group_u.append(i)
            else:
                group_v.append(i)
        if len(group_u) < k or len(group_v) < k:
            if len(group_u) < k:
                small, large = group_u, group_v
            else:
                small, large = group_v, group_u
            g = self.middle(small)
            cand = [(self.merged_cost(g, i), i) for i in large]
            cand.sort()          # 距离一样时按下标(文件顺序)
            chosen = set(i for _, i in cand[:k - len(small)])
            new_small = sorted(small + list(chosen))
            new_large = [i for i in large if i not in chosen]
            if self.total(members) < self.total(new_small) + self.total(new_large):
                self.parts.append(members)      # 合并更好
                return
            group_u, group_v = new_small, new_large
        self.anonymize(group_u)
        self.anonymize(group_v)

    def cells(self, members):
        out = []
        for j, (t, gj) in enumerate(zip(self.trees, self.middle(members))):
            if t is not None:
                out.append(gj)
            elif gj[0] == gj[1]:
                out.append(str(gj[0]))
            else:
                out.append('[' + str(gj[0]) + '-' + str(gj[1]) + ']')
        return out


def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    header, rows = read_file(raw_dataset_file)
    if k < 1 or k > len(rows):
        raise ValueError('k 不合法')
    trees = read_trees(DGH_folder)
    an = Anonymizer(header, rows, trees, k)
    an.anonymize(list(range(len(rows))))
    gen = [None] * len(rows)
    for members in an.parts:
        c = an.cells(members)
        for i in members:
            gen[i] = c
    cols = [j for j in range(len(header)) if header[j] in QIS or header[j] == SA]
    f = open(output_file, 'w', encoding='utf-8')
    f.write(','.join([header[j] for j in cols]) + '\n')
    for i in range(len(rows)):
        line = []
        for j in cols:
            if header[j] == SA:
                line.append(rows[i][j])
            else:
                line.append(gen[i][QIS.index(header[j])])
        f.write(','.join(line) + '\n')
    f.close()


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, rows = read_file(raw_dataset_file)
    h2, anon = read_file(anonymized_dataset_file)
    if len(rows) != len(anon):
        raise ValueError('记录条数不同')
    trees = read_trees(DGH_folder)
    ncp = 0.0
    for q in QIS:
        i, j = header.index(q), h2.index(q)
        if q in trees:
            t = trees[q]
            for r, a in zip(rows, anon):
                if not t.covers(a[j], r[i]):
                    raise ValueError(q + ': ' + a[j] + ' 不覆盖 ' + r[i])
                ncp += t.ncp(a[j])
        else:
            col = [int(r[i]) for r in rows]
            span = max(col) - min(col)
            for v, a in zip(col, anon):
                s = a[j]
                if s.startswith('[') and s.endswith(']'):
                    lo, hi = s[1:-1].split('-')
                    lo, hi = int(lo), int(hi)
                else:
                    lo = hi = int(s)
                if not (lo <= v <= hi):
                    raise ValueError(q + ': ' + s + ' 不覆盖 ' + str(v))
                ncp += (hi - lo) / span if span > 0 else 0
    return ncp


if __name__ == '__main__':
    if len(sys.argv) < 5:
        print('python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10')
        sys.exit(0)
    alg, dgh, raw, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    if alg == 'topdown_greedy':
        k = int(sys.argv[5])
        start = time.time()
        topdown_greedy(raw, dgh, k, out)
        end = time.time()
        ncp = cost_NCP(raw, out, dgh)
        print('k=%d  time=%.2fs  NCP=%.2f' % (k, end - start, ncp))
    elif alg == 'cost_NCP':
        print(cost_NCP(raw, out, dgh))
