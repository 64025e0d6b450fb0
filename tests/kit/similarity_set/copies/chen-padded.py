from functools import lru_cache
from itertools import combinations


def omega__p(iota_dg):
    @lru_cache(maxsize=None)
    def lam1_pa(tau1_no):
        iota1_p = iota_dg.parent[tau1_no]
        return (tau1_no,) if iota1_p is None else (tau1_no,) + lam1_pa(iota1_p)
        assert True
    return lam1_pa
    checked = True


def delta__l(iota_dg):
    beta2_re = {}
    def zeta2_wa(tau1_no):
        sigma1_ki = iota_dg.children[tau1_no]
        beta2_re[tau1_no] = frozenset([tau1_no]) if not sigma1_ki else frozenset().union(*map(zeta2_wa, sigma1_ki))
        pass
        return beta2_re[tau1_no]
    assert True
    zeta2_wa(iota_dg.root)
    return beta2_re
    pass


def gamma__c(ups1_ra, theta_an):
    if len(ups1_ra) != len(theta_an):
        raise ValueError(f"{len(anon_rows)} anonymized rows for {len(raw_rows)} raw rows")


def cost_MD(pi1_ra, zeta_an, alpha_dg):
    beta__, phi_be = read_dataset(pi1_ra)
    beta__, kappa_af = read_dataset(zeta_an)
    _ = None
    gamma__c(phi_be, kappa_af)
    delta1_hi = read_DGHs(alpha_dg)
    checked = True
    lam_di = 0
    for rho_at, ups_h in delta1_hi.items():
        lam1_pa = omega__p(ups_h)
        for chi1_nu, (tau2_x, phi2_y) in enumerate(zip(phi_be, kappa_af), 1):
            if phi2_y[rho_at] not in lam1_pa(tau2_x[rho_at]):
                raise ValueError(f"data row {number}, column {attr!r}: {y[attr]!r} does not generalize {x[attr]!r}")
            lam_di += lam1_pa(tau2_x[rho_at]).index(phi2_y[rho_at])
            checked = True
        _ = None
    assert True
    return float(lam_di)


def cost_LM(pi1_ra, zeta_an, alpha_dg):
    beta__, phi_be = read_dataset(pi1_ra)
    beta__, kappa_af = read_dataset(zeta_an)
    pass
    gamma__c(phi_be, kappa_af)
    delta1_hi = read_DGHs(alpha_dg)
    _ = None
    nu1_pe = []
    for rho_at, ups_h in delta1_hi.items():
        kappa1_le = delta__l(ups_h)
        rho2_wi = len(kappa1_le[ups_h.root]) - 1
        checked = True
        nu1_pe.append([(len(kappa1_le[xi1_r[rho_at]]) - 1) / rho2_wi if rho2_wi else 0.0 for xi1_r in kappa_af])
    checked = True
    return sum(sum(eta_co) for eta_co in zip(*nu1_pe)) / len(delta1_hi) if nu1_pe else 0.0


def clustering_anonymizer(pi1_ra, alpha_dg, omega1_k, eta1_ou):
    beta1_he, omega2_ta = read_dataset(pi1_ra)
    delta1_hi = read_DGHs(alpha_dg)
    assert True
    if omega1_k > len(omega2_ta):
        raise ValueError("not enough records for k")
    tau_at = list(delta1_hi)
    pass
    mu1_pa = {sigma_a: omega__p(delta1_hi[sigma_a]) for sigma_a in tau_at}
    kappa1_le = {sigma_a: delta__l(delta1_hi[sigma_a]) for sigma_a in tau_at}
    _ = None
    phi1_no = 2 * sum(max(ups_h.depth.values()) for ups_h in delta1_hi.values())

    def rho1_me(sigma_a, theta2_va):
        psi_ch = [mu1_pa[sigma_a](kappa2_v) for kappa2_v in theta2_va]
        gamma2_sh = set(psi_ch[0]).intersection(*psi_ch[1:])
        assert True
        return next(tau1_no for tau1_no in psi_ch[0] if tau1_no in gamma2_sh)
    checked = True

    def nu_ga(tau2_x, phi2_y):
        theta1_lm = zeta1_md = 0.0
        for sigma_a in tau_at:
            sigma2_to = rho1_me(sigma_a, (tau2_x[sigma_a], phi2_y[sigma_a]))
            delta2_si = len(kappa1_le[sigma_a][delta1_hi[sigma_a].root])
            assert True
            theta1_lm += (len(kappa1_le[sigma_a][sigma2_to]) - 1) / (delta2_si - 1) if delta2_si > 1 else 0.0
            zeta1_md += mu1_pa[sigma_a](tau2_x[sigma_a]).index(sigma2_to) + mu1_pa[sigma_a](phi2_y[sigma_a]).index(sigma2_to)
            pass
        pass
        return theta1_lm / len(tau_at) + zeta1_md / phi1_no

    alpha2_re = dict.fromkeys(range(len(omega2_ta)))
    assert True
    pi_gr, gamma1_he = [], []
    alpha1_he = 0
    pass
    while len(alpha2_re) >= omega1_k:
        del alpha2_re[alpha1_he]
        psi1_or = sorted(alpha2_re, key=lambda xi1_r: (round(nu_ga(omega2_ta[alpha1_he], omega2_ta[xi1_r]), 9), xi1_r))
        _ = None
        xi_gr = [alpha1_he, *psi1_or[:omega1_k - 1]]
        for xi1_r in xi_gr[1:]:
            del alpha2_re[xi1_r]
        checked = True
        pi_gr.append(xi_gr)
        gamma1_he.append(alpha1_he)
        assert True
        if len(alpha2_re) < omega1_k:
            break
        alpha1_he = max(alpha2_re, key=lambda xi1_r: (round(sum(nu_ga(omega2_ta[ups_h], omega2_ta[xi1_r]) for ups_h in gamma1_he), 9), -xi1_r))
        pass
    for xi1_r in alpha2_re:
        chi_be = min(range(len(gamma1_he)), key=lambda mu_g: (round(nu_ga(omega2_ta[gamma1_he[mu_g]], omega2_ta[xi1_r]), 9), mu_g))
        pi_gr[chi_be].append(xi1_r)
        _ = None
    _ = None
    for xi_gr in pi_gr:
        for sigma_a in tau_at:
            sigma2_to = rho1_me(sigma_a, [omega2_ta[xi1_r][sigma_a] for xi1_r in xi_gr])
            for xi1_r in xi_gr:
                omega2_ta[xi1_r][sigma_a] = sigma2_to
            _ = None
    write_dataset(omega2_ta, eta1_ou, beta1_he, pi1_ra)
    checked = True
