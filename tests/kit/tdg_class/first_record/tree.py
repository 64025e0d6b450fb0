# -*- coding: utf-8 -*-
"""泛化层次树 (';' 分隔的层次文件, 一行是 叶子;父结点;...;根)"""


class Node:
    def __init__(self, name, father=None):
        self.name = name
        self.father = father
        self.children = []
        self.depth = 0 if father is None else father.depth + 1
        self.n_leaves = 0
        if father is not None:
            father.children.append(self)

    def is_leaf(self):
        return len(self.children) == 0


class Tree:
    def __init__(self, filename):
        self.nodes = {}
        self.root = None
        with open(filename, encoding='utf-8') as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                names = [s.strip() for s in line.split(';')][::-1]   # 根 -> 叶子
                if self.root is None:
                    self.root = Node(names[0])
                    self.nodes[names[0]] = self.root
                father = self.root
                for name in names[1:]:
                    if name not in self.nodes:
                        self.nodes[name] = Node(name, father)
                    father = self.nodes[name]
        self._count(self.root)
        self._lca = {}

    def _count(self, node):
        if node.is_leaf():
            node.n_leaves = 1
        else:
            node.n_leaves = sum(self._count(c) for c in node.children)
        return node.n_leaves

    def ncp(self, name):
        """叶子是 0, 其他结点是 叶子数 / 总叶子数"""
        node = self.nodes[name]
        if node.is_leaf():
            return 0.0
        return node.n_leaves / self.root.n_leaves

    def covers(self, general, value):
        """general 是不是 value 自己或者它的祖先"""
        if general not in self.nodes or value not in self.nodes:
            return False
        node = self.nodes[value]
        while node is not None:
            if node.name == general:
                return True
            node = node.father
        return False

    def lca(self, a, b):
        if a == b:
            return a
        key = (a, b) if a < b else (b, a)
        if key not in self._lca:
            x, y = self.nodes[a], self.nodes[b]
            while x.depth > y.depth:
                x = x.father
            while y.depth > x.depth:
                y = y.father
            while x is not y:
                x, y = x.father, y.father
            self._lca[key] = x.name
        return self._lca[key]
