#!/usr/bin/env python3
"""Times `shogi serve` over a game database, as a user meets it.

    scripts/bench-serve.py --db games.sqlite [--shogi target/release/shogi] [--runs 5]

- time to first render: headless Chromium (Debian's chromium and chromedriver) opens the page
  and the start position is drawn with its explorer and games (the page's own performance mark,
  from navigation start), the median of --runs loads;
- /api/explore latency, median and p99, over 100 positions drawn from the games (plies 0 to 40
  of ten games spread over the database: the start, common openings, rare positions), against
  the anchor /api/position of the same positions in the same run (HTTP and rules, no database);
- the page's assets: the one page (style and scripts built in), raw and gzipped.

Only the standard library; the database is opened read-only by the server.
"""

import argparse
import gzip
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def get(base, endpoint, **params):
    url = base + endpoint + ("?" + urllib.parse.urlencode(params) if params else "")
    with urllib.request.urlopen(url, timeout=120) as r:
        return r.read()


def get_json(base, endpoint, **params):
    return json.loads(get(base, endpoint, **params))


def timed(base, endpoint, **params):
    t = time.perf_counter()
    get(base, endpoint, **params)
    return (time.perf_counter() - t) * 1e3


def p99(v):
    s = sorted(v)
    return s[min(len(s) - 1, round(0.99 * (len(s) - 1)))]


def positions(base):
    """100 position specs: plies 0..40 of ten games spread over the first 10,000 of the start."""
    total = get_json(base, "/api/games", pos="startpos", limit=1)["total"]
    offsets = [min(total - 1, 10_000) * i // 9 for i in range(10)]
    out = []
    for off in offsets:
        item = get_json(base, "/api/games", pos="startpos", offset=off, limit=1)["items"][0]
        game = get_json(base, "/api/game", path=item["path"], game=item["game"])
        start = game["plies"][0]["board"]["sfen"]
        line = [p["usi"] for p in game["plies"][1:]]
        for ply in [0, 1, 2, 3, 4, 6, 8, 12, 20, 40]:
            moves = line[: min(ply, len(line))]
            out.append(f"sfen {start}" + (" moves " + " ".join(moves) if moves else ""))
    return out


class Chromium:
    """A headless chromium session through chromedriver (WebDriver over HTTP)."""

    def __init__(self, width=1200, height=900):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.driver = subprocess.Popen(
            ["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read())["value"]

    def js(self, script):
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": []})

    def go(self, url):
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        finally:
            self.driver.kill()
            self.driver.wait()


def first_render(base, runs):
    """Milliseconds from navigation start to the start position drawn with explorer and games."""
    b = Chromium()
    times = []
    try:
        for _ in range(runs):
            b.go("about:blank")
            b.go(base + "/")
            mark = "return (performance.getEntriesByName('loaded startpos')[0] || {}).startTime || null;"
            t = time.time()
            while (v := b.js(mark)) is None:
                if time.time() - t > 120:
                    sys.exit("the start position was not drawn within 120 s")
                time.sleep(0.01)
            times.append(v)
    finally:
        b.close()
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--shogi", default=os.path.join(ROOT, "target", "release", "shogi"))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    server = subprocess.Popen(
        [args.shogi, "serve", "--db", args.db, "--bind", "127.0.0.1:0", "--query-time", "120"],
        stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        m = re.search(r"http://([0-9.:]+)/", line)
        if not m:
            sys.exit(f"shogi serve did not start: {line!r}")
        base = "http://" + m.group(1)
        page = get(base, "/")
        specs = positions(base)
        games = [get_json(base, "/api/explore", pos=s)["games"] for s in specs]  # warms caches
        explore = [timed(base, "/api/explore", pos=s) for s in specs]
        anchor = [timed(base, "/api/position", pos=s) for s in specs]
        render = first_render(base, args.runs)
    finally:
        server.terminate()
        server.wait()
    print(f"database: {args.db}")
    print(f"page (all assets built in): {len(page)} bytes, {len(gzip.compress(page))} gzipped")
    print(f"first render of the start position in Chromium: median {statistics.median(render):.0f} ms "
          f"(runs: {', '.join(f'{t:.0f}' for t in render)})")
    print(f"positions: {len(specs)}, reached by {min(games)} to {max(games)} games")
    print(f"/api/explore:  median {statistics.median(explore):.2f} ms, p99 {p99(explore):.2f} ms, "
          f"max {max(explore):.2f} ms")
    print(f"/api/position (anchor, no database): median {statistics.median(anchor):.2f} ms, "
          f"p99 {p99(anchor):.2f} ms")
    print(f"explore / anchor, total time: {sum(explore) / sum(anchor):.1f}x")


if __name__ == "__main__":
    main()
