# -*- coding: utf-8 -*-
"""
实验: Top-Down Greedy k-匿名
参考论文: Utility-based anonymization using local recoding (KDD 2006)

    python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
    python skeleton.py cost_NCP DGHs adult-hw1.csv anonymized.csv
"""
import os
import random
import sys
import time

from models import GenTree, NumRange, Partition, read_tree_file

sys.setrecursionlimit(100000)

QI_LIST = ['age', 'work_class', 'education_num', 'marital_status',
           'occupation', 'race', 'sex', 'native_country']
SA = 'class'

# 全局变量, 在 topdown_greedy 里初始化
ATT_TREES = []      # 每个 QI: 分类型是 GenTree 的根, 数值型是 NumRange
IS_CAT = []
QI_LEN = 0
DATA = []           # 每条记录的 QI 值 (数值型已经转成 int)
RESULT = []
K = 10
LCA_CACHE = {}


def read_data(path):
    with open(path, 'r', encoding='utf-8') as f:
        header = f.readline().strip().split(',')
        rows = [line.strip().split(',') for line in f if line.strip()]
    return header, rows


def read_trees(DGH_folder, header, rows):
    """分类型 QI 读层次文件, 数值型 QI (没有层次文件的) 建 NumRange"""
    trees, is_cat, nodes = [], [], []
    for name in QI_LIST:
        path = os.path.join(DGH_folder, name + '.txt')
        if os.path.exists(path):
            att_tree, root = read_tree_file(path)
            trees.append(root)
            nodes.append(att_tree)
            is_cat.append(True)
        else:
            i = header.index(name)
            trees.append(NumRange([int(r[i]) for r in rows]))
            nodes.append(None)
            is_cat.append(False)
    return trees, is_cat, nodes


# ---------------------------- NCP 相关 ----------------------------

def get_LCA(index, item1, item2):
    """item1, item2 是 GenTree 结点, 返回最近公共祖先"""
    if item1 is item2:
        return item1
    key = (index, item1.value, item2.value)
    if key in LCA_CACHE:
        return LCA_CACHE[key]
    p1 = [item1] + item1.parent
    p2 = set([item2.value] + [t.value for t in item2.parent])
    res = ATT_TREES[index]
    for t in p1:
        if t.value in p2:
            res = t
            break
    LCA_CACHE[key] = res
    return res


def cat_ncp(index, node):
    if node.isleaf:
        return 0.0
    return node.leaf_num * 1.0 / ATT_TREES[index].leaf_num


def num_ncp(index, low, high):
    r = ATT_TREES[index].range
    if r == 0:
        return 0.0
    return (high - low) * 1.0 / r


def NCP(mid):
    """一个 middle 的 NCP. 数值型的 middle 是 (low, high), 分类型是 GenTree 结点"""
    s = 0.0
    for i in range(QI_LEN):
        if IS_CAT[i]:
            s += cat_ncp(i, mid[i])
        else:
            s += num_ncp(i, mid[i][0], mid[i][1])
    return s


def get_pair_distance(r1, r2):
    """两条记录的距离: 把两条记录泛化到一起的 NCP"""
    s = 0.0
    for i in range(QI_LEN):
        a, b = r1[i], r2[i]
        if IS_CAT[i]:
            if a is not b:
                s += cat_ncp(i, get_LCA(i, a, b))
        else:
            s += num_ncp(i, min(a, b), max(a, b))
    return s


def middle_record(mid, record):
    """middle 和一条记录合并"""
    res = []
    for i in range(QI_LEN):
        if IS_CAT[i]:
            res.append(get_LCA(i, mid[i], record[i]))
        else:
            res.append((min(mid[i][0], record[i]), max(mid[i][1], record[i])))
    return res


def middle_group(member):
    """一组记录的 middle"""
    first = DATA[member[0]]
    mid = [x if IS_CAT[i] else (x, x) for i, x in enumerate(first)]
    for t in member[1:]:
        mid = middle_record(mid, DATA[t])
    return mid


def get_distance_to_middle(mid, record):
    return NCP(middle_record(mid, record))


# ---------------------------- 算法 ----------------------------

def get_furthest(u, partition):
    """partition 里离 u 最远的记录 (u 本身除外, 一样远取前面的)"""
    max_dist = -1
    index = -1
    for t in partition.member:
        if t == u:
            continue
        d = get_pair_distance(DATA[u], DATA[t])
        if d > max_dist:
            max_dist = d
            index = t
    return index


def choose_two(partition):
    """随机选一个 u, 然后 3 轮找最远点"""
    u = random.choice(partition.member)
    for i in range(3):
        v = get_furthest(u, partition)
        if i < 2:
            u = v
    return u, v


def distribute(partition, u, v):
    """剩下的记录分给离它近的那一组, 一样近给 u"""
    u_part, v_part = [], []
    for t in partition.member:
        if t == u:
            u_part.append(t)
        elif t == v:
            v_part.append(t)
        elif get_pair_distance(DATA[t], DATA[u]) <= get_pair_distance(DATA[t], DATA[v]):
            u_part.append(t)
        else:
            v_part.append(t)
    return Partition(u_part, middle_group(u_part)), Partition(v_part, middle_group(v_part))


def balance(sub_partitions, index):
    """sub_partitions[index] 不到 K 条记录: 从另一组拿记录过来, 或者两组合并"""
    less = sub_partitions.pop(index)
    more = sub_partitions.pop()
    all_member = sorted(less.member + more.member)
    all_middle = middle_group(all_member)
    r_merge = len(all_member) * NCP(all_middle)
    # 方案一: 另一组离 less 的 middle 最近的 K - |less| 条记录搬过来
    dist = [(get_distance_to_middle(less.middle, DATA[t]), pos) for pos, t in enumerate(more.member)]
    dist.sort()                    # 距离一样按原来的位置 (文件顺序)
    need = K - len(less)
    take = set(pos for _, pos in dist[:need])
    new_less = sorted(less.member + [more.member[p] for p in take])
    new_more = [t for p, t in enumerate(more.member) if p not in take]
    less = Partition(new_less, middle_group(new_less))
    more = Partition(new_more, middle_group(new_more))
    r_move = len(less) * NCP(less.middle) + len(more) * NCP(more.middle)
    if r_merge < r_move:
        sub_partitions[:] = [Partition(all_member, all_middle, allow=False)]
    else:
        sub_partitions[:] = [less, more]


def anonymize(partition):
    if len(partition) < 2 * K or not partition.allow:
        RESULT.append(partition)
        return
    u, v = choose_two(partition)
    sub_partitions = list(distribute(partition, u, v))
    if len(sub_partitions[0]) < K:
        balance(sub_partitions, 0)
    elif len(sub_partitions[1]) < K:
        balance(sub_partitions, 1)
    for p in sub_partitions:
        anonymize(p)


def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    global ATT_TREES, IS_CAT, QI_LEN, DATA, RESULT, K, LCA_CACHE
    random.seed(42)
    header, rows = read_data(raw_dataset_file)
    if k < 1 or k > len(rows):
        raise ValueError('k 必须在 1 和记录数之间')
    K = k
    ATT_TREES, IS_CAT, nodes = read_trees(DGH_folder, header, rows)
    QI_LEN = len(QI_LIST)
    LCA_CACHE = {}
    RESULT = []
    qi_index = [header.index(name) for name in QI_LIST]
    # 分类型存 GenTree 结点, 数值型存 int
    DATA = []
    for r in rows:
        rec = []
        for i in range(QI_LEN):
            v = r[qi_index[i]]
            rec.append(nodes[i][v] if IS_CAT[i] else int(v))
        DATA.append(rec)
    whole = Partition(list(range(len(DATA))), middle_group(list(range(len(DATA)))))
    anonymize(whole)

    gen = [None] * len(DATA)
    for p in RESULT:
        cells = []
        for i in range(QI_LEN):
            if IS_CAT[i]:
                cells.append(p.middle[i].value)
            else:
                low, high = p.middle[i]
                # 区间写成左闭右开 [low, high), 跟 python 的 range 一样
                cells.append(str(low) if low == high else '[%d-%d]' % (low, high - 1))
        for t in p.member:
            gen[t] = cells
    out_index = [j for j, name in enumerate(header) if name in QI_LIST or name == SA]
    with open(output_file, 'w', encoding='utf-8') as f:
        f.write(','.join(header[j] for j in out_index) + '\n')
        for t, r in enumerate(rows):
            line = []
            for j in out_index:
                if header[j] == SA:
                    line.append(r[j])
                else:
                    line.append(gen[t][QI_LIST.index(header[j])])
            f.write(','.join(line) + '\n')
    print('划分个数: %d' % len(RESULT))


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, rows = read_data(raw_dataset_file)
    header2, anon = read_data(anonymized_dataset_file)
    if len(rows) != len(anon):
        raise ValueError('记录数不一致: %d 和 %d' % (len(rows), len(anon)))
    trees, is_cat, nodes = read_trees(DGH_folder, header, rows)
    total = 0.0
    for i, name in enumerate(QI_LIST):
        a, b = header.index(name), header2.index(name)
        for r, g in zip(rows, anon):
            raw, cell = r[a], g[b]
            if is_cat[i]:
                node = nodes[i].get(cell)
                leaf = nodes[i].get(raw)
                if node is None or leaf is None or (node is not leaf and node not in leaf.parent):
                    raise ValueError('%s: %s 不覆盖 %s' % (name, cell, raw))
                if not node.isleaf:
                    total += node.leaf_num * 1.0 / trees[i].leaf_num
            else:
                if cell.startswith('['):
                    low, high = [int(x) for x in cell[1:-1].split('-')]
                else:
                    low = high = int(cell)
                if not low <= int(raw) <= high:
                    raise ValueError('%s: %s 不覆盖 %s' % (name, cell, raw))
                if trees[i].range > 0:
                    total += (high - low) * 1.0 / trees[i].range
    return total


if __name__ == '__main__':
    # python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
    algorithm = sys.argv[1]
    dgh_path = sys.argv[2]
    raw_file = sys.argv[3]
    anon_file = sys.argv[4]
    if algorithm == 'topdown_greedy':
        k = int(sys.argv[5])
        start = time.time()
        topdown_greedy(raw_file, dgh_path, k, anon_file)
        print('运行时间: %.2fs' % (time.time() - start))
    elif algorithm == 'cost_NCP':
        print(cost_NCP(raw_file, anon_file, dgh_path))
    else:
        print('Usage: python skeleton.py [topdown_greedy | cost_NCP] DGH_folder raw.csv anonymized.csv [k]')
