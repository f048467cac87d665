//! Target `tag_rules`: a user's opening and castle rule file (shogi-openings) read over the
//! built-in rules.

use shogi_core::{Move, Position, Variant};
use shogi_openings::{Kind, RuleSet, recognise};

/// A game that forms a few tags for each side, replayed with the rules a fuzz input makes.
const LINE: &str = "7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 5i4h 5a4b 4h3h 4b3b 3h2h 7a7b 3i3h 2b3c";

/// Reading any text as a rule file never panics; a mistake is located inside the text (its
/// line exists, its column is on that line or just after its end) and names the file; rules
/// that read give every tag a family line ending at a class, and recognising a game with them
/// gives only their own tags, formed at plies of the game.
pub fn check_tag_rules(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match RuleSet::with_user_file("fuzz.rules", &text) {
        Err(e) => {
            assert_eq!(
                e.origin, "fuzz.rules",
                "an error names the user's file: {e}"
            );
            let lines: Vec<&str> = text.lines().collect();
            assert!(
                e.line >= 1 && e.line <= lines.len().max(1),
                "line {} of {} lines: {e}",
                e.line,
                lines.len()
            );
            let width = lines.get(e.line - 1).map_or(0, |l| l.chars().count());
            assert!(
                e.col >= 1 && e.col <= width + 1,
                "column {} on a line of {width}: {e}",
                e.col
            );
        }
        Ok(rules) => {
            for (id, tag) in rules.tags() {
                let line: Vec<_> = rules.lineage(id).take(rules.len() + 1).collect();
                assert!(
                    line.len() <= rules.len(),
                    "{}: a cycle of families",
                    tag.name
                );
                assert_eq!(
                    rules.tag(*line.last().expect("itself")).kind,
                    Kind::Class,
                    "{} reaches no class",
                    tag.name
                );
            }
            let moves: Vec<Move> = LINE
                .split(' ')
                .map(|m| Move::from_usi(m).expect("a USI move"))
                .collect();
            let tags = recognise(
                &rules,
                &Position::startpos(Variant::Standard),
                moves.iter().copied(),
            )
            .expect("the even start");
            for side in [&tags.sente, &tags.gote] {
                for h in side.openings.iter().chain(&side.castles) {
                    assert!(
                        h.tag.index() < rules.len() && h.ply >= 1 && h.ply as usize <= moves.len(),
                        "{h:?}"
                    );
                }
            }
        }
    }
}
