"""``tokens.json``: a seat's token is found by its table's id wherever the table went, moves
with the table, and files of the older format (keyed by address only) are still read."""

from __future__ import annotations

import json

from rum500 import tokens

OLD, NEW = "192.168.1.20:5500", "192.168.1.9:40233"


def entries() -> dict[str, dict]:
    return json.loads((tokens.data_dir() / tokens.FILE_NAME).read_text(encoding="utf-8"))


def test_a_token_is_found_by_its_table_id_at_any_address() -> None:
    tokens.put(OLD, "ann-token", "Ann", 0, table_id="3fa665586b75938c", table="Kitchen")
    found = tokens.get(NEW, "Ann", table_id="3fa665586b75938c")
    assert found is not None and found["token"] == "ann-token"
    assert (found["address"], found["table"], found["seat"]) == (OLD, "Kitchen", 0)
    assert tokens.get(NEW, "Ann") is None  # by address alone: nothing saved there
    assert tokens.get(NEW, "Bob", table_id="3fa665586b75938c") is None  # another player's


def test_the_table_id_wins_over_the_address() -> None:
    tokens.put(OLD, "kitchen-token", "Ann", 0, table_id="aaaaaaaaaaaaaaaa")
    tokens.put(NEW, "den-token", "Ann", 2, table_id="bbbbbbbbbbbbbbbb")
    assert tokens.get(NEW, "Ann", table_id="aaaaaaaaaaaaaaaa")["token"] == "kitchen-token"
    assert tokens.get(NEW, "Ann")["token"] == "den-token"
    # another table's entry at that address is not taken when the table's id is known
    assert tokens.get(NEW, "Ann", table_id="cccccccccccccccc") is None


def test_the_entry_moves_with_the_table() -> None:
    tokens.put(OLD, "ann-token", "Ann", 1, table_id="3fa665586b75938c", table="Kitchen")
    tokens.put(NEW, "ann-token", "Ann", 1, table_id="3fa665586b75938c", table="Kitchen")
    (entry,) = entries().values()
    assert (entry["address"], entry["token"], entry["table_id"]) == (
        NEW,
        "ann-token",
        "3fa665586b75938c",
    )
    assert tokens.get(OLD, "Ann") is None
    assert tokens.get(NEW, "Ann")["token"] == "ann-token"
    assert tokens.elsewhere(OLD, "Ann") and not tokens.elsewhere(NEW, "Ann")


def test_a_file_of_the_older_format_is_still_read_and_its_entry_moves() -> None:
    path = tokens.data_dir() / tokens.FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    old = {
        f"{OLD} Ann": {"token": "old-token", "name": "Ann", "seat": 1, "at": 1.0},
        f"{OLD} Bob": {"token": "bob-token", "name": "Bob", "seat": 2, "at": 2.0},
    }
    path.write_text(json.dumps(old), encoding="utf-8")
    assert tokens.get(OLD, "Ann")["token"] == "old-token"
    assert tokens.get(OLD)["token"] == "bob-token"  # no name: the newest of the address
    # the table's id is known now (welcome): an entry of no id at that address is still it
    assert tokens.get(OLD, "Ann", table_id="3fa665586b75938c")["token"] == "old-token"
    tokens.put(NEW, "old-token", "Ann", 1, table_id="3fa665586b75938c")
    assert tokens.get(OLD, "Ann") is None
    assert tokens.get(OLD, "Bob")["token"] == "bob-token"
    assert len(entries()) == 2


def test_forget_drops_only_the_refused_entry() -> None:
    tokens.put(OLD, "ann-token", "Ann", 0, table_id="3fa665586b75938c")
    tokens.put(OLD, "bob-token", "Bob", 1, table_id="3fa665586b75938c")
    tokens.put(NEW, "den-token", "Ann", 2, table_id="bbbbbbbbbbbbbbbb")
    tokens.forget(NEW, "ann-token", "3fa665586b75938c")  # refused by that table, elsewhere
    assert tokens.get(OLD, "Ann", table_id="3fa665586b75938c") is None
    assert tokens.get(OLD, "Bob", table_id="3fa665586b75938c")["token"] == "bob-token"
    assert tokens.get(NEW, "Ann")["token"] == "den-token"
