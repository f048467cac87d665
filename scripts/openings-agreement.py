#!/usr/bin/env python3
"""How often our opening and castle tags agree with labelled records.

Runs `shogi stats --tags --format jsonl` over ../shared/corpus-openings (337 labelled games:
per-side labels written by programs, two human `戦型` headers) and over ../shared/corpus (the
records that carry a `戦型：` header), and reports:

* per side, openings and castles: of the labels our taxonomy knows (after aliases), how many
  we gave too (the tag itself or a descendant), and how many of our tags that the labelling
  program could have written it did not write (pyshogi-db rows assert whole sets);
* our main 戦型 (`opening`) against each human `戦型` header: equal, or in the same family;
* every disagreement, one per line, for reading (--list).

    scripts/openings-agreement.py [--shogi target/release/shogi] [--list] [--rules FILE]

The label names of pyshogi-db are English enum names; GLOSS maps those our taxonomy has to
our names (the collector's gloss in corpus-openings/README.md). Labels our taxonomy does not
have are counted apart ("not in our taxonomy"), never as disagreements.
"""

import argparse
import collections
import csv
import json
import os
import subprocess
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

# pyshogi-db enum names -> our names (only those our built-in rules hold).
GLOSS = {
    "FORTH_FILE_ROOK": "四間飛車", "GOKIGEN_CENTRAL_ROOK": "ゴキゲン中飛車", "URESINO_STYLE": "嬉野流",
    "QUICK_ISHIDA": "早石田", "THIRD_FILE_ROOK": "三間飛車", "DOUBLE_WING_ATTACK": "相掛かり",
    "BISHOP_EXCHANGE": "角換わり", "RIGHT_HAND_FORTH_FILE_ROOK": "右四間飛車",
    "DOUBLE_SWINGING_ROOK": "相振り飛車", "OPPOSING_ROOK": "向かい飛車",
    "SWINGING_ROOK_SLOW_GAME_COUNTERMEASURE": "対振り持久戦", "SIDE_PAWN_PICKER": "横歩取り",
    "SILVER37_STRATEGY": "矢倉▲3七銀戦法", "BISHOP_EXCHANGE_RECLINING_SILVER": "角換わり腰掛け銀",
    "PRIMITIVE_CLIMBING_SILVER": "原始棒銀", "FIRST_FILE_ROOK": "一間飛車", "RAPID_ADVANCING_SILVER": "早繰り銀",
    "WRONG_DIAGONAL_BISHOP": "筋違い角", "AONO_STYLE": "青野流", "CLIMBING_GOLD": "棒金",
    "CLIMBING_SILVER": "棒銀", "DOUBLE_WING_ATTACK_CLIMBING_SILVER": "相掛かり棒銀", "FUJII_SYSTEM": "藤井システム",
    "ISHIDA_STYLE": "石田流", "MASUDA_ISHIDA_STYLE": "升田式石田流", "PAWN45_RAPID_ENGAGEMENT": "4五歩早仕掛け",
    "RECLINING_SILVER": "腰掛け銀", "SILVER37_SUPER_RAPID": "超速▲3七銀戦法", "SILVER_HORNED_SNOW_ROOF": "ツノ銀雁木",
    "SLEEVE_ROOK": "袖飛車", "ONE_TURN_LOSS_BISHOP_EXCHANGE": "一手損角換わり",
    "BISHOP_EXCHANGE_CLIMBING_SILVER": "角換わり棒銀", "DIRECT_OPPOSING_ROOK": "ダイレクト向かい飛車",
    "FORTH_THIRD_FILE_ROOK_STRATEGY": "4→3戦法", "PRIMITIVE_CENTRAL_ROOK": "原始中飛車",
    "LEGHORN_SPECIAL": "レグスペ",
    "HALF_MINO_CASTLE": "片美濃囲い", "MINO_CASTLE": "美濃囲い", "BOAT_CASTLE": "舟囲い",
    "HIGH_MINO_CASTLE": "高美濃囲い", "STATIC_ROOK_ANAGUMA": "居飛車穴熊", "SWINGING_ROOK_ANAGUMA": "振り飛車穴熊",
    "KIMURA_MINO": "木村美濃", "ELMO_CASTLE": "エルモ囲い", "CASTLE_TOWER_MINO": "天守閣美濃", "LEFT_HAND_MINO": "左美濃",
    "BONANZA_CASTLE": "ボナンザ囲い", "SILVER_CROWN": "銀冠", "BIG_FOUR": "ビッグ4", "DIAMOND_MINO": "ダイヤモンド美濃",
    "GIRL_IN_THE_HOUSE": "箱入り娘", "HALF_YAGURA": "片矢倉", "MILLENIUM_CASTLE": "ミレニアム囲い",
    "RIGHT_HAND_YAGURA": "右矢倉", "SILVER_CROWN_ANAGUMA": "銀冠穴熊", "SNOW_ROOF_CASTLE": "雁木囲い",
    "CENTRAL_HOUSE": "中住まい", "CRAB_CASTLE": "カニ囲い", "GOLD_MINO": "金美濃", "KUSHIKATSU_CASTLE": "串カツ囲い",
    "PEERLESS_GOLDS": "金無双", "RAPID_CASTLE": "早囲い", "SILVER_STANDING_YAGURA": "銀立ち矢倉",
    "YAGURA_CASTLE": "金矢倉", "COMPLETE_YAGURA": "総矢倉", "NAKAHARAS_KING": "中原囲い", "SILVER_MINO": "銀美濃",
    "MATSUO_STYLE_ANAGUMA": "松尾流穴熊",
}


def norm(name):
    """Our lookup key: NFKC, no ▲△ or spaces, katakana ニ as 二."""
    n = unicodedata.normalize("NFKC", name)
    return "".join(c for c in n if c not in "▲△☗☖ ").replace("ニ", "二").lower()


def taxonomy(paths):
    """kind -> {key: canonical}, and canonical -> parent, from rule files (later ones override)."""
    names = {"opening": {}, "castle": {}, "class": {}}
    parent = {}
    for path in paths:
        kind = None
        for raw in open(path, encoding="utf-8"):
            line = raw.split("#", 1)[0].rstrip()
            words = line.split()
            if not words:
                continue
            if not raw[0].isspace():
                kind = words[0] if words[0] in names else None
                if kind:
                    cur = words[1]
                    names[kind][norm(cur)] = cur
                    if len(words) >= 4:
                        parent[(kind, cur)] = words[3]
            elif kind and words[0] == "alias":
                for a in line.replace(",", " ").split()[1:]:
                    names[kind][norm(a)] = cur
    return names, parent


def resolve(names, kind, label):
    key = norm(GLOSS.get(label, label))
    for k in [key, key.removesuffix("戦法"), key.removesuffix("囲い"), key + "戦法", key + "囲い"]:
        if k in names[kind]:
            return names[kind][k]
    return None


def ancestors(parent, kind, tag):
    out = [tag]
    while (kind, out[-1]) in parent and len(out) < 64:
        out.append(parent[(kind, out[-1])])
    return out


def run_stats(shogi, paths, rules):
    cmd = [shogi, "stats", "--tags", "--format", "jsonl", "-j", "2", *paths]
    if rules:
        cmd += ["--tag-rules", rules]
    out = subprocess.run(cmd, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shogi", default=os.path.join(ROOT, "target", "release", "shogi"))
    ap.add_argument("--rules", help="a --tag-rules file to use over the built-in rules")
    ap.add_argument("--list", action="store_true", help="print every disagreement")
    args = ap.parse_args()
    rule_files = [os.path.join(ROOT, "shogi-openings", "rules", "builtin.rules")] + ([args.rules] if args.rules else [])
    names, parent = taxonomy(rule_files)

    corpus = os.path.join(SHARED, "corpus-openings")
    manifest = list(csv.DictReader(open(os.path.join(corpus, "MANIFEST.tsv"), encoding="utf-8"), delimiter="\t"))
    rows = {os.path.basename(r["path"]): r for r in run_stats(args.shogi, [os.path.join(corpus, "files")], args.rules)}
    count = collections.Counter()
    disagreements = []
    for m in manifest:
        row = rows.get(os.path.basename(m["file"]))
        if row is None:
            disagreements.append(f"{m['id']}: no row")
            continue
        src = m["label_source"]
        for col, kind in [("sente_openings", "opening"), ("gote_openings", "opening"), ("sente_castles", "castle"), ("gote_castles", "castle")]:
            labels = [x.strip() for x in m[col].split(",") if x.strip()]
            ours = row.get(col) or []
            ours_with_families = {a for t in ours for a in ancestors(parent, kind, t)}
            known = set()
            for label in labels:
                tag = resolve(names, kind, label)
                if tag is None:
                    count[(src, kind, "not in our taxonomy")] += 1
                    continue
                known.add(tag)
                count[(src, kind, "labels known")] += 1
                if tag in ours_with_families:
                    count[(src, kind, "we agree")] += 1
                else:
                    disagreements.append(f"{m['id']} {src} {col}: label {label} ({tag}) not given; ours: {', '.join(ours) or '-'}")
            if src == "pyshogi-db-test-table":
                # Its rows assert the whole set: our tags it has a name for and did not write.
                vocab = {GLOSS[k] for k in GLOSS}
                for t in ours:
                    if t in vocab and not (set(ancestors(parent, kind, t)) & known) and not any(t in ancestors(parent, kind, k) for k in known):
                        count[(src, kind, "ours not in its set")] += 1
                        disagreements.append(f"{m['id']} {src} {col}: ours {t} not in its set ({m[col] or '-'})")
        if m["senkei"]:
            count[("header", "main", "headers")] += 1
            ok = compare_main(names, parent, m["senkei"], row.get("opening"))
            count[("header", "main", ok)] += 1
            if ok != "equal":
                disagreements.append(f"{m['id']} 戦型 {m['senkei']}: ours {row.get('opening')}")

    corpus_rows = [r for r in run_stats(args.shogi, [os.path.join(SHARED, "corpus")], args.rules) if r.get("opening_header")]
    for r in corpus_rows:
        count[("corpus 戦型", "main", "headers")] += 1
        if r.get("opening") is None:
            count[("corpus 戦型", "main", "taxonomy does not apply")] += 1
            continue
        ok = compare_main(names, parent, r["opening_header"], r.get("opening"))
        count[("corpus 戦型", "main", ok)] += 1
        if ok != "equal":
            disagreements.append(f"{os.path.relpath(r['path'], SHARED)} 戦型 {r['opening_header']}: ours {r.get('opening')} (plies {r['plies']})")

    for key in sorted(count):
        print("\t".join(key), count[key], sep="\t")
    if args.list:
        print("\n# disagreements")
        for d in disagreements:
            print(d)


def compare_main(names, parent, header, ours):
    if ours is None:
        return "ours empty"
    h = resolve(names, "opening", header) or header
    if h == ours:
        return "equal"
    if h in ancestors(parent, "opening", ours) or ours in ancestors(parent, "opening", h):
        return "same family"
    return "different"


if __name__ == "__main__":
    sys.exit(main())
