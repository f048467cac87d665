//! The shape of what a format holds of a record: each format module declares its own
//! (`KIF_HOLDS`, `csa::HOLDS`, …), and [`crate::losses`] asks them.

/// What a format holds of a record, as its module declares it ([`crate::losses`] asks).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Holds {
    /// Variations (and so whatever is inside them).
    pub variations: bool,
    /// Comments on the start, moves and endings.
    pub comments: bool,
    /// Times of moves and endings.
    pub times: bool,
    /// Fractions of a second in those times.
    pub subsecond_times: bool,
    /// Bookmarks (しおり).
    pub bookmarks: bool,
    /// Header entries.
    pub header: HeaderHolds,
    /// Which endings read back as themselves.
    pub endings: EndingHolds,
    /// That a line ends in a recorded illegal move.
    pub foul_moves: bool,
}

/// Which header entries a format keeps.
#[derive(Clone, Copy, Debug)]
pub(crate) enum HeaderHolds {
    /// Every entry (CSA and JKF: as fields, or CSA's `'key：value` lines).
    All,
    /// None (a USI or SFEN line).
    None,
    /// Those whose `key：value` line reads back as a header line (KIF, KI2).
    KifLines,
}

/// Which endings a format writes so that they read back as themselves.
#[derive(Clone, Copy, Debug)]
pub(crate) enum EndingHolds {
    /// Those [`crate::EndingKind::reads_back_in`] the format (KIF, KI2, JKF).
    ReadsBack,
    /// Those with a CSA word, fouls, the `%` words CSA keeps; the sealed move is written as
    /// an interruption.
    Csa,
    /// `resign` and `win` only, and not after a foul move (USI, SFEN).
    Usi,
}
