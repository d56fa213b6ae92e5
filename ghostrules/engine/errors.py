"""Errors raised while playing: illegal actions and faults found in a spec at run time."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal here. ``rule_id`` names the rule that forbids it."""

    def __init__(self, message: str, rule_id: str = "", action: object = None) -> None:
        super().__init__(f"{message}" + (f" [{rule_id}]" if rule_id else ""))
        self.rule_id = rule_id
        self.action = action


class SpecRuntimeError(RuntimeError):
    """A spec did something impossible while running (e.g. moved tokens a cell does not hold).

    It names the rule and the spec line, so the spec can be fixed; the state is left unchanged."""

    def __init__(self, message: str, rule_id: str = "", where: str = "") -> None:
        super().__init__(f"{where}: {message} (rule {rule_id})" if where else message)
        self.rule_id = rule_id
        self.where = where
