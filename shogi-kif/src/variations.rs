//! A record's variations, numbered: the order a KIF file writes its `変化：N手` blocks
//! (depth-first, the latest branch of a line first, a line's sub-variations right after it),
//! so that variation 3 is the third `変化` of the record written as KIF; and the line of play
//! each one gives (the line it branches from up to the branch, then its own moves).

use crate::model::{Line, MoveNode, Record};

/// One variation of a record (see [`variations`]).
#[derive(Clone, Copy, Debug)]
pub struct Variation<'r> {
    /// Its number, from 1.
    pub number: usize,
    /// The number of the line it branches from (0: the main line).
    pub parent: usize,
    /// Moves of the whole line before its first move (from the record's start): its first
    /// move is move `ply + 1`, as `変化：N手` counts.
    pub ply: usize,
    /// Its own moves and ending.
    pub line: &'r Line,
    /// Where it branches in its parent's own moves: it replaces the move at this index (the
    /// parent's length: it continues instead of the parent's ending).
    at: usize,
}

/// A line waiting to be numbered: the line, its parent's number, where it branches in its
/// parent, and the moves before it.
type Pending<'r> = (&'r Line, usize, usize, usize);

/// The variations of `record`, numbered from 1 in the order a KIF file writes them.
pub fn variations(record: &Record) -> Vec<Variation<'_>> {
    let mut out = Vec::new();
    let mut stack: Vec<Pending<'_>> = Vec::new();
    branches(&record.moves, 0, 0, &mut stack);
    while let Some((line, parent, at, ply)) = stack.pop() {
        let number = out.len() + 1;
        out.push(Variation {
            number,
            parent,
            ply,
            line,
            at,
        });
        branches(line, number, ply, &mut stack);
    }
    out
}

/// Pushes the variations of `line` (numbered `number`, `ply` moves before it) so that
/// popping gives the latest branch first and a move's alternatives in record order; a line
/// stops at a recorded foul, as written.
fn branches<'r>(line: &'r Line, number: usize, ply: usize, stack: &mut Vec<Pending<'r>>) {
    let mut len = 0;
    for (i, node) in line.moves.iter().enumerate() {
        for v in node.variations.iter().rev() {
            stack.push((v, number, i, ply + i));
        }
        len = i + 1;
        if node.foul.is_some() {
            return;
        }
    }
    for v in line.ending.iter().flat_map(|e| e.variations.iter().rev()) {
        stack.push((v, number, len, ply + len));
    }
}

/// The whole line of variation `number` (the main line for 0): the moves of the line it
/// branches from up to the branch, then its own, and its own ending; `None` when the record
/// has no such variation.
pub fn variation_line(record: &Record, number: usize) -> Option<Line> {
    let all = variations(record);
    if number > all.len() {
        return None;
    }
    let mut chain = Vec::new();
    let mut n = number;
    while n > 0 {
        let v = &all[n - 1];
        chain.push(v);
        n = v.parent;
    }
    let mut moves: Vec<MoveNode> = Vec::new();
    let mut line = &record.moves;
    for v in chain.iter().rev() {
        moves.extend(line.moves.iter().take(v.at).cloned());
        line = v.line;
    }
    moves.extend(line.moves.iter().cloned());
    Some(Line {
        moves,
        ending: line.ending.clone(),
    })
}

/// `record` with variation `number` as its main line (see [`variation_line`]); the header,
/// start and notes kept.
pub fn with_variation(record: &Record, number: usize) -> Option<Record> {
    let moves = variation_line(record, number)?;
    Some(Record {
        moves,
        ..record.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReadOptions, read_str};

    /// Branches at moves 6 and 3 of the main line, and at move 5 of the one at 3 (the
    /// tests crate's fixture convert/nested-variations.kifu).
    const NESTED: &str = "手合割：平手\n手数----指手---------消費時間--
   1 ２六歩(27)\n   2 ３四歩(33)\n   3 ７六歩(77)\n   4 ４四歩(43)\n   5 ４八銀(39)
   6 ３二銀(31)\n   7 投了
\n変化：6手\n   6 ４二飛(82)\n   7 ６八玉(59)\n   8 投了
\n変化：3手\n   3 ２五歩(26)\n   4 ３三角(22)\n   5 ７六歩(77)\n   6 中断
\n変化：5手\n   5 ４八銀(39)\n   6 ４二飛(82)\n";

    fn usi(line: &Line) -> Vec<String> {
        line.moves.iter().map(|n| n.mv.to_usi()).collect()
    }

    #[test]
    fn numbered_as_kif_writes_them() {
        let record = read_str(NESTED, ReadOptions::default()).unwrap();
        let v = variations(&record);
        let seen: Vec<(usize, usize, usize)> =
            v.iter().map(|v| (v.number, v.parent, v.ply)).collect();
        assert_eq!(seen, [(1, 0, 5), (2, 0, 2), (3, 2, 4)]);
        assert_eq!(usi(v[2].line), ["3i4h", "8b4b"]);
        // Each whole line: the parent's moves up to the branch, then its own.
        let whole = |n| usi(&variation_line(&record, n).unwrap()).join(" ");
        assert_eq!(whole(0), "2g2f 3c3d 7g7f 4c4d 3i4h 3a3b");
        assert_eq!(whole(1), "2g2f 3c3d 7g7f 4c4d 3i4h 8b4b 5i6h");
        assert_eq!(whole(2), "2g2f 3c3d 2f2e 2b3c 7g7f");
        assert_eq!(whole(3), "2g2f 3c3d 2f2e 2b3c 3i4h 8b4b");
        assert!(variation_line(&record, 4).is_none());
        // The endings are the variations' own.
        let ending = |n| variation_line(&record, n).unwrap().ending.map(|e| e.kind);
        assert_eq!(ending(1), Some(crate::EndingKind::Resign));
        assert_eq!(ending(2), Some(crate::EndingKind::Interrupt));
        assert_eq!(ending(3), None);
        // Written as KIF, the n-th 変化 block is variation n.
        let kif = crate::write(&record, crate::Format::Kif);
        let blocks: Vec<&str> = kif.lines().filter(|l| l.starts_with("変化")).collect();
        assert_eq!(blocks, ["変化：6手", "変化：3手", "変化：5手"]);
        let r = with_variation(&record, 1).unwrap();
        assert_eq!(r.moves.moves.len(), 7);
        assert_eq!(r.header, record.header);
    }
}
