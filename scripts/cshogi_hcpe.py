"""cshogi's hcpe writer in the style of DLShogi's csa_to_hcpe.py, for the benchmarks.

`hcpe_bytes(files)` parses each UTF-8 KIF file with cshogi, replays it with `Board.is_legal`
(an illegal move ends the run with an error), and returns the entries (`to_hcp`, `move16`,
the game's result) as bytes. bench-python.py calls it in its own process; bench-training.py
runs this file in cshogi's venv: `python cshogi_hcpe.py DIR OUT` writes the entries of every
`.kif` file of DIR to OUT and prints the file and entry counts.
"""

import os
import sys

import cshogi
import cshogi.KIF
import numpy as np


def hcpe_bytes(files):
    """The hcpe entries of the games in `files` (UTF-8 KIF), in file and move order."""
    chunks = []
    for f in files:
        # gen_games writes UTF-8 KIF; parse_file would decode `.kif` as CP932 (it opens the
        # file and calls parse_str, as here).
        with open(f, encoding="utf-8") as t:
            kif = cshogi.KIF.Parser.parse_str(t.read())
        board = cshogi.Board(kif.sfen)
        win = kif.win
        if win is None:
            # cshogi's KIF parser gives no result for 詰み: the side to move at the end is mated.
            end = cshogi.Board(kif.sfen)
            for m in kif.moves:
                end.push(m)
            win = (2 - end.turn) if end.is_game_over() else 0
        hcpes = np.zeros(len(kif.moves), cshogi.HuffmanCodedPosAndEval)
        for i, move in enumerate(kif.moves):
            if not board.is_legal(move):
                sys.exit(f"{f}: illegal move {i + 1}")
            board.to_hcp(hcpes[i]["hcp"])
            hcpes[i]["bestMove16"] = cshogi.move16(move)
            hcpes[i]["gameResult"] = win
            board.push(move)
        chunks.append(hcpes)
    return np.concatenate(chunks).tobytes()


def main():
    d, out = sys.argv[1], sys.argv[2]
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".kif"))
    data = hcpe_bytes(files)
    with open(out, "wb") as f:
        f.write(data)
    print(len(files), len(data) // cshogi.HuffmanCodedPosAndEval.itemsize)


if __name__ == "__main__":
    main()
