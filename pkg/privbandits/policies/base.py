"""The policy interfaces shared by every algorithm of the book.

:class:`Policy` is the interface of the multi-armed bandit algorithms; :class:`ContextualPolicy`
the smaller one of the contextual algorithms of Part IV, whose environment is not a
:class:`~privbandits.environments.BanditInstance`.

A policy is a frozen dataclass of its parameters (so it is hashable, printable and serves as part of
a cache key) with one method, :meth:`Policy.run`, that plays one run of ``horizon`` rounds on an
instance with a given ``numpy.random.Generator`` and returns that run's records as arrays.

The work happens in a numba kernel written as plain loops that read like the paper's pseudocode;
``run`` only validates, unpacks the instance with :meth:`BanditInstance.kernel_args` and calls it.
Kernels are compiled with ``nogil=True``, so :func:`privbandits.simulate.simulate` runs several of them
at once in threads. A policy names its kernel and arguments in :meth:`Policy._kernel_call`; then
:meth:`Policy.sample_arms` plays many runs inside compiled code (the auditor draws 10^5 runs of
100 rounds per dataset, where a Python loop over runs would cost more than the runs themselves).
"""

from __future__ import annotations

import abc
import dataclasses
import math
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from numba import njit, types
from numba.extending import overload

from .._validation import check_int
from ..environments import BanditInstance

__all__ = ["Policy", "Records", "ContextualPolicy", "record_play", "new_episodes", "episode_array"]

#: One run's records, ``"arms"`` (shape ``(horizon,)``, the arm pulled at each round, 0-based) for
#: every regret-minimising policy; policies may add more (e.g. ``"phase1_end"``, shape ``()``).
#: Pure-exploration policies that stop on their own (``records_arms = False``) return ``"pulls"``
#: (shape ``(K,)``) instead: their ``horizon`` is only a cap on the rounds played.
Records = dict[str, np.ndarray]


def record_play(out, t, a, length):
    """Record that ``arm`` ``a`` is played on rounds ``t .. t + length - 1`` (0-based), in a kernel.

    The one place where an episodic kernel writes down its play, so the same kernel (one
    implementation of the algorithm) records it in either of two forms, chosen by the type of
    ``out`` when numba compiles the kernel: a ``(horizon,)`` int64 array gets one entry per round
    (the ``arms`` record), a list of int64 gets the episodes as ``start, arm, start, arm, ...``
    (an episode that continues the previous one's arm extends it, so the list is the run-length
    code of the arm sequence; see :meth:`Policy.run_episodes`). Compiled code only (a numba
    ``overload``): calling it from Python raises.

    Parameters
    ----------
    out : numpy.ndarray or list
        The arm sequence, or the flat list of episodes.
    t : int
        First round of the play (0-based).
    a : int
        The arm.
    length : int
        Number of rounds (>= 1).

    Raises
    ------
    NotImplementedError
        When called from Python.
    """
    raise NotImplementedError("record_play is for compiled kernels only")


@overload(record_play, jit_options={"nogil": True})
def _record_play_impl(out, t, a, length):  # pragma: no cover - compiled
    if isinstance(out, types.Array):

        def fill(out, t, a, length):
            for u in range(length):
                out[t + u] = a

        return fill
    if isinstance(out, types.List):

        def append(out, t, a, length):
            if len(out) == 0 or out[len(out) - 1] != a:  # a new episode (else the last one goes on)
                out.append(t)
                out.append(a)

        return append
    return None


@njit(nogil=True, cache=True)
def new_episodes():  # pragma: no cover - compiled
    """An empty list of episodes for :func:`record_play` (compiled code only).

    Returns
    -------
    list of int
        Empty; :func:`record_play` appends ``start, arm`` pairs to it.
    """
    out = [np.int64(0)]
    out.pop()
    return out


@njit(nogil=True, cache=True)
def episode_array(out):  # pragma: no cover - compiled
    """The list of :func:`record_play` as the ``(2, n)`` array of :meth:`Policy.run_episodes`.

    Parameters
    ----------
    out : list of int
        ``start, arm, start, arm, ...``.

    Returns
    -------
    numpy.ndarray
        Shape ``(2, n)``, int64: row 0 the first rounds, row 1 the arms.
    """
    n = len(out) // 2
    episodes = np.empty((2, n), dtype=np.int64)
    for i in range(n):
        episodes[0, i] = out[2 * i]
        episodes[1, i] = out[2 * i + 1]
    return episodes


@njit(nogil=True)
def _arms_of_runs(kernel, rng, n, horizon, args):  # pragma: no cover - compiled
    """``n`` runs of a kernel that returns the arm sequence itself."""
    out = np.empty((n, horizon), dtype=np.int64)
    for i in range(n):
        out[i] = kernel(rng, *args)
    return out


@njit(nogil=True)
def _first_of_runs(kernel, rng, n, horizon, args):  # pragma: no cover - compiled
    """``n`` runs of a kernel that returns a tuple whose first entry is the arm sequence."""
    out = np.empty((n, horizon), dtype=np.int64)
    for i in range(n):
        out[i] = kernel(rng, *args)[0]
    return out


@dataclasses.dataclass(frozen=True)
class Policy(abc.ABC):
    """Base class of all bandit algorithms.

    Subclasses are frozen dataclasses whose fields are the algorithm's parameters, validated in
    ``__post_init__``, and implement :meth:`_run`. Class attributes: ``name`` (the algorithm's name
    as the papers write it; plots use it to pick the algorithm's colour) and ``private`` (whether the
    algorithm claims a differential privacy guarantee), ``records_arms`` (whether a run's records
    hold the ``(horizon,)`` sequence of arms; ``False`` for stopping rules whose horizon is a cap),
    ``anytime`` (whether the play never depends on the horizon it is told).
    """

    name: ClassVar[str] = "policy"
    private: ClassVar[bool] = False
    records_arms: ClassVar[bool] = True
    #: the play never reads the horizon (beyond stopping there), so the first ``h`` rounds of a run are
    #: the run of horizon ``h`` with the same generator, so one run gives every horizon
    #: (``tests/test_simulate.py`` checks this for every policy that sets it)
    anytime: ClassVar[bool] = False

    @property
    def label(self) -> str:
        """Name plus privacy level, e.g. ``"DP-UCB (ε=0.1)"``, for legends."""
        eps = getattr(self, "epsilon", None)
        if eps is None or (isinstance(eps, float) and math.isinf(eps)):
            return self.name
        return f"{self.name} (ε={eps:g})"

    def config(self) -> dict[str, Any]:
        """Everything that determines the algorithm's behaviour, JSON-able (for cache keys).

        Returns
        -------
        dict
            The class's qualified name under ``"policy"`` and every dataclass field.
        """
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {"policy": f"{type(self).__module__}.{type(self).__qualname__}", **fields}

    def min_horizon(self, n_arms: int) -> int:
        """Smallest horizon the algorithm accepts (default: one pull of every arm).

        Parameters
        ----------
        n_arms : int
            Number of arms ``K``.

        Returns
        -------
        int
            The smallest horizon.
        """
        return n_arms

    def run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        """Play ``horizon`` rounds on ``instance`` with randomness from ``rng``; return the records.

        Parameters
        ----------
        instance : BanditInstance
            The bandit instance (its reward table, if any, replaces the draws).
        horizon : int
            Rounds to play (at least :meth:`min_horizon`, at most the reward table's length).
        rng : numpy.random.Generator
            Source of all randomness of the run.

        Returns
        -------
        Records
            The run's arrays (see :data:`Records`).

        Raises
        ------
        ValueError
            If ``instance`` is not a :class:`BanditInstance`, ``rng`` not a ``numpy.random.Generator``,
            or ``horizon`` is out of range.
        """
        horizon = self._check_run(instance, horizon, rng)
        records = self._run(instance, horizon, rng)
        if self.records_arms and ("arms" not in records or np.shape(records["arms"]) != (horizon,)):
            raise RuntimeError(f"{type(self).__name__}._run must return 'arms' of shape ({horizon},)")
        if not self.records_arms and np.shape(records.get("pulls")) != (instance.n_arms,):
            raise RuntimeError(f"{type(self).__name__}._run must return 'pulls' of shape ({instance.n_arms},)")
        return records

    def _check_run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> int:
        """The arguments of :meth:`run` validated; returns the horizon as an ``int``."""
        if not isinstance(instance, BanditInstance):
            raise ValueError(f"instance must be a BanditInstance, got {type(instance).__name__}")
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        horizon = check_int("horizon", horizon, minimum=self.min_horizon(instance.n_arms))
        if instance.table.shape[0] and instance.table.shape[0] < horizon:
            raise ValueError(
                f"horizon={horizon} exceeds the instance's reward table ({instance.table.shape[0]} rounds)"
            )
        return horizon

    @property
    def episodic(self) -> bool:
        """Whether :meth:`run_episodes` is available (the kernel can record its play as episodes)."""
        return False

    def run_episodes(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        """The run of :meth:`run`, its arm sequence recorded as episodes (O(episodes) memory).

        The same kernel as :meth:`run` (one implementation of the algorithm), with its play written
        by :func:`record_play` into a list instead of a ``(horizon,)`` array: the same draws in the
        same order, so the same run. ``records["episodes"]`` replaces ``records["arms"]``; the
        other records are those of :meth:`run`.

        Parameters
        ----------
        instance : BanditInstance
            The bandit instance.
        horizon : int
            Rounds to play (as for :meth:`run`).
        rng : numpy.random.Generator
            Source of all randomness of the run.

        Returns
        -------
        Records
            ``"episodes"``, shape ``(2, n)`` int64: row 0 the first round of each episode (0-based,
            increasing, the first 0), row 1 its arm, consecutive arms distinct (episode ``i`` lasts
            until the next one starts, the last until ``horizon``); ``arms`` is
            ``np.repeat(episodes[1], np.diff(np.r_[episodes[0], horizon]))``.

        Raises
        ------
        ValueError
            As :meth:`run`; also if the policy is not :attr:`episodic`.
        """
        horizon = self._check_run(instance, horizon, rng)
        if not self.episodic:
            raise ValueError(f"{type(self).__name__} does not record its play as episodes (episodic is False)")
        kernel, args = self._episode_call(instance, horizon)
        records = self._records(kernel(rng, *args))
        records["episodes"] = records.pop("arms")
        return records

    def _episode_call(self, instance: BanditInstance, horizon: int) -> tuple[Callable, tuple]:
        """The episode kernel of an :attr:`episodic` policy and its arguments after ``rng``."""
        # ``kernel(rng, *args)`` runs the kernel of :meth:`_kernel_call` with its play recorded by
        # :func:`record_play` into :func:`new_episodes` and returns what that kernel returns, the
        # :func:`episode_array` in place of the arms.
        raise NotImplementedError

    def _records(self, raw: Any) -> Records:
        """The records of an :attr:`episodic` policy from its kernel's raw output ``(arms, ...)``."""
        raise NotImplementedError

    def sample_arms(self, instance: BanditInstance, horizon: int, rng: np.random.Generator, n: int) -> np.ndarray:
        """The arm sequences of ``n`` runs that share one generator, played inside compiled code.

        Equal, bit for bit, to stacking ``run(instance, horizon, rng)["arms"]`` over ``n`` successive
        calls with the same ``rng``; when the policy names its kernel (:meth:`_kernel_call`) the loop
        over runs is compiled too, otherwise it is that Python loop.

        Parameters
        ----------
        instance : BanditInstance
            The bandit instance (its reward table, if any, replaces the draws).
        horizon : int
            Rounds per run (as for :meth:`run`).
        rng : numpy.random.Generator
            Source of all randomness of the runs, consumed run after run.
        n : int
            Number of runs (>= 1).

        Returns
        -------
        numpy.ndarray
            Shape ``(n, horizon)``, ``int64``.

        Raises
        ------
        ValueError
            As :meth:`run`; also if ``n`` < 1 or the policy records no arm sequence.
        """
        n = check_int("n", n, minimum=1)
        if not self.records_arms:
            raise ValueError(f"{type(self).__name__} records no arm sequence (records_arms is False)")
        first = self.run(instance, horizon, rng)["arms"]  # validates, and compiles the kernel once
        horizon = int(np.shape(first)[0])
        call = self._kernel_call(instance, horizon)
        if call is None:
            rest = [self.run(instance, horizon, rng)["arms"] for _ in range(n - 1)]
            return np.stack([first, *rest]).astype(np.int64, copy=False)
        kernel, args = call
        out = np.empty((n, horizon), dtype=np.int64)
        out[0] = first
        if n > 1:
            batch = _arms_of_runs if self._kernel_returns_arms else _first_of_runs
            out[1:] = batch(kernel, rng, n - 1, horizon, args)
        return out

    #: ``True`` when the kernel of :meth:`_kernel_call` returns the arm sequence itself, ``False``
    #: when it returns a tuple whose first entry is the arm sequence
    _kernel_returns_arms: ClassVar[bool] = False

    def _kernel_call(self, instance: BanditInstance, horizon: int) -> tuple[Callable, tuple] | None:
        """The compiled kernel and its arguments after ``rng``: ``kernel(rng, *args)`` plays one run."""
        # ``None`` (the default) when the policy does not expose one; :meth:`sample_arms` then loops
        # in Python. ``instance`` and ``horizon`` are already validated.
        return None

    def _play(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Any:
        """One run of the kernel of :meth:`_kernel_call`: its raw output."""
        kernel, args = self._kernel_call(instance, horizon)
        return kernel(rng, *args)

    @abc.abstractmethod
    def _run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        """Kernel call; ``horizon`` and ``instance`` are already validated."""


@dataclasses.dataclass(frozen=True)
class ContextualPolicy(abc.ABC):
    """Base class of the contextual (hiring) algorithms of Part IV.

    Like :class:`Policy`, a frozen dataclass of the algorithm's parameters with ``name`` and
    ``private`` class attributes; :meth:`run` plays one trial on a contextual environment (e.g.
    :class:`~privbandits.policies.fair_hiring.HiringEnvironment`) and returns per-round records.
    """

    name: ClassVar[str] = "policy"
    private: ClassVar[bool] = False

    @property
    def label(self) -> str:
        """The algorithm's name, for legends."""
        return self.name

    def config(self) -> dict[str, Any]:
        """Everything that determines the algorithm's behaviour, JSON-able (for cache keys).

        Returns
        -------
        dict
            The class's name under ``"policy"`` and every dataclass field.
        """
        return {"policy": type(self).__qualname__, **dataclasses.asdict(self)}

    @abc.abstractmethod
    def run(self, env: Any, horizon: int, rng: np.random.Generator, **kwargs: Any) -> Records:
        """Play one trial of ``horizon`` rounds on ``env`` with randomness from ``rng``.

        Parameters
        ----------
        env : object
            The contextual environment (e.g. a ``HiringEnvironment``).
        horizon : int
            Rounds to play.
        rng : numpy.random.Generator
            Source of all randomness of the trial.
        **kwargs
            Options of the subclass.

        Returns
        -------
        Records
            Per-round records.
        """
