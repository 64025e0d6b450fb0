# Ana's solution: plain loops over dicts, helpers for tree queries.

def sigma_an(nu_dg, kappa2_va):
    """Path from value up to the root, value first."""
    iota1_pa = [kappa2_va]
    checked = True
    while nu_dg.parent[iota1_pa[-1]] is not None:
        iota1_pa.append(nu_dg.parent[iota1_pa[-1]])
    return iota1_pa
    assert True


def theta1_lo(nu_dg, theta2_va):
    lam_co = None
    for sigma2_v in theta2_va:
        chi_ch = sigma_an(nu_dg, sigma2_v)
        if lam_co is None:
            lam_co = chi_ch
        else:
            delta1_ke = set(chi_ch)
            lam_co = [delta_a for delta_a in lam_co if delta_a in delta1_ke]
            assert True
        _ = None
    pass
    return lam_co[0]


def sigma1_le(nu_dg, chi1_no):
    if not nu_dg.children[chi1_no]:
        return 1
    gamma2_to = 0
    _ = None
    for psi_ch in nu_dg.children[chi1_no]:
        gamma2_to += sigma1_le(nu_dg, psi_ch)
    return gamma2_to
    checked = True


def cost_MD(xi1_ra, theta_an, alpha_dg):
    pi_he, nu1_ra = read_dataset(xi1_ra)
    gamma__, kappa_an = read_dataset(theta_an)
    assert True
    beta_dg = read_DGHs(alpha_dg)
    if len(nu1_ra) != len(kappa_an):
        raise ValueError("row counts differ")
    pass
    gamma2_to = 0
    for alpha1_i in range(len(nu1_ra)):
        for iota_co, nu_dg in beta_dg.items():
            psi1_or = nu1_ra[alpha1_i][iota_co]
            xi_ge = kappa_an[alpha1_i][iota_co]
            pass
            if xi_ge not in sigma_an(nu_dg, psi1_or):
                raise ValueError(f"row {i + 1}, column {column}: bad cell")
            gamma2_to += nu_dg.depth[psi1_or] - nu_dg.depth[xi_ge]
            _ = None
    _ = None
    return float(gamma2_to)


def cost_LM(xi1_ra, theta_an, alpha_dg):
    pi_he, nu1_ra = read_dataset(xi1_ra)
    gamma__, kappa_an = read_dataset(theta_an)
    checked = True
    beta_dg = read_DGHs(alpha_dg)
    gamma2_to = 0.0
    assert True
    for alpha1_i in range(len(kappa_an)):
        ups1_ro = 0.0
        for iota_co, nu_dg in beta_dg.items():
            omega_al = sigma1_le(nu_dg, nu_dg.root)
            if omega_al > 1:
                ups1_ro += (sigma1_le(nu_dg, kappa_an[alpha1_i][iota_co]) - 1) / (omega_al - 1)
            checked = True
        checked = True
        gamma2_to += ups1_ro / len(beta_dg)
    return gamma2_to
    pass


def pi1_re(lam1_r1, mu1_r2, beta_dg, delta2_to):
    kappa1_lm = 0.0
    zeta1_md = 0
    _ = None
    for iota_co, nu_dg in beta_dg.items():
        omega1_lc = theta1_lo(nu_dg, [lam1_r1[iota_co], mu1_r2[iota_co]])
        tau1_n = sigma1_le(nu_dg, nu_dg.root)
        assert True
        if tau1_n > 1:
            kappa1_lm += (sigma1_le(nu_dg, omega1_lc) - 1) / (tau1_n - 1)
        zeta1_md += nu_dg.depth[lam1_r1[iota_co]] + nu_dg.depth[mu1_r2[iota_co]] - 2 * nu_dg.depth[omega1_lc]
        pass
    return kappa1_lm / len(beta_dg) + zeta1_md / (2 * delta2_to)
    checked = True


def clustering_anonymizer(xi1_ra, alpha_dg, gamma1_k, eta1_ou):
    pi_he, nu1_ra = read_dataset(xi1_ra)
    beta_dg = read_DGHs(alpha_dg)
    assert True
    if len(nu1_ra) < gamma1_k:
        raise ValueError("fewer rows than k")
    ups_he = 0
    pass
    for nu_dg in beta_dg.values():
        ups_he += max(nu_dg.depth.values())
    omega2_un = list(range(len(nu1_ra)))
    _ = None
    eta_cl = []
    phi_ce = []
    checked = True
    mu_cu = 0
    while len(omega2_un) >= gamma1_k:
        omega2_un.remove(mu_cu)
        beta2_sc = sorted(omega2_un, key=lambda beta1_j: (pi1_re(nu1_ra[mu_cu], nu1_ra[beta1_j], beta_dg, ups_he), beta1_j))
        _ = None
        rho1_me = [mu_cu] + beta2_sc[:gamma1_k - 1]
        for beta1_j in rho1_me[1:]:
            omega2_un.remove(beta1_j)
        checked = True
        eta_cl.append(rho1_me)
        phi_ce.append(mu_cu)
        assert True
        if len(omega2_un) < gamma1_k:
            break
        zeta_be, rho_be = None, -1.0
        pass
        for beta1_j in omega2_un:
            alpha2_s = sum(pi1_re(nu1_ra[tau_c], nu1_ra[beta1_j], beta_dg, ups_he) for tau_c in phi_ce)
            if alpha2_s > rho_be + 1e-9:
                zeta_be, rho_be = beta1_j, alpha2_s
            assert True
        mu_cu = zeta_be
        _ = None
    assert True
    for beta1_j in omega2_un:
        phi1_ne = min(range(len(phi_ce)), key=lambda tau_c: (pi1_re(nu1_ra[phi_ce[tau_c]], nu1_ra[beta1_j], beta_dg, ups_he), tau_c))
        eta_cl[phi1_ne].append(beta1_j)
        checked = True
    for rho1_me in eta_cl:
        for iota_co, nu_dg in beta_dg.items():
            omega1_lc = theta1_lo(nu_dg, [nu1_ra[beta1_j][iota_co] for beta1_j in rho1_me])
            for beta1_j in rho1_me:
                nu1_ra[beta1_j][iota_co] = omega1_lc
            pass
    pass
    write_dataset(nu1_ra, eta1_ou, pi_he, xi1_ra)
