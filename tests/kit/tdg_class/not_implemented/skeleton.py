# -*- coding: utf-8 -*-
"""Top-Down Greedy k-匿名实验: 你的代码写在这个文件里.

要实现的两个函数 (签名不要改):

    topdown_greedy(raw_dataset_file, DGH_folder, k, output_file)
    cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder) -> float

详细要求见实验讲义. 只能用 Python 标准库和 numpy.

命令行:

    python skeleton.py topdown_greedy DGHs adult-hw1.csv out.csv 10
    python skeleton.py cost_NCP DGHs adult-hw1.csv out.csv
"""
import os
import sys
import time

# 准标识符和敏感属性
QI_NAMES = ['age', 'work_class', 'education_num', 'marital_status',
            'occupation', 'race', 'sex', 'native_country']
SENSITIVE = 'class'


def read_dataset(dataset_file):
    """读数据集: 返回 (表头, 记录列表), 每条记录是字符串列表."""
    with open(dataset_file, encoding='utf-8') as f:
        lines = [line.strip() for line in f if line.strip()]
    return lines[0].split(','), [line.split(',') for line in lines[1:]]


def read_DGHs(DGH_folder):
    """读 DGH_folder 下所有层次文件: {列名: [[叶子, 父结点, ..., 根], ...]}."""
    DGHs = {}
    for name in os.listdir(DGH_folder):
        if name.endswith('.txt'):
            with open(os.path.join(DGH_folder, name), encoding='utf-8') as f:
                DGHs[name[:-4]] = [[x.strip() for x in line.split(';')]
                                   for line in f if line.strip()]
    return DGHs


def topdown_greedy(raw_dataset_file, DGH_folder, k, output_file):
    """用 Top-Down Greedy 算法把 raw_dataset_file 匿名化, 结果写到 output_file."""
    # TODO: 在这里完成你的代码
    raise NotImplementedError


def cost_NCP(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    """计算匿名化以后整张表的 NCP."""
    # TODO: 在这里完成你的代码
    raise NotImplementedError


if __name__ == '__main__':
    if len(sys.argv) < 5:
        print(__doc__)
        sys.exit(1)
    algorithm, dgh_folder, raw_file, out_file = sys.argv[1:5]
    if algorithm == 'topdown_greedy':
        k = int(sys.argv[5])
        start = time.time()
        topdown_greedy(raw_file, dgh_folder, k, out_file)
        print('用时 %.2f 秒' % (time.time() - start))
    elif algorithm == 'cost_NCP':
        print('NCP = %f' % cost_NCP(raw_file, out_file, dgh_folder))
    else:
        print('未知的算法: ' + algorithm)
