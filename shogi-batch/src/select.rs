//! Selection: the filters of `shogi stats`, `check` and `convert`, applied to rows.

use crate::filter_text::{Day, EndingName};
use crate::row::{GameRow, TagFilter, TimeControl};
use shogi_core::{Color, Handicap, Position, Variant};
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
/// | [`min_rating`](Selection::min_rating), [`max_rating`](Selection::max_rating) | where the ratings [`rating_of`](Selection::rating_of) names are known and at least / at most this |
/// | [`time_control`](Selection::time_control) | whose `time_control` column reads as this [`TimeControl`] |
/// | [`event`](Selection::event) | whose `event` column contains it (case-insensitive) |
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
    max_rating: Option<f64>,
    rating_of: RatingOf,
    mover: Option<Color>,
    time_control: Option<TimeControl>,
    event: Option<String>,
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
            && self.max_rating.is_none()
            && self.time_control.is_none()
            && self.event.is_none()
            && self.position.is_none()
            && self.tags.is_empty()
    }

    /// Games whose tags the filter keeps; called again, games that all the filters keep.
    pub fn tag(mut self, filter: TagFilter) -> Selection {
        self.tags.push(filter);
        self
    }

    /// The tag filters set (a game must pass all of them), in the order given.
    pub fn tag_filters(&self) -> &[TagFilter] {
        &self.tags
    }

    /// The same selection without its tag filters (what an index that counted the tags in
    /// advance still has to decide).
    pub fn without_tags(&self) -> Selection {
        Selection {
            tags: Vec::new(),
            ..self.clone()
        }
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

        /// Games where the ratings of [`Selection::rating_of`] (both sides' by default) are
        /// known and at least this rating.
        min_rating: f64 => min_rating,

        /// Games where the ratings of [`Selection::rating_of`] are known and at most this.
        max_rating: f64 => max_rating,

        /// Games whose `time_control` column reads as this time control (`300+10F`).
        time_control: TimeControl => time_control,

        /// The side to move of the position searched (`find`, `explore`): whose rating
        /// [`RatingOf::Mover`] bounds.
        mover: Color => mover,

        /// Games whose main line passes through this position (board, hands and side to move; the
        /// move number need not match).
        passes_through: Position => position,
    }

    /// Whose ratings `min_rating` and `max_rating` bound ([`RatingOf::Both`] unless set).
    pub fn rating_of(mut self, of: RatingOf) -> Selection {
        self.rating_of = of;
        self
    }

    /// Games whose event (`event` column: a tournament's name, or Floodgate's game id)
    /// contains `text` (case-insensitive).
    pub fn event(mut self, text: &str) -> Selection {
        self.event = Some(text.to_lowercase());
        self
    }

    /// The filters, when every filter set is one of the date, rating and time-control
    /// filters (functions of a game's `start_iso`, ratings and `time_control` alone, which an
    /// index can count in advance); `None` when another filter is set.
    pub fn fact_filters(&self) -> Option<FactFilters> {
        let rest = Selection {
            since: None,
            until: None,
            min_rating: None,
            max_rating: None,
            time_control: None,
            ..self.clone()
        };
        rest.is_empty().then(|| FactFilters {
            since: self.since,
            until: self.until,
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            rating_of: self.rating_of,
            mover: self
                .mover
                .or(self.position.as_ref().map(|p| p.side_to_move())),
            time_control: self.time_control,
        })
    }

    /// Whether a game with this `time_control` column passes the time-control filter.
    pub fn keeps_time_control(&self, text: Option<&str>) -> bool {
        self.time_control
            .is_none_or(|want| text.and_then(|t| t.parse::<TimeControl>().ok()) == Some(want))
    }

    /// Whether a game with these ratings passes the rating filters (see [`RatingOf`]).
    pub fn keeps_ratings(&self, sente: Option<f64>, gote: Option<f64>) -> bool {
        let (min, max) = (self.min_rating, self.max_rating);
        if min.is_none() && max.is_none() {
            return true;
        }
        let within = |r: f64| min.is_none_or(|m| r >= m) && max.is_none_or(|m| r <= m);
        match self.rating_of {
            RatingOf::Both => matches!((sente, gote), (Some(a), Some(b)) if within(a) && within(b)),
            RatingOf::Average => {
                matches!((sente, gote), (Some(a), Some(b)) if within(average(a, b)))
            }
            RatingOf::Mover => {
                let side = self
                    .mover
                    .or(self.position.as_ref().map(|p| p.side_to_move()));
                match side {
                    Some(Color::Black) => sente.is_some_and(within),
                    Some(Color::White) => gote.is_some_and(within),
                    None => false,
                }
            }
        }
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
        if !self.keeps_ratings(row.sente_rating, row.gote_rating) {
            return false;
        }
        if !self.keeps_time_control(row.time_control.as_deref()) {
            return false;
        }
        if let Some(e) = &self.event {
            if !row
                .event
                .as_deref()
                .is_some_and(|t| t.to_lowercase().contains(e))
            {
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

/// Whose rating the rating filters bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RatingOf {
    /// The rating of the side to move in the position searched (`find`, `explore`; with
    /// `stats`, of the `--position` filter's side to move); a game without it is left out.
    Mover,
    /// Both sides' ratings (a game lacking either is left out).
    #[default]
    Both,
    /// The mean of both sides' ratings (a game lacking either is left out).
    Average,
}

/// The mean of two ratings as the average-rating filter takes it.
pub fn average(a: f64, b: f64) -> f64 {
    (a + b) / 2.0
}

/// The filters of a [`Selection`] that are functions of a game's date, ratings and time
/// control alone (see [`Selection::fact_filters`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FactFilters {
    /// Games on or after this day.
    pub since: Option<Day>,
    /// Games on or before this day.
    pub until: Option<Day>,
    /// The lowest rating kept.
    pub min_rating: Option<f64>,
    /// The highest rating kept.
    pub max_rating: Option<f64>,
    /// Whose rating the bounds apply to.
    pub rating_of: RatingOf,
    /// The side whose rating [`RatingOf::Mover`] bounds, when known.
    pub mover: Option<Color>,
    /// The time control kept.
    pub time_control: Option<TimeControl>,
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
        assert!(keeps(new().max_rating(3000.0)));
        assert!(!keeps(new().max_rating(2999.0)));
        let avg = || new().rating_of(RatingOf::Average);
        assert!(keeps(avg().min_rating(2750.0).max_rating(2750.0)));
        assert!(!keeps(avg().min_rating(2751.0)));
        let mover = |c| new().rating_of(RatingOf::Mover).mover(c);
        assert!(keeps(mover(Color::Black).min_rating(2600.0)));
        assert!(!keeps(mover(Color::White).min_rating(2600.0)));
        assert!(!keeps(new().rating_of(RatingOf::Mover).min_rating(0.0)));
        let tc = |t: &str| t.parse::<TimeControl>().unwrap();
        let floodgate = GameRow {
            time_control: Some("300+10F".into()),
            event: Some("wdoor+floodgate-300-10F+a+b+20200814050004".into()),
            ..row.clone()
        };
        let keeps_fg = |s: Selection| s.matches(&floodgate, |_| false);
        assert!(keeps_fg(new().time_control(tc("floodgate-300-10F"))));
        assert!(!keeps_fg(new().time_control(tc("300+10"))));
        assert!(!keeps(new().time_control(tc("300+10F"))));
        assert!(keeps_fg(new().event("FLOODGATE-300")));
        assert!(!keeps(new().event("floodgate")));
        assert!(new().max_rating(1.0).fact_filters().is_some());
        assert!(new().event("x").fact_filters().is_none());
        assert!(new().fact_filters().is_some());
        // The position filter asks whether the game reached the position, after the others.
        let start = || new().passes_through(Position::startpos(Variant::Standard));
        assert!(!keeps(start()));
        assert!(start().matches(&row, |want| want.move_number() == 1));
        let s = start().min_plies(121);
        assert!(!s.matches(&row, |_| panic!("asked after a filter failed")));
    }
}
