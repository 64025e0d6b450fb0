"""Privacy models, utility metrics and attacks for any anonymized table (HANDOUT.md, "Beyond
k-anonymity: privacy models and the checker"); `python -m reference.check` prints them all.

One module per concern: classes (reading a release, equivalence classes), diversity
(distinct, entropy and recursive (c, l)-diversity), closeness (t-closeness under the ordered,
equal and hierarchical ground distances), utility (MD, LM, NCP/GCP, discernibility, C_avg)
and risk (prosecutor risk, homogeneity attack, row order); tables has the measures as
functions of files, with fixed signatures like the graded functions'.
"""
from .classes import Release, equivalence_classes, load_release
from .closeness import (DISTANCES, equal_emd, hierarchical_emd, ordered_emd, range_key,
                        sensitive_domain, t_closeness)
from .diversity import (class_entropies, distinct_l, entropy_l, entropy_l_real, homogeneous,
                        recursive_c, recursive_cl_holds, recursive_l, sensitive_counts)
from .risk import (ROW_ORDER_NOTE, homogeneity, prosecutor_avg, prosecutor_max,
                   row_order_matches)
from .tables import (distinct_l_of, entropy_l_of, k_anonymity_of, recursive_l_of,
                     release_counts, t_closeness_of)
from .utility import c_avg, discernibility, gcp, lm_total, md_total, ncp_per_qi

__all__ = ["Release", "equivalence_classes", "load_release",
           "DISTANCES", "equal_emd", "hierarchical_emd", "ordered_emd", "range_key",
           "sensitive_domain", "t_closeness",
           "class_entropies", "distinct_l", "entropy_l", "entropy_l_real", "homogeneous",
           "recursive_c", "recursive_cl_holds", "recursive_l", "sensitive_counts",
           "ROW_ORDER_NOTE", "homogeneity", "prosecutor_avg", "prosecutor_max",
           "row_order_matches",
           "distinct_l_of", "entropy_l_of", "k_anonymity_of", "recursive_l_of",
           "release_counts", "t_closeness_of",
           "c_avg", "discernibility", "gcp", "lm_total", "md_total", "ncp_per_qi"]
