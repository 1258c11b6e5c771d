"""Bandit algorithms. Each module holds one paper's algorithms; all share :class:`Policy`."""

from .base import Policy, Records
from .ucb import UCB

__all__ = ["Policy", "Records", "UCB"]
