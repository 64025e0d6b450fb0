# 工具函数：读数据、读层次树、写结果
# 作者: 2021 春 数据隐私 实验一

import os


def load_csv(filename):
    """读 csv, 第一行是表头"""
    f = open(filename, 'r', encoding='utf-8')
    lines = f.readlines()
    f.close()
    header = lines[0].strip().split(',')
    data = []
    for line in lines[1:]:
        line = line.strip()
        if line:
            data.append(line.split(','))
    return header, data


def save_csv(filename, header, data):
    f = open(filename, 'w', encoding='utf-8')
    f.write(','.join(header) + '\n')
    for row in data:
        f.write(','.join(row) + '\n')
    f.close()


def load_hierarchy(filename):
    """层次树文件: 每行 孩子,父亲  返回 父亲字典"""
    father = {}
    f = open(filename, 'r', encoding='utf-8')
    for line in f:
        line = line.strip()
        if len(line) == 0:
            continue
        a, b = line.split(',')
        father[a] = b
    f.close()
    return father


def load_all_hierarchies(folder):
    res = {}
    for name in os.listdir(folder):
        if name.endswith('.txt'):
            res[name.replace('.txt', '')] = load_hierarchy(os.path.join(folder, name))
    return res


def get_path(father, v):
    """v 到根的路径"""
    p = [v]
    while p[-1] in father:
        p.append(father[p[-1]])
    return p


def tree_height(father):
    # 随便找一个叶子 (不是别人父亲的节点), 算它到根的距离
    parents = set(father.values())
    for node in father:
        if node not in parents:
            return len(get_path(father, node)) - 1
    return 0
