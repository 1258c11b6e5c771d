"""Privacy calibration of Private-Fair-Greedy (``an2025privatefairgreedy``, Sections 4.1 and 4.2).

The noise of the tree-based private regression and of the private rank step as printed, the zCDP
and exact (epsilon, delta) it delivers (Gaussian accounting through :mod:`privbandits.mechanisms`),
and the noise scale that spends exactly a target (``calibration="tight"``).
"""

from __future__ import annotations

import functools
import math

from ...mechanisms import (
    approx_dp_to_zcdp,
    gaussian_composition_epsilon,
    gaussian_composition_multiplier,
    gaussian_noise_multiplier,
    zcdp_to_approx_dp,
)
from ..base import Choice

__all__ = [
    "CALIBRATIONS",
    "TREE_BUDGETS",
    "tree_levels",
    "tree_sigma",
    "tree_gamma",
    "tree_rho",
    "tree_mu",
    "rank_mu",
    "rank_sigma",
    "split_budget",
    "tight_noise_scale",
    "noise_scale",
    "privacy_guarantee",
    "budget_table",
]

#: ``"printed"`` (the noise of Sections 4.1-4.2 as printed) or ``"tight"`` (scaled to spend exactly the target)
CALIBRATIONS = ("printed", "tight")
#: The regression tree's budget: the regression's share (Algorithm 1, line 1) or the total (the authors' code's)
TREE_BUDGETS = ("share", "total")


def tree_levels(horizon: int) -> int:
    """m = 1 + ceil(log2(T/2)): nodes combined into one prefix sum (``an2025privatefairgreedy``, Section 4.1).

    Parameters
    ----------
    horizon : int
        The horizon ``T``.

    Returns
    -------
    int
        ``m`` (at least 1).
    """
    return 1 + max(0, math.ceil(math.log2(max(horizon / 2, 1))))


def tree_sigma(epsilon_reg: float, delta_reg: float, horizon: int, l_tilde: float) -> float:
    """sigma_noise = sqrt(16 m L^4 ln(4/delta_reg)^2 / eps_reg^2), the tree's node noise (Section 4.1, as printed).

    What it delivers is :func:`tree_rho` (zCDP).

    Parameters
    ----------
    epsilon_reg : float
        The regression's epsilon (> 0).
    delta_reg : float
        The regression's delta, in (0, 1).
    horizon : int
        The horizon ``T`` (sets ``m``, :func:`tree_levels`).
    l_tilde : float
        The bound ``L-tilde`` on the leaf vector ``[x, y]``.

    Returns
    -------
    float
    """
    m = tree_levels(horizon)
    return math.sqrt(16 * m * l_tilde**4 * math.log(4 / delta_reg) ** 2 / epsilon_reg**2)


def tree_gamma(sigma_noise: float, horizon: int, dim: int) -> float:
    """Gamma = sigma_noise sqrt(2m) (4 sqrt(dim) + 2 ln(2T)), the Section 4.1 bound on the tree noise's norm.

    The noisy Gram matrix is shifted by 2 Gamma I so that it stays positive definite. Section 4.1 of
    ``an2025privatefairgreedy`` prints ``4 sqrt(d)``; the package passes ``dim = d + 1``, the size of
    the noise matrices (one row per entry of ``[x y]``), a correction of the printed bound.

    Parameters
    ----------
    sigma_noise : float
        The node noise (:func:`tree_sigma`).
    horizon : int
        The horizon ``T``.
    dim : int
        The dimension of the noise matrices (``d + 1`` for contexts of dimension ``d``).

    Returns
    -------
    float
    """
    m = tree_levels(horizon)
    return sigma_noise * math.sqrt(2 * m) * (4 * math.sqrt(dim) + 2 * math.log(2 * horizon))


def rank_sigma(n_t: int, horizon: int, rho: float) -> float:
    """sigma_t = sqrt(T / (2 N_t^2 rho_rank)), the noise of one private rank release (Section 4.2).

    Each of the ``T`` releases is ``(rho_rank / T)``-zCDP, so together they are ``rho_rank``-zCDP.

    Parameters
    ----------
    n_t : int
        ``N_t``, the number of past candidates of the group the rank is computed over.
    horizon : int
        The horizon ``T``.
    rho : float
        ``rho_rank`` (> 0).

    Returns
    -------
    float
    """
    return math.sqrt(horizon / (2 * n_t**2 * rho))


def tree_rho(epsilon_reg: float, delta_reg: float) -> float:
    """zCDP actually delivered by the Section 4.1 calibration (our computation, not the paper's).

    ``rho = eps_reg^2 / (32 ln(4/delta_reg)^2)``, free of ``m`` and ``L``.

    Parameters
    ----------
    epsilon_reg : float
        The regression's epsilon (> 0).
    delta_reg : float
        The regression's delta, in (0, 1).

    Returns
    -------
    float
    """
    return epsilon_reg**2 / (32 * math.log(4 / delta_reg) ** 2)


def tree_mu(epsilon_reg: float, delta_reg: float) -> float:
    """The regression tree as one Gaussian mechanism: ``mu = sqrt(2 rho) = eps_reg / (4 ln(4/delta_reg))``.

    Parameters
    ----------
    epsilon_reg, delta_reg : float
        As for :func:`tree_rho`.

    Returns
    -------
    float
        ``mu`` (the tree is ``mu``-GDP).
    """
    return math.sqrt(2 * tree_rho(epsilon_reg, delta_reg))


def rank_mu(epsilon_rank: float, delta_rank: float) -> float:
    """The rank step as one Gaussian mechanism: ``mu = sqrt(2 rho_rank)`` (Section 4.2).

    ``rho_rank = approx_dp_to_zcdp(eps_rank, delta_rank)``, the paper's conversion.

    Parameters
    ----------
    epsilon_rank : float
        The rank step's epsilon (> 0).
    delta_rank : float
        The rank step's delta, in (0, 1).

    Returns
    -------
    float
        ``mu`` (the rank step is ``mu``-GDP).
    """
    return math.sqrt(2 * approx_dp_to_zcdp(epsilon_rank, delta_rank))


def split_budget(
    epsilon: float, delta: float, alpha_eps: float, alpha_delta: float
) -> tuple[float, float, float, float]:
    """Algorithm 1, line 1 of ``an2025privatefairgreedy`` (with the minus sign the extraction loses).

    Parameters
    ----------
    epsilon, delta : float
        The target of the whole algorithm.
    alpha_eps, alpha_delta : float
        The shares of epsilon and delta given to the regression.

    Returns
    -------
    tuple of float
        ``(eps_reg, delta_reg, eps_rank, delta_rank)``, ``eps_reg = alpha_eps epsilon``,
        ``eps_rank = epsilon - eps_reg``, likewise for delta.
    """
    eps_reg, delta_reg = alpha_eps * epsilon, alpha_delta * delta
    return eps_reg, delta_reg, epsilon - eps_reg, delta - delta_reg


@functools.lru_cache(maxsize=256)
def tight_noise_scale(epsilon: float, delta: float, alpha_eps: float, alpha_delta: float) -> float:
    """Factor ``c`` by which ``calibration="tight"`` multiplies both noise standard deviations.

    ``c = s* / s``: ``s`` the noise multiplier of the printed calibration as one Gaussian mechanism
    (:func:`tree_mu`, :func:`rank_mu`), ``s*`` the smallest one that is exactly (epsilon, delta)-DP.
    ``c < 1`` means the printed noise exceeds what its target needs.

    Parameters
    ----------
    epsilon, delta, alpha_eps, alpha_delta : float
        As for :func:`privacy_guarantee`.

    Returns
    -------
    float
    """
    eps_reg, delta_reg, eps_rank, delta_rank = split_budget(epsilon, delta, alpha_eps, alpha_delta)
    s = gaussian_composition_multiplier([1 / tree_mu(eps_reg, delta_reg), 1 / rank_mu(eps_rank, delta_rank)])
    return gaussian_noise_multiplier(epsilon, delta) / s


def noise_scale(epsilon: float, delta: float, alpha_eps: float, alpha_delta: float, calibration: str) -> float:
    """The factor on the printed noise of both steps: 1 (``"printed"``) or :func:`tight_noise_scale` (``"tight"``).

    Parameters
    ----------
    epsilon, delta, alpha_eps, alpha_delta : float
        As for :func:`privacy_guarantee`.
    calibration : {"printed", "tight"}

    Returns
    -------
    float
    """
    if check_calibration(calibration) == "printed":
        return 1.0
    return tight_noise_scale(epsilon, delta, alpha_eps, alpha_delta)


def privacy_guarantee(
    epsilon: float,
    delta: float,
    alpha_eps: float,
    alpha_delta: float,
    *,
    calibration: str = "printed",
    tree_budget: str = "share",
    accountant: str = "analytic",
) -> dict[str, float]:
    """What the calibrated noise actually guarantees, tight and loose.

    Parameters
    ----------
    epsilon, delta : float
        The target of the whole algorithm.
    alpha_eps, alpha_delta : float
        The shares given to the regression (:func:`split_budget`).
    calibration : {"printed", "tight"}, keyword-only
        The noise of Sections 4.1-4.2 as printed, or scaled by :func:`tight_noise_scale`.
    tree_budget : {"share", "total"}, keyword-only
        The tree's noise from the regression's share, or from the whole ``(epsilon, delta)`` (the
        authors' code; the rank step keeps its share either way).
    accountant : str, keyword-only
        The accountant of :func:`~privbandits.mechanisms.gaussian_composition_epsilon`.

    Returns
    -------
    dict of str to float
        ``noise_scale``, ``mu_reg``, ``mu_rank``; ``eps_reg_tight``, ``eps_rank_tight`` (each part
        exactly, at its own delta: the tree's is ``delta`` with ``tree_budget="total"``);
        ``eps_total_tight`` (exact composition at the total delta); ``eps_total_loose`` (each part's
        zCDP converted at its delta, ``bun2016concentrated`` Proposition 1.3, and added).
    """
    eps_reg, delta_reg, eps_rank, delta_rank = split_budget(epsilon, delta, alpha_eps, alpha_delta)
    c = noise_scale(epsilon, delta, alpha_eps, alpha_delta, calibration)
    if Choice(TREE_BUDGETS).check("tree_budget", tree_budget) == "total":
        eps_reg, delta_reg = epsilon, delta
    mu_reg, mu_rank = tree_mu(eps_reg, delta_reg) / c, rank_mu(eps_rank, delta_rank) / c
    loose = zcdp_to_approx_dp(mu_reg**2 / 2, delta_reg) + zcdp_to_approx_dp(mu_rank**2 / 2, delta_rank)
    return {
        "noise_scale": c,
        "mu_reg": mu_reg,
        "mu_rank": mu_rank,
        "eps_reg_tight": gaussian_composition_epsilon([1 / mu_reg], delta_reg, accountant=accountant),
        "eps_rank_tight": gaussian_composition_epsilon([1 / mu_rank], delta_rank, accountant=accountant),
        "eps_total_tight": gaussian_composition_epsilon([1 / mu_reg, 1 / mu_rank], delta, accountant=accountant),
        "eps_total_loose": loose,
    }


def budget_table(epsilon: float, delta: float, alpha_eps: float, alpha_delta: float) -> list[dict[str, float]]:
    """What each component spends (Algorithm 1 line 1), in (eps, delta) and in rho (zCDP).

    Parameters
    ----------
    epsilon, delta, alpha_eps, alpha_delta : float
        As for :func:`privacy_guarantee`.

    Returns
    -------
    list of dict
        Rows regression, rank estimation, total, with ``component``, ``epsilon``, ``delta``,
        ``rho_target`` (the rho that converts exactly to the component's target), ``rho_delivered``,
        ``eps_delivered`` (its conversion) and ``eps_tight`` (:func:`privacy_guarantee`).
    """
    eps_reg, delta_reg, eps_rank, delta_rank = split_budget(epsilon, delta, alpha_eps, alpha_delta)
    rho_reg = tree_rho(eps_reg, delta_reg)
    rho_rank = approx_dp_to_zcdp(eps_rank, delta_rank)
    g = privacy_guarantee(epsilon, delta, alpha_eps, alpha_delta)
    return [
        {
            "component": "regression (tree, Gaussian)",
            "epsilon": eps_reg,
            "delta": delta_reg,
            "rho_target": approx_dp_to_zcdp(eps_reg, delta_reg),
            "rho_delivered": rho_reg,
            "eps_delivered": zcdp_to_approx_dp(rho_reg, delta_reg),
            "eps_tight": g["eps_reg_tight"],
        },
        {
            "component": "rank estimation (zCDP Gaussian)",
            "epsilon": eps_rank,
            "delta": delta_rank,
            "rho_target": rho_rank,
            "rho_delivered": rho_rank,
            "eps_delivered": zcdp_to_approx_dp(rho_rank, delta_rank),
            "eps_tight": g["eps_rank_tight"],
        },
        {
            "component": "total (composition)",
            "epsilon": epsilon,
            "delta": delta,
            "rho_target": float("nan"),
            "rho_delivered": rho_reg + rho_rank,
            "eps_delivered": g["eps_total_loose"],
            "eps_tight": g["eps_total_tight"],
        },
    ]


def check_calibration(calibration: str) -> str:
    """Raise ``ValueError`` unless ``calibration`` is one of :data:`CALIBRATIONS`; return it.

    Parameters
    ----------
    calibration : str

    Returns
    -------
    str
    """
    return Choice(CALIBRATIONS).check("calibration", calibration)
