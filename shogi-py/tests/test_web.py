"""Record.to_html() against `shogi view`, and shogitk.serve() against `shogi explore`."""

import json
import re
import signal
import subprocess
import sys
import urllib.request

import shogitk

from conftest import SAMPLES


def test_to_html_is_the_page_shogi_view_writes(shogi_cli, tmp_path):
    record = shogitk.read(SAMPLES / "game.kif")[0]
    html = record.to_html()
    out = tmp_path / "game.html"
    code, _, err = shogi_cli("view", SAMPLES / "game.kif", "-o", out)
    assert code == 0, err
    assert html == out.read_text(encoding="utf-8")
    # The moves are in it (as the KIF writer writes them), and nothing is fetched from elsewhere.
    assert "７六歩(77)" in html
    assert re.search(r"https?://(?!www\.w3\.org/2000/svg)", html) is None
    assert "<link" not in html and "src=" not in html


def test_to_html_of_an_unreadable_record_raises(tmp_path):
    bad = tmp_path / "bad.kif"
    bad.write_text("手数----指手--\n   1 ７六歩(77)\n   2 ７五歩(76)\n", encoding="utf-8")
    record = shogitk.read(bad)[0]
    # Read up to the error: the page says where it stopped, as `shogi view` does.
    assert "shown up to there" in record.to_html()


def test_serve_answers_as_the_cli_and_stops(shogi_cli, tmp_path):
    db = tmp_path / "games.sqlite"
    code, _, err = shogi_cli("index", SAMPLES, "--db", db)
    assert code == 0, err
    script = (
        "import shogitk, sys\n"
        f"shogitk.serve({str(db)!r}, bind='127.0.0.1:0', threads=2)\n"
        "print('returned', flush=True)\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = p.stdout.readline()
        m = re.search(r"http://([0-9.]+:[0-9]+)/", line)
        assert m, line + p.stderr.read()
        for pos in ["startpos", "startpos moves 7g7f"]:
            url = f"http://{m.group(1)}/api/explore?pos={urllib.request.quote(pos)}&notation=japanese"
            with urllib.request.urlopen(url, timeout=30) as r:
                api = json.load(r)
            code, out, err = shogi_cli(
                "explore", pos, "--db", db, "--format", "json", "--notation", "japanese"
            )
            assert code == 0, err
            assert api == json.loads(out)
            assert api["games"] >= 1
        p.send_signal(signal.SIGINT)
        rest, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert rest.strip() == "returned"


def test_serve_refuses_a_file_that_is_not_a_database(tmp_path):
    f = tmp_path / "x.sqlite"
    f.write_text("not a database", encoding="utf-8")
    try:
        shogitk.serve(f, bind="127.0.0.1:0")
    except OSError as e:
        assert "x.sqlite" in str(e)
    else:
        raise AssertionError("served a file that is not a game database")
