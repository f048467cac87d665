//! Selection: the filters of `shogi stats`, `check` and `convert`, applied to rows.

use crate::filter_text::{Day, EndingName};
use crate::row::{GameRow, TagFilter};
use shogi_core::{Handicap, Position, Variant};
use shogi_kif::Winner;

/// The endings a `--ending` value may name (the values of the `ending` column).
pub const ENDINGS: &[&str] = shogi_kif::ENDING_NAMES;

/// Which games to keep. Every filter set must hold (AND); an empty selection keeps all.
///
/// Built with typed setters, each taking the value's own type; the command line's flags
/// (`shogi stats --min-plies 100`) and Python's keyword arguments read their text into these
/// types (see [`crate::filter_text`]) and call the setters:
///
/// ```
/// use shogi_batch::{EndingName, Selection};
/// use shogi_kif::Winner;
///
/// let s = Selection::new()
///     .player("tanaka")
///     .min_plies(100)
///     .ending("resign".parse::<EndingName>()?)
///     .winner(Winner::Gote);
/// assert!(!s.is_empty());
/// # Ok::<(), String>(())
/// ```
///
/// | setter | keeps games … |
/// |--------|---------------|
/// | [`player`](Selection::player) | where either side's name contains it (case-insensitive; several: any of them) |
/// | [`sente`](Selection::sente), [`gote`](Selection::gote) | where that side's name contains it |
/// | [`since`](Selection::since), [`until`](Selection::until) | that started on or after / on or before the [`Day`]; games without a readable date are left out |
/// | [`min_plies`](Selection::min_plies), [`max_plies`](Selection::max_plies) | with at least / at most this many main-line moves |
/// | [`ending`](Selection::ending) | whose `ending` column is one of those given (`none`: no ending) |
/// | [`winner`](Selection::winner) | with this winner |
/// | [`variant`](Selection::variant) | of this variant |
/// | [`handicap`](Selection::handicap) | with this handicap |
/// | [`valid`](Selection::valid) | read without an error (`true`) or with one (`false`) |
/// | [`min_rating`](Selection::min_rating) | where both sides' ratings are known and at least this |
/// | [`passes_through`](Selection::passes_through) | whose main line passes through this position (board, hands, side to move) |
/// | [`tag`](Selection::tag) | whose openings, castles or classes the [`TagFilter`] keeps (the row's tags must be set: [`GameRow::set_tags`] with [`Selection::tag_rules`]) |
#[derive(Clone, Debug, Default)]
pub struct Selection {
    players: Vec<String>,
    sente: Option<String>,
    gote: Option<String>,
    since: Option<Day>,
    until: Option<Day>,
    min_plies: Option<u32>,
    max_plies: Option<u32>,
    endings: Vec<EndingName>,
    winner: Option<Winner>,
    variant: Option<Variant>,
    handicap: Option<Handicap>,
    valid: Option<bool>,
    min_rating: Option<f64>,
    position: Option<Position>,
    tags: Vec<TagFilter>,
}

/// `Selection`'s setters of one optional filter each: `name: Type => field` makes
/// `pub fn name(self, value: Type) -> Selection` setting `field` to `Some(value)`.
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty => $field:ident,)*) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, value: $ty) -> Selection {
                self.$field = Some(value);
                self
            }
        )*
    };
}

impl Selection {
    /// An empty selection (keeps every game).
    pub fn new() -> Selection {
        Selection::default()
    }

    /// Whether no filter is set.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
            && self.sente.is_none()
            && self.gote.is_none()
            && self.since.is_none()
            && self.until.is_none()
            && self.min_plies.is_none()
            && self.max_plies.is_none()
            && self.endings.is_empty()
            && self.winner.is_none()
            && self.variant.is_none()
            && self.handicap.is_none()
            && self.valid.is_none()
            && self.min_rating.is_none()
            && self.position.is_none()
            && self.tags.is_empty()
    }

    /// Games whose tags the filter keeps; called again, games that all the filters keep.
    pub fn tag(mut self, filter: TagFilter) -> Selection {
        self.tags.push(filter);
        self
    }

    /// The rules the tag filters need the row's tags recognised with, when there are any.
    pub fn tag_rules(&self) -> Option<&'static shogi_openings::RuleSet> {
        self.tags.first().map(|f| f.rules)
    }

    /// Games where either side's name contains `name` (case-insensitive); called again,
    /// games with any of the names.
    pub fn player(mut self, name: &str) -> Selection {
        self.players.push(name.to_lowercase());
        self
    }

    /// Games where sente's (black's, 下手's) name contains `name` (case-insensitive).
    pub fn sente(mut self, name: &str) -> Selection {
        self.sente = Some(name.to_lowercase());
        self
    }

    /// Games where gote's (white's, 上手's) name contains `name` (case-insensitive).
    pub fn gote(mut self, name: &str) -> Selection {
        self.gote = Some(name.to_lowercase());
        self
    }

    setters! {
        /// Games started on or after the day given.
        since: Day => since,

        /// Games started on or before the day given.
        until: Day => until,

        /// Games of at least this many main-line moves.
        min_plies: u32 => min_plies,

        /// Games of at most this many main-line moves.
        max_plies: u32 => max_plies,

        /// Games with this winner ([`Winner::None`]: no result).
        winner: Winner => winner,

        /// Games of this variant.
        variant: Variant => variant,

        /// Games with this handicap.
        handicap: Handicap => handicap,

        /// Games read without an error (`true`) or with one (`false`).
        valid: bool => valid,

        /// Games where both sides' ratings are known and at least this rating.
        min_rating: f64 => min_rating,

        /// Games whose main line passes through this position (board, hands and side to move; the
        /// move number need not match).
        passes_through: Position => position,
    }

    /// Games that ended so; called again, games that ended in any of the endings given.
    pub fn ending(mut self, ending: EndingName) -> Selection {
        self.endings.push(ending);
        self
    }

    /// The position games must pass through, if that filter is set ([`Selection::matches`]
    /// asks whether a game reached it).
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// Whether the game of `row` is kept; `reached` says whether the game passes through a
    /// position (asked only with a [`Selection::position`], once every other filter passed:
    /// [`crate::InputRecord::reached`] for a game read).
    pub fn matches(&self, row: &GameRow, reached: impl FnOnce(&Position) -> bool) -> bool {
        let has = |name: &Option<String>, want: &str| {
            name.as_deref()
                .is_some_and(|n| n.to_lowercase().contains(want))
        };
        if !self.players.is_empty()
            && !self
                .players
                .iter()
                .any(|p| has(&row.sente, p) || has(&row.gote, p))
        {
            return false;
        }
        if self.sente.as_ref().is_some_and(|p| !has(&row.sente, p)) {
            return false;
        }
        if self.gote.as_ref().is_some_and(|p| !has(&row.gote, p)) {
            return false;
        }
        let date = row.start_iso.as_deref().and_then(|d| d.get(..10));
        if let Some(since) = &self.since {
            if date.is_none_or(|d| d < since.as_str()) {
                return false;
            }
        }
        if let Some(until) = &self.until {
            if date.is_none_or(|d| d > until.as_str()) {
                return false;
            }
        }
        if self.min_plies.is_some_and(|m| row.plies < m) {
            return false;
        }
        if self.max_plies.is_some_and(|m| row.plies > m) {
            return false;
        }
        if !self.endings.is_empty() {
            let e = row.ending.unwrap_or(EndingName::NONE);
            if !self.endings.contains(&e) {
                return false;
            }
        }
        if self.winner.is_some_and(|w| w != row.winner) {
            return false;
        }
        if self.variant.is_some_and(|v| row.variant != Some(v)) {
            return false;
        }
        if self
            .handicap
            .is_some_and(|h| row.handicap.as_deref() != Some(h.japanese()))
        {
            return false;
        }
        if self.valid.is_some_and(|v| v != row.valid) {
            return false;
        }
        if let Some(min) = self.min_rating {
            let ok = matches!((row.sente_rating, row.gote_rating), (Some(a), Some(b)) if a >= min && b >= min);
            if !ok {
                return false;
            }
        }
        if !self.tags.iter().all(|f| f.keeps(row.tags.as_ref())) {
            return false;
        }
        match &self.position {
            Some(want) => reached(want),
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter_text;

    #[test]
    fn filters() {
        let row = GameRow {
            sente: Some("Tanaka 四段".into()),
            gote: Some("suzuki".into()),
            start_iso: Some("2024-01-02T10:00:00".into()),
            plies: 120,
            ending: Some("resign".parse().unwrap()),
            winner: Winner::Gote,
            variant: Some(Variant::Standard),
            handicap: Some("平手".into()),
            valid: true,
            sente_rating: Some(3000.0),
            gote_rating: Some(2500.0),
            ..GameRow::default()
        };
        let day = |t: &str| t.parse::<Day>().unwrap();
        let end = |t: &str| t.parse::<EndingName>().unwrap();
        let keeps = |s: Selection| s.matches(&row, |_| false);
        let new = Selection::new;
        assert!(keeps(new()));
        assert!(keeps(new().player("SUZUKI")));
        assert!(keeps(new().player("nobody").player("tanaka")));
        assert!(!keeps(new().sente("suzuki")));
        assert!(keeps(
            new().since(day("2024-01-02")).until(day("2024/01/02"))
        ));
        assert!(!keeps(new().since(day("2024-01-03"))));
        assert!(keeps(new().min_plies(120).max_plies(120)));
        assert!(!keeps(new().min_plies(121)));
        assert!(keeps(new().ending(end("checkmate")).ending(end("resign"))));
        assert!(!keeps(new().ending(end("none"))));
        assert!(keeps(new().winner(filter_text::winner("white").unwrap())));
        assert!(!keeps(new().winner(Winner::Sente)));
        assert!(keeps(
            new()
                .variant(Variant::Standard)
                .handicap(filter_text::handicap("HIRATE").unwrap())
        ));
        assert!(!keeps(new().variant(Variant::Mini)));
        assert!(!keeps(new().handicap(Handicap::Lance)));
        assert!(keeps(new().valid(true)));
        assert!(!keeps(new().valid(false)));
        assert!(keeps(new().min_rating(2500.0)));
        assert!(!keeps(new().min_rating(2501.0)));
        // The position filter asks whether the game reached the position, after the others.
        let start = || new().passes_through(Position::startpos(Variant::Standard));
        assert!(!keeps(start()));
        assert!(start().matches(&row, |want| want.move_number() == 1));
        let s = start().min_plies(121);
        assert!(!s.matches(&row, |_| panic!("asked after a filter failed")));
    }
}
