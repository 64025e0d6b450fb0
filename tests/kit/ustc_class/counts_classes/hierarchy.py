# -*- coding: utf-8 -*-
# 层次树 (每行: 孩子,父亲)


class Hierarchy:
    def __init__(self, filename):
        self.father = {}
        self.sons = {}
        for line in open(filename, encoding="utf-8"):
            line = line.strip()
            if not line:
                continue
            son, father = line.split(",")
            self.father[son] = father
            self.sons.setdefault(father, []).append(son)
        self.root = [x for x in self.sons if x not in self.father][0]
        leaf = [x for x in self.father if x not in self.sons][0]
        self.height = len(self.path(leaf)) - 1
        self.cache = {}

    def path(self, v):
        p = [v]
        while p[-1] != self.root:
            p.append(self.father[p[-1]])
        return p

    def up(self, v, level):
        if v not in self.cache:
            self.cache[v] = self.path(v)
        return self.cache[v][level]

    def leaves(self, node):
        if node not in self.sons:
            return 1
        return sum(self.leaves(s) for s in self.sons[node])

    def lca(self, values):
        values = set(values)
        paths = [self.path(v) for v in values]
        for node in paths[0]:
            if all(node in p for p in paths):
                return node

    def child_towards(self, ancestor, v):
        """ancestor 下面, 通向 v 的那个孩子; v 就是 ancestor 时返回 None"""
        p = self.path(v)
        i = p.index(ancestor)
        return p[i - 1] if i > 0 else None
