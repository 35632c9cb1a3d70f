"""Mail conversations as data: each case folder holds `.eml` messages and the replies the
judge must send to them, word for word.

    tests/mail/cases/<case>/setup      a preset: none | forming | started | exchange
    tests/mail/cases/<case>/01.eml     a message, as it arrives (headers and body)
    tests/mail/cases/<case>/01.reply   the body of the judge's reply to its sender

The judge runs with a fixed clock, so deadlines in replies are stable. After changing a
wording on purpose, regenerate with PAYJUDGE_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import replace
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from payjudge.store.db import Database
from payjudge.store.mailbox import SqlInbound
from tests.dbfix import migrated_sqlite
from tests.service.judge import TestJudge

CASES = Path(__file__).parent / "cases"
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
UPDATE = os.environ.get("PAYJUDGE_UPDATE_GOLDEN") == "1"
DPJUDGE_MAPS = Path(__file__).resolve().parents[3] / "shared" / "dpjudge-maps" / "maps"
if not DPJUDGE_MAPS.is_dir():
    DPJUDGE_MAPS = Path("/work/shared/dpjudge-maps/maps")


INVESTORS = ["ALICE", "BOB", "CAROL"]


def preset(judge: TestJudge, name: str) -> None:
    if name == "none":
        return
    if name == "exchange":  # an Exchange game in its float, three investors (docs/exchange.md)
        judge.send("gm@pj.test", "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nCAPITAL 70\nSIGNOFF\n")
        for n in INVESTORS:
            judge.send(f"{n.lower()}@pj.test", f"JOIN {n.lower()}@ex1 pw-{n.lower()}\n")
        judge.sent.clear()
        return
    if name == "hundred":  # DPjudge's hundred, read in place: its own calendar (issue 28)
        judge.config = replace(judge.config, maps_dir=str(DPJUDGE_MAPS))
        judge.send("gm@pj.test", "CREATE h1 masterpw\nRULE POWER_CHOICE\nMAP hundred\nSIGNOFF\n")
        for p in ("ENGLAND", "FRANCE", "BURGUNDY"):
            judge.send(f"{p.lower()}@pj.test", f"JOIN {p.lower()}@h1 pw-{p.lower()}\n")
        judge.sent.clear()
        return
    judge.send("gm@pj.test", "CREATE pay7 masterpw\nRULE POWER_CHOICE\nTIMING MOVE 2D AT 18:00\nSIGNOFF\n")
    joining = POWERS if name == "started" else ["ENGLAND", "FRANCE"]
    for p in joining:
        judge.send(f"{p.lower()}@pj.test", f"JOIN {p.lower()}@pay7 pw-{p.lower()}\n")
    judge.sent.clear()


def _normal(text: str) -> str:
    text = _CODE.sub(r"\1<code>", text)  # an observer's code is keyed by the game's secret
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n")).strip() + "\n"


_CODE = re.compile(r"(CONFIRM \S+ )[a-z2-7]{16}\b")


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_conversation(case: str):
    folder = CASES / case
    if (folder / "setup").read_text().strip() == "hundred" and not DPJUDGE_MAPS.is_dir():
        pytest.skip("DPjudge's map files (../shared/dpjudge-maps) are not here")
    tmp = Path(tempfile.mkdtemp(prefix="pj-case-"))
    try:
        judge = TestJudge(Database(migrated_sqlite(tmp / "judge.sqlite")))
        preset(judge, (folder / "setup").read_text().strip())
        for eml in sorted(folder.glob("*.eml")):
            raw = eml.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            sender = message_from_bytes(raw, policy=policy.default)["From"].addresses[0].addr_spec.lower()
            judge.sent.clear()
            SqlInbound(judge.db).store_inbound(raw, source="smtp")
            judge.process()
            replies = [m for m in judge.sent if m.kind == "reply" and sender in m.to]
            assert len(replies) == 1, f"{eml.name}: {len(replies)} replies to {sender}"
            got = _normal(replies[0].body)
            expected_file = eml.with_suffix(".reply")
            if UPDATE:
                expected_file.write_text(got)
                continue
            assert expected_file.exists(), f"{expected_file} missing (PAYJUDGE_UPDATE_GOLDEN=1)"
            assert got == _normal(expected_file.read_text()), f"{case}/{eml.name}"
        judge.db.dispose()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
