//! The `moves` column over the shared corpus: every game's Japanese line, read back as KI2
//! moves from the same start position, gives the same USI line as its USI column. Skips
//! (passes) when the corpus is absent.

use shogi_batch::{InputRecord, Reading, expand, moves_text, read_input};
use shogi_kif::notation::Notation;
use shogi_kif::{Format, ReadOptions, Reader};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus");

/// `game`'s Japanese line under the header and start position of its record (written as
/// KI2 without its moves), read back: the main line in USI, or the reader's error.
/// With `drop_last`, the line's last move is left out (a declared foul move: illegal where it
/// stands, KI2 cannot be read past it).
fn japanese_read_back(game: &InputRecord, drop_last: bool) -> Result<String, String> {
    let record = game.record.as_ref().ok_or("no record")?;
    let mut bare = record.clone();
    bare.moves.moves.clear();
    bare.moves.ending = None;
    bare.drop_variations();
    let mut text = shogi_kif::write_with(&bare, Format::Ki2, &Default::default());
    let japanese = moves_text(game, Notation::Japanese);
    let japanese = match japanese.rsplit_once(' ') {
        Some((before, _)) if drop_last => before,
        None if drop_last => "",
        _ => &japanese,
    };
    text.push_str(japanese);
    text.push('\n');
    let options = ReadOptions {
        format: Some(Format::Ki2),
        ..ReadOptions::default()
    };
    let mut reader = Reader::new(text.as_bytes(), options).map_err(|e| e.to_string())?;
    let back = reader.next().ok_or("no game read back")?;
    if let Some(e) = back.error {
        return Err(format!("{e}\n{text}"));
    }
    let usi: Vec<String> = back.record.main_line().map(|n| n.mv.to_usi()).collect();
    Ok(usi.join(" "))
}

#[test]
fn japanese_moves_read_back_as_ki2_give_the_usi_moves() {
    if !std::path::Path::new(CORPUS)
        .join("REFERENCE_CONSENSUS.tsv")
        .exists()
    {
        eprintln!("note: corpus not found at {CORPUS}; skipped");
        return;
    }
    let inputs = expand(&[CORPUS]).unwrap();
    let (mut checked, mut moves, mut fouls) = (0, 0, 0);
    let mut failures = Vec::new();
    for input in &inputs {
        let _ = read_input(input, &Reading::default(), &mut |game| {
            let Some(record) = &game.record else {
                return;
            };
            let mut usi = moves_text(&game, Notation::Usi);
            let foul = record.moves.moves.last().is_some_and(|n| n.foul.is_some());
            if foul {
                fouls += 1;
                usi.truncate(usi.rfind(' ').unwrap_or(0));
            }
            checked += 1;
            moves += record.moves.moves.len();
            match japanese_read_back(&game, foul) {
                Ok(back) if back == usi => {}
                Ok(back) => {
                    failures.push(format!("{}#{}: {back}\n  != {usi}", input.name, game.index))
                }
                Err(e) => failures.push(format!("{}#{}: {e}", input.name, game.index)),
            }
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{checked} games, {moves} moves read back ({fouls} ending in a foul move, left out)");
    assert!(
        checked >= 150 && moves >= 10_000,
        "{checked} games, {moves} moves"
    );
}
