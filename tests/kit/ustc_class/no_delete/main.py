# -*- coding: utf-8 -*-
"""
数据隐私的方法论、伦理和实践  实验一: k-匿名
Samarati 算法 (全域泛化 + 删除) 和 Mondrian 算法 (严格多维划分)

用法:
    python main.py samarati adult.csv DGHs 10 20 out.csv
    python main.py mondrian adult.csv DGHs 10 out.csv
"""
import csv
import itertools
import sys
import time
from collections import Counter

from dgh import read_dghs

SENSITIVE = 'occupation'   # 敏感属性


def read_data(path):
    with open(path, 'r', encoding='utf-8') as f:
        reader = csv.reader(f)
        header = next(reader)
        data = [row for row in reader if len(row) > 0]
    return header, data


def write_data(path, header, rows):
    with open(path, 'w', encoding='utf-8', newline='') as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)


def output_columns(header, qi_idx):
    """输出的列: QI 和敏感属性，按原来的列顺序"""
    return [i for i in range(len(header)) if i in qi_idx or header[i] == SENSITIVE]


# ==================================================================
#                           Samarati
# ==================================================================

def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    if k < 1 or max_sup < 0:
        raise ValueError('k 必须 >= 1, max_sup 必须 >= 0')
    header, data = read_data(raw_dataset_file)
    dghs = read_dghs(DGH_folder)
    qi_idx = [i for i in range(len(header)) if header[i] in dghs]   # 有 DGH 文件的列就是 QI
    trees = [dghs[header[i]] for i in qi_idx]
    heights = [t.height for t in trees]

    # 同样 QI 取值的记录只算一次, 快很多
    qi_count = Counter(tuple(row[i] for i in qi_idx) for row in data)

    def gen(values, vec):
        return tuple(t.generalize(v, l) for t, v, l in zip(trees, values, vec))

    def outliers(vec):
        """按向量 vec 泛化以后, 等价类大小 < k 的记录条数"""
        size = Counter()
        for values, c in qi_count.items():
            size[gen(values, vec)] += c
        return sum(c for c in size.values() if c < k)

    # 格 (lattice) 里所有的距离向量, 按高度分组
    lattice = {}
    for vec in itertools.product(*[range(h + 1) for h in heights]):
        lattice.setdefault(sum(vec), []).append(vec)

    top = tuple(heights)
    if outliers(top) > max_sup:
        raise ValueError('最顶上的向量都不满足 k-匿名, 无解')

    # 课件上的二分查找
    low, high = 0, sum(heights)
    sol = top
    while low < high:
        mid = (low + high) // 2
        found = None
        for vec in lattice[mid]:          # 这一层的向量一个一个试, 找到一个满足的就停
            if outliers(vec) <= max_sup:
                found = vec
                break
        if found is not None:
            sol = found
            high = mid
        else:
            low = mid + 1
    print('Samarati: 向量', sol, '高度', sum(sol))

    # 按 sol 泛化; 等价类小于 k 的记录就是要隐匿 (suppress) 的记录,
    # 隐匿 = 这些记录的 QI 全部变成 '*'
    gen_rows = [gen(tuple(row[i] for i in qi_idx), sol) for row in data]
    size = Counter(gen_rows)
    cols = output_columns(header, qi_idx)
    out = []
    suppressed = 0
    for row, g in zip(data, gen_rows):
        new_row = list(row)
        for j, i in enumerate(qi_idx):
            if size[g] < k:
                new_row[i] = trees[j].root
            else:
                new_row[i] = g[j]
        if size[g] < k:
            suppressed += 1
        out.append([new_row[i] for i in cols])
    print('隐匿了', suppressed, '条记录')
    write_data(output_file, [header[i] for i in cols], out)


# ==================================================================
#                           Mondrian
# ==================================================================

def is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    header, data = read_data(raw_dataset_file)
    dghs = read_dghs(DGH_folder)
    qi_idx = [i for i in range(len(header)) if header[i] in dghs]
    n = len(data)
    if n < k:
        raise ValueError('记录数比 k 还少')

    # 数值型属性: 所有取值都能转成数字 (age, education_num); 否则按分类属性处理 (比如 sex)
    numeric = {}
    for i in qi_idx:
        numeric[i] = all(is_number(row[i]) for row in data)
    # 整张表上每个属性的范围, 用来归一化
    full_range = {}
    for i in qi_idx:
        if numeric[i]:
            vals = [float(row[i]) for row in data]
            full_range[i] = max(vals) - min(vals)
        else:
            full_range[i] = len(dghs[header[i]].leaves) - 1

    def width(part, i):
        """划分 part 在属性 i 上的归一化宽度"""
        if full_range[i] == 0:
            return 0
        if numeric[i]:
            vals = [float(data[r][i]) for r in part]
            return (max(vals) - min(vals)) / full_range[i]
        t = dghs[header[i]]
        return (t.leaf_num(t.lca([data[r][i] for r in part])) - 1) / full_range[i]

    def try_cut(part, i):
        """在属性 i 上切一刀, 可以切就返回切出来的几块, 不可以就返回 None"""
        if numeric[i]:
            vals = sorted(float(data[r][i]) for r in part)
            split = vals[(len(vals) - 1) // 2]      # 中位数 (偶数个取小的那个)
            lhs = [r for r in part if float(data[r][i]) <= split]
            rhs = [r for r in part if float(data[r][i]) > split]
            if len(lhs) >= k and len(rhs) >= k:
                return [lhs, rhs]
            return None
        # 分类属性: 按 LCA 的孩子分组
        t = dghs[header[i]]
        lca = t.lca([data[r][i] for r in part])
        groups = {}
        for r in part:
            p = t.path(data[r][i])
            if p[0] == lca:
                return None
            groups.setdefault(p[p.index(lca) - 1], []).append(r)
        if len(groups) < 2 or min(len(g) for g in groups.values()) < k:
            return None
        return list(groups.values())

    result = [list(row) for row in data]
    finals = []
    stack = [list(range(n))]
    while stack:
        part = stack.pop()
        # 按归一化宽度从大到小试, 一样宽的按列的顺序
        dims = sorted(qi_idx, key=lambda i: -width(part, i))
        for i in dims:
            if width(part, i) == 0:
                continue
            parts = try_cut(part, i)
            if parts is not None:
                stack.extend(parts)
                break
        else:
            finals.append(part)    # 哪一维都切不了了

    for part in finals:
        for i in qi_idx:
            if numeric[i]:
                lo = min((data[r][i] for r in part), key=float)
                hi = max((data[r][i] for r in part), key=float)
                cell = lo if float(lo) == float(hi) else '[' + lo + '-' + hi + ']'
            else:
                cell = dghs[header[i]].lca([data[r][i] for r in part])
            for r in part:
                result[r][i] = cell
    print('Mondrian: 一共', len(finals), '个等价类')
    cols = output_columns(header, qi_idx)
    write_data(output_file, [header[i] for i in cols], [[row[i] for i in cols] for row in result])


if __name__ == '__main__':
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(1)
    start = time.time()
    if sys.argv[1] == 'samarati':
        samarati(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        mondrian(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    print('运行时间: %.2f 秒' % (time.time() - start))
