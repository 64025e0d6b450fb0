# -*- coding: utf-8 -*-
# 大数据安全与隐私 实验 —— Top-Down Greedy 实现 k-匿名
# 运行: python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
#       python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv
import random
import sys
import time
from collections import deque
from functools import lru_cache

from utils import load_csv, save_csv, load_hierarchies, path_to_root, common_ancestor, penalty

QI = ['age', 'work_class', 'education_num', 'marital_status', 'occupation', 'race', 'sex', 'native_country']
SENSITIVE = 'class'


class NCPCalculator:
    """计算 NCP 用的东西放在一起: 层次树, 数值属性的范围"""

    def __init__(self, records, hierarchies):
        self.h = hierarchies
        self.cat = [q for q in QI if q in hierarchies]
        self.num = [q for q in QI if q not in hierarchies]     # 没有层次文件 -> 数值型
        self.width = {}
        for q in self.num:
            vals = [r[q] for r in records]
            self.width[q] = max(vals) - min(vals)

        @lru_cache(maxsize=None)
        def pair(q, a, b):
            return penalty(self.h[q], common_ancestor(self.h[q], [a, b]))
        self.pair = pair

    def distance(self, r1, r2):
        d = 0.0
        for q in self.num:
            if self.width[q]:
                d += abs(r1[q] - r2[q]) / self.width[q]
        for q in self.cat:
            if r1[q] != r2[q]:
                d += self.pair(q, r1[q], r2[q])
        return d

    def summary(self, group):
        """一组记录泛化后的 middle: {q: (lo, hi)} 或 {q: 结点}"""
        mid = {}
        for q in self.num:
            vals = [r[q] for r in group]
            mid[q] = (min(vals), max(vals))
        for q in self.cat:
            mid[q] = common_ancestor(self.h[q], [r[q] for r in group])
        return mid

    def cost(self, mid):
        c = 0.0
        for q in self.num:
            if self.width[q]:
                c += (mid[q][1] - mid[q][0]) / self.width[q]
        for q in self.cat:
            c += penalty(self.h[q], mid[q])
        return c

    def cost_with(self, mid, r):
        """middle 再加上记录 r 以后的 NCP"""
        c = 0.0
        for q in self.num:
            if self.width[q]:
                c += (max(mid[q][1], r[q]) - min(mid[q][0], r[q])) / self.width[q]
        for q in self.cat:
            c += penalty(self.h[q], common_ancestor(self.h[q], [mid[q], r[q]]))
        return c

    def group_cost(self, group):
        return len(group) * self.cost(self.summary(group))


def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    header, records = load_csv(raw_dataset_file)
    if not 1 <= k <= len(records):
        raise ValueError('k should be between 1 and %d' % len(records))
    hierarchies = load_hierarchies(DGH_folder)
    for i, r in enumerate(records):
        r['_id'] = i
        for q in QI:
            if q not in hierarchies:
                r[q] = int(r[q])
    calc = NCPCalculator(records, hierarchies)

    finished = []
    queue = deque([records])
    while queue:
        P = queue.popleft()
        if len(P) < 2 * k:
            finished.append(P)
            continue
        # 随机选一个记录作为起点, 迭代 3 次找离得最远的一对
        u = random.choice(P)
        for rnd in range(3):
            best = -1.0
            for r in P:
                if r is u:
                    continue
                d = calc.distance(u, r)
                if d > best:
                    best, v = d, r
            if rnd != 2:
                u = v
        G1, G2 = [], []
        for r in P:
            if r is u:
                G1.append(r)
            elif r is v:
                G2.append(r)
            elif calc.distance(r, u) <= calc.distance(r, v):
                G1.append(r)
            else:
                G2.append(r)
        if len(G1) < k or len(G2) < k:
            small, big = (G1, G2) if len(G1) < k else (G2, G1)
            mid = calc.summary(small)
            ranked = sorted(big, key=lambda r: (calc.cost_with(mid, r), r['_id']))
            picked = ranked[:k - len(small)]
            picked_ids = set(r['_id'] for r in picked)
            small2 = sorted(small + picked, key=lambda r: r['_id'])
            big2 = [r for r in big if r['_id'] not in picked_ids]
            # 两种做法比一下总的 NCP, 一样的话用第一种
            if calc.group_cost(P) < calc.group_cost(small2) + calc.group_cost(big2):
                finished.append(P)
                continue
            G1, G2 = small2, big2
        queue.append(G1)
        queue.append(G2)

    # 生成输出
    out_header = [c for c in header if c in QI or c == SENSITIVE]
    rows = [None] * len(records)
    for group in finished:
        mid = calc.summary(group)
        for r in group:
            row = {SENSITIVE: r[SENSITIVE]}
            for q in QI:
                if q in calc.num:
                    lo, hi = mid[q]
                    row[q] = str(lo) if lo == hi else '[{}-{}]'.format(lo, hi)
                else:
                    row[q] = mid[q]
            rows[r['_id']] = row
    save_csv(output_file, out_header, rows)


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    _, raw = load_csv(raw_dataset_file)
    _, anon = load_csv(anonymized_dataset_file)
    if len(raw) != len(anon):
        raise ValueError('the two files have different numbers of records')
    hierarchies = load_hierarchies(DGH_folder)
    width = {}
    for q in QI:
        if q not in hierarchies:
            vals = [int(r[q]) for r in raw]
            width[q] = max(vals) - min(vals)
    ncp = 0.0
    for r, a in zip(raw, anon):
        for q in QI:
            if q in hierarchies:
                if a[q] not in path_to_root(hierarchies[q], r[q]):
                    raise ValueError('{} does not cover {}'.format(a[q], r[q]))
                ncp += penalty(hierarchies[q], a[q])
            else:
                cell = a[q]
                if cell.startswith('['):
                    lo, hi = map(int, cell.strip('[]').split('-'))
                else:
                    lo = hi = int(cell)
                if not lo <= int(r[q]) <= hi:
                    raise ValueError('{} does not cover {}'.format(cell, r[q]))
                if width[q]:
                    ncp += (hi - lo) / width[q]
    return ncp


if __name__ == '__main__':
    method = sys.argv[1]
    dgh_dir, raw_file, out_file = sys.argv[2], sys.argv[3], sys.argv[4]
    if method == 'topdown_greedy':
        k = int(sys.argv[5])
        t = time.time()
        topdown_greedy(raw_file, dgh_dir, k, out_file)
        print('time: %.2f s' % (time.time() - t))
        print('NCP:', cost_NCP(raw_file, out_file, dgh_dir))
    elif method == 'cost_NCP':
        print('NCP:', cost_NCP(raw_file, out_file, dgh_dir))
    else:
        print('unknown method', method)
