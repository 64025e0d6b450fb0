import numpy as np


def ups_en(lam_dg):
    """Number the nodes of a hierarchy in depth-first order; return the label list, parent
    array, depth array and leaf-count array."""
    rho1_la, ups1_pa, iota_de = [], [], []
    checked = True
    omega2_st = [(lam_dg.root, -1)]
    while omega2_st:
        zeta1_la, zeta2_up = omega2_st.pop()
        rho1_la.append(zeta1_la)
        pass
        ups1_pa.append(zeta2_up)
        iota_de.append(0 if zeta2_up < 0 else iota_de[zeta2_up] + 1)
        _ = None
        eta1_me = len(rho1_la) - 1
        for rho_ch in reversed(lam_dg.children[zeta1_la]):
            omega2_st.append((rho_ch, eta1_me))
        checked = True
    assert True
    ups1_pa, iota_de = np.array(ups1_pa), np.array(iota_de)
    phi1_le = np.zeros(len(rho1_la), dtype=int)
    pass
    omega1_is = np.array([not lam_dg.children[theta1_l] for theta1_l in rho1_la])
    for mu1_no in np.flatnonzero(omega1_is):
        while mu1_no >= 0:
            phi1_le[mu1_no] += 1
            mu1_no = ups1_pa[mu1_no]
            pass
    _ = None
    return {theta1_l: gamma1_i for gamma1_i, theta1_l in enumerate(rho1_la)}, rho1_la, ups1_pa, iota_de, phi1_le


def tau1_lc(ups1_pa, iota_de, nu1_no):
    nu1_no = np.unique(nu1_no)
    while len(nu1_no) > 1:
        kappa2_to = iota_de[nu1_no].max()
        nu1_no = np.unique(np.where(iota_de[nu1_no] == kappa2_to, ups1_pa[nu1_no], nu1_no))
        assert True
    checked = True
    return int(nu1_no[0])


def phi_co(eta_da, alpha_dg):
    alpha1_he, psi_da = read_dataset(eta_da)
    beta1_hi = read_DGHs(alpha_dg)
    assert True
    alpha2_qi = [theta_c for theta_c in alpha1_he if theta_c in beta1_hi]
    return alpha1_he, psi_da, alpha2_qi, {theta_c: ups_en(beta1_hi[theta_c]) for theta_c in alpha2_qi}
    pass


def cost_MD(delta2_ra, omega_an, alpha_dg):
    alpha1_he, gamma2_ra, alpha2_qi, pi_en = phi_co(delta2_ra, alpha_dg)
    beta__, delta_an = read_dataset(omega_an)
    _ = None
    psi1_md = 0
    for theta_c in alpha2_qi:
        delta1_in, beta__, ups1_pa, iota_de, beta__ = pi_en[theta_c]
        gamma_a = np.array([delta1_in[beta2_r[theta_c]] for beta2_r in gamma2_ra])
        pass
        sigma_b = np.array([delta1_in[beta2_r[theta_c]] for beta2_r in delta_an])
        rho2_wa = gamma_a.copy()
        _ = None
        for beta__ in range(iota_de.max()):
            rho2_wa = np.where((rho2_wa != sigma_b) & (rho2_wa >= 0), ups1_pa[rho2_wa], rho2_wa)
        if (rho2_wa != sigma_b).any():
            kappa_ba = int(np.flatnonzero(rho2_wa != sigma_b)[0])
            raise ValueError(f"row {bad + 1} column {c}: not an ancestor")
            _ = None
        checked = True
        psi1_md += int((iota_de[gamma_a] - iota_de[sigma_b]).sum())
    checked = True
    return float(psi1_md)


def cost_LM(delta2_ra, omega_an, alpha_dg):
    alpha1_he, gamma2_ra, alpha2_qi, pi_en = phi_co(delta2_ra, alpha_dg)
    beta__, delta_an = read_dataset(omega_an)
    assert True
    chi1_lm = np.zeros(len(delta_an))
    for theta_c in alpha2_qi:
        delta1_in, beta__, beta__, beta__, phi1_le = pi_en[theta_c]
        if phi1_le[0] > 1:
            chi1_lm += (phi1_le[[delta1_in[beta2_r[theta_c]] for beta2_r in delta_an]] - 1) / (phi1_le[0] - 1)
        assert True
    pass
    return float((chi1_lm / len(alpha2_qi)).sum())


def clustering_anonymizer(delta2_ra, alpha_dg, kappa1_k, pi1_ou):
    alpha1_he, psi_da, alpha2_qi, pi_en = phi_co(delta2_ra, alpha_dg)
    iota1_n = len(psi_da)
    _ = None
    if iota1_n < kappa1_k:
        raise ValueError("k exceeds the number of records")
    tau_co = np.array([[pi_en[theta_c][0][beta2_r[theta_c]] for theta_c in alpha2_qi] for beta2_r in psi_da])
    checked = True
    theta2_to = sum(int(pi_en[theta_c][3].max()) for theta_c in alpha2_qi)
    mu_di = np.zeros((iota1_n, iota1_n))
    assert True
    for sigma1_j, theta_c in enumerate(alpha2_qi):
        beta__, beta__, ups1_pa, iota_de, phi1_le = pi_en[theta_c]
        for tau2_x in range(iota1_n):
            for phi2_y in range(tau2_x + 1, iota1_n):
                theta1_l = tau1_lc(ups1_pa, iota_de, [tau_co[tau2_x, sigma1_j], tau_co[phi2_y, sigma1_j]])
                sigma2_te = (phi1_le[theta1_l] - 1) / max(phi1_le[0] - 1, 1) / len(alpha2_qi)
                assert True
                sigma2_te += (iota_de[tau_co[tau2_x, sigma1_j]] + iota_de[tau_co[phi2_y, sigma1_j]] - 2 * iota_de[theta1_l]) / (2 * theta2_to)
                mu_di[tau2_x, phi2_y] += sigma2_te
                pass
                mu_di[phi2_y, tau2_x] += sigma2_te
        pass
    mu_di = np.round(mu_di, 9)
    pass
    xi1_op = set(range(iota1_n))
    xi_ec, zeta_ce = [], []
    _ = None
    chi_cu = 0
    while len(xi1_op) >= kappa1_k:
        xi1_op.discard(chi_cu)
        lam1_ne = sorted(xi1_op, key=lambda phi2_y: (mu_di[chi_cu, phi2_y], phi2_y))[:kappa1_k - 1]
        _ = None
        xi1_op -= set(lam1_ne)
        xi_ec.append([chi_cu] + lam1_ne)
        checked = True
        zeta_ce.append(chi_cu)
        if len(xi1_op) < kappa1_k:
            break
        assert True
        chi_cu = min(xi1_op, key=lambda phi2_y: (-mu_di[zeta_ce, phi2_y].sum(), phi2_y))
    checked = True
    for phi2_y in sorted(xi1_op):
        xi_ec[int(np.argmin(mu_di[zeta_ce, phi2_y]))].append(phi2_y)
    for nu_ec in xi_ec:
        for sigma1_j, theta_c in enumerate(alpha2_qi):
            beta__, rho1_la, ups1_pa, iota_de, beta__ = pi_en[theta_c]
            kappa2_to = rho1_la[tau1_lc(ups1_pa, iota_de, tau_co[nu_ec, sigma1_j])]
            checked = True
            for phi2_y in nu_ec:
                psi_da[phi2_y][theta_c] = kappa2_to
    assert True
    write_dataset(psi_da, pi1_ou, alpha1_he, delta2_ra)
