#!/usr/bin/env bash
# Installs the two USI engines the engine tests run against, from Debian's packages:
# fairy-stockfish (/usr/games/fairy-stockfish: standard shogi and Mini Shogi) and gpsshogi
# (/usr/games/gpsusi: standard shogi). Does nothing when both are present. Installing needs
# root (CI is root); anyone else is told what to run, and the engine tests then fail in CI
# (CI=true) or skip with a note elsewhere.
# Also the browser the web pages' tests drive (shogi view, shogi serve): Debian's chromium and
# chromium-driver, with the IPA fonts so that kanji render (the pages use the system's fonts).
set -euo pipefail
if [ "$(id -u)" = 0 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
    || ! fc-list :lang=ja | grep -q .; }; then
  echo "== apt-get install chromium chromium-driver fonts-ipafont-gothic fonts-ipafont-mincho"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver \
    fonts-ipafont-gothic fonts-ipafont-mincho >/dev/null
fi
if [ -x /usr/games/fairy-stockfish ] && [ -x /usr/games/gpsusi ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-engines: not root; run: sudo apt-get install -y fairy-stockfish gpsshogi" >&2
  exit 0
fi
echo "== apt-get install fairy-stockfish gpsshogi"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq fairy-stockfish gpsshogi >/dev/null
