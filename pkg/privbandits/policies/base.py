"""The policy interfaces: a policy *declares* (:class:`Policy`, :func:`param`, :class:`Departure`), the
base classes derive validation, ``run``, ``as_run_by_authors()``, ``ablations()``, ``config()``, ``sample_arms``.
"""

from __future__ import annotations

import abc
import copy
import dataclasses
import inspect
import math
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from .._validation import _is_real, check_bool, check_int, check_memory, check_probability
from ..environments import BanditInstance

__all__ = [
    "Policy",
    "Agent",
    "Records",
    "ContextualPolicy",
    "Declared",
    "Spec",
    "Real",
    "Epsilon",
    "EPSILON_MIN",
    "Int",
    "Bool",
    "Choice",
    "Custom",
    "param",
    "Departure",
    "Ablation",
    "record_play",
    "new_episodes",
    "episode_array",
]

#: One run's records, ``"arms"`` (shape ``(horizon,)``, the arm pulled at each round, 0-based) for
#: every regret-minimising policy; policies may add more (e.g. ``"phase1_end"``, shape ``()``).
#: Pure-exploration policies that stop on their own (``records_arms = False``) return ``"pulls"``
#: (shape ``(K,)``) instead: their ``horizon`` is only a cap on the rounds played.
Records = dict[str, np.ndarray]


def record_play(out, t, a, length):
    """Record arm ``a`` on rounds ``t .. t + length - 1`` in a compiled kernel (``NotImplementedError`` from Python).

    Parameters
    ----------
    out : numpy.ndarray or list
        An int64 ``(horizon,)`` array (one entry per round) or a list (run-length code ``start, arm, ...``).
    t, a : int
    length : int >= 1
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
    """An empty list of episodes for :func:`record_play` (compiled code only)."""
    out = [np.int64(0)]
    out.pop()
    return out


@njit(nogil=True, cache=True)
def episode_array(out):  # pragma: no cover - compiled
    """The list of :func:`record_play` as the ``(2, n)`` int64 array of :meth:`Policy.run_episodes`.

    Parameters
    ----------
    out : list of int
    """
    n = len(out) // 2
    episodes = np.empty((2, n), dtype=np.int64)
    for i in range(n):
        episodes[0, i] = out[2 * i]
        episodes[1, i] = out[2 * i + 1]
    return episodes


# --------------------------------------------------------------------------------------------
# The declaration: parameters, departures, ablations
# --------------------------------------------------------------------------------------------


class Spec:
    """A parameter's constraint; ``coerce`` says whether the checked value is stored (``None``: the class's)."""

    coerce: ClassVar[bool | None] = None

    def check(self, name: str, value: Any) -> Any:
        """The value to store, or ``ValueError`` naming ``name`` and the allowed values.

        Parameters
        ----------
        name : str
        value : object

        Returns
        -------
        object
        """
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Real(Spec):
    """A real number from ``low`` to ``high``, ``ends`` included as ``"()"``, ``"(]"``, ``"[)"`` or ``"[]"`` say.

    Parameters
    ----------
    low, high : float
    ends : str
    coerce : bool or None
        Store it as a ``float`` (``None``: the class's ``coerce_params``).
    optional : bool
        Allow ``None``.
    """

    low: float = 0.0
    high: float = math.inf
    ends: str = "()"
    coerce: bool | None = None
    optional: bool = False

    def check(self, name: str, value: Any) -> Any:
        if value is None and self.optional:
            return None
        high = "inf" if math.isinf(self.high) else f"{self.high:g}"
        interval = f"{self.ends[0]}{self.low:g}, {high}{self.ends[1]}"
        if not _is_real(value) or math.isnan(float(value)):
            raise ValueError(f"{name} must be a real number in {interval}, got {value!r}")
        checked = float(value)
        above = checked > self.low if self.ends[0] == "(" else checked >= self.low
        below = checked < self.high if self.ends[1] == ")" else checked <= self.high
        if not (above and below):
            raise ValueError(f"{name} must lie in {interval}, got {value!r}")
        return checked


#: The smallest privacy parameter a policy accepts (:class:`Epsilon`).
EPSILON_MIN = 1e-12


@dataclasses.dataclass(frozen=True)
class Epsilon(Real):
    """A privacy parameter epsilon in ``[EPSILON_MIN, high]``; ``inf`` is the non-private limit (no noise).

    Every policy's ``epsilon`` is one. A policy whose non-private limit is its own algorithm run
    without noise accepts ``inf`` (and says so in its docstring); one for which the package does not
    define that limit refuses it with ``finite``, the reason and what to run instead, in the error.
    Below :data:`EPSILON_MIN` the kernels' noise scales (``1/epsilon``, its square, times the horizon)
    leave the range of double precision or of 64-bit counts.

    Parameters
    ----------
    low, high, ends, coerce, optional
        As for :class:`Real` (default ``[EPSILON_MIN, inf]``).
    finite : str
        Why ``inf`` is refused and what to run instead (empty: ``inf`` accepted if ``high`` allows it).
    """

    low: float = EPSILON_MIN
    ends: str = "[]"
    finite: str = ""

    def check(self, name: str, value: Any) -> Any:
        if self.finite and _is_real(value) and float(value) == math.inf:
            raise ValueError(f"{name} must be finite for this algorithm, got inf: {self.finite}")
        return super().check(name, value)


@dataclasses.dataclass(frozen=True)
class Int(Spec):
    """An integer in ``[low, high]`` (``None``: unbounded).

    Parameters
    ----------
    low, high : int or None
    coerce : bool or None
    """

    low: int | None = None
    high: int | None = None
    coerce: bool | None = None

    def check(self, name: str, value: Any) -> int:
        return check_int(name, value, minimum=self.low, maximum=self.high)


class Bool(Spec):
    """A switch: ``True`` or ``False`` only (:func:`~privbandits._validation.check_bool`)."""

    coerce = False

    def check(self, name: str, value: Any) -> bool:
        return check_bool(name, value)


@dataclasses.dataclass(frozen=True)
class Choice(Spec):
    """A string that takes one of ``options``.

    Parameters
    ----------
    options : tuple of str
    """

    options: tuple[str, ...]
    coerce = False

    def check(self, name: str, value: Any) -> str:
        if value not in self.options:
            raise ValueError(f"{name} must be one of {self.options}, got {value!r}")
        return value


@dataclasses.dataclass(frozen=True)
class Custom(Spec):
    """A parameter checked by ``function(name, value)``, which returns the value to store.

    Parameters
    ----------
    function : callable
    """

    function: Callable[[str, Any], Any]
    coerce = True

    def check(self, name: str, value: Any) -> Any:
        return self.function(name, value)


def param(default: Any = dataclasses.MISSING, spec: Any = None, **field_options: Any) -> Any:
    """A policy parameter: a dataclass field with its constraint.

    Parameters
    ----------
    default : object
        None given: a required parameter.
    spec : Real, Int, Bool, Choice or Custom
    **field_options
        Passed to :func:`dataclasses.field`.

    Returns
    -------
    dataclasses.Field
    """
    return dataclasses.field(default=default, metadata={"spec": spec}, **field_options)


class Departure(NamedTuple):
    """One departure of the authors' code from the printed algorithm, declared on one line.

    Attributes
    ----------
    field, value : str, object
        The field that switches it on (its default is the printed algorithm) and its value as run.
    what, source : str
        What it changes (ablation label ``"+ " + what``); file and line of the authors' code, or the paper.
    key : str
        Short name in ablation keys (``"+key"``, ``"-key"``).
    minus : str or None
        Label of "as run minus this" (``None``: not listed).
    plus : bool
        Whether "printed plus this" is listed.
    """

    field: str
    value: Any
    what: str
    source: str
    key: str
    minus: str | None = None
    plus: bool = True


class Ablation(NamedTuple):
    """One entry of :meth:`Declared.ablations`; ``key`` is ``"printed"``, ``"authors"``, ``"+k"`` or ``"-k"``.

    Attributes
    ----------
    key, label : str
    policy : Declared
    """

    key: str
    label: str
    policy: Any


class Declared:
    """What every policy derives from its declaration: checks, the authors' configuration, the ablation list.

    ``__post_init__`` checks each field against its :func:`param` constraint, then :meth:`_check_together`.
    """

    departures: ClassVar[tuple[Departure, ...]] = ()
    coerce_params: ClassVar[bool] = True

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            spec = f.metadata.get("spec")
            if spec is None:
                continue
            checked = spec.check(f.name, getattr(self, f.name))
            if self.coerce_params if spec.coerce is None else spec.coerce:
                object.__setattr__(self, f.name, checked)
        self._check_together()

    def _check_together(self) -> None:
        """Constraints between fields (none by default)."""

    @classmethod
    def run_together(cls, policies: Any, env: Any, horizon: int, rng: np.random.Generator) -> list[Records]:
        """One run of each of ``policies`` (settings of this class) on ``rng``: the run each gets alone with ``rng``.

        By default each setting plays alone, one after the other, each from a copy of ``rng`` in its
        present state (the last on ``rng`` itself, which ends as after one run). A class whose
        settings can share one random stream overrides this to play them in lockstep, drawing each
        random number once for all (the hiring policies of Part IV); :func:`privbandits.simulate.simulate`
        calls it for every group of settings it runs together.

        Parameters
        ----------
        policies : sequence of Declared
            At least one.
        env : BanditInstance or HiringEnvironment
            The environment the class plays on.
        horizon : int
        rng : numpy.random.Generator

        Returns
        -------
        list of Records
            One per setting, in order.
        """
        policies = list(policies)
        if not policies:
            raise ValueError("policies must hold at least one setting")
        streams = [copy.deepcopy(rng) for _ in policies[:-1]] + [rng]
        return [q.run(env, horizon, stream) for q, stream in zip(policies, streams)]

    @classmethod
    def check_param(cls, name: str, value: Any) -> Any:
        """``value`` checked against the constraint of field ``name``.

        Parameters
        ----------
        name : str
        value : object

        Returns
        -------
        object
        """
        return cls.__dataclass_fields__[name].metadata["spec"].check(name, value)

    @classmethod
    def as_run_by_authors(cls, *args: Any, **kwargs: Any) -> Any:
        """The policy as the authors' code runs it: every one of ``departures`` switched on.

        Parameters
        ----------
        *args, **kwargs
            The other parameters (``kwargs`` override a departure's value).

        Returns
        -------
        Declared
        """
        if not cls.departures:
            raise ValueError(f"{cls.__name__} declares no departures from the printed algorithm")
        return cls(*args, **{**{d.field: d.value for d in cls.departures}, **kwargs})

    @classmethod
    def ablations(cls, *args: Any, **kwargs: Any) -> list[Ablation]:
        """Printed, printed plus each departure, as run, as run minus each departure.

        Parameters
        ----------
        *args, **kwargs
            Parameters of both the printed and the as-run policy (e.g. ``epsilon``).

        Returns
        -------
        list of Ablation
        """
        printed, as_run = cls(*args, **kwargs), cls.as_run_by_authors(*args, **kwargs)
        default = {f.name: f.default for f in dataclasses.fields(cls)}
        out = [Ablation("printed", "printed", printed)]
        out += [
            Ablation(f"+{d.key}", f"+ {d.what}", dataclasses.replace(printed, **{d.field: d.value}))
            for d in cls.departures
            if d.plus
        ]
        out.append(Ablation("authors", "as run (all)", as_run))
        out += [
            Ablation(f"-{d.key}", d.minus, dataclasses.replace(as_run, **{d.field: default[d.field]}))
            for d in cls.departures
            if d.minus
        ]
        return out


#: Arm records of at most this many rounds (8 MB) are not checked against the memory (a run's cost)
_UNCHECKED_ROUNDS = 10**6
#: What to do instead of one run whose arm record cannot fit in memory
_ONE_RUN_INSTEAD = (
    "a run records one int64 arm per round; run_episodes records an episodic policy's play as episodes, and "
    "privbandits.simulate.simulate_mean_rewards folds runs into mean curves as it makes them"
)


# The two loops take the kernel as a first-class function (numba's FunctionType: typed by its signature,
# called through its address), compiled for that signature by _runs_loop. Typed so, they are cached on
# disk: a process loads them instead of compiling a copy per kernel (a kernel passed as a dispatcher is
# typed by its identity, which numba cannot cache, and is compiled again into the loop in every process).
# They fill rows ``start:`` of the caller's array in place (an array of their own, copied into the
# caller's, cost a third of a 10^5-run sample of DP-SE's 889 rounds). Each run's arms are copied element
# by element: a row assignment (out[i] = arms) would compile numba's shape-mismatch message (its string
# formatting, about 3 CPU s per process).
@njit(nogil=True, cache=True)
def _copy_row(out, i, arms):  # pragma: no cover - compiled
    """``out[i] = arms``; ``ValueError`` if ``arms`` is not one row long."""
    if arms.shape[0] != out.shape[1]:
        raise ValueError("a run's arm sequence is not horizon rounds long")
    for t in range(arms.shape[0]):
        out[i, t] = arms[t]


@njit(nogil=True, cache=True)
def _arms_of_runs(kernel, rng, out, start, args):  # pragma: no cover - compiled
    """Rows ``start:`` of ``out``, one run each, of a kernel that returns the arm sequence itself."""
    for i in range(start, out.shape[0]):
        _copy_row(out, i, kernel(rng, *args))


@njit(nogil=True, cache=True)
def _first_of_runs(kernel, rng, out, start, args):  # pragma: no cover - compiled
    """Rows ``start:`` of ``out``, one run each, of a kernel that returns a tuple whose first entry is the arms."""
    for i in range(start, out.shape[0]):
        _copy_row(out, i, kernel(rng, *args)[0])


def _runs_loop(loop: Any, kernel: Any, rng: np.random.Generator, args: tuple) -> Callable:
    """``loop``'s compiled entry for ``kernel(rng, *args)`` passed as a first-class function (disk-cached)."""
    argtypes = tuple(kernel.typeof_pyval(a) for a in (rng, *args))
    if argtypes not in kernel.overloads:
        kernel.compile(argtypes)
    signature = kernel.overloads[argtypes].signature
    return loop.compile(
        (types.FunctionType(signature), argtypes[0], types.int64[:, ::1], types.int64, kernel.typeof_pyval(args))
    )


#: The kernel's parameters before those of its ``binding``: ``(rng, *instance.kernel_args(), horizon)``
_KERNEL_LEADING = ("rng", "kinds", "params", "table", "horizon")
#: The step functions' parameters before the kernel's bound ones (see :class:`Agent`)
_STEP_LEADING = {
    "_init": ("k", "horizon"),
    "_choose": ("rng", "state", "t", "horizon"),
    "_update": ("rng", "state", "t", "arm", "reward", "horizon"),
}
#: ``_update``'s leading parameters for a policy that plays episodes (``_step_episodes``): the episode's
#: first round, arm, length and reward sum
_EPISODE_UPDATE_LEADING = ("rng", "state", "t", "arm", "length", "total", "horizon")


def _declared_fields(cls: type) -> set[str]:
    """The dataclass fields ``cls`` and its bases declare (read from annotations: the class is not a dataclass yet)."""
    out = set()
    for klass in cls.__mro__:
        for name, annotation in klass.__dict__.get("__annotations__", {}).items():
            if not str(annotation).startswith(("ClassVar", "typing.ClassVar", "dataclasses.KW_ONLY", "KW_ONLY")):
                out.add(name)
    return out


def _entry_text(entry: Any) -> str:
    """A binding entry (a tuple or a constant) as an error message names it."""
    return f"the tuple {entry!r}" if isinstance(entry, tuple) else f"the constant {entry!r}"


def _check_binding(cls: type) -> None:
    """``TypeError`` unless ``cls.binding`` matches its compiled kernels' parameters, by position and name."""
    # Each kernel (``_kernel``, and ``_episode_kernel`` if declared) takes, after _KERNEL_LEADING, one
    # parameter per entry of ``binding``; an entry that names a field (or an attribute, ``_x`` binding a
    # parameter ``x``) is the parameter of that name, and a parameter named after a field receives no
    # constant or tuple (a computed entry may derive its value from the field, as DP-SE's ``beta``).
    # Skipped for a kernel chosen per instance (a property, not a compiled function) and for a class
    # that builds the call itself (``_kernel_call`` overridden, no ``binding``).
    steps = [name for name in _STEP_LEADING if getattr(cls, name, None) is not None]
    if not hasattr(getattr(cls, "_kernel", None), "py_func") or (
        cls._kernel_call is not Policy._kernel_call and not cls.binding
    ):
        if steps and cls._step_args is Policy._step_args:
            raise TypeError(
                f"{cls.__name__} declares {', '.join(steps)} but its kernel's arguments are not its binding: "
                "override _step_args to give the step functions' bound arguments"
            )
        return
    fields = _declared_fields(cls)
    lead = len(_KERNEL_LEADING)
    for kernel in (cls._kernel, cls._episode_kernel):
        if not hasattr(kernel, "py_func"):
            continue
        where = f"kernel {kernel.__name__} of {cls.__name__}"
        names = list(inspect.signature(kernel.py_func).parameters)
        rest = names[lead:]
        if len(rest) != len(cls.binding):
            raise TypeError(
                f"{cls.__name__}.binding has {len(cls.binding)} entries, but {where} takes {len(rest)} "
                f"parameters after {', '.join(names[:lead])}: {rest}"
            )
        for parameter, entry in zip(rest, cls.binding):
            if isinstance(entry, str):
                if entry not in fields and not hasattr(cls, entry):
                    raise TypeError(f"{cls.__name__}.binding names {entry!r}, neither a field nor an attribute")
                if parameter != entry.lstrip("_"):
                    raise TypeError(
                        f"{cls.__name__}.binding passes the field {entry!r} to the parameter {parameter!r} of {where}: "
                        f"name that parameter {entry.lstrip('_')!r}, or bind the field it names"
                    )
            elif parameter in fields and not callable(entry):  # a computed entry may derive the field's value
                raise TypeError(
                    f"{cls.__name__}.binding passes {_entry_text(entry)} to the parameter {parameter!r} of {where}, "
                    f"which is named after the field {parameter!r}: bind the field by its name, or rename the parameter"
                )
    _check_steps(cls, list(inspect.signature(cls._kernel.py_func).parameters)[lead:])


def _check_steps(cls: type, bound: list[str]) -> None:
    """``TypeError`` unless ``_init``, ``_choose``, ``_update`` are declared together and take the bound parameters."""
    # the step functions take, after their own leading parameters (_STEP_LEADING), the parameters the
    # kernel's binding fills, by the same names and in the same order, so one binding serves all four
    steps = {name: getattr(cls, name, None) for name in _STEP_LEADING}
    declared = [name for name, step in steps.items() if step is not None]
    if not declared:
        return
    if len(declared) != len(steps):
        missing = sorted(set(steps) - set(declared))
        raise TypeError(
            f"{cls.__name__} declares {', '.join(declared)} but not {', '.join(missing)}: declare all three"
        )
    if cls._step_records is None and (len(cls.records) > 1 or not cls.records_arms):
        raise TypeError(f"{cls.__name__} records {cls.records[1:]} besides the arms: declare _step_records(state)")
    if cls._step_stops and cls._step_episodes:
        raise TypeError(f"{cls.__name__} declares _step_stops and _step_episodes: a stopping policy's steps are rounds")
    for name, step in steps.items():
        if not hasattr(step, "py_func"):
            raise TypeError(f"{cls.__name__}.{name} must be a compiled (numba) function, got {step!r}")
        names = list(inspect.signature(step.py_func).parameters)
        lead = _EPISODE_UPDATE_LEADING if name == "_update" and cls._step_episodes else _STEP_LEADING[name]
        if tuple(names[: len(lead)]) != lead or names[len(lead) :] != bound:
            raise TypeError(
                f"{name} {step.__name__} of {cls.__name__} takes {names}, but must take "
                f"{list(lead) + bound}: its leading parameters, then the kernel's bound parameters {bound}"
            )


@dataclasses.dataclass(frozen=True)
class Policy(Declared, abc.ABC):
    """Base class of all bandit algorithms: a policy declares, the base derives.

    A subclass declares its fields with :func:`param`; ``name`` (as the papers write it; plots pick
    its colour by it), ``private``, ``records_arms`` (``False`` for stopping rules whose horizon is a
    cap), ``anytime``; ``_kernel`` and ``binding``, the kernel's arguments after
    ``(rng, *instance.kernel_args(), horizon)``: field names, tuples of them, callables
    ``f(policy, horizon)`` or constants, checked once when the class is created against the
    compiled kernel's parameters (a field is bound to the parameter of its name); ``records``, the
    kernel's outputs in order; ``_episode_kernel`` if it can record episodes; ``departures``; and, if
    private, ``accounting``.
    """

    name: ClassVar[str] = "policy"
    private: ClassVar[bool] = False
    records_arms: ClassVar[bool] = True
    #: the play never reads the horizon (beyond stopping there), so the first ``h`` rounds of a run are
    #: the run of horizon ``h`` with the same generator, so one run gives every horizon
    #: (``tests/test_simulate.py`` checks this for every policy that sets it)
    anytime: ClassVar[bool] = False
    binding: ClassVar[tuple] = ()
    records: ClassVar[tuple[str, ...]] = ("arms",)
    _episode_kernel: ClassVar[Any] = None
    #: the step functions of :meth:`agent` (``None``: the policy has no agent yet), the kernel's loop body
    _init: ClassVar[Any] = None
    _choose: ClassVar[Any] = None
    _update: ClassVar[Any] = None
    #: ``f(state)``: the records after ``"arms"`` (a tuple, in :attr:`records` order) from the step state; every
    #: record for a policy that records no arms (``records_arms = False``)
    _step_records: ClassVar[Any] = None
    #: ``True``: the steps play episodes: ``_choose`` returns ``(arm, length)``, the arm to play for ``length``
    #: rounds, and ``_update(rng, state, t, arm, length, total, horizon, ...)`` takes the episode's first
    #: round and reward sum once it ends (the kernel draws that sum at once, ``draw_reward_sum``)
    _step_episodes: ClassVar[bool] = False
    #: ``True``: the policy stops on its own (a stopping rule, ``records_arms = False``): ``_choose`` returns -1
    #: at the round where it stops, and the kernel, like the agent, plays no further round
    _step_stops: ClassVar[bool] = False
    #: what the privacy guarantee rests on (a result or an argument), or ``None`` for an algorithm without one
    accounting: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # the binding is checked once, here, against the compiled kernel's signature
        super().__init_subclass__(**kwargs)
        _check_binding(cls)

    @property
    @abc.abstractmethod
    def _kernel(self) -> Callable:
        """The compiled kernel: ``kernel(rng, kinds, params, table, horizon, *binding)`` plays one run."""

    @property
    def label(self) -> str:
        """Name plus privacy level, e.g. ``"DP-UCB (ε=0.1)"``, for legends."""
        eps = getattr(self, "epsilon", None)
        if eps is None or (isinstance(eps, float) and math.isinf(eps)):
            return self.name
        return f"{self.name} (ε={eps:g})"

    def config(self) -> dict[str, Any]:
        """Everything that determines the behaviour, JSON-able (cache keys): the class under ``"policy"``, every field.

        Returns
        -------
        dict
        """
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {"policy": f"{type(self).__module__}.{type(self).__qualname__}", **fields}

    def guarantee(self, horizon: int, delta: float = 0.0) -> tuple[float, float, bool]:
        """End-to-end ``(epsilon, delta, proven)`` of a run of ``horizon`` steps (default: pure ``epsilon``).

        Parameters
        ----------
        horizon : int
        delta : float
            Where a composed guarantee is stated.

        Returns
        -------
        tuple of (float, float, bool)
        """
        if not self.private:
            return math.inf, 0.0, True  # no privacy: epsilon = inf, trivially
        return float(self.epsilon), 0.0, True

    @classmethod
    def calibrated(
        cls, epsilon: float, delta: float, horizon: int | None, **kwargs: Any
    ) -> tuple[Policy, dict[str, Any], str]:
        """The policy for a target end-to-end ``(epsilon, delta)`` at ``horizon`` (default: the target epsilon).

        Parameters
        ----------
        epsilon, delta : float
        horizon : int or None
        **kwargs
            Further constructor arguments.

        Returns
        -------
        tuple
            ``(policy, params, accounting)``, ``params`` the constructor parameters that carry the budget.
        """
        params = {"epsilon": epsilon}
        return cls(**params, **kwargs), params, cls.accounting

    @classmethod
    def _needs_horizon(cls, horizon: int | None) -> None:
        """Raise unless ``horizon`` is given (for accountings that depend on ``T``)."""
        if horizon is None:
            raise ValueError(f"horizon is required for {cls.name} (its accounting depends on T)")

    def min_horizon(self, n_arms: int) -> int:
        """Smallest horizon the algorithm accepts (default: one pull of every arm).

        Parameters
        ----------
        n_arms : int

        Returns
        -------
        int
        """
        return n_arms

    def run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        """Play ``horizon`` rounds on ``instance`` (its reward table, if any, replaces the draws).

        Parameters
        ----------
        instance : BanditInstance
        horizon : int
            At least :meth:`min_horizon`, at most the reward table's length.
        rng : numpy.random.Generator

        Returns
        -------
        Records
        """
        horizon = self._check_run(instance, horizon, rng)
        if self.records_arms and horizon > _UNCHECKED_ROUNDS:
            check_memory(f"horizon={horizon}", 8 * horizon, _ONE_RUN_INSTEAD)
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
        return self._episode_kernel is not None

    def run_episodes(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        """The run of :meth:`run` (same draws) with its play recorded as episodes.

        Parameters
        ----------
        instance : BanditInstance
        horizon : int
        rng : numpy.random.Generator

        Returns
        -------
        Records
            ``"episodes"`` in place of ``"arms"``, shape ``(2, n)``: each episode's first round and arm;
            ``arms = np.repeat(episodes[1], np.diff(np.r_[episodes[0], horizon]))``.
        """
        horizon = self._check_run(instance, horizon, rng)
        if not self.episodic:
            raise ValueError(f"{type(self).__name__} does not record its play as episodes (episodic is False)")
        _, args = self._kernel_call(instance, horizon)
        records = self._records(self._episode_kernel(rng, *args))
        records["episodes"] = records.pop("arms")
        return records

    def _records(self, raw: Any) -> Records:
        """The records from the kernel's raw output: :attr:`records` named in order."""
        raw = raw if isinstance(raw, tuple) else (raw,)
        return {name: np.asarray(value) for name, value in zip(self.records, raw)}

    def sample_arms(self, instance: BanditInstance, horizon: int, rng: np.random.Generator, n: int) -> np.ndarray:
        """The arms of ``n`` runs on one generator, played in compiled code: bit for bit ``n`` calls of :meth:`run`.

        Parameters
        ----------
        instance : BanditInstance
        horizon : int
        rng : numpy.random.Generator
        n : int >= 1

        Returns
        -------
        numpy.ndarray, shape (n, horizon), int64
        """
        n = check_int("n", n, minimum=1)
        if not self.records_arms:
            raise ValueError(f"{type(self).__name__} records no arm sequence (records_arms is False)")
        checked = self._check_run(instance, horizon, rng)
        if n * checked > _UNCHECKED_ROUNDS:
            check_memory(f"horizon={checked} with n={n}", 8 * n * checked, "sample fewer runs at a time")
        first = self.run(instance, horizon, rng)["arms"]  # validates, and compiles the kernel once
        horizon = int(np.shape(first)[0])
        kernel, args = self._kernel_call(instance, horizon)
        out = np.empty((n, horizon), dtype=np.int64)
        out[0] = first
        if n > 1:
            loop = _runs_loop(_arms_of_runs if self.records == ("arms",) else _first_of_runs, kernel, rng, args)
            loop(kernel, rng, out, 1, args)  # rows 1 to n - 1
        return out

    @property
    def has_agent(self) -> bool:
        """Whether :meth:`agent` is available (the policy declares its kernel's step functions)."""
        return self._init is not None

    def agent(self, n_arms: int, horizon: int, rng: np.random.Generator | int) -> Agent:
        """A learner to drive one round at a time, with any environment: the kernel's own compiled steps.

        The run of :meth:`run` is the loop ``while not agent.done``: ``arm = agent.choose()``, the
        environment's reward, ``agent.update(reward)``: an agent driven with the package's
        :func:`~privbandits.environments.draw_reward` on the agent's generator plays :meth:`run`'s arms
        bit for bit (the same compiled code on the same state; ``tests/test_agents.py``). An episodic
        policy's agent (see :class:`Agent`) does so on a reward table, and in distribution on drawn rewards.
        A policy that stops on its own (the fixed-confidence thresholding rule) sets :attr:`Agent.done`
        when it stops, at the round where :meth:`run` stops; its answer is then in :meth:`Agent.records`.

        Parameters
        ----------
        n_arms : int >= 1
        horizon : int
            At least :meth:`min_horizon`; the agent plays at most this many rounds, and the privacy
            guarantee (:meth:`Agent.guarantee`) is that of a run of this length.
        rng : numpy.random.Generator or int
            The generator the policy draws its randomness (and its privacy noise) from, or a seed
            (``int >= 0``) for ``numpy.random.default_rng``.

        Returns
        -------
        Agent
        """
        return Agent(self, n_arms, horizon, rng)

    def _step_args(self, n_arms: int, horizon: int) -> tuple:
        """The step functions' bound arguments (the kernel's after ``horizon``)."""
        return self._bound(self.binding, horizon)

    def _kernel_call(self, instance: BanditInstance, horizon: int) -> tuple[Callable, tuple]:
        """The compiled kernel and its arguments after ``rng``: ``kernel(rng, *args)`` plays one run."""
        return self._kernel, (*instance.kernel_args(), horizon, *self._bound(self.binding, horizon))

    def _bound(self, entries: tuple, horizon: int) -> tuple:
        """The values of :attr:`binding` entries (see the class docstring)."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        out = []
        for entry in entries:
            if isinstance(entry, tuple):
                out.append(self._bound(entry, horizon))
            elif isinstance(entry, str):
                value = getattr(self, entry)
                real = entry in fields and isinstance(fields[entry].metadata.get("spec"), Real)
                out.append(float(value) if real else value)
            elif callable(entry):
                out.append(entry(self, horizon))
            else:
                out.append(entry)
        return tuple(out)

    def _play(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Any:
        """One run of the kernel of :meth:`_kernel_call`: its raw output."""
        kernel, args = self._kernel_call(instance, horizon)
        return kernel(rng, *args)

    def _run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        """One run's records; ``horizon`` and ``instance`` are already validated."""
        return self._records(self._play(instance, horizon, rng))


class Agent:
    """A policy driven one round at a time: ``arm = agent.choose()``, then ``agent.update(reward)``.

    Made by :meth:`Policy.agent`. The policy's whole-run kernel is the loop of its three compiled
    step functions (``_init``, ``_choose``, ``_update``, each inlined into the kernel); the agent calls
    the same functions on the same state from Python, so it is the algorithm of the policy's page
    (paper, algorithm and equation are cited there) and has its privacy guarantee
    (:meth:`guarantee`), whatever environment supplies the rewards. All randomness, the privacy
    noise included, is drawn from the agent's generator ``rng``.

    An episodic policy (AdaP-KLUCB, AdaP-UCB, DP-SE, ...) plays one arm for a whole episode and updates
    once on the episode's reward sum, which its kernel draws at once (``draw_reward_sum``: one Binomial
    draw for a Bernoulli arm). Its agent returns the episode's arm from :meth:`choose` at every round of
    the episode, adds up the rewards given to :meth:`update`, and runs the policy's update on their sum
    when the episode ends. Its play is then :meth:`Policy.run`'s bit for bit on a reward table (the same
    sum, added in the same order) and equal in distribution on drawn rewards (a sum of per-round draws
    is distributed as the kernel's single draw, but the generator's stream differs).

    A policy that stops on its own (``FixedConfidenceThresholding``, Algorithm 2 of
    ``barbara2025thresholding``: its ``horizon`` is only a cap) decides after each :meth:`update` whether
    it plays another round. Once it stops, :attr:`stopped` and :attr:`done` are ``True``, :meth:`choose`
    raises ``RuntimeError`` saying the round it stopped at, and :meth:`records` holds its answer (the
    records of :meth:`Policy.run`: ``pulls``, ``answer``, ``stop_time``, ``stopped``). Drive every agent
    with ``while not agent.done``::

        while not agent.done:
            arm = agent.choose()
            agent.update(my_reward(arm))
        agent.records()

    Parameters
    ----------
    policy : Policy
        A policy with an agent (``policy.has_agent``).
    n_arms : int >= 1
    horizon : int
        At least ``policy.min_horizon(n_arms)``: the rounds the agent may play (its privacy accounting
        is for this many).
    rng : numpy.random.Generator or int
        Or a seed (``int >= 0``) for ``numpy.random.default_rng``.

    Attributes
    ----------
    policy : Policy
    n_arms, horizon : int
    rng : numpy.random.Generator
    t : int
        Rounds completed (``update`` calls).
    done : bool
        No round is left to play: the policy stopped on its own, or ``t`` reached ``horizon``.
    stopped : bool
        The policy stopped on its own (only a stopping rule does).
    """

    def __init__(self, policy: Policy, n_arms: int, horizon: int, rng: np.random.Generator | int) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {type(policy).__name__}")
        if not policy.has_agent:
            raise NotImplementedError(f"{policy!r} has no step agent yet (its kernel is not split)")
        n_arms = check_int("n_arms", n_arms, minimum=1)
        horizon = check_int("horizon", horizon, minimum=policy.min_horizon(n_arms))
        if not isinstance(rng, np.random.Generator):
            if isinstance(rng, bool) or not isinstance(rng, (int, np.integer)) or rng < 0:
                raise ValueError(f"rng must be a numpy.random.Generator or a seed (int >= 0), got {rng!r}")
            rng = np.random.default_rng(int(rng))
        self.policy = policy
        self.n_arms = n_arms
        self.horizon = horizon
        self.rng = rng
        self.t = 0
        self._args = policy._step_args(n_arms, horizon)
        self._state = policy._init(n_arms, horizon, *self._args)
        self._arms = np.empty(horizon, dtype=np.int64)
        self._pending: int | None = None
        # a stopping policy's choice for round t, made as soon as round t - 1 ends (-1: it has stopped); the
        # generator is read in the kernel's order (_choose after the last _update, before the next reward)
        self._next = self._step_choose() if policy._step_stops else 0
        # episodic steps: the open episode's first round, arm, length and reward sum so far
        self._episode = (0, 0, 0)
        self._total = 0.0

    def __repr__(self) -> str:
        return f"Agent({self.policy!r}, n_arms={self.n_arms}, horizon={self.horizon}, t={self.t})"

    @property
    def stopped(self) -> bool:
        """Whether the policy has stopped on its own (a stopping rule's answer is then final)."""
        return self._next < 0

    @property
    def done(self) -> bool:
        """Whether the interaction is over: the policy stopped on its own, or the horizon is reached."""
        return self.stopped or self.t >= self.horizon

    def _step_choose(self) -> int:
        """A non-episodic policy's ``_choose`` at round :attr:`t`."""
        return int(self.policy._choose(self.rng, self._state, self.t, self.horizon, *self._args))

    def choose(self) -> int:
        """The arm to play this round (0-based); call :meth:`update` with its reward before the next.

        Returns
        -------
        int
            In ``[0, n_arms)``.

        Raises
        ------
        RuntimeError
            If the last arm's reward is not reported yet, or :attr:`done`: the policy stopped on its own
            (the message says at which round; the answer is in :meth:`records`) or the horizon is played.
        """
        if self._pending is not None:
            raise RuntimeError(
                f"choose() called twice without update(): call update(reward) with arm {self._pending}'s reward first"
            )
        if self.stopped:
            raise RuntimeError(
                f"{self.policy.name} stopped on its own at round {self.t} (after {self.t} rounds, before its cap of "
                f"{self.horizon}): its answer is in records() ({', '.join(self.policy.records)}); agent.done is True"
            )
        if self.t >= self.horizon:
            raise RuntimeError(f"the agent has played its horizon of {self.horizon} rounds; make a new agent")
        if self.policy._step_stops:
            arm = self._next
        elif not self.policy._step_episodes:
            arm = self._step_choose()
        elif self._episode[0] + self._episode[2] > self.t:  # an episode is open: its arm
            arm = self._episode[1]
        else:
            arm, length = self.policy._choose(self.rng, self._state, self.t, self.horizon, *self._args)
            arm, length = int(arm), int(length)
            self._episode = (self.t, arm, length)
            self._total = 0.0
        self._pending = arm
        return arm

    def update(self, reward: float) -> None:
        """Observe the reward of the arm of the last :meth:`choose`, ending the round.

        Parameters
        ----------
        reward : float in [0, 1]
            The privacy accounting assumes rewards in [0, 1] (sensitivity 1): a value outside, or NaN,
            raises ``ValueError`` and leaves the round open.
        """
        if self._pending is None:
            raise RuntimeError("update() called before choose(): choose an arm, then report its reward")
        if isinstance(reward, np.ndarray) and reward.ndim == 0:  # a 0-d array, e.g. from a numpy reduction
            reward = reward[()]
        if not _is_real(reward) or not 0.0 <= float(reward) <= 1.0:  # NaN fails the comparison
            raise ValueError(f"reward must be a real number in [0, 1], got {reward!r}")
        arm, self._pending = self._pending, None
        if not self.policy._step_episodes:
            self.policy._update(self.rng, self._state, self.t, arm, float(reward), self.horizon, *self._args)
        else:
            self._total += float(reward)
        self._arms[self.t] = arm
        self.t += 1
        if self.policy._step_stops and self.t < self.horizon:  # the next round's arm, or -1: the policy stops
            self._next = self._step_choose()
        start, _, length = self._episode
        if self.policy._step_episodes and self.t == start + length:  # the episode ends: update on its sum
            self.policy._update(self.rng, self._state, start, arm, length, self._total, self.horizon, *self._args)

    def records(self) -> Records:
        """The records so far: ``"arms"`` (the arm of each completed round) and the policy's others.

        Returns
        -------
        Records
            As :meth:`Policy.run` names them; ``"arms"`` has shape ``(t,)``. Read before the last round,
            the other records are the state so far: counts (e.g. ``releases``) cover the completed
            episodes only, and a record filled at fixed rounds (the thresholding policies' answers at
            their checkpoints) holds its initial value (``False``, 0) for a round not yet reached. A
            policy that records no arms (``records_arms`` False: a stopping rule) gives its run's records
            only (``pulls``, ``answer``, ``stop_time``, ``stopped``); before it stops, ``answer`` is the
            set of the round about to be played (its tests run when the previous round ends).
        """
        policy = self.policy
        if not policy.records_arms:
            return policy._records(policy._step_records(self._state))
        extra = policy._step_records(self._state) if len(policy.records) > 1 else ()
        return policy._records((self._arms[: self.t].copy(), *extra))  # named as the policy's run names them

    def guarantee(self, delta: float = 0.0) -> tuple[float, float, bool]:
        """The privacy guarantee of the whole interaction: :meth:`Policy.guarantee` at the agent's horizon.

        Parameters
        ----------
        delta : float in [0, 1]
            As for :meth:`Policy.guarantee`.

        Returns
        -------
        tuple of (float, float, bool)
            ``(epsilon, delta, proven)``.
        """
        return self.policy.guarantee(self.horizon, check_probability("delta", delta, closed=True))


@dataclasses.dataclass(frozen=True)
class ContextualPolicy(Declared, abc.ABC):
    """Base class of Part IV's contextual (hiring) algorithms, declared as :class:`Policy` is."""

    name: ClassVar[str] = "policy"
    private: ClassVar[bool] = False
    coerce_params: ClassVar[bool] = False

    @property
    def label(self) -> str:
        """The algorithm's name, for legends."""
        return self.name

    def config(self) -> dict[str, Any]:
        """Everything that determines the behaviour, JSON-able: the class's name under ``"policy"``, every field.

        Returns
        -------
        dict
        """
        return {"policy": type(self).__qualname__, **dataclasses.asdict(self)}

    def guarantee(self, horizon: int, delta: float = 0.0) -> tuple[float, float, bool]:
        """End-to-end ``(epsilon, delta, proven)`` of a trial of ``horizon`` rounds, as :meth:`Policy.guarantee`.

        A non-private policy returns ``(inf, 0, True)``; a private one states its own.

        Parameters
        ----------
        horizon : int
        delta : float
            Where a composed guarantee is stated (``0``: the policy's own delta).

        Returns
        -------
        tuple of (float, float, bool)
        """
        if not self.private:
            return math.inf, 0.0, True
        raise NotImplementedError(f"{type(self).__name__} is private but states no guarantee")

    def agent(self, env: Any, horizon: int, rng: np.random.Generator | int) -> Any:
        """A learner to drive one round at a time: each round's context in, the group to hire out, then its reward.

        The run of :meth:`run` is the loop: the environment presents one candidate per group,
        ``group = agent.choose(candidates)``, the environment's reward of the hire,
        ``agent.update(reward)``. The agent calls the policy's own compiled steps (the body of its
        kernel) on one setting's state, so an agent driven by an environment that draws the candidates
        and the reward's noise from the agent's generator plays :meth:`run`'s trial bit for bit
        (``tests/test_hiring_agents.py``). See :class:`~privbandits.policies.fair_hiring.policies.HiringAgent`.

        Parameters
        ----------
        env : HiringEnvironment
            The candidate pools (features): ``choose`` takes each group's row within its pool.
        horizon : int >= 1
            The rounds the agent may play; its privacy guarantee is that of a trial of this length.
        rng : numpy.random.Generator or int
            The generator of the policy's randomness (its privacy noise included), or a seed (``int >= 0``).

        Returns
        -------
        HiringAgent

        Raises
        ------
        NotImplementedError
            For a policy without a step agent (a subclass of OFUL, FairGreedy or PrivateFairGreedy too: its steps may
            not be theirs).
        """
        raise NotImplementedError(f"{type(self).__name__} has no step agent")

    @abc.abstractmethod
    def run(self, env: Any, horizon: int, rng: np.random.Generator, **kwargs: Any) -> Records:
        """Play one trial of ``horizon`` rounds on a contextual environment (e.g. a ``HiringEnvironment``).

        Parameters
        ----------
        env : object
        horizon : int
        rng : numpy.random.Generator
        **kwargs
            Options of the subclass.

        Returns
        -------
        Records
        """
