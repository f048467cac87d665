"""shogitk.Engine: the scripted fake engine (built by cargo) and fairy-stockfish."""

import os
import pathlib
import shutil
import subprocess
import threading
import time

import pytest

import shogitk

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAIRY = "/usr/games/fairy-stockfish"
NY28 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 10P2g2s4n4l4p 1"
S27 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 9P2g2s4n4l5p 1"
M1 = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"


@pytest.fixture(scope="session")
def fake():
    """The fake-usi binary: $SHOGI_FAKE_USI, or built with cargo into the target folder."""
    env = os.environ.get("SHOGI_FAKE_USI")
    if env:
        return env
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    exe = target / "debug" / "fake-usi"
    if not exe.is_file():
        cargo = shutil.which("cargo")
        if cargo is None:
            pytest.fail("fake-usi is not built and cargo is not on PATH")
        subprocess.run([cargo, "build", "--quiet", "-p", "shogi-usi", "--bin", "fake-usi"], cwd=ROOT, check=True)
    return str(exe)


def fairy():
    if os.path.isfile(FAIRY):
        return FAIRY
    if os.environ.get("CI"):
        pytest.fail(f"{FAIRY} is missing and CI is set (scripts/install-engines.sh installs it)")
    pytest.skip(f"{FAIRY} is missing")


def test_analyse_and_play_with_the_fake(fake):
    with shogitk.Engine(fake, options={"Flag": True, "USI_Hash": 32}, args=["--score", "cp 42"]) as e:
        assert e.name == "fake-usi"
        names = [o["name"] for o in e.options]
        assert "Threads" in names and "Clear Hash" in names
        hash_opt = next(o for o in e.options if o["name"] == "USI_Hash")
        assert (hash_opt["type"], hash_opt["default"], hash_opt["min"], hash_opt["max"]) == ("spin", 16, 1, 1024)
        pos = shogitk.Position.startpos()
        infos = e.analyse(pos, nodes=1)
        assert len(infos) == 1
        info = infos[0]
        assert info["multipv"] == 1
        assert info["pv"] == [shogitk.Move("1g1f")]
        assert info["pv_cut"] is None
        assert info["depth"] == 1 and info["nodes"] == 1
        score = info["score"]
        assert (score.relative.kind, score.relative.cp) == ("cp", 42)
        assert score.turn == "black" and score.sente.cp == 42
        pos.push("7g7f")
        score = e.analyse(pos, nodes=1)[0]["score"]
        assert (score.turn, score.relative.cp, score.sente.cp, score.gote.cp) == ("white", 42, -42, 42)
        infos = e.analyse(pos, depth=1, multipv=3)
        assert [i["multipv"] for i in infos] == [1, 2, 3]
        assert e.play(shogitk.Position.startpos(), nodes=1) == shogitk.Move("1g1f")
        e.set_option("Style", "solid")
        with pytest.raises(shogitk.EngineError) as err:
            e.set_option("Hash", 16)
        assert err.value.kind == "unknown_option"
        assert "USI_Hash (spin 1..1024, default 16)" in str(err.value)
        with pytest.raises(ValueError):
            e.analyse(pos)
    with pytest.raises(ValueError):
        e.analyse(pos, nodes=1)


def test_mate_scores_resign_and_declarations(fake):
    with shogitk.Engine(fake, args=["--score", "mate 3,mate -"]) as e:
        s = e.analyse(M1, nodes=1)[0]["score"]
        assert (s.relative.kind, s.relative.mate, s.relative.winning) == ("mate", 3, True)
        s = e.analyse(shogitk.Position(M1), nodes=1)[0]["score"]
        assert (s.relative.kind, s.relative.mate, s.relative.winning) == ("mate_unknown", None, False)
        assert s.sente.winning is False
    with shogitk.Engine(fake, args=["--bestmove", "resign"]) as e:
        assert e.play("startpos", nodes=1) == "resign"
    with shogitk.Engine(fake, args=["--bestmove", "win"]) as e:
        assert e.play(NY28, byoyomi=100) == "win"
        with pytest.raises(shogitk.EngineError, match="false entering-king declaration"):
            e.play(S27, byoyomi=100)


def test_faults_are_engine_errors(fake):
    with pytest.raises(shogitk.EngineError) as err:
        shogitk.Engine("/nonexistent/engine")
    assert err.value.kind == "spawn"
    with shogitk.Engine(fake, args=["--crash-at-go", "1", "--stderr", "dying"]) as e:
        with pytest.raises(shogitk.EngineError) as err:
            e.analyse("startpos", nodes=1)
        # Restarted and retried once: the new process crashes too.
        assert err.value.kind == "crashed"
        assert "stderr: dying" in err.value.last_lines
        assert err.value.last_command == "go nodes 1"
    t = time.monotonic()
    with shogitk.Engine(fake, args=["--hang-on", "go"], timeout=0.5) as e:
        with pytest.raises(shogitk.EngineError) as err:
            e.analyse("startpos", nodes=1)
        assert err.value.kind == "timeout"
    assert time.monotonic() - t < 10
    with shogitk.Engine(fake, args=["--bestmove", "9a9b"]) as e:
        with pytest.raises(shogitk.EngineError) as err:
            e.play("startpos", nodes=1)
        assert err.value.kind == "illegal_move"
    with shogitk.Engine(fake, args=["--pv", "1g1f 1g1f"]) as e:
        info = e.analyse("startpos", nodes=1)[0]
        assert info["pv"] == [shogitk.Move("1g1f")]
        assert info["pv_cut"]["index"] == 1 and info["pv_cut"]["move"] == "1g1f"


def test_the_gil_is_released_while_the_engine_thinks(fake):
    with shogitk.Engine(fake, args=["--think", "400"]) as e:
        done = []
        t = threading.Thread(target=lambda: done.append(e.play("startpos", movetime=400)))
        t.start()
        time.sleep(0.05)
        spins = 0
        start = time.monotonic()
        while time.monotonic() - start < 0.2:
            spins += 1
        t.join()
        assert done == [shogitk.Move("1g1f")]
        # With the GIL held by the search this thread could not have run for those 0.2 s.
        assert spins > 1000


def test_fairy_stockfish():
    path = fairy()
    with shogitk.Engine(path, options={"Hash": 16}, fresh=True) as e:
        assert e.name.startswith("Fairy-Stockfish")
        pos = shogitk.Position.startpos()
        pos.push("7g7f")
        info = e.analyse(pos, nodes=5000)[0]
        assert info["depth"] >= 3
        assert info["pv_cut"] is None and len(info["pv"]) >= 2
        replay = pos.copy()
        for m in info["pv"]:
            replay.push(m)
        s = e.analyse(M1, depth=5)[0]["score"]
        assert (s.relative.kind, s.relative.mate) == ("mate", 1)
        assert e.play(M1, depth=5) == shogitk.Move("G*5b")
        mini = shogitk.Position.startpos("mini")
        m = e.play(mini, depth=4)
        assert m in mini.legal_moves()
        assert len(e.analyse(mini, depth=3, multipv=2)) == 2
