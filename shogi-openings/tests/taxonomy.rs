//! The family and alias tables, rule-file errors at their place, user files over the built-in
//! rules, the classes and the main 戦型, and where the taxonomy does not apply.

use shogi_core::{Handicap, Move, Position, Variant};
use shogi_openings::{GameClass, Kind, RuleSet, SideClass, applies_to, recognise};

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| Move::from_usi(m).unwrap())
        .collect()
}

fn even() -> Position {
    Position::startpos(Variant::Standard)
}

#[test]
fn every_alias_resolves_and_every_tag_reaches_a_class() {
    let rules = RuleSet::builtin();
    let mut aliases = 0;
    for (id, t) in rules.tags() {
        assert!(
            rules.find(&t.name, Some(t.kind)).contains(&id),
            "{} does not find itself",
            t.name
        );
        for a in &t.aliases {
            assert_eq!(
                rules.find(a, Some(t.kind)),
                vec![id],
                "alias {a} of {}",
                t.name
            );
            aliases += 1;
        }
        let line: Vec<_> = rules.lineage(id).collect();
        assert!(line.len() <= rules.len(), "{}: a cycle", t.name);
        let root = *line.last().unwrap();
        assert_eq!(
            rules.tag(root).kind,
            Kind::Class,
            "{} ends at {}",
            t.name,
            rules.name(root)
        );
        assert_eq!(t.class, root);
        assert!(rules.is_within(id, root) && rules.is_within(id, id));
        // Openings and castles keep to their own kind up to the class.
        assert!(
            line[..line.len() - 1]
                .iter()
                .all(|&a| rules.tag(a).kind == t.kind),
            "{} mixes kinds",
            t.name
        );
    }
    assert!(aliases > 40);
    // Spellings: full-width digits, ▲, the 戦法 / 囲い suffixes, katakana ニ.
    let find = |n: &str| {
        rules
            .find(n, None)
            .iter()
            .map(|&t| rules.name(t).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(find("ゴキゲン中飛車"), ["ゴキゲン中飛車"]);
    assert_eq!(find("５筋位取り中飛車"), ["5筋位取り中飛車"]);
    assert_eq!(find("2手目△3ニ飛戦法"), ["2手目△3二飛戦法"]);
    assert_eq!(find("超速▲３七銀"), ["超速▲3七銀戦法"]);
    assert_eq!(find("美濃"), ["美濃"]);
    assert_eq!(find("本美濃"), ["美濃囲い"]);
    assert_eq!(find("四間飛車戦法"), ["四間飛車"]);
    assert_eq!(find("振飛車"), ["振り飛車"]);
    // Readings in hiragana, for users without a kana-kanji converter at hand.
    assert_eq!(find("みの"), ["美濃"]);
    assert_eq!(find("みのがこい"), ["美濃囲い"]);
    assert_eq!(find("しけんびしゃ"), ["四間飛車"]);
    assert_eq!(find("あなぐま"), ["穴熊"]);
    assert_eq!(find("やぐら").len(), 2, "the opening and the castle family");
    // A reading not typed in full is suggested the tag whose reading contains it.
    assert_eq!(rules.nearest("ぎんかんむ", Some(Kind::Castle), 1), ["銀冠"]);
    assert_eq!(rules.find("矢倉", Some(Kind::Castle)).len(), 1);
    assert_eq!(
        rules.find("矢倉", None).len(),
        2,
        "the opening and the castle family"
    );
    assert!(rules.find("五間飛車", None).is_empty());
    assert_eq!(
        rules.nearest("五間飛車", Some(Kind::Opening), 3)[..2],
        ["四間飛車", "三間飛車"]
    );
    // Families: ゴキゲン中飛車 → 中飛車 → 振り飛車.
    let g = rules.find("ゴキゲン中飛車", None)[0];
    let line: Vec<&str> = rules.lineage(g).map(|t| rules.name(t)).collect();
    assert_eq!(line, ["ゴキゲン中飛車", "中飛車", "振り飛車"]);
    assert_eq!(
        rules.header_of(g).map(|h| rules.name(h.1)),
        Some("ゴキゲン中飛車")
    );
    let fujii = rules.find("藤井システム", None)[0];
    assert_eq!(
        rules.header_of(fujii).map(|h| rules.name(h.1)),
        Some("四間飛車")
    );
}

fn err(text: &str) -> String {
    RuleSet::parse(&[("user.rules", text)])
        .unwrap_err()
        .to_string()
}

#[test]
fn rule_file_mistakes_are_located() {
    let base = "class 居飛車\n";
    assert_eq!(
        err(&format!(
            "{base}opening A < 居飛車\n  rule\n    moved 飛 at 6十\n"
        )),
        "user.rules:4:16: unknown square `6十` (write file and rank: 7六, 76)"
    );
    assert_eq!(
        err(&format!(
            "{base}opening A < 居飛車\n  rule\n    八 . . X . . . . . .\n"
        )),
        "user.rules:4:11: unknown piece `X` (one kanji: 玉 飛 角 金 銀 桂 香 歩 龍 馬 全 圭 杏 と)"
    );
    assert_eq!(
        err(&format!(
            "{base}opening A < 居飛車\n  rule\n    八 . . . .\n"
        )),
        "user.rules:4:13: a board row is a rank and 9 cells (files 9 to 1), found 4 cells"
    );
    assert_eq!(
        err(&format!("{base}opening A < 居飛車\nopening A < 居飛車\n")),
        "user.rules:3:9: duplicate name `A`: already defined at line 2"
    );
    assert_eq!(
        err(&format!("{base}opening A < B\nopening B < A\n")),
        "user.rules:2:13: a cycle of families through `A`"
    );
    assert_eq!(
        err(&format!("{base}opening A < 居飛車x\n")),
        "user.rules:2:13: unknown opening or class `居飛車x` (nearest: 居飛車)"
    );
    assert_eq!(
        err(&format!(
            "{base}opening A < 居飛車\n  rule\n    requires 四間\n"
        )),
        "user.rules:4:14: unknown opening or castle or class `四間`"
    );
    assert_eq!(
        err(&format!("{base}opening A < 居飛車\n  rule\n    ply < 3\n")),
        "user.rules:4:9: expected `<=` or `=`, found `<`"
    );
    assert_eq!(
        err(&format!("{base}opening A < 居飛車\n  rule\n    fly 3\n")),
        "user.rules:4:5: unknown condition `fly`"
    );
    assert_eq!(
        err(&format!("{base}opening A < 居飛車\n  rule\n    hand 王\n")),
        "user.rules:4:10: `王` is not a piece in hand"
    );
    assert_eq!(
        err(&format!("{base}opening A\n")),
        "user.rules:2:9: `A` needs a family (`opening A < FAMILY`): every tag reaches a class"
    );
    assert_eq!(
        err(&format!(
            "{base}castle B < 居飛車\n  alias C\ncastle C < 居飛車\n"
        )),
        "user.rules:4:8: duplicate name: `C` already names `B`"
    );
    assert_eq!(
        err("  rule\n"),
        "user.rules:1:3: an indented line before any tag"
    );
    assert_eq!(
        err("tag X\n"),
        "user.rules:1:1: expected `class`, `opening`, `castle` or `defaults` at the start of a line, found `tag`"
    );
    // A mistake in the second file names that file.
    let e = RuleSet::with_user_file(
        "mine.rules",
        "opening X < 居飛車\n  rule\n    moved 飛 at 99 from\n",
    )
    .unwrap_err();
    assert_eq!((e.origin.as_str(), e.line, e.col), ("mine.rules", 3, 23));
}

#[test]
fn a_user_file_adds_and_overrides() {
    let text = "\
opening 五間飛車 < 振り飛車   # a new tag
  alias ごけん
  main 90
  rule
    moved 飛 at 5八 from 2八
opening 四間飛車 < 振り飛車   # the built-in rule replaced: now only from 2八 by ply 3
  rule
    ply <= 3
    moved 飛 at 6八 from 2八
";
    let rules = RuleSet::with_user_file("user.rules", text).unwrap();
    let builtin = RuleSet::builtin();
    assert_eq!(rules.len(), builtin.len() + 1);
    let gokken = rules.find("ごけん", None)[0];
    let tags = recognise(&rules, &even(), moves("5g5f 3c3d 2h5h")).unwrap();
    assert!(
        tags.sente
            .openings
            .iter()
            .any(|h| h.tag == gokken && h.ply == 3)
    );
    assert_eq!(tags.main, Some(gokken));
    let shiken = rules.find("四間飛車", None)[0];
    let late = recognise(&rules, &even(), moves("7g7f 3c3d 2h6h")).unwrap();
    assert!(late.sente.openings.iter().any(|h| h.tag == shiken));
    let later = recognise(&rules, &even(), moves("7g7f 3c3d 6g6f 8c8d 2h6h")).unwrap();
    assert!(
        !later.sente.openings.iter().any(|h| h.tag == shiken),
        "the user's ply limit holds"
    );
    let b = builtin.find("四間飛車", None)[0];
    assert!(
        recognise(builtin, &even(), moves("7g7f 3c3d 6g6f 8c8d 2h6h"))
            .unwrap()
            .sente
            .openings
            .iter()
            .any(|h| h.tag == b)
    );
}

#[test]
fn classes_and_the_main_opening() {
    let rules = RuleSet::builtin();
    let name = |t: Option<shogi_openings::TagId>| t.map(|t| rules.name(t).to_string());
    // 対抗形: the ranging side's opening names the game.
    let t = recognise(
        rules,
        &even(),
        moves("7g7f 3c3d 2g2f 4c4d 5i6h 8b4b 6h7h 3a3b 4i5h 5a6b"),
    )
    .unwrap();
    assert_eq!(
        (t.sente.class, t.gote.class, t.class),
        (
            SideClass::StaticRook,
            SideClass::RangingRook,
            GameClass::StaticVsRanging
        )
    );
    assert_eq!(name(t.main).as_deref(), Some("四間飛車"));
    // 相居飛車: the most specific header wins (腰掛け銀 of the bishop exchange over 角換わり).
    let k = "7g7f 3c3d 2g2f 8c8d 8h2b+ 3a2b 7i8h 7a7b 3i4h 5a4b 4g4f 6c6d 4h4g 6a5b 4g5f";
    let t = recognise(rules, &even(), moves(k)).unwrap();
    assert_eq!(t.class, GameClass::DoubleStaticRook);
    assert_eq!(name(t.main).as_deref(), Some("角換わり腰掛け銀"));
    // 相振り飛車.
    let t = recognise(rules, &even(), moves("7g7f 3c3d 2h7h 8b3b")).unwrap();
    assert_eq!(t.class, GameClass::DoubleRangingRook);
    assert_eq!(name(t.main).as_deref(), Some("相振り飛車"));
    // 力戦: nothing recognised.
    let t = recognise(rules, &even(), moves("9g9f 1c1d 1g1f 9c9d")).unwrap();
    assert_eq!((t.class, t.main), (GameClass::Unclassified, None));
    // A castle of the 矢倉 family names a 相居飛車 game 矢倉 when no opening outranks it.
    let y = "7g7f 3c3d 6g6f 8c8d 7i6h 7a7b 6h7g 5a4b 6i7h 6a5b 4i5h 4a3b 5h6g 9c9d 8h7i 1c1d 7i6h 9d9e 5i6i 1d1e 6i7i 6c6d 7i8h";
    let t = recognise(rules, &even(), moves(y)).unwrap();
    assert_eq!(name(t.main).as_deref(), Some("矢倉"));
}

#[test]
fn where_the_taxonomy_applies() {
    assert!(applies_to(&even()));
    assert!(applies_to(&Handicap::Lance.position().unwrap()));
    assert!(!applies_to(&Handicap::TwoPieces.position().unwrap()));
    assert!(!applies_to(&Position::startpos(Variant::Mini)));
    assert!(recognise(RuleSet::builtin(), &Handicap::Rook.position().unwrap(), []).is_none());
    // A mid-game position is no start of the taxonomy.
    let mut p = even();
    p.play(Move::from_usi("7g7f").unwrap()).unwrap();
    assert!(!applies_to(&p));
}

#[test]
fn an_illegal_move_ends_the_line_it_is_tagged_up_to() {
    let rules = RuleSet::builtin();
    // The rook swings at ply 5; ply 6 is illegal; the rook's later return is never seen.
    let t = recognise(rules, &even(), moves("7g7f 3c3d 6g6f 8c8d 2h6h 5a6a 6h2h")).unwrap();
    assert_eq!(t.plies_seen, 5);
    assert_eq!(t.sente.class, SideClass::RangingRook);
    // And replaying stops once no rule can fire: a long quiet game is not replayed to its end.
    let mut long = moves("7g7f 3c3d 2h6h 8c8d");
    for _ in 0..60 {
        long.extend(moves("5i4h 5a4b 4h5i 4b5a"));
    }
    let t = recognise(rules, &even(), long.iter().copied()).unwrap();
    assert!(t.plies_seen < 110, "replayed {} plies", t.plies_seen);
}

#[test]
fn a_users_mistake_through_built_in_tags_is_located_in_the_users_file() {
    // The built-in 金矢倉's family is 矢倉: making 矢倉's family 金矢倉 closes a cycle.
    let e = RuleSet::with_user_file("mine.rules", "castle 矢倉 < 金矢倉\n").unwrap_err();
    assert_eq!(
        (e.origin.as_str(), e.line, e.col),
        ("mine.rules", 1, 13),
        "{e}"
    );
    // A new tag named as a built-in alias.
    let e =
        RuleSet::with_user_file("mine.rules", "castle X < 居飛車\n  alias 金矢倉\n").unwrap_err();
    assert_eq!((e.origin.as_str(), e.line), ("mine.rules", 2), "{e}");
}
