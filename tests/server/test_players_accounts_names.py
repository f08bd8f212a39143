"""Players' names and passwords: what a name may be, when two names are one, and how a
password is checked and kept."""

from __future__ import annotations

import asyncio
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baloot.server.players.names import LONGEST, BadName, check_name, name_key
from baloot.server.players.passwords import BadPassword, check_password, hashed, verified

#: Text of any kind: letters of every script, marks, digits, symbols, spaces.
ANY_TEXT = st.text(st.characters(codec="utf-8"), max_size=30)
#: Names a player may have.
NAMES = st.text(
    st.characters(categories=("Lu", "Ll", "Lo", "Nd"), include_characters="_-"),
    min_size=1,
    max_size=LONGEST,
).filter(lambda name: len(unicodedata.normalize("NFKC", name)) <= LONGEST)


@pytest.mark.parametrize(
    "name", ["Saad", "سعد", "عبد_الله", "Ωmega-7", "李小龙", "a", "x" * LONGEST, "नमस्ते"]
)
def test_names_of_any_script_digits_underscores_and_hyphens_are_accepted(name: str) -> None:
    assert check_name(name) == name


def test_a_name_is_kept_in_nfkc_without_surrounding_spaces() -> None:
    assert check_name(" Ｓａａｄ ") == "Saad"
    assert check_name("ﬁne") == "fine"


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("", "at least one character"),
        ("   ", "at least one character"),
        ("x" * (LONGEST + 1), f"at most {LONGEST} characters"),
        ("Saad Ali", "letters, digits, _ and - only"),
        ("saad!", "letters, digits, _ and - only"),
        ("<b>", "letters, digits, _ and - only"),
        ("a\u200bb", "letters, digits, _ and - only"),  # an invisible space
        ("\u064esaad", "starts with a letter"),  # a mark alone first
        ("😀", "letters, digits, _ and - only"),
        (7, "name is text"),
        (None, "name is text"),
    ],
)
def test_a_bad_name_is_refused_with_the_rule_it_breaks(name: object, rule: str) -> None:
    with pytest.raises(BadName, match=rule):
        check_name(name)


def test_names_that_differ_in_case_width_or_confusables_have_one_key() -> None:
    assert name_key("Saad") == name_key("SAAD") == name_key("saad")
    assert name_key("Saad") == name_key("Sаad")  # a Cyrillic "а"
    assert name_key("paypal") == name_key("раураl")  # Cyrillic "р", "а", "у"
    assert name_key("Ali") == name_key("Ａｌｉ")  # fullwidth
    assert name_key("Straße") == name_key("STRASSE")


def test_different_names_have_different_keys() -> None:
    assert name_key("سعد") != name_key("سعيد")
    assert name_key("Saad") != name_key("Saad1")
    assert name_key("ali") != name_key("alia")


@given(ANY_TEXT)
def test_a_key_is_its_own_key(text: str) -> None:
    key = name_key(text)
    assert name_key(key) == key


@given(NAMES)
def test_a_names_key_ignores_case(name: str) -> None:
    assert name_key(name.upper()) == name_key(name.lower()) == name_key(name)


@given(NAMES)
def test_an_accepted_name_is_accepted_again_as_it_is_kept(name: str) -> None:
    kept = check_name(name)
    assert check_name(kept) == kept and name_key(kept) == name_key(name)


@pytest.mark.parametrize(
    ("password", "rule"),
    [
        ("short", "at least 8 characters"),
        ("x" * 129, "at most 128 characters"),
        ("nul\x00in the middle", "cannot be kept"),
        ("lone \ud800 half", "cannot be kept"),
        (12345678, "is text"),
    ],
)
def test_a_bad_password_is_refused_with_the_rule_it_breaks(password: object, rule: str) -> None:
    with pytest.raises(BadPassword, match=rule):
        check_password(password)


def test_a_password_is_kept_as_an_argon2id_hash_that_verifies_it_alone() -> None:
    kept = asyncio.run(hashed("كلمة سر طويلة"))
    assert kept.startswith("$argon2id$") and "كلمة" not in kept
    assert asyncio.run(verified(kept, "كلمة سر طويلة"))
    assert not asyncio.run(verified(kept, "كلمة سر طويلة!"))
    assert not asyncio.run(verified("not a hash", "كلمة سر طويلة"))
    assert not asyncio.run(verified(None, "كلمة سر طويلة"))
