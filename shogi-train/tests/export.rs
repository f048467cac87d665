//! Training entries from records: engine evaluations in comments, results judged by the
//! rules, which games and positions give entries.

use shogi_core::{Color, Move};
use shogi_kif::EndingKind;
use shogi_train::{
    Eval, GameResult, Skip, TrainingOptions, entries, eval_from_comment, game_result,
};

/// A comment line as the reader keeps it: the file's line without its KIF `*` or CSA `'*`.
fn kif(line: &str) -> Option<Eval> {
    eval_from_comment(line.strip_prefix('*').expect("a KIF comment line"))
}

fn csa(line: &str) -> Option<Eval> {
    eval_from_comment(line.strip_prefix("'*").expect("a CSA program comment line"))
}

#[test]
fn floodgate_scores() {
    // Lines from the shared corpus's Floodgate records.
    assert_eq!(
        csa("'** 47 -2324FU +2824HI -8485FU +6978KI -4132KI +7776FU"),
        Some(Eval::Cp(47))
    );
    assert_eq!(csa("'** 0"), Some(Eval::Cp(0)));
    assert_eq!(
        csa("'** -34 -5354FU +7988GI -3536FU +3736FU"),
        Some(Eval::Cp(-34))
    );
    assert_eq!(csa("'** -865423 +2726FU"), Some(Eval::Cp(-865423)));
    assert_eq!(csa("'** 100000 +0054KA"), Some(Eval::Cp(100000)));
    // A V3 comment and the header-like comments are not scores.
    assert_eq!(csa("'*30手目から"), None);
    assert_eq!(csa("'** 読み筋と評価値"), None);
    assert_eq!(eval_from_comment("summary:toryo:a win:b lose"), None);
    assert_eq!(eval_from_comment("* 12abc"), None);
}

#[test]
fn shogihome_comments() {
    // tsshogi's sample04 (ShogiHome): `**評価値=159` in KIF, `*評価値=159` in its JKF.
    assert_eq!(kif("**評価値=159"), Some(Eval::Cp(159)));
    assert_eq!(kif("**評価値=-1184"), Some(Eval::Cp(-1184)));
    assert_eq!(kif("*#評価値=+2000"), Some(Eval::Cp(2000)));
    assert_eq!(csa("'*#評価値=-500"), Some(Eval::Cp(-500)));
    assert_eq!(
        kif("**詰み=先手勝ち:7手"),
        Some(Eval::Mate {
            winner: Color::Black,
            plies: Some(7)
        })
    );
    assert_eq!(
        kif("*#詰み=後手勝ち"),
        Some(Eval::Mate {
            winner: Color::White,
            plies: None
        })
    );
    assert_eq!(kif("**読み筋=△６二銀▲７八玉"), None);
    assert_eq!(kif("**深さ=15"), None);
    assert_eq!(kif("*互角"), None);
}

#[test]
fn shogigui_and_piyo_comments() {
    // kif-parser's ShogiGUI record.
    assert_eq!(
        kif("**対局 深さ 2 ノード数 1123 評価値 100 読み筋 △５二金(41) "),
        Some(Eval::Cp(100))
    );
    assert_eq!(
        kif("**対局 深さ 2 ノード数 365 評価値 -1000001 読み筋 △同　銀(31) "),
        Some(Eval::Cp(-1000001))
    );
    assert_eq!(
        kif("**解析 0 ○ 候補1 時間 00:01.0 深さ 17/29 ノード数 123 評価値 -85 読み筋 ▲７六歩"),
        Some(Eval::Cp(-85))
    );
    // The short form engines' own KIF writers use for ShogiGUI (sente's view too).
    assert_eq!(kif("**対局 評価値 -5000"), Some(Eval::Cp(-5000)));
    // tsshogi's ぴよ将棋 record.
    assert_eq!(
        kif("*#指し手[2912]△６二玉  ▲３三金打  △１二銀打"),
        Some(Eval::Cp(2912))
    );
    assert_eq!(
        kif("*#指し手[3773] 悪手 △７一玉  ▲４三金"),
        Some(Eval::Cp(3773))
    );
    // Recommended moves and the summary lines carry no score of the move played.
    assert_eq!(kif("*#推奨手[2508]△５四玉  ▲５三金打"), None);
    assert_eq!(kif("*#先手 悪手:0回  疑問手:2回"), None);
    // A human comment mentioning an evaluation is not an engine's.
    assert_eq!(kif("*評価値 300くらい"), None);
}

#[test]
fn formats_conventions() {
    let cp = Eval::Cp(-40000);
    assert_eq!(cp.hcpe(Color::Black), -32767);
    assert_eq!(cp.hcpe(Color::White), 32767);
    assert_eq!(cp.psv(Color::Black), -32000);
    assert_eq!(Eval::Cp(123).psv(Color::White), -123);
    let mate = Eval::Mate {
        winner: Color::White,
        plies: Some(5),
    };
    assert_eq!(mate.hcpe(Color::White), 32767);
    assert_eq!(mate.hcpe(Color::Black), -32767);
    assert_eq!(mate.psv(Color::White), 31995);
    assert_eq!(mate.psv(Color::Black), -31995);
    let unknown = Eval::Mate {
        winner: Color::Black,
        plies: None,
    };
    assert_eq!(unknown.psv(Color::Black), 32000);
}

fn result_of(text: &str) -> Option<GameResult> {
    game_result(&shogi_kif::read_str(text, shogi_kif::ReadOptions::default()).expect("readable"))
}

#[test]
fn results() {
    let two = "V2\nPI\n+\n+7776FU\n-3334FU\n";
    assert_eq!(
        result_of(&format!("{two}%TORYO\n")),
        Some(GameResult::WhiteWin)
    );
    assert_eq!(
        result_of("V2\nPI\n+\n+7776FU\n%TORYO\n"),
        Some(GameResult::BlackWin)
    );
    assert_eq!(
        result_of(&format!("{two}%TIME_UP\n")),
        Some(GameResult::WhiteWin)
    );
    assert_eq!(
        result_of(&format!("{two}%SENNICHITE\n")),
        Some(GameResult::Draw)
    );
    assert_eq!(
        result_of(&format!("{two}%JISHOGI\n")),
        Some(GameResult::Draw)
    );
    assert_eq!(result_of(&format!("{two}%CHUDAN\n")), None);
    assert_eq!(result_of(two), None);
    // A declaration that does not meet the rule loses.
    assert_eq!(
        result_of(&format!("{two}%KACHI\n")),
        Some(GameResult::WhiteWin)
    );
}

#[test]
fn perpetual_check_loses() {
    // Sente gives check with every move of the cycle: perpetual check, sente loses.
    let text = "position sfen 4k4/9/9/9/9/9/9/9/4K3R b G 1 moves 1i1a 5a5b 1a1b 5b5a 1b1a 5a5b 1a1b 5b5a 1b1a 5a5b 1a1b 5b5a 1b1a";
    let mut record =
        shogi_kif::read_str(text, shogi_kif::ReadOptions::default()).expect("readable");
    record.moves.ending = Some(shogi_kif::Ending::new(EndingKind::Repetition));
    let checks = game_result(&record);
    assert_eq!(checks, Some(GameResult::WhiteWin));
}

#[test]
fn entries_of_a_floodgate_game() {
    let csa = "V2\nN+a\nN-b\nPI\n+\n+7776FU\n'** 35 -3334FU\n-3334FU\n'** -20\n+2726FU\n%TORYO\n";
    let record = shogi_kif::read_str(csa, shogi_kif::ReadOptions::default()).expect("readable");
    let all = entries(&record, &TrainingOptions::default()).expect("selected");
    let usi: Vec<String> = all.iter().map(|e| e.mv.to_usi()).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(all.iter().map(|e| e.ply).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(all[2].eval, None);
    assert_eq!(all[2].hcpe_eval(), 0);
    assert!(all.iter().all(|e| e.result == GameResult::BlackWin));
    assert_eq!(
        all[1].text_line(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\t3c3d\t2\t-1\t20"
    );
    let later = TrainingOptions {
        skip_first: 2,
        ..TrainingOptions::default()
    };
    assert_eq!(entries(&record, &later).expect("selected").len(), 1);
    let no_draws = TrainingOptions {
        skip_draws: true,
        ..TrainingOptions::default()
    };
    assert_eq!(entries(&record, &no_draws).map(|e| e.len()), Ok(3));
}

#[test]
fn games_left_out() {
    let read =
        |t: &str| shogi_kif::read_str(t, shogi_kif::ReadOptions::default()).expect("readable");
    let draw = read("V2\nPI\n+\n+7776FU\n%SENNICHITE\n");
    let opts = TrainingOptions {
        skip_draws: true,
        ..TrainingOptions::default()
    };
    assert_eq!(entries(&draw, &opts), Err(Skip::Draw));
    let open = read("V2\nPI\n+\n+7776FU\n");
    assert_eq!(
        entries(&open, &TrainingOptions::default()),
        Err(Skip::NoResult)
    );
    let keep = TrainingOptions {
        keep_unfinished: true,
        ..TrainingOptions::default()
    };
    assert_eq!(
        entries(&open, &keep).map(|e| e[0].result),
        Ok(GameResult::Draw)
    );
    let mini = read("position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c\n");
    let mut mini = mini;
    mini.moves.ending = Some(shogi_kif::Ending::new(EndingKind::Resign));
    assert!(matches!(
        entries(&mini, &TrainingOptions::default()),
        Err(Skip::NotEncodable(_))
    ));
    // A record built in code with an illegal move gives nothing.
    let mut bad = read("V2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n");
    bad.moves.moves[1].mv = Move::from_usi("7g7f").expect("usi");
    assert_eq!(
        entries(&bad, &TrainingOptions::default()),
        Err(Skip::IllegalMove { ply: 2 })
    );
}
