//! Handicap presets (手合割): the 17 names of Kakinoki's list with their start positions.

use crate::position::Position;

/// A handicap preset. In every handicap game the handicap giver (上手, gote, `w`) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap.
    Even,
    /// 香落ち: the giver's left lance (1一) removed.
    Lance,
    /// 右香落ち: the giver's right lance (9一) removed.
    RightLance,
    /// 角落ち: bishop removed.
    Bishop,
    /// 飛車落ち: rook removed.
    Rook,
    /// 飛香落ち: rook and left lance removed.
    RookLance,
    /// 二枚落ち: rook and bishop removed.
    TwoPieces,
    /// 三枚落ち: rook, bishop and left lance removed.
    ThreePieces,
    /// 四枚落ち: rook, bishop and both lances removed.
    FourPieces,
    /// 五枚落ち: four pieces and the right knight removed.
    FivePieces,
    /// 左五枚落ち: four pieces and the left knight removed.
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, lances and knights removed.
    SixPieces,
    /// 左七枚落ち: six pieces and the left silver removed.
    LeftSevenPieces,
    /// 右七枚落ち: six pieces and the right silver removed.
    RightSevenPieces,
    /// 八枚落ち: everything but the golds and king in the back rank.
    EightPieces,
    /// 十枚落ち: only the king remains in the back rank.
    TenPieces,
    /// その他: another position, given by a board diagram.
    Other,
}

impl Handicap {
    /// All 17 presets, in Kakinoki's order.
    pub const ALL: [Handicap; 17] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
        Handicap::Other,
    ];

    /// The start SFEN, `None` for [`Handicap::Other`].
    pub const fn sfen(self) -> Option<&'static str> {
        Some(match self {
            Handicap::Even => "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            Handicap::Lance => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RightLance => {
                "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            Handicap::Bishop => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Rook => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RookLance => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TwoPieces => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::ThreePieces => "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::FourPieces => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::FivePieces => "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::LeftFivePieces => {
                "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            Handicap::SixPieces => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::LeftSevenPieces => "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RightSevenPieces => {
                "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            Handicap::EightPieces => "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TenPieces => "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Other => return None,
        })
    }

    /// The start position, `None` for [`Handicap::Other`].
    pub fn position(self) -> Option<Position> {
        self.sfen().and_then(|s| Position::from_sfen(s).ok())
    }

    /// The Japanese name as written in KIF `手合割`.
    pub const fn japanese(self) -> &'static str {
        match self {
            Handicap::Even => "平手",
            Handicap::Lance => "香落ち",
            Handicap::RightLance => "右香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPieces => "二枚落ち",
            Handicap::ThreePieces => "三枚落ち",
            Handicap::FourPieces => "四枚落ち",
            Handicap::FivePieces => "五枚落ち",
            Handicap::LeftFivePieces => "左五枚落ち",
            Handicap::SixPieces => "六枚落ち",
            Handicap::LeftSevenPieces => "左七枚落ち",
            Handicap::RightSevenPieces => "右七枚落ち",
            Handicap::EightPieces => "八枚落ち",
            Handicap::TenPieces => "十枚落ち",
            Handicap::Other => "その他",
        }
    }

    /// An English name.
    pub const fn english(self) -> &'static str {
        match self {
            Handicap::Even => "Even",
            Handicap::Lance => "Lance",
            Handicap::RightLance => "Right Lance",
            Handicap::Bishop => "Bishop",
            Handicap::Rook => "Rook",
            Handicap::RookLance => "Rook and Lance",
            Handicap::TwoPieces => "Two Pieces",
            Handicap::ThreePieces => "Three Pieces",
            Handicap::FourPieces => "Four Pieces",
            Handicap::FivePieces => "Five Pieces",
            Handicap::LeftFivePieces => "Left Five Pieces",
            Handicap::SixPieces => "Six Pieces",
            Handicap::LeftSevenPieces => "Left Seven Pieces",
            Handicap::RightSevenPieces => "Right Seven Pieces",
            Handicap::EightPieces => "Eight Pieces",
            Handicap::TenPieces => "Ten Pieces",
            Handicap::Other => "Other",
        }
    }

    /// The JKF `initial.preset` code (`HIRATE`, `KY`, ... `OTHER`).
    pub const fn jkf(self) -> &'static str {
        match self {
            Handicap::Even => "HIRATE",
            Handicap::Lance => "KY",
            Handicap::RightLance => "KY_R",
            Handicap::Bishop => "KA",
            Handicap::Rook => "HI",
            Handicap::RookLance => "HIKY",
            Handicap::TwoPieces => "2",
            Handicap::ThreePieces => "3",
            Handicap::FourPieces => "4",
            Handicap::FivePieces => "5",
            Handicap::LeftFivePieces => "5_L",
            Handicap::SixPieces => "6",
            Handicap::LeftSevenPieces => "7_L",
            Handicap::RightSevenPieces => "7_R",
            Handicap::EightPieces => "8",
            Handicap::TenPieces => "10",
            Handicap::Other => "OTHER",
        }
    }

    /// Reads a `手合割` value: the 17 names, also without the trailing `ち` and with `平手`
    /// spelled `平手戦`; surrounding white space is ignored.
    pub fn from_japanese(s: &str) -> Option<Handicap> {
        let s = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
        let s = s.strip_suffix('戦').unwrap_or(s);
        Handicap::ALL.iter().copied().find(|h| {
            let name = h.japanese();
            name == s || name.strip_suffix('ち') == Some(s)
        })
    }

    /// Whether a `手合割` value names Mini Shogi (5五将棋, ５五将棋, 五々将棋, 5五將棋,
    /// ミニ将棋), which is a variant rather than a handicap.
    pub fn is_mini_shogi_name(name: &str) -> bool {
        matches!(
            name,
            "5五将棋" | "５五将棋" | "五々将棋" | "5五將棋" | "ミニ将棋"
        )
    }

    /// Reads a JKF preset code.
    pub fn from_jkf(s: &str) -> Option<Handicap> {
        Handicap::ALL.iter().copied().find(|h| h.jkf() == s)
    }

    /// The preset whose start position has this SFEN (move number ignored), if any.
    pub fn from_sfen(sfen: &str) -> Option<Handicap> {
        let head = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        let want = head(sfen);
        Handicap::ALL
            .iter()
            .copied()
            .find(|h| h.sfen().is_some_and(|s| head(s) == want))
    }
}

impl std::fmt::Display for Handicap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.japanese())
    }
}
