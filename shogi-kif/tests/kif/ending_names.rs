//! One name per ending kind: the JSON form of an [`EndingKind`] is its [`ending_name`] (the
//! name of stats, filters, SQLite and Python), the two fouls apart, and the names of earlier
//! versions still read.

use shogi_kif::{ENDING_NAMES, EndingKind, ending_name};

const KINDS: [EndingKind; 15] = [
    EndingKind::Resign,
    EndingKind::Interrupt,
    EndingKind::Repetition,
    EndingKind::Impasse,
    EndingKind::Declaration,
    EndingKind::TimeUp,
    EndingKind::FoulWin,
    EndingKind::FoulLoss,
    EndingKind::Mate,
    EndingKind::NoMate,
    EndingKind::MaxMoves,
    EndingKind::Draw,
    EndingKind::SealedMove,
    EndingKind::WinByDefault,
    EndingKind::LossByDefault,
];

fn json_name(kind: &EndingKind) -> String {
    match serde_json::to_value(kind).unwrap() {
        serde_json::Value::String(s) => s,
        other => panic!("{kind:?} serialises as {other}"),
    }
}

#[test]
fn the_json_name_is_the_ending_name() {
    for kind in &KINDS {
        let json = json_name(kind);
        let name = ending_name(kind);
        assert!(ENDING_NAMES.contains(&name), "{kind:?}: {name}");
        match kind {
            EndingKind::FoulWin => assert_eq!(json, "foul-win"),
            EndingKind::FoulLoss => assert_eq!(json, "foul-loss"),
            _ => assert_eq!(json, name, "{kind:?}"),
        }
        let back: EndingKind = serde_json::from_value(serde_json::Value::String(json)).unwrap();
        assert_eq!(&back, kind);
    }
    let other = EndingKind::Other("%MATTA".into());
    let json = serde_json::to_string(&other).unwrap();
    assert_eq!(json, r#"{"other":"%MATTA"}"#);
    assert_eq!(ending_name(&other), "other");
}

#[test]
fn the_names_of_earlier_versions_still_read() {
    let old = [
        ("resign", EndingKind::Resign),
        ("interrupt", EndingKind::Interrupt),
        ("repetition", EndingKind::Repetition),
        ("impasse", EndingKind::Impasse),
        ("declaration", EndingKind::Declaration),
        ("time_up", EndingKind::TimeUp),
        ("foul_win", EndingKind::FoulWin),
        ("foul_loss", EndingKind::FoulLoss),
        ("mate", EndingKind::Mate),
        ("no_mate", EndingKind::NoMate),
        ("max_moves", EndingKind::MaxMoves),
        ("draw", EndingKind::Draw),
        ("sealed_move", EndingKind::SealedMove),
        ("win_by_default", EndingKind::WinByDefault),
        ("loss_by_default", EndingKind::LossByDefault),
    ];
    for (name, kind) in old {
        let back: EndingKind = serde_json::from_str(&format!("\"{name}\"")).unwrap();
        assert_eq!(back, kind, "{name}");
    }
    assert!(serde_json::from_str::<EndingKind>("\"foul\"").is_err());
}
