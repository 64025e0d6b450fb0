# -*- coding: utf-8 -*-
# 实验一  k-匿名: Samarati + Mondrian
# 运行方法:
#   python lab.py samarati 数据文件 层次树文件夹 k maxSup 输出文件
#   python lab.py mondrian 数据文件 层次树文件夹 k 输出文件

import sys
import time
import random
import itertools

from utils import load_csv, save_csv, load_all_hierarchies, get_path, tree_height

S = 'occupation'  # 敏感属性的列名


def generalize_value(father, v, level):
    p = get_path(father, v)
    return p[level]


def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    if k <= 0:
        raise ValueError('k 不能小于 1')
    if max_sup < 0:
        raise ValueError('maxSup 不能是负数')
    header, data = load_csv(raw_dataset_file)
    trees = load_all_hierarchies(DGH_folder)
    qi = []
    for i in range(len(header)):
        if header[i] in trees:
            qi.append(i)
    H = [tree_height(trees[header[i]]) for i in qi]
    print('QI:', [header[i] for i in qi], '树高:', H)

    # 提前算好每个值在每一层的泛化结果 table[j][值][层]
    table = []
    for j, i in enumerate(qi):
        d = {}
        for row in data:
            if row[i] not in d:
                d[row[i]] = get_path(trees[header[i]], row[i])
        table.append(d)

    # 统计每种 QI 组合出现了几次
    combos = {}
    for row in data:
        key = tuple(row[i] for i in qi)
        combos[key] = combos.get(key, 0) + 1

    def count_outliers(vec):
        groups = {}
        for key, c in combos.items():
            g = tuple(table[j][key[j]][vec[j]] for j in range(len(qi)))
            groups[g] = groups.get(g, 0) + c
        num = 0
        for c in groups.values():
            if c < k:
                num += c
        return num

    all_vecs = list(itertools.product(*[range(h + 1) for h in H]))

    def vecs_of_height(h):
        return [v for v in all_vecs if sum(v) == h]

    if count_outliers(tuple(H)) > max_sup:
        raise ValueError('没有满足条件的泛化')

    # 先二分查找最低的满足的高度
    low = 0
    high = sum(H)
    while low < high:
        mid = (low + high) // 2
        ok = False
        for v in vecs_of_height(mid):
            if count_outliers(v) <= max_sup:
                ok = True
                break
        if ok:
            high = mid
        else:
            low = mid + 1
    # 选做: 这个高度上满足的向量里, 选删除记录最少的那个 (删得少, 信息损失就少)
    best = None
    best_del = None
    for v in vecs_of_height(low):
        c = count_outliers(v)
        if c <= max_sup and (best is None or c < best_del):
            best = v
            best_del = c
    print('最低高度', low, '选的向量', best, '要删除', best_del, '条')

    # 生成结果
    keep = [i for i in range(len(header)) if i in qi or header[i] == S]
    gen = []
    for row in data:
        g = list(row)
        for j, i in enumerate(qi):
            g[i] = table[j][row[i]][best[j]]
        gen.append(g)
    # 统计每个等价类的大小, 小于 k 的删掉
    size = {}
    for row in data:
        key = tuple(row[i] for i in qi)
        size[key] = size.get(key, 0) + 1
    out = []
    for row, g in zip(data, gen):
        if size[tuple(row[i] for i in qi)] >= k:
            out.append([g[i] for i in keep])
    save_csv(output_file, [header[i] for i in keep], out)


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    header, data = load_csv(raw_dataset_file)
    trees = load_all_hierarchies(DGH_folder)
    qi = [i for i in range(len(header)) if header[i] in trees]
    if len(data) < k:
        raise ValueError('数据太少')
    # 课件: 维度可以随机选, 这里固定种子保证每次结果一样
    rng = random.Random(0)
    # 只做了数值型的切分 (age, education_num), 其它属性不切, 写成 LCA
    num_qi = []
    for i in qi:
        try:
            for row in data:
                float(row[i])
            num_qi.append(i)
        except ValueError:
            pass

    result = [list(row) for row in data]

    def lca(father, values):
        # 分类属性不切, 最后写成最近公共祖先
        common = None
        for v in set(values):
            p = get_path(father, v)
            common = p if common is None else [x for x in common if x in p]
        return common[0]

    def write_categorical(part):
        for i in qi:
            if i not in num_qi:
                s = lca(trees[header[i]], [data[r][i] for r in part])
                for r in part:
                    result[r][i] = s

    def anonymize(part):
        dims = list(num_qi)
        rng.shuffle(dims)           # 随机选一个维度, 切不了就换下一个
        for d in dims:
            values = sorted(float(data[r][d]) for r in part)
            split = values[(len(values) - 1) // 2]   # 中位数
            lhs = [r for r in part if float(data[r][d]) <= split]
            rhs = [r for r in part if float(data[r][d]) > split]
            if len(lhs) >= k and len(rhs) >= k:
                anonymize(lhs)
                anonymize(rhs)
                return
        write_categorical(part)
        # 不能再切了, 写成 [min-max]
        for d in num_qi:
            lo = min(part, key=lambda r: float(data[r][d]))
            hi = max(part, key=lambda r: float(data[r][d]))
            if float(data[lo][d]) == float(data[hi][d]):
                s = data[lo][d]
            else:
                s = '[' + data[lo][d] + '-' + data[hi][d] + ']'
            for r in part:
                result[r][d] = s

    sys.setrecursionlimit(100000)
    anonymize(list(range(len(data))))
    keep = [i for i in range(len(header)) if i in qi or header[i] == S]
    save_csv(output_file, [header[i] for i in keep], [[row[i] for i in keep] for row in result])


if len(sys.argv) > 1:
    t = time.time()
    if sys.argv[1] == 'samarati':
        samarati(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    elif sys.argv[1] == 'mondrian':
        mondrian(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    print('用时', time.time() - t, 's')
