# -*- coding: utf-8 -*-
#
# 实验: k-匿名之 Top-Down Greedy 算法
#   python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
#   python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv
#
import random
import sys
import time

import numpy as np

from hierarchy import Range, load_dghs

sys.setrecursionlimit(50000)

QI = ['age', 'work_class', 'education_num', 'marital_status', 'occupation', 'race', 'sex', 'native_country']
SA = 'class'


class Partition:
    """划分: member 是记录的下标 (按文件顺序), allow 表示还能不能再分"""

    def __init__(self, member, allow=True):
        self.member = member
        self.allow = allow

    def __len__(self):
        return len(self.member)


class TopDown:
    def __init__(self, header, rows, dghs, k):
        self.k = k
        self.dghs = dghs
        self.cols = [header.index(q) for q in QI]
        self.num = [q not in dghs for q in QI]      # 没有层次文件的就是数值型
        self.data = [[int(r[c]) if self.num[j] else r[c] for j, c in enumerate(self.cols)] for r in rows]
        self.width = []
        for j in range(len(QI)):
            if self.num[j]:
                col = [d[j] for d in self.data]
                self.width.append(max(col) - min(col))
            else:
                self.width.append(None)

    def gen(self, member):
        """一组记录的泛化结果 (middle)"""
        g = []
        for j, q in enumerate(QI):
            first = self.data[member[0]][j]
            if self.num[j]:
                r = Range(first, first)
                for i in member:
                    r = r.join(self.data[i][j])
                g.append(r)
            else:
                x = first
                for v in set(self.data[i][j] for i in member):
                    x = self.dghs[q].lca(x, v)
                g.append(x)
        return g

    def ncp(self, g):
        s = 0.0
        for j, q in enumerate(QI):
            if self.num[j]:
                if self.width[j]:
                    s += g[j].width() / self.width[j]
            else:
                s += self.dghs[q].cost(g[j])
        return s

    def add(self, g, i):
        """g 里再加一条记录 i"""
        out = []
        for j, q in enumerate(QI):
            v = self.data[i][j]
            out.append(g[j].join(v) if self.num[j] else self.dghs[q].lca(g[j], v))
        return out

    def dist(self, a, b):
        s = 0.0
        x, y = self.data[a], self.data[b]
        for j, q in enumerate(QI):
            if self.num[j]:
                if self.width[j]:
                    s += abs(x[j] - y[j]) / self.width[j]
            elif x[j] != y[j]:
                s += self.dghs[q].cost(self.dghs[q].lca(x[j], y[j]))
        return s

    def cost(self, member):
        return len(member) * self.ncp(self.gen(member))

    def far(self, u, member):
        best, best_d = None, -1
        for i in member:
            if i != u:
                d = self.dist(u, i)
                if d > best_d:
                    best, best_d = i, d
        return best

    def anonymize(self, p):
        """返回最后的所有划分"""
        k = self.k
        if not p.allow or len(p) < 2 * k:
            return [p]
        u = random.choice(p.member)
        v = self.far(u, p.member)
        u = self.far(v, p.member)
        v = self.far(u, p.member)
        left, right = [], []
        for i in p.member:
            if i == u:
                left.append(i)
            elif i == v:
                right.append(i)
            elif self.dist(i, u) <= self.dist(i, v):
                left.append(i)
            else:
                right.append(i)
        subs = [Partition(left), Partition(right)]
        for a in range(2):
            small, big = subs[a], subs[1 - a]
            if len(small) >= k:
                continue
            g = self.gen(small.member)
            near = sorted(big.member, key=lambda i: self.ncp(self.add(g, i)))[:k - len(small)]
            s2 = sorted(small.member + near)
            b2 = [i for i in big.member if i not in set(near)]
            if self.cost(p.member) < self.cost(s2) + self.cost(b2):
                subs = [Partition(p.member, allow=False)]
            else:
                subs = [Partition(s2), Partition(b2)]
            break
        result = []
        for s in subs:
            result.extend(self.anonymize(s))
        return result


def read(path):
    with open(path, encoding='utf-8') as f:
        header = f.readline().strip().split(',')
        rows = [l.strip().split(',') for l in f if l.strip()]
    return header, rows


def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    random.seed(3)
    header, rows = read(raw_dataset_file)
    if k < 1 or k > len(rows):
        raise ValueError('k out of range')
    dghs = load_dghs(DGH_folder)
    td = TopDown(header, rows, dghs, k)
    whole = Partition(list(range(len(rows))))
    td.anonymize(whole)
    partitions = [whole]
    out = [None] * len(rows)
    for p in partitions:
        g = td.gen(p.member)
        cells = [str(x) for x in g]
        for i in p.member:
            out[i] = cells
    keep = [j for j, c in enumerate(header) if c in QI or c == SA]
    with open(output_file, 'w', encoding='utf-8') as f:
        f.write(','.join(header[j] for j in keep) + '\n')
        for i, r in enumerate(rows):
            f.write(','.join(out[i][QI.index(header[j])] if header[j] in QI else r[j] for j in keep) + '\n')


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, rows = read(raw_dataset_file)
    header2, anon = read(anonymized_dataset_file)
    if len(rows) != len(anon):
        raise ValueError('records do not match')
    dghs = load_dghs(DGH_folder)
    total = 0.0
    for q in QI:
        a, b = header.index(q), header2.index(q)
        if q in dghs:
            d = dghs[q]
            for r, x in zip(rows, anon):
                if x[b] not in d.up(r[a]):
                    raise ValueError('%s does not cover %s' % (x[b], r[a]))
                total += d.cost(x[b])
        else:
            # 数值型: 用 numpy 一次算完
            vals = np.array([int(r[a]) for r in rows])
            bounds = np.array([[int(t) for t in x[b][1:-1].split('-')] if x[b][0] == '['
                               else [int(x[b]), int(x[b])] for x in anon])
            lo, hi = bounds[:, 0], bounds[:, 1]
            if ((vals < lo) | (vals > hi)).any():
                raise ValueError('%s: some interval does not cover its value' % q)
            width = vals.max() - vals.min()
            if width:
                total += float((hi - lo).sum()) / width
    return total


if __name__ == '__main__':
    algorithm, dgh_folder, raw_file, out_file = sys.argv[1:5]
    if algorithm == 'topdown_greedy':
        k = int(sys.argv[5])
        t = time.time()
        topdown_greedy(raw_file, dgh_folder, k, out_file)
        print('topdown_greedy: %.2f s' % (time.time() - t))
    else:
        print(cost_NCP(raw_file, out_file, dgh_folder))
