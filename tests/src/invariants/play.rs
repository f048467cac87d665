//! Move play: positions built from bytes, every USI move tried.

use super::sfen::check_position_sfen;
use super::*;

/// The position the first bytes describe, and the rest of the bytes.
///
/// First byte below 64: an SFEN up to the first newline (read with every relaxation);
/// otherwise pieces placed from the bytes (a count, then square and piece pairs, then hand
/// counts and the side to move). `None` when the bytes give no playable position.
fn position_from(data: &[u8]) -> Option<(Position, &[u8])> {
    let (&mode, rest) = data.split_first()?;
    if mode < 64 {
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let text = String::from_utf8_lossy(&rest[..end]);
        let pos = Position::from_sfen_with(&text, SetupOptions::PERMISSIVE).ok()?;
        return Some((pos, rest.get(end + 1..).unwrap_or(&[])));
    }
    let variant = if mode & 1 == 1 {
        Variant::Mini
    } else {
        Variant::Standard
    };
    let size = variant.size();
    let mut setup = Setup::empty(variant);
    let (&n, mut rest) = rest.split_first()?;
    for _ in 0..n % 48 {
        let [sq, pc, tail @ ..] = rest else {
            return None;
        };
        rest = tail;
        let (file, rank) = (1 + sq % size, 1 + (sq / size) % size);
        let square = Square::new(file, rank)?;
        let color = if pc & 1 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let role = Role::ALL[usize::from(pc >> 1) % Role::ALL.len()];
        setup.set_piece(square, Some(Piece::new(color, role)));
    }
    let [hands, side, tail @ ..] = rest else {
        return None;
    };
    for (i, role) in Role::HAND.iter().enumerate() {
        let count = (hands >> i) & 1;
        let color = if side & (2 << i) == 0 {
            Color::Black
        } else {
            Color::White
        };
        if variant.has_role(*role) {
            setup.hands[color.index()].set(*role, count);
        }
    }
    setup.side_to_move = if side & 1 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let pos = Position::from_setup(setup, SetupOptions::PERMISSIVE).ok()?;
    Some((pos, tail))
}

/// Every move USI notation can write (board moves between any two squares, with and
/// without promotion, and drops of the seven hand roles on every square).
fn all_usi_moves() -> impl Iterator<Item = Move> {
    let normal = Square::all().flat_map(|from| {
        Square::all()
            .flat_map(move |to| [false, true].map(|promote| Move::Normal { from, to, promote }))
    });
    let drops = Role::HAND
        .into_iter()
        .flat_map(|role| Square::all().map(move |to| Move::Drop { role, to }));
    normal.chain(drops)
}

/// Move play from a position the bytes give (see `position_from`), then moves the later
/// bytes pick among the legal ones. In every position met: a move is in `legal_moves`
/// exactly when `play` accepts it, for every move USI can write, and a refused move leaves
/// the position as it was; the count of legal moves agrees with the list, which has no
/// duplicate; after every legal move the key kept incrementally equals the key recomputed
/// from scratch and from the SFEN, and the mover's king (if any) is not attacked.
pub fn check_play(data: &[u8]) {
    let Some((mut pos, picks)) = position_from(data) else {
        return;
    };
    check_position_sfen(&pos);
    for &pick in picks.iter().take(24) {
        let legal = pos.legal_moves();
        let mut sorted = legal.as_slice().to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            legal.len(),
            "duplicate moves in {}",
            pos.to_sfen()
        );
        assert_eq!(
            pos.count_legal_moves(),
            legal.len() as u64,
            "{}",
            pos.to_sfen()
        );
        assert_eq!(
            pos.has_legal_moves(),
            !legal.is_empty(),
            "{}",
            pos.to_sfen()
        );
        let sfen = pos.to_sfen();
        for m in all_usi_moves() {
            let listed = sorted.binary_search(&m).is_ok();
            let mut after = pos.clone();
            let played = after.play(m);
            assert_eq!(
                listed,
                played.is_ok(),
                "{sfen}: move {} listed {listed}, play says {played:?}",
                m.to_usi()
            );
            match played {
                Err(_) => assert!(
                    after == pos,
                    "{sfen}: refused {} changed the position",
                    m.to_usi()
                ),
                Ok(()) => check_after_move(&pos, &after, m),
            }
        }
        if legal.is_empty() {
            break;
        }
        let m = legal.as_slice()[usize::from(pick) % legal.len()];
        pos.play(m)
            .unwrap_or_else(|e| panic!("{sfen}: listed move {} refused: {e}", m.to_usi()));
    }
}

fn check_after_move(before: &Position, after: &Position, m: Move) {
    let mover = before.side_to_move();
    assert_eq!(after.side_to_move(), !mover);
    check_position_sfen(after);
    if let Some(k) = after.king_square(mover) {
        assert!(
            !after.attackers_to(k, !mover, after.occupied()).any(),
            "{}: legal move {} leaves the mover in check",
            before.to_sfen(),
            m.to_usi()
        );
    }
    assert_eq!(
        before.gives_check(m),
        after.is_check(),
        "{}: gives_check {}",
        before.to_sfen(),
        m.to_usi()
    );
}
