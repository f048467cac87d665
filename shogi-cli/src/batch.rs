//! The arguments every batch command shares: shards and the selection of games.

use crate::Failure;
use shogi_batch::{DedupMode, Input, Selection, Shard};

/// `--shard I/N`.
#[derive(clap::Args, Clone, Default)]
pub struct ShardArgs {
    /// Take only share I of N of the inputs (1 <= I <= N), chosen by a stable hash of each
    /// file's path below the folder given (the same on every machine), so that N jobs split a
    /// collection: `--shard 1/4` ... `--shard 4/4`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
}

impl ShardArgs {
    /// The inputs of this shard (all when no shard is given).
    pub fn apply(&self, inputs: Vec<Input>) -> Result<Vec<Input>, Failure> {
        match &self.shard {
            None => Ok(inputs),
            Some(s) => {
                let shard =
                    Shard::parse(s).map_err(|e| Failure::usage(format!("error: --shard: {e}")))?;
                Ok(shard.select(inputs))
            }
        }
    }
}

/// The selection flags of `check`, `convert` and `stats`.
#[derive(clap::Args, Clone, Default)]
#[command(next_help_heading = "Selection")]
pub struct SelectArgs {
    /// Games where either side's name contains NAME (case-insensitive; repeat for any of several).
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Games where sente's (black's, 下手's) name contains NAME.
    #[arg(long, value_name = "NAME")]
    pub sente: Option<String>,
    /// Games where gote's (white's, 上手's) name contains NAME.
    #[arg(long, value_name = "NAME")]
    pub gote: Option<String>,
    /// Games started on or after this day (YYYY-MM-DD); games without a readable date are left out.
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Games started on or before this day (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// Games of at least N main-line moves.
    #[arg(long, value_name = "N")]
    pub min_plies: Option<String>,
    /// Games of at most N main-line moves.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<String>,
    /// Games that ended so (comma-separated): resign, checkmate, repetition, perpetual-check,
    /// declaration, impasse, timeout, foul, abort, max-moves, draw, no-mate, sealed, other, none.
    #[arg(long, value_name = "KIND")]
    pub ending: Option<String>,
    /// Games won by sente, gote, or drawn (draw), or with no winner (none).
    #[arg(long, value_name = "WHO")]
    pub winner: Option<String>,
    /// Games of this variant: standard or mini.
    #[arg(long = "variant", value_name = "VARIANT")]
    pub variant: Option<String>,
    /// Games with this handicap: a 手合割 name (平手, 香落ち, 二枚落ち, ...) or JKF code (HIRATE, KY, 2, ...).
    #[arg(long, value_name = "NAME")]
    pub handicap: Option<String>,
    /// Only games read without an error.
    #[arg(long, conflicts_with = "invalid")]
    pub valid: bool,
    /// Only games with an error.
    #[arg(long)]
    pub invalid: bool,
    /// Games where both sides' ratings are known and at least N (Floodgate `'black_rate:` lines).
    #[arg(long, value_name = "N")]
    pub min_rating: Option<String>,
    /// Games whose main line passes through this position (SFEN or startpos; board, hands and
    /// side to move must match, the move number need not).
    #[arg(long, value_name = "SFEN")]
    pub position: Option<String>,
    /// Keep the first of games with the same start and main line; `--dedup prefix` also drops
    /// a game whose main line is a prefix of another's (all games are then held to the end).
    /// `stats` keeps every row and names the first copy in its duplicate_of column.
    #[arg(long, value_name = "MODE", num_args = 0..=1, default_missing_value = "exact")]
    pub dedup: Option<String>,
}

/// A flag's value read by `read`; what is wrong with it is a usage error naming the flag.
fn flag<T>(
    flag: &str,
    value: &Option<String>,
    read: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, Failure> {
    value
        .as_deref()
        .map(|v| read(v).map_err(|e| Failure::usage(format!("error: {flag}: {e}"))))
        .transpose()
}

impl SelectArgs {
    /// The selection; a bad value is a usage error naming the flag.
    pub fn selection(&self) -> Result<Selection, Failure> {
        use shogi_batch::filter_text as text;
        let mut s = Selection::new();
        let name = |v: &str| text::name(v).map(str::to_string);
        for p in &self.player {
            s = s.player(&flag("--player", &Some(p.clone()), name)?.unwrap_or_default());
        }
        if let Some(n) = flag("--sente", &self.sente, name)? {
            s = s.sente(&n);
        }
        if let Some(n) = flag("--gote", &self.gote, name)? {
            s = s.gote(&n);
        }
        if let Some(d) = flag("--since", &self.since, str::parse)? {
            s = s.since(d);
        }
        if let Some(d) = flag("--until", &self.until, str::parse)? {
            s = s.until(d);
        }
        if let Some(n) = flag("--min-plies", &self.min_plies, text::plies)? {
            s = s.min_plies(n);
        }
        if let Some(n) = flag("--max-plies", &self.max_plies, text::plies)? {
            s = s.max_plies(n);
        }
        for e in flag("--ending", &self.ending, text::endings)?.unwrap_or_default() {
            s = s.ending(e);
        }
        if let Some(w) = flag("--winner", &self.winner, text::winner)? {
            s = s.winner(w);
        }
        if let Some(v) = flag("--variant", &self.variant, text::variant)? {
            s = s.variant(v);
        }
        if let Some(h) = flag("--handicap", &self.handicap, text::handicap)? {
            s = s.handicap(h);
        }
        if let Some(r) = flag("--min-rating", &self.min_rating, text::rating)? {
            s = s.min_rating(r);
        }
        if let Some(p) = flag("--position", &self.position, text::position)? {
            s = s.passes_through(p);
        }
        if self.valid || self.invalid {
            // clap refuses both at once.
            s = s.valid(self.valid);
        }
        Ok(s)
    }

    /// The dedup mode, when asked for.
    pub fn dedup(&self) -> Result<Option<DedupMode>, Failure> {
        self.dedup
            .as_deref()
            .map(|m| {
                DedupMode::parse(m).map_err(|e| Failure::usage(format!("error: --dedup: {e}")))
            })
            .transpose()
    }
}
