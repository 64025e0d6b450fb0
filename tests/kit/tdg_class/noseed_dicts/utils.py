# -*- coding: utf-8 -*-
# 工具函数: 读写 csv, 读泛化层次, 求最近公共祖先
import os


def load_csv(path):
    """每条记录是一个 dict {列名: 值}"""
    with open(path, encoding='utf-8') as f:
        header = f.readline().strip().split(',')
        records = []
        for line in f:
            line = line.strip()
            if line:
                records.append(dict(zip(header, line.split(','))))
    return header, records


def save_csv(path, header, records):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(','.join(header) + '\n')
        for r in records:
            f.write(','.join(r[c] for c in header) + '\n')


def load_hierarchies(folder):
    """{列名: {'up': {结点: 父结点}, 'count': {结点: 叶子数}, 'leaf': set(), 'root': 根}}"""
    res = {}
    for fname in sorted(os.listdir(folder)):
        if not fname.endswith('.txt'):
            continue
        up, count, leaf, root = {}, {}, set(), None
        with open(os.path.join(folder, fname), encoding='utf-8') as f:
            for line in f:
                if not line.strip():
                    continue
                path = [p.strip() for p in line.split(';')]
                leaf.add(path[0])
                root = path[-1]
                for child, father in zip(path[:-1], path[1:]):
                    up[child] = father
                for p in path:
                    count[p] = count.get(p, 0) + 1
        res[fname[:-4]] = {'up': up, 'count': count, 'leaf': leaf, 'root': root}
    return res


def path_to_root(h, node):
    p = [node]
    while p[-1] in h['up']:
        p.append(h['up'][p[-1]])
    return p


def common_ancestor(h, values):
    """一组值的最近公共祖先"""
    values = list(set(values))
    if len(values) == 1:
        return values[0]
    paths = [path_to_root(h, v) for v in values]
    others = [set(p) for p in paths[1:]]
    for node in paths[0]:
        if all(node in s for s in others):
            return node
    return h['root']


def penalty(h, node):
    """分类属性结点的 NCP"""
    if node in h['leaf']:
        return 0.0
    return h['count'][node] / h['count'][h['root']]
