"""The hiring policies of Part IV: OFUL, Fair-Greedy and Private-Fair-Greedy.

Each runs its own kernel of :mod:`~privbandits.policies.fair_hiring.kernels`. Settings of one
algorithm can run together in lockstep on one random stream per trial (:func:`run_together`).
An argument outside the range its entry states raises ``ValueError`` naming it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar

import numpy as np

from ..._validation import _is_real, check_delta, check_int, check_probability
from ...mechanisms import approx_dp_to_zcdp, gaussian_composition_epsilon
from ..base import EPSILON_MIN, Bool, Choice, ContextualPolicy, Departure, Epsilon, Int, Real, Records, param
from .calibration import (
    CALIBRATIONS,
    TREE_BUDGETS,
    noise_scale,
    privacy_guarantee,
    split_budget,
    tree_gamma,
    tree_levels,
    tree_sigma,
)
from .environment import L_TILDE_RULES, HiringEnvironment
from .kernels import (
    GreedyParams,
    OFULParams,
    _greedy_agent_choose,
    _greedy_agent_update,
    _greedy_init,
    _new_draws,
    _new_run,
    _oful_agent_choose,
    _oful_agent_update,
    _oful_init,
    fair_greedy_kernel,
    oful_kernel,
    private_fair_greedy_kernel,
)

__all__ = [
    "HiringPolicy",
    "OFUL",
    "FairGreedy",
    "PrivateFairGreedy",
    "HiringAgent",
    "run_together",
    "relative_ranks",
]

#: How the rank step counts the window: ``"histogram"`` (fast) or ``"brute"`` (reference); both exact
RANK_METHODS = ("histogram", "brute")
#: OFUL's confidence radius: Theorem 2 of ``abbasi2011improved``, or the authors' code's
OFUL_RADII = ("theorem2", "code")
#: The Gram shift: 2 Gamma I once (Section 4.1), or the code's 2 Gamma' I on every node summed
TREE_SHIFTS = ("once", "per_node")
_POSITIVE = Real()
#: The authors' experiment code (DP-GMFBandits, commit 73ab664), cited in the departures below
_CODE = "DP-GMFBandits policies.py"
_DATA = "DP-GMFBandits data.py lines 100-108"
#: Their index lag, shared by Fair-Greedy and Private-Fair-Greedy
_LAG = Departure(
    "index_lag",
    True,
    "index lag: t~ = floor((t - 2)/2)",
    f"{_CODE} lines 145-159, 434, 460-475 (t0 updated after the round)",
    "lag",
    "as run - lag",
)


@dataclasses.dataclass(frozen=True)
class HiringPolicy(ContextualPolicy):
    """A hiring policy: :meth:`run` is ``run_together([self], env, horizon, rng, ...)[0]``."""

    def kernel_params(self, env: HiringEnvironment, horizon: int) -> tuple:
        """The parameters the kernel receives (a NamedTuple of the kernel's module).

        Parameters
        ----------
        env : HiringEnvironment
        horizon : int

        Returns
        -------
        tuple

        Raises
        ------
        NotImplementedError
            In this base class (each algorithm implements it).
        """
        raise NotImplementedError

    def run(
        self,
        env: HiringEnvironment,
        horizon: int,
        rng: np.random.Generator,
        *,
        trace: bool = False,
        candidates: np.ndarray | None = None,
    ) -> Records:
        return run_together([self], env, horizon, rng, trace=trace, candidates=candidates)[0]

    def agent(self, env: HiringEnvironment, horizon: int, rng: np.random.Generator | int) -> HiringAgent:
        return HiringAgent(self, env, horizon, rng)

    @classmethod
    def run_together(
        cls,
        policies,
        env: HiringEnvironment,
        horizon: int,
        rng: np.random.Generator,
        *,
        trace: bool = False,
        candidates: np.ndarray | None = None,
    ) -> list[Records]:
        # in lockstep on one random stream: the module's function (trace, candidates as documented there)
        return run_together(policies, env, horizon, rng, trace=trace, candidates=candidates)

    def stream(self, env: HiringEnvironment, horizon: int) -> tuple:
        """Which random stream a trial draws: settings with equal streams can run together.

        Parameters
        ----------
        env : HiringEnvironment
        horizon : int

        Returns
        -------
        tuple
            The kernel's name (subclasses add what else decides the draws).
        """
        return (self._kernel.__name__,)


@dataclasses.dataclass(frozen=True)
class OFUL(HiringPolicy):
    """OFUL (``abbasi2011improved``, Algorithm 1, with the ellipsoidal radius of Theorem 2): not private, not fair.

    Parameters
    ----------
    reg : float > 0
        Ridge parameter lambda.
    delta : float in (0, 1)
        Confidence level of the ellipsoid.
    theta_norm : float > 0
        ``S``, bound on ``||theta*||``.
    radius : {"theorem2", "code"}
        Theorem 2's radius, or the authors' ``sqrt(2 log(det V / det(reg I)) log t)``.
    bonus_scale : float > 0
        Factor on the bonus (the code's ``expl_coeff``).
    """

    reg: float = param(1.0, _POSITIVE)
    delta: float = param(0.05, Real(0.0, 1.0))
    theta_norm: float = param(1.0, _POSITIVE)  #: S, bound on ||theta*||
    radius: str = param("theorem2", Choice(OFUL_RADII))
    bonus_scale: float = param(1.0, _POSITIVE)

    name = "OFUL"
    departures = (
        Departure("reg", 0.01, "lambda = 0.01", "DP-GMFBandits adult.py lines 16, 178", "reg", "as run - lambda"),
        Departure(
            "radius",
            "code",
            "radius sqrt(2 log(det V/det lambda I) log t)",
            f"{_CODE} lines 67-69, 168-185",
            "radius",
            "as run - radius",
        ),
        Departure("bonus_scale", 0.01, "bonus x 0.01", "DP-GMFBandits adult.py lines 18, 178", "ec", "as run - ec"),
    )
    _kernel: ClassVar[Any] = staticmethod(oful_kernel)

    def kernel_params(self, env: HiringEnvironment, horizon: int) -> OFULParams:
        return OFULParams(
            float(self.reg), float(self.delta), float(self.theta_norm), self.radius == "code", float(self.bonus_scale)
        )


@dataclasses.dataclass(frozen=True)
class FairGreedy(HiringPolicy):
    """Fair-Greedy (``grazzi2022group``), not private: ridge on the first half of the history, ranks on the second.

    Parameters
    ----------
    reg : float > 0
    rank_method : {"histogram", "brute"}
        How the rank step counts the window (both exact; ``"brute"`` is the reference).
    rank_refresh : int >= 1
        Recompute theta-hat only when ``t~ % rank_refresh == 0`` (1: the paper).
    index_lag : bool
        The authors' ``t~ = floor((t - 2) / 2)``: on odd t, theta-hat of one hire fewer and the window before.
    theta_jitter : float >= 0
        The authors' jitter: theta-hat + ``theta_jitter / (d sqrt(t))`` times a standard normal vector.
    """

    reg: float = param(1.0, _POSITIVE)
    rank_method: str = param("histogram", Choice(RANK_METHODS))
    rank_refresh: int = param(1, Int(1))  #: recompute theta-hat only when t~ % rank_refresh == 0 (1 = the paper)
    index_lag: bool = param(False, Bool())
    theta_jitter: float = param(0.0, Real(0.0, ends="[)"))

    name = "Fair-Greedy"
    departures = (
        Departure("reg", 0.01, "lambda = 0.01", "DP-GMFBandits adult.py lines 16, 194", "reg", "as run - lambda"),
        _LAG,
        Departure(
            "theta_jitter",
            1e-8,
            "theta-hat + 10^-8/(d sqrt t) N(0, I)",
            f"{_CODE} lines 129-131, adult.py line 71",
            "jitter",
            "as run - jitter",
        ),
    )
    _kernel: ClassVar[Any] = staticmethod(fair_greedy_kernel)

    def kernel_params(self, env: HiringEnvironment, horizon: int) -> GreedyParams:
        # no noise: the private fields are neutral
        brute, refresh = self.rank_method == "brute", int(self.rank_refresh)
        jitter = float(self.theta_jitter)
        return GreedyParams(float(self.reg), brute, refresh, 0.0, 0.0, 1.0, 1.0, bool(self.index_lag), False, jitter)

    def stream(self, env: HiringEnvironment, horizon: int) -> tuple:
        # the jitter draws d normals a round
        return (self._kernel.__name__, self.theta_jitter > 0)


@dataclasses.dataclass(frozen=True)
class PrivateFairGreedy(HiringPolicy):
    """Private-Fair-Greedy, Algorithm 1 of ``an2025privatefairgreedy``: (epsilon, delta)-JDP claimed (Theorem 5.1).

    Tree-based continually private ridge regression (Section 4.1) and zCDP private rank estimation
    (Section 4.2), the budget split by :func:`~privbandits.policies.fair_hiring.calibration.split_budget`.
    The exact guarantee is :func:`~privbandits.policies.fair_hiring.calibration.privacy_guarantee`
    ((1.16, 0.1)-JDP at the defaults, where the paper claims (15, 0.1)); it needs every leaf ``[x, y]``
    to have norm <= L-tilde, which ``l_tilde_rule="data"`` does not ensure.

    Parameters
    ----------
    epsilon : float > 0, finite
        ``inf``, the non-private limit, is refused: ``noise=False`` runs without noise.
    delta : float in [10^-300, 1)
        Not subnormal: the shares of delta must not underflow.
    alpha_eps, alpha_delta : float in [EPSILON_MIN, 1)
        Shares of epsilon and delta given to the regression.
    l_tilde : float > 0 or None
        The bound L-tilde on the leaves; ``None``: by ``l_tilde_rule``.
    noise : bool
        False: no noise and no shift (tests: must equal ridge with reg -> 0).
    rank_method, rank_refresh
        As for :class:`FairGreedy`.
    calibration : {"printed", "tight"}
        The noise of Sections 4.1-4.2 as printed, or scaled to spend exactly (epsilon, delta).
    l_tilde_rule : {"sum", "norm", "data"}
        See :meth:`HiringEnvironment.l_tilde`.
    tree_budget : {"share", "total"}
        The tree's noise from ``(eps_reg, delta_reg)``, or from the total ``(epsilon, delta)`` (the code's).
    tree_shift : {"once", "per_node"}
        ``2 Gamma I`` once, or the code's ``2 Gamma' I`` on every node summed, ``Gamma'`` with
        ``ln(T^2)`` for ``ln(2T)`` (its only departure from Section 4.1) and the printed ``sqrt(d)``
        where the package's ``Gamma`` has ``sqrt(d + 1)``.
    index_lag : bool
        As for :class:`FairGreedy`.
    clip_rewards : bool
        Clip the rewards entering the tree to ``[-y_clip, y_clip]`` (the code does not).
    """

    epsilon: float = param(15.0, Epsilon(ends="[)", finite="noise=False runs it without noise (no privacy)"))
    delta: float = param(0.1, Real(1e-300, 1.0, "[)"))  # not subnormal: its shares must not underflow
    alpha_eps: float = param(0.9, Real(EPSILON_MIN, 1.0, "[)"))
    alpha_delta: float = param(0.9, Real(EPSILON_MIN, 1.0, "[)"))
    l_tilde: float | None = param(None, Real(optional=True))
    noise: bool = param(True, Bool())  #: False for no noise and no shift (tests check it equals ridge with reg -> 0)
    rank_method: str = param("histogram", Choice(RANK_METHODS))
    rank_refresh: int = param(1, Int(1))
    calibration: str = param("printed", Choice(CALIBRATIONS))
    l_tilde_rule: str = param("sum", Choice(L_TILDE_RULES))
    tree_budget: str = param("share", Choice(TREE_BUDGETS))
    tree_shift: str = param("once", Choice(TREE_SHIFTS))
    index_lag: bool = param(False, Bool())
    clip_rewards: bool = param(True, Bool())

    name = "Private-Fair-Greedy"
    private = True
    departures = (
        Departure(
            "tree_budget",
            "total",
            "tree noise from the total (eps, delta)",
            f"{_CODE} lines 358-367, 416-418",
            "budget",
            "as run - total budget",
        ),
        Departure(
            "tree_shift",
            "per_node",
            "2 Gamma' I on every node",
            f"{_CODE} lines 262-269, 359; adult.py line 151",
            "shift",
            "as run - shift per node",
        ),
        _LAG,
        Departure("clip_rewards", False, "rewards not clipped", f"{_CODE} lines 342-344", "clip", "as run - no clip"),
        Departure("l_tilde_rule", "data", "L~ from the data", _DATA, "ldata", "as run - L~ data"),
    )
    _kernel: ClassVar[Any] = staticmethod(private_fair_greedy_kernel)

    @property
    def label(self) -> str:
        """The name with epsilon, e.g. ``"Private-Fair-Greedy (ε=15)"``."""
        return f"{self.name} (ε={self.epsilon:g})"

    def guarantee(self, horizon: int, delta: float = 0.0) -> tuple[float, float, bool]:
        """``(epsilon, delta)``-JDP of a trial: the tree and the rank step composed exactly as Gaussian mechanisms.

        The composition is exact for the worst-case sensitivities and the ``T`` rank releases the paper
        counts (Part IV's window argument counts fewer and gives a smaller epsilon). Neighbours are the
        paper's (Section 3): histories that differ in one candidate of one group in one round, which
        enters that group's rank releases only, so the rank step counts once, not once per group
        (histories differing in a whole round would multiply ``mu_rank`` by the square root of the
        number of groups). The tree is
        ``mu_reg``-GDP (:func:`~privbandits.policies.fair_hiring.calibration.tree_mu`, of
        the regression's share, or of the total budget with ``tree_budget="total"``) and the rank step
        ``mu_rank``-GDP (:func:`~privbandits.policies.fair_hiring.calibration.rank_mu`), both divided by
        the noise scale of ``calibration`` (:func:`~privbandits.policies.fair_hiring.calibration.privacy_guarantee`
        computes both); their composition is exactly (``balle2018improving``)
        ``(epsilon, delta)``-DP for the returned epsilon. Neither depends on the horizon (the tree's
        noise grows with its depth, the rank noise with ``T``). ``proven`` is ``False`` where the
        tree's sensitivity bound can fail: ``l_tilde_rule="data"``, a given ``l_tilde`` (not checked
        against the data) or ``clip_rewards=False``. It does not account for reading the data to set
        ``L-tilde`` (every rule does; see :meth:`HiringEnvironment.l_tilde`). Without noise:
        ``(inf, 0, True)``.

        Parameters
        ----------
        horizon : int
        delta : float
            The total delta to state epsilon at; ``0``: the policy's ``delta``.

        Returns
        -------
        tuple of (float, float, bool)
        """
        check_int("horizon", horizon, minimum=1)
        if not self.noise:
            return math.inf, 0.0, True
        delta = self.delta if delta == 0 else check_delta(delta)
        exact = privacy_guarantee(
            self.epsilon,
            self.delta,
            self.alpha_eps,
            self.alpha_delta,
            calibration=self.calibration,
            tree_budget=self.tree_budget,
        )
        if delta == self.delta:
            epsilon = exact["eps_total_tight"]
        else:
            epsilon = gaussian_composition_epsilon([1 / exact["mu_reg"], 1 / exact["mu_rank"]], delta)
        proven = self.l_tilde is None and self.l_tilde_rule != "data" and self.clip_rewards
        return epsilon, delta, proven

    def calibration_values(self, env: HiringEnvironment, horizon: int) -> dict[str, float]:
        """Budget split, L-tilde and the noise actually used (Algorithm 1 line 1, Sections 4.1-4.2).

        Parameters
        ----------
        env : HiringEnvironment
        horizon : int

        Returns
        -------
        dict of str to float
            ``eps_reg``, ``delta_reg``, ``eps_rank``, ``delta_rank``, ``l_tilde``, ``noise_scale``,
            ``sigma_noise`` (per tree-node entry, ``noise_scale`` applied), ``gamma`` (the Gram shift is
            2 Gamma I) and ``rho_rank`` (:func:`~privbandits.policies.fair_hiring.calibration.rank_sigma`).
        """
        eps_reg, delta_reg, eps_rank, delta_rank = split_budget(
            self.epsilon, self.delta, self.alpha_eps, self.alpha_delta
        )
        l_tilde = env.l_tilde(self.l_tilde_rule) if self.l_tilde is None else self.l_tilde
        c = noise_scale(self.epsilon, self.delta, self.alpha_eps, self.alpha_delta, self.calibration)
        d = env.theta_star.shape[0]
        if self.tree_budget == "total":
            sigma = c * tree_sigma(self.epsilon, self.delta, horizon, l_tilde)
        else:
            sigma = c * tree_sigma(eps_reg, delta_reg, horizon, l_tilde)
        if self.tree_shift == "per_node":  # the code's Gamma: T/2 leaves, alpha_regression = 1/T, the printed sqrt(d)
            gamma = sigma * math.sqrt(2 * tree_levels(horizon)) * (4 * math.sqrt(d) + 2 * math.log(horizon**2))
        else:
            gamma = tree_gamma(sigma, horizon, d + 1)
        return {
            "eps_reg": eps_reg,
            "delta_reg": delta_reg,
            "eps_rank": eps_rank,
            "delta_rank": delta_rank,
            "l_tilde": l_tilde,
            "noise_scale": c,
            "sigma_noise": sigma,
            "gamma": gamma,
            "rho_rank": approx_dp_to_zcdp(eps_rank, delta_rank) / c**2,
        }

    def kernel_params(self, env: HiringEnvironment, horizon: int) -> GreedyParams:
        # the noise of calibration_values; with noise=False none, and a shift of 1e-12
        brute, refresh = self.rank_method == "brute", int(self.rank_refresh)
        c = self.calibration_values(env, horizon)
        y_clip = env.y_clip() if self.clip_rewards else math.inf
        lag, per_node = bool(self.index_lag), self.tree_shift == "per_node"
        if not self.noise:
            return GreedyParams(1.0, brute, refresh, 0.0, 1e-12, math.inf, y_clip, lag, per_node, 0.0)
        sigma, gamma, rho = c["sigma_noise"], c["gamma"], c["rho_rank"]
        return GreedyParams(1.0, brute, refresh, sigma, gamma, rho, y_clip, lag, per_node, 0.0)

    def stream(self, env: HiringEnvironment, horizon: int) -> tuple:
        # the tree draws its node noise only when it has noise
        return (self._kernel.__name__, bool(self.noise))


def _check_candidates(candidates, horizon: int, offsets: np.ndarray) -> np.ndarray:
    n_groups = offsets.shape[0] - 1
    if candidates is None:
        return np.zeros((0, n_groups), dtype=np.int64)
    fixed = np.asarray(candidates)
    if fixed.shape != (horizon, n_groups) or not np.issubdtype(fixed.dtype, np.integer):
        raise ValueError(f"candidates must be an integer array of shape (horizon, K) = ({horizon}, {n_groups})")
    sizes = np.diff(offsets)
    if np.any(fixed < 0) or np.any(fixed >= sizes[None, :]):
        raise ValueError(f"candidates[t, k] must lie in [0, size of group k's pool) = [0, {sizes.tolist()})")
    return np.ascontiguousarray(fixed, dtype=np.int64)


def _stacked(policies, env: HiringEnvironment, horizon: int) -> tuple:
    """The settings' kernel parameters, one array (of one value per setting) per field."""
    params = [q.kernel_params(env, horizon) for q in policies]
    return type(params[0])(*(np.array(values) for values in zip(*params)))


def run_together(
    policies,
    env: HiringEnvironment,
    horizon: int,
    rng: np.random.Generator,
    *,
    trace: bool = False,
    candidates: np.ndarray | None = None,
) -> list[Records]:
    """One trial of several settings of one algorithm, in lockstep on one random stream.

    Each random number is drawn once for all settings, and every setting gets, bit for bit, the run
    :meth:`HiringPolicy.run` gives it alone with the same generator.

    Parameters
    ----------
    policies : sequence of HiringPolicy
        One class, one :meth:`HiringPolicy.stream`.
    env : HiringEnvironment
    horizon : int >= 1
    rng : numpy.random.Generator
    trace : bool
        Also return, for the Fair-Greedy variants, the noiseless rank counts ``rank_counts[t, k]``,
        the ``theta`` of every round and ``candidates[t, k]``.
    candidates : numpy.ndarray or None
        ``(horizon, K)`` rows of each group's pool, fixed instead of drawn (a joint-DP audit's dataset).

    Returns
    -------
    list of dict of numpy.ndarray
        One per setting: ``fair_regret``, ``regret`` (shape ``(horizon,)``) and ``groups`` (the hired
        group per round), and with ``trace=True`` the traced arrays.
    """
    check_int("horizon", horizon, minimum=1)
    policies = list(policies)
    if not policies:
        raise ValueError("policies must hold at least one setting")
    if len({type(q) for q in policies}) > 1 or len({q.stream(env, horizon) for q in policies}) > 1:
        raise ValueError("policies must be settings of one class that draw one random stream (HiringPolicy.stream)")
    arrays = env.arrays()
    fixed = _check_candidates(candidates, horizon, arrays.offsets)
    run = policies[0]._kernel(rng, arrays, horizon, env.noise_sd, _stacked(policies, env, horizon), bool(trace), fixed)
    out = []
    for s in range(len(policies)):
        rec = {"fair_regret": run.fair_regret[s], "regret": run.regret[s], "groups": run.chosen[s]}
        if trace:
            rec.update(
                rank_counts=run.trace_counts[s], theta=run.trace_theta[s], candidates=run.cand - arrays.offsets[:-1]
            )
        out.append(rec)
    return out


def _hired_groups(
    policy: HiringPolicy, env: HiringEnvironment, horizon: int, rng: np.random.Generator, n: int, candidates
):
    """Hired groups ``(n, horizon)`` of ``n`` successive ``policy.run(env, horizon, rng, candidates=...)`` runs."""
    # the same kernel, arguments and generator; the checks and the kernel's parameters are made once, by the first
    # run, instead of once per run (a joint-DP audit's sampler)
    first = policy.run(env, horizon, rng, candidates=candidates)["groups"]
    arrays = env.arrays()
    fixed = _check_candidates(candidates, horizon, arrays.offsets)
    params = _stacked([policy], env, horizon)
    out = np.empty((n, first.shape[0]), dtype=first.dtype)
    out[0] = first
    for i in range(1, n):
        out[i] = policy._kernel(rng, arrays, horizon, env.noise_sd, params, False, fixed).chosen[0]
    return out


class HiringAgent:
    """A hiring policy driven one round at a time: ``group = agent.choose(candidates)``, then ``agent.update(reward)``.

    Made by :meth:`HiringPolicy.agent` (:meth:`~privbandits.policies.base.ContextualPolicy.agent`). The policy's kernel
    plays a round as its compiled steps: the round's policy noise (``_draw_round``), the choice
    (``_oful_choose``, or ``_greedy_choose``: lines 4-7 of Algorithm 1 of ``an2025privatefairgreedy``,
    the ridge step on the hires so far, the window, the relative ranks) and the update (line 8, and
    OFUL's Sherman-Morrison step); the agent calls the same functions on the state of one setting,
    so it is the algorithm of the policy's class (paper and equations cited there) with its privacy
    guarantee (:meth:`guarantee`: Private-Fair-Greedy's joint differential privacy, Theorem 5.1 of
    ``an2025privatefairgreedy`` as :meth:`PrivateFairGreedy.guarantee` states it), whoever supplies
    the candidates and the rewards.

    The pools (the candidates' features) are those of ``env``; a round's context is one candidate per
    group, given by its row index within its group's pool. The kernel draws a round's numbers in this
    order: the candidates (unless fixed), the policy's noise, the reward's standard normal. An
    environment that draws the candidates from the agent's generator before :meth:`choose` (for each
    group ``k``, ``rng.integers(0, n_k)``) and the reward's normal after it
    (``row_reward[row] + noise_sd * rng.standard_normal()``, ``row_reward`` of
    :meth:`HiringEnvironment.arrays`) makes the agent play :meth:`HiringPolicy.run`'s trial bit for bit
    (``tests/test_hiring_agents.py``); so does one that presents a fixed candidate table (``run``'s
    ``candidates``) and draws only the normal.

    Parameters
    ----------
    policy : HiringPolicy
        :class:`OFUL`, :class:`FairGreedy` or :class:`PrivateFairGreedy`, any setting.
    env : HiringEnvironment
        The pools; the agent's records (regrets) use its true rewards and relative ranks. Its
        ``theta_star`` and ``noise_sd`` also set Private-Fair-Greedy's reward clip ``y_clip``, its bound
        ``L-tilde`` and so its noise (:meth:`PrivateFairGreedy.calibration_values`), and OFUL's
        confidence width: with data of your own, where ``theta_star`` is unknown, pass values you can
        justify as bounds; the guarantee rests on them.
    horizon : int >= 1
        The rounds the agent may play (Private-Fair-Greedy's noise and guarantee are for this many).
    rng : numpy.random.Generator or int
        Or a seed (``int >= 0``) for ``numpy.random.default_rng``.

    Attributes
    ----------
    policy : HiringPolicy
    env : HiringEnvironment
    horizon : int
    rng : numpy.random.Generator
    t : int
        Rounds completed (``update`` calls).
    done : bool
        The horizon is played (``t == horizon``); a loop ``while not agent.done`` serves every agent.
    stopped : bool
        ``False``: a hiring policy does not stop on its own.
    """

    def __init__(
        self, policy: HiringPolicy, env: HiringEnvironment, horizon: int, rng: np.random.Generator | int
    ) -> None:
        if not isinstance(policy, HiringPolicy):
            raise TypeError(f"policy must be a HiringPolicy (OFUL, FairGreedy, PrivateFairGreedy), got {policy!r}")
        if type(policy) not in (OFUL, FairGreedy, PrivateFairGreedy):  # a subclass may have other steps
            raise NotImplementedError(
                f"{type(policy).__name__} has no step agent (only OFUL, FairGreedy, PrivateFairGreedy)"
            )
        if not isinstance(env, HiringEnvironment):
            raise ValueError(f"env must be a HiringEnvironment, got {type(env).__name__}")
        horizon = check_int("horizon", horizon, minimum=1)
        if not isinstance(rng, np.random.Generator):
            if isinstance(rng, bool) or not isinstance(rng, (int, np.integer)) or rng < 0:
                raise ValueError(f"rng must be a numpy.random.Generator or a seed (int >= 0), got {rng!r}")
            rng = np.random.default_rng(int(rng))
        self.policy, self.env, self.horizon, self.rng = policy, env, horizon, rng
        self.t = 0
        self._pending: int | None = None
        arrays = env.arrays()
        self._arrays, self._sizes = arrays, np.diff(arrays.offsets)
        self._params = _stacked([policy], env, horizon)
        self._run = _new_run(arrays, horizon, 1, False)
        self._oful = isinstance(policy, OFUL)
        if self._oful:
            self._state, self._draws = _oful_init(arrays, self._params), _new_draws(arrays, 0)
        else:
            self._window, self._state, self._draws, self._tree_noise, self._jitter = _greedy_init(
                arrays, horizon, self._params, policy.private
            )

    def __repr__(self) -> str:
        return f"HiringAgent({self.policy!r}, env={self.env.name!r}, horizon={self.horizon}, t={self.t})"

    @property
    def stopped(self) -> bool:
        """Always ``False``: no hiring policy stops on its own (as :attr:`~privbandits.policies.base.Agent.stopped`)."""
        return False

    @property
    def done(self) -> bool:
        """Whether the horizon is played (as :attr:`~privbandits.policies.base.Agent.done`)."""
        return self.t >= self.horizon

    def _check_candidates(self, candidates: Any) -> np.ndarray:
        k = self._sizes.shape[0]
        try:
            cand = np.asarray(candidates)
        except (ValueError, TypeError) as err:  # e.g. a ragged list
            raise ValueError(f"candidates must be an integer array of shape (K,) = ({k},), got {candidates!r}") from err
        if cand.shape != (k,) or cand.dtype.kind not in "iu":
            raise ValueError(
                f"candidates must be an integer array of shape (K,) = ({k},) (each group's row within its pool), "
                f"got shape {cand.shape} and dtype {cand.dtype}"
            )
        if np.any(cand < 0) or np.any(cand >= self._sizes):
            raise ValueError(
                f"candidates[k] must lie in [0, size of group k's pool) = [0, {self._sizes.tolist()}), "
                f"got {cand.tolist()}"
            )
        return np.ascontiguousarray(cand, dtype=np.int64)

    def choose(self, candidates: Any) -> int:
        """The group to hire from this round's candidates; call :meth:`update` with the hire's reward before the next.

        Parameters
        ----------
        candidates : array_like of int, shape (K,)
            One candidate per group: ``candidates[k]`` is its row in group ``k``'s pool, in
            ``[0, n_k)``. The private policy's window and ranks read them (line 6); only the hired
            candidate's features enter its regression (line 5).

        Returns
        -------
        int
            The hired group, in ``[0, K)``.
        """
        if self._pending is not None:
            raise RuntimeError(
                f"choose() called twice without update(): call update(reward) with group {self._pending}'s reward first"
            )
        if self.t >= self.horizon:
            raise RuntimeError(f"the agent has played its horizon of {self.horizon} rounds; make a new agent")
        cand = self._check_candidates(candidates)
        a, run, state, draws, p, t = self._arrays, self._run, self._state, self._draws, self._params, self.t + 1
        if self._oful:
            group = _oful_agent_choose(self.rng, a, run, state, draws, p, t, self.env.noise_sd, cand)
        else:
            group = _greedy_agent_choose(
                self.rng,
                a,
                run,
                self._window,
                state,
                draws,
                p,
                t,
                self.horizon,
                self.policy.private,
                self._tree_noise,
                self._jitter,
                cand,
            )
        self._pending = int(group)
        return self._pending

    def update(self, reward: float) -> None:
        """Observe the reward of the candidate hired at the last :meth:`choose`, ending the round.

        Parameters
        ----------
        reward : float, finite
            The hire's observed reward. Private-Fair-Greedy clips it to ``[-y_clip, y_clip]``
            (:meth:`HiringEnvironment.y_clip`) where it enters the private regression, as its kernel
            does (unless ``clip_rewards=False``): its guarantee assumes rewards within that bound.
            NaN, an infinity or a non-number raises ``ValueError`` and leaves the round open.
        """
        if self._pending is None:
            raise RuntimeError("update() called before choose(): choose a group, then report its hire's reward")
        if isinstance(reward, np.ndarray) and reward.ndim == 0:  # a 0-d array, e.g. from a numpy reduction
            reward = reward[()]
        if not _is_real(reward) or not math.isfinite(float(reward)):
            raise ValueError(f"reward must be a finite real number, got {reward!r}")
        i, group = self.t, self._pending
        if self._oful:
            _oful_agent_update(self._arrays, self._run, self._state, i, group, float(reward))
        else:
            _greedy_agent_update(self._arrays, self._run, i, group, float(reward))
        self._pending = None
        self.t += 1

    def records(self) -> Records:
        """The records of the completed rounds, as :meth:`HiringPolicy.run` names them.

        Returns
        -------
        Records
            ``fair_regret``, ``regret`` and ``groups``, each of shape ``(t,)``: the rounds played so far.
        """
        run, t = self._run, self.t
        return {
            "fair_regret": run.fair_regret[0, :t].copy(),
            "regret": run.regret[0, :t].copy(),
            "groups": run.chosen[0, :t].copy(),
        }

    def guarantee(self, delta: float = 0.0) -> tuple[float, float, bool]:
        """The privacy guarantee of the whole interaction: :meth:`HiringPolicy.guarantee` at the agent's horizon.

        Parameters
        ----------
        delta : float in [0, 1)
            As for the policy's ``guarantee`` (``0``: the policy's own delta).

        Returns
        -------
        tuple of (float, float, bool)
            ``(epsilon, delta, proven)``.
        """
        return self.policy.guarantee(self.horizon, check_probability("delta", delta, closed=True))


def relative_ranks(scores_window: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Vectorised counting query: the fraction of ``scores_window`` at most each value.

    Parameters
    ----------
    scores_window : array_like
    values : array_like

    Returns
    -------
    numpy.ndarray
        ``#{s in scores_window : s <= v} / len(scores_window)`` per value.
    """
    s = np.sort(np.asarray(scores_window, float))
    return np.searchsorted(s, np.asarray(values, float), side="right") / max(len(s), 1)
