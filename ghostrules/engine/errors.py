"""Errors raised while playing: illegal actions, the action limit of play() and faults found in a spec at run time."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal here. ``rule_id`` names the rule that forbids it."""

    def __init__(self, message: str, rule_id: str = "", action: object = None) -> None:
        super().__init__(f"{message}" + (f" [{rule_id}]" if rule_id else ""))
        self.rule_id = rule_id
        self.action = action


class ActionLimitError(IllegalActionError):
    """A game played with ``play(..., max_actions=N)`` had not ended after ``N`` actions.

    No action was illegal: the limit only stops games that run too long. It is an
    IllegalActionError so that code catching those keeps working; ``max_actions`` is the limit."""

    def __init__(self, max_actions: int) -> None:
        super().__init__(f"the game did not end within {max_actions} actions (max_actions={max_actions}); "
                         f"no action was illegal")
        self.max_actions = max_actions


class SpecRuntimeError(RuntimeError):
    """A spec did something impossible while running (e.g. moved tokens a cell does not hold).

    It names the rule and the spec line, so the spec can be fixed; the state is left unchanged."""

    def __init__(self, message: str, rule_id: str = "", where: str = "") -> None:
        super().__init__(f"{where}: {message} (rule {rule_id})" if where else message)
        self.rule_id = rule_id
        self.where = where
