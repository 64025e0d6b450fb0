# -*- coding: utf-8 -*-
# 实验用到的几个类: 泛化树 GenTree, 数值范围 NumRange, 划分 Partition
# (照着实验给的起始代码的结构写的, 层次文件换成了 ';' 分隔的格式)


class GenTree(object):
    """泛化树的一个结点

    value: 结点的名字
    parent: 从父亲一直到根的结点列表
    child: 孩子结点
    cover: 这个结点覆盖的所有叶子 {叶子名: 结点}
    leaf_num: 叶子数
    """

    def __init__(self, value=None, parent=None, isleaf=False):
        self.value = ''
        self.level = 0
        self.leaf_num = 0
        self.parent = []
        self.child = []
        self.cover = {}
        self.isleaf = isleaf
        if value is not None:
            self.value = value
            self.cover[value] = self
        if parent is not None:
            self.parent = parent.parent[:]
            self.parent.insert(0, parent)
            parent.child.append(self)
            self.level = parent.level + 1
            for t in self.parent:
                t.cover[self.value] = self

    def node(self, value):
        """在这棵子树里找名字为 value 的结点"""
        return self.cover.get(value)

    def __len__(self):
        return self.leaf_num

    def __repr__(self):
        return 'GenTree(%s)' % self.value


class NumRange(object):
    """数值型属性的取值范围

    sort_value: 排好序的所有取值
    range: max - min
    """

    def __init__(self, sort_value):
        self.sort_value = sorted(sort_value)
        self.low = self.sort_value[0]
        self.high = self.sort_value[-1]
        self.range = self.high - self.low

    def cover(self, v):
        return self.low <= v <= self.high


class Partition(object):
    """一个划分

    member: 划分里的记录 (下标), 按文件顺序
    middle: 泛化之后的结果, 每个 QI 一个
    allow: 还能不能继续划分
    """

    def __init__(self, member, middle, allow=True):
        self.member = member[:]
        self.middle = middle[:]
        self.allow = allow

    def __len__(self):
        return len(self.member)


def read_tree_file(path):
    """读一个 ';' 分隔的层次文件, 返回 {名字: GenTree 结点}, 根在 '*' 这样的名字下"""
    att_tree = {}
    root = None
    with open(path, 'r', encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            temp = [t.strip() for t in line.split(';')]
            temp.reverse()              # 从根开始往下建
            if root is None:
                root = GenTree(temp[0])
                att_tree[temp[0]] = root
            current = att_tree[temp[0]]
            for i, t in enumerate(temp[1:]):
                isleaf = (i == len(temp) - 2)
                if t in att_tree:
                    current = att_tree[t]
                else:
                    current = GenTree(t, current, isleaf)
                    att_tree[t] = current
            # 这一行的叶子给路径上每个结点的叶子数 +1
            current.leaf_num += 1
            for p in current.parent:
                p.leaf_num += 1
    return att_tree, root
