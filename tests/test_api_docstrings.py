"""Every public name a developer imports (ghostrules.__all__) and every public method of State and
Game has its own docstring stating its contract (read by docs/api.rst through autodoc)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import ghostrules
from ghostrules import Action, Game, LogEntry, Outcome, State, engine

CONSTANTS = {"CHANCE", "TERMINAL"}  # ints: documented where they are used (State.current_player)
SHORTEST = 25  # characters: a docstring that can state a contract, not a stub


def own_doc(obj: Any) -> str:
    """The docstring written on ``obj`` itself (not one inherited from a base class)."""
    if isinstance(obj, property):
        obj = obj.fget
    if inspect.isclass(obj):
        return (vars(obj).get("__doc__") or "").strip()
    return (getattr(obj, "__doc__", None) or "").strip()


EXPORTED = [name for name in ghostrules.__all__ if name not in CONSTANTS]
ENGINE_EXPORTED = [name for name in engine.__all__ if name not in CONSTANTS | {"RULES"}]


def public_members(cls: type) -> list[str]:
    return sorted(name for name, member in vars(cls).items()
                  if not name.startswith("_") and (callable(member) or isinstance(member, property)))


MEMBERS = [(cls, name) for cls in (State, Game, Action, Outcome, LogEntry) for name in public_members(cls)]


def test_the_names_are_enumerated() -> None:
    assert {"Game", "State", "load_game", "play", "random_policy", "available_games"} <= set(EXPORTED)
    assert CONSTANTS <= set(ghostrules.__all__)
    assert all(isinstance(getattr(ghostrules, name), int) for name in CONSTANTS)
    names = {f"{cls.__name__}.{name}" for cls, name in MEMBERS}
    assert {"State.apply_action", "State.legal_actions", "State.clone", "State.to_json", "State.to_svg",
            "Game.new_initial_state", "Game.state_from_json", "Game.name", "Action.to_json"} <= names
    assert len(MEMBERS) >= 35


@pytest.mark.parametrize("name", EXPORTED)
def test_every_exported_name_has_its_own_docstring(name: str) -> None:
    doc = own_doc(getattr(ghostrules, name))
    assert len(doc) >= SHORTEST, f"ghostrules.{name} has no docstring stating its contract: {doc!r}"


@pytest.mark.parametrize("cls,name", MEMBERS, ids=[f"{c.__name__}.{n}" for c, n in MEMBERS])
def test_every_public_method_has_its_own_docstring(cls: type, name: str) -> None:
    doc = own_doc(vars(cls)[name])
    assert len(doc) >= SHORTEST, f"{cls.__name__}.{name} has no docstring stating its contract: {doc!r}"


@pytest.mark.parametrize("name", ENGINE_EXPORTED)
def test_every_name_the_engine_exports_has_its_own_docstring(name: str) -> None:
    doc = own_doc(getattr(engine, name))
    assert len(doc) >= SHORTEST, f"ghostrules.engine.{name} has no docstring stating its contract: {doc!r}"


def test_the_rl_environment_documents_its_names_and_methods() -> None:
    rl = pytest.importorskip("ghostrules.rl")
    assert set(rl.__all__) == {"GhostrulesAEC", "default_rewards", "env"}
    methods = public_members(rl.GhostrulesAEC)
    assert {"reset", "step", "observe", "render", "close", "observation_space", "action_space"} <= set(methods)
    missing = [name for name in rl.__all__ if len(own_doc(getattr(rl, name))) < SHORTEST]
    missing += [f"GhostrulesAEC.{name}" for name in methods if len(own_doc(vars(rl.GhostrulesAEC)[name])) < SHORTEST]
    assert missing == []
