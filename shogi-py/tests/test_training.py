"""Packed positions (hcp, PackedSfen) and move16 from Python, read back by cshogi."""

import os

import pytest

from shogitk import Move, Position, ShogiError

from conftest import random_positions, require


def _board_fields(sfen):
    """SFEN without its move number (the packed formats do not hold it)."""
    return sfen.split()[:3]


def test_packed_positions_and_moves_equal_cshogi():
    cshogi, np = require("cshogi"), require("numpy", "cshogi")
    board = cshogi.Board()
    hcp = np.zeros(32, np.uint8)
    psfen = np.zeros(32, np.uint8)
    for pos in random_positions(60, 3, (0, 160)):
        board.set_sfen(pos.sfen())
        board.to_hcp(hcp)
        board.to_psfen(psfen)
        assert pos.packed("hcp") == hcp.tobytes(), pos.sfen()
        assert pos.packed("psfen") == psfen.tobytes(), pos.sfen()
        # cshogi reads ours back to the same position, and we read ours back too.
        board.set_hcp(np.frombuffer(pos.packed("hcp"), np.uint8).copy())
        assert _board_fields(board.sfen()) == _board_fields(pos.sfen())
        board.set_psfen(np.frombuffer(pos.packed("psfen"), np.uint8).copy())
        assert _board_fields(board.sfen()) == _board_fields(pos.sfen())
        for fmt in ["hcp", "psfen"]:
            back = Position.from_packed(pos.packed(fmt), fmt)
            assert _board_fields(back.sfen()) == _board_fields(pos.sfen())
        # Every legal move encodes as cshogi encodes it, and decodes back.
        board.set_sfen(pos.sfen())
        theirs = {cshogi.move_to_usi(m): cshogi.move16(m) for m in board.legal_moves}
        for m in pos.legal_moves():
            m16 = m.move16("cshogi")
            assert theirs[str(m)] == m16
            assert m.move16("yaneuraou") == cshogi.move16_to_psv(m16)
            assert pos.move_from_move16(m16, "cshogi") == m
            assert pos.move_from_move16(m.move16("yaneuraou"), "yaneuraou") == m


def test_packed_refusals():
    with pytest.raises(ShogiError, match="(?i)mini"):
        Position.startpos("mini").packed("hcp")
    with pytest.raises(ShogiError):
        Position("4k4/9/4P4/9/9/9/9/9/9 b G 1", relax="tsume").packed("psfen")
    with pytest.raises(ValueError, match="32 bytes"):
        Position.from_packed(b"\x00" * 31)
    with pytest.raises(ShogiError):
        Position.from_packed(b"\xff" * 32, "hcp")
    with pytest.raises(ValueError, match="unknown packed format"):
        Position.startpos().packed("bin")
    start = Position.startpos()
    with pytest.raises(ShogiError):
        start.move_from_move16(Move("7g7e").move16())
    with pytest.raises(ShogiError):
        start.move_from_move16(0)
    with pytest.raises(ValueError, match="unknown move16 format"):
        Move("7g7f").move16("apery")
    assert start.packed()[:4] == bytes([0x58, 0xA4, 0x49, 0x21])


@pytest.mark.parametrize("fmt", ["hcpe", "psv", "positions"])
def test_training_data_equals_the_cli(fmt, shogi_cli, corpus):
    """Record.training gives the bytes `shogi convert --to hcpe|psv|positions` writes."""
    import shogitk

    from conftest import SAMPLES

    for folder in [SAMPLES, corpus]:
        files = shogitk.files(folder)
        assert files
        for path in files[:: max(1, len(files) // 40)]:
            ours = b"" if fmt != "positions" else ""
            for r in shogitk.read(path):
                if r.error is None:
                    ours += r.training(fmt)
            code, _, _ = shogi_cli("convert", path, "--to", fmt, "--out-dir", _tmp(fmt))
            out = _single_output(fmt)
            if out is None:
                assert not ours, path
                continue
            want = out.read_bytes()
            assert (ours if fmt != "positions" else ours.encode()) == want, path


_TMP = {}


def _tmp(fmt):
    import shutil
    import tempfile

    d = _TMP.setdefault(fmt, tempfile.mkdtemp())
    shutil.rmtree(d)
    os.makedirs(d)
    return d


def _single_output(fmt):
    files = [os.path.join(r, f) for r, _, fs in os.walk(_TMP[fmt]) for f in fs]
    if not files:
        return None
    assert len(files) == 1, files
    import pathlib

    return pathlib.Path(files[0])


def test_winner_and_result():
    import shogitk

    from conftest import SAMPLES

    [r] = shogitk.read(SAMPLES / "game.kif")
    assert (r.winner, r.result) == ("gote", "white")
    hcpe = r.training("hcpe")
    assert len(hcpe) == 38 * 30 and len(r.training("psv")) == 40 * 30
    lines = r.training("positions").splitlines()
    assert len(lines) == 30 and lines[0].split("\t")[:2] == [r.start_sfen, "7g7f"]
    assert len(r.training("positions", skip_first=10).splitlines()) == 20
    with pytest.raises(ValueError, match="unknown training format"):
        r.training("bin")
    [unfinished] = shogitk.read("position startpos moves 7g7f\n")
    assert unfinished.result is None and unfinished.winner is None
    assert unfinished.training("hcpe") == b""
    assert len(unfinished.training("hcpe", keep_unfinished=True)) == 38
