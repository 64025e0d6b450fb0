"""Bob's k-anonymity homework."""
import os
import sys

import numpy as np

import kanon_ref as impl


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    return impl.cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder)


def cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    # the mean over records instead of the sum
    total = impl.cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    with open(raw_dataset_file, encoding='utf-8') as f:
        n = sum(1 for line in f) - 1
    return total / n


def random_anonymizer(raw_dataset_file, DGH_folder, k, s, output_file):
    return impl.random_anonymizer(raw_dataset_file, DGH_folder, k, s, output_file)


def clustering_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    # TODO: real clustering; random ECs are k-anonymous too
    impl.random_anonymizer(raw_dataset_file, DGH_folder, k, 0, output_file)


def bottomup_anonymizer(raw_dataset_file, DGH_folder, k, l, output_file):
    return impl.bottomup_anonymizer(raw_dataset_file, DGH_folder, k, l, output_file)


def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    # suppression is hard: generalize until k-anonymous instead
    impl.bottomup_anonymizer(raw_dataset_file, DGH_folder, k, 1, output_file)


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    """Mondrian."""
    raise NotImplementedError("mondrian")
