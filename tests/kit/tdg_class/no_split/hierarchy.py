# -*- coding: utf-8 -*-
# 泛化层次 (DGH) 和数值区间
import os


class DGH:
    """一个分类属性的层次: 文件每行 叶子;父结点;...;根"""

    def __init__(self, path):
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.father = {}
        self.size = {}          # 结点下面的叶子个数
        self.leaves = set()
        self.root = None
        with open(path, encoding='utf-8') as f:
            for line in f:
                if not line.strip():
                    continue
                chain = [x.strip() for x in line.split(';')]
                self.leaves.add(chain[0])
                self.root = chain[-1]
                for i in range(len(chain) - 1):
                    self.father[chain[i]] = chain[i + 1]
                for x in chain:
                    self.size[x] = self.size.get(x, 0) + 1

    def up(self, x):
        path = [x]
        while path[-1] in self.father:
            path.append(self.father[path[-1]])
        return path

    def lca(self, a, b):
        if a == b:
            return a
        pb = self.up(b)
        for x in self.up(a):
            if x in pb:
                return x
        return self.root

    def cost(self, node):
        return 0.0 if node in self.leaves else self.size[node] / self.size[self.root]


class Range:
    """数值区间 [low, high]"""

    def __init__(self, low, high):
        self.low = low
        self.high = high

    def join(self, v):
        return Range(min(self.low, v), max(self.high, v))

    def width(self):
        return self.high - self.low

    def __str__(self):
        if self.low == self.high:
            return str(self.low)
        return '[%d-%d]' % (self.low, self.high)


def load_dghs(folder):
    res = {}
    for f in os.listdir(folder):
        if f.endswith('.txt'):
            d = DGH(os.path.join(folder, f))
            res[d.name] = d
    return res
