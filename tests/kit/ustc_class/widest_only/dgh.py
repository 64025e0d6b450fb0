# -*- coding: utf-8 -*-
# 数据隐私实验一 —— 泛化层次树 (DGH) 的读取和查询
# 文件格式: 每行一个 "child,parent"，根节点就是从来没有作为 child 出现过的那个节点

import os


class DGH:
    def __init__(self, path):
        self.name = os.path.basename(path)[:-4]   # 文件名去掉 .txt 就是列名
        self.parent = {}
        self.children = {}
        with open(path, 'r', encoding='utf-8') as f:
            for line in f:
                line = line.strip()
                if line == '':
                    continue
                child, parent = line.split(',')
                self.parent[child] = parent
                self.children.setdefault(parent, []).append(child)
        nodes = set(self.parent.keys()) | set(self.parent.values())
        roots = [x for x in nodes if x not in self.parent]
        if len(roots) != 1:
            raise ValueError(path + ': 根节点不唯一 ' + str(roots))
        self.root = roots[0]
        self.leaves = [x for x in nodes if x not in self.children]
        # 叶子到根的路径长度就是树高（实验给的树都是平衡的）
        self.height = len(self.path(self.leaves[0])) - 1
        self._path_cache = {}
        self._leaf_num = {}

    def path(self, value):
        """从 value 一直走到根，返回路径 [value, parent, ..., root]"""
        res = [value]
        while res[-1] in self.parent:
            res.append(self.parent[res[-1]])
        return res

    def generalize(self, value, level):
        """把 value 往上泛化 level 层"""
        if value not in self._path_cache:
            self._path_cache[value] = self.path(value)
        return self._path_cache[value][level]

    def leaf_num(self, node):
        """node 下面叶子的个数 (算 LM 和 Mondrian 的宽度要用)"""
        if node not in self._leaf_num:
            if node not in self.children:
                self._leaf_num[node] = 1
            else:
                self._leaf_num[node] = sum(self.leaf_num(c) for c in self.children[node])
        return self._leaf_num[node]

    def lca(self, values):
        """最近公共祖先"""
        common = None
        for v in set(values):
            p = self.path(v)
            if common is None:
                common = p
            else:
                common = [x for x in common if x in p]
        return common[0]


def read_dghs(folder):
    """读入文件夹里所有的 .txt，返回 {列名: DGH}"""
    dghs = {}
    for fn in os.listdir(folder):
        if fn.endswith('.txt'):
            d = DGH(os.path.join(folder, fn))
            dghs[d.name] = d
    return dghs
