//! The arguments every batch command shares: shards and the selection of games.

use crate::ctx::Failure;
use shogi_batch::{DedupMode, Input, MateSearch, Selection, Shard, TagFilter};
use shogi_openings::RuleSet;
use std::path::PathBuf;
use std::sync::Mutex;

/// `--mate`, `--mate-plies K`, `--mate-length M` (of `check` and `stats`).
#[derive(clap::Args, Clone, Default)]
pub struct MateArgs {
    /// For a game lost by resignation or time: the first of the last --mate-plies
    /// positions where the loser, to move, had a mate in at most --mate-length plies
    /// (df-pn, 200000 nodes a position).
    #[arg(long)]
    pub mate: bool,
    /// How many plies before the end --mate looks at.
    #[arg(long, value_name = "K", default_value_t = 10, requires = "mate")]
    pub mate_plies: usize,
    /// The longest mate --mate reports, in plies.
    #[arg(long, value_name = "M", default_value_t = 7, requires = "mate",
          value_parser = clap::value_parser!(u16).range(1..=99))]
    pub mate_length: u16,
}

impl MateArgs {
    /// The search, when --mate is given.
    pub fn search(&self) -> Option<MateSearch> {
        self.mate.then_some(MateSearch {
            plies: self.mate_plies,
            length: self.mate_length,
        })
    }
}

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
    /// Games started on or after this day (YYYY-MM-DD) or month (YYYY-MM: from its first day);
    /// games without a readable date are left out.
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Games started on or before this day (YYYY-MM-DD) or month (YYYY-MM: to its last day).
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
    /// Games where the ratings of --rating-of are known and at least N (Floodgate
    /// `'black_rate:` lines).
    #[arg(long, value_name = "N")]
    pub min_rating: Option<String>,
    /// Games where the ratings of --rating-of are known and at most N.
    #[arg(long, value_name = "N")]
    pub max_rating: Option<String>,
    /// Whose rating --min-rating and --max-rating bound: both (each side's), average (their
    /// mean) or mover (the side to move in the position of find/explore, or of --position);
    /// both by default.
    #[arg(long, value_name = "WHO")]
    pub rating_of: Option<String>,
    /// Games of this time control: BASE+SECONDS in seconds, F for a Fischer increment
    /// (300+10F, 900+0), or a shogi-server game name (floodgate-300-10F).
    #[arg(long, value_name = "TIME")]
    pub time_control: Option<String>,
    /// Games whose event contains TEXT (case-insensitive; Floodgate's event is its game id).
    #[arg(long, value_name = "TEXT")]
    pub event: Option<String>,
    /// Games whose main line passes through this position (SFEN or startpos; board, hands and
    /// side to move must match, the move number need not).
    #[arg(long, value_name = "SFEN")]
    pub position: Option<String>,
    /// Keep the first of games with the same start and main line; `--dedup prefix` also drops
    /// a game whose main line is a prefix of another's (all games are then held to the end).
    /// `stats` keeps every row and names the first copy in its duplicate_of column.
    #[arg(long, value_name = "MODE", num_args = 0..=1, default_missing_value = "exact")]
    pub dedup: Option<String>,
    /// Games where an opening (戦法) of this name, or of its family, formed (a class name such
    /// as 振り飛車 keeps every opening of the class); aliases and spellings are accepted.
    #[arg(long, value_name = "NAME")]
    pub opening: Option<String>,
    /// Games where a castle (囲い) of this name, or of its family (美濃, 穴熊, 矢倉), formed.
    #[arg(long, value_name = "NAME")]
    pub castle: Option<String>,
    /// Games of this class: a side's (居飛車, 振り飛車) or the game's (相居飛車, 対抗形,
    /// 相振り飛車, 力戦).
    #[arg(long, value_name = "NAME")]
    pub class: Option<String>,
    /// Whose tags --opening, --castle and a side's --class look at: sente, gote or either.
    #[arg(long, value_name = "SIDE", default_value = "either")]
    pub side: String,
    /// Read opening and castle rules from FILE over the built-in ones (new tags add, a tag
    /// defined again replaces the built-in one); see the shogi-openings crate docs.
    #[arg(long, value_name = "FILE")]
    pub tag_rules: Option<PathBuf>,
}

/// `s` with the filter of `flag` set (`set`) to its value read by `read`, when the flag was
/// given; what is wrong with a value is a usage error naming the flag.
fn apply<T>(
    s: Selection,
    flag: &str,
    value: Option<&str>,
    read: impl Fn(&str) -> Result<T, String>,
    set: impl Fn(Selection, T) -> Selection,
) -> Result<Selection, Failure> {
    match value {
        None => Ok(s),
        Some(v) => match read(v) {
            Ok(t) => Ok(set(s, t)),
            Err(e) => Err(Failure::usage(format!("error: {flag}: {e}"))),
        },
    }
}

impl SelectArgs {
    /// The selection; a bad value is a usage error naming the flag.
    pub fn selection(&self) -> Result<Selection, Failure> {
        self.selection_at(None)
    }

    /// The selection for a search of a position whose side to move is `mover` (`find`,
    /// `explore`): whose rating `--rating-of mover` bounds. Without it, that needs
    /// `--position`.
    pub fn selection_at(&self, mover: Option<shogi_core::Color>) -> Result<Selection, Failure> {
        let s = self.selection_of()?;
        let s = match mover {
            Some(side) => s.mover(side),
            None => s,
        };
        let of = self
            .rating_of
            .as_deref()
            .map(shogi_batch::filter_text::rating_of);
        if of == Some(Ok(shogi_batch::RatingOf::Mover))
            && mover.is_none()
            && self.position.is_none()
        {
            return Err(Failure::usage(
                "error: --rating-of: mover needs a position whose side to move is the mover \
                 (find and explore have one; elsewhere give --position)",
            ));
        }
        Ok(s)
    }

    /// The selection of the flags alone.
    fn selection_of(&self) -> Result<Selection, Failure> {
        use shogi_batch::filter_text as text;
        let name = |v: &str| text::name(v).map(str::to_string);
        let mut s = Selection::new();
        for p in &self.player {
            s = apply(s, "--player", Some(p), name, |s, n| s.player(&n))?;
        }
        s = apply(s, "--sente", self.sente.as_deref(), name, |s, n| {
            s.sente(&n)
        })?;
        s = apply(s, "--gote", self.gote.as_deref(), name, |s, n| s.gote(&n))?;
        s = apply(
            s,
            "--since",
            self.since.as_deref(),
            text::since,
            Selection::since,
        )?;
        s = apply(
            s,
            "--until",
            self.until.as_deref(),
            text::until,
            Selection::until,
        )?;
        let (min, max) = (self.min_plies.as_deref(), self.max_plies.as_deref());
        s = apply(s, "--min-plies", min, text::plies, Selection::min_plies)?;
        s = apply(s, "--max-plies", max, text::plies, Selection::max_plies)?;
        s = apply(
            s,
            "--ending",
            self.ending.as_deref(),
            text::endings,
            |s, all| all.into_iter().fold(s, Selection::ending),
        )?;
        s = apply(
            s,
            "--winner",
            self.winner.as_deref(),
            text::winner,
            Selection::winner,
        )?;
        s = apply(
            s,
            "--variant",
            self.variant.as_deref(),
            text::variant,
            Selection::variant,
        )?;
        let handicap = self.handicap.as_deref();
        s = apply(
            s,
            "--handicap",
            handicap,
            text::handicap,
            Selection::handicap,
        )?;
        let rating = self.min_rating.as_deref();
        s = apply(
            s,
            "--min-rating",
            rating,
            text::rating,
            Selection::min_rating,
        )?;
        let rating = self.max_rating.as_deref();
        s = apply(
            s,
            "--max-rating",
            rating,
            text::rating,
            Selection::max_rating,
        )?;
        let of = self.rating_of.as_deref();
        s = apply(s, "--rating-of", of, text::rating_of, Selection::rating_of)?;
        let time = self.time_control.as_deref();
        s = apply(
            s,
            "--time-control",
            time,
            text::time_control,
            Selection::time_control,
        )?;
        s = apply(s, "--event", self.event.as_deref(), name, |s, n| {
            s.event(&n)
        })?;
        let position = self.position.as_deref();
        s = apply(
            s,
            "--position",
            position,
            text::position,
            Selection::passes_through,
        )?;
        s = self.tag_filters(s)?;
        if self.tag_rules.is_some() {
            // The rule file is read, and a mistake in it refused, even where nothing asks for
            // tags: a file given is never silently left unread.
            self.tag_rules()?;
        }
        if self.valid || self.invalid {
            // clap refuses both at once.
            s = s.valid(self.valid);
        }
        Ok(s)
    }

    /// The opening and castle rules: the built-in ones, or with --tag-rules FILE over them
    /// (read once; a mistake in the file is a usage error at its file:line:col).
    pub fn tag_rules(&self) -> Result<&'static RuleSet, Failure> {
        // Each file's rules made once per process and kept to its end (`run` may be called
        // many times in one process: keyed by path and text).
        type Loaded = Vec<(PathBuf, String, &'static RuleSet)>;
        static LOADED: Mutex<Loaded> = Mutex::new(Vec::new());
        let Some(path) = &self.tag_rules else {
            return Ok(RuleSet::builtin());
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::usage(format!("error: --tag-rules {}: {e}", path.display())))?;
        let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&(_, _, rules)) = loaded.iter().find(|(p, t, _)| p == path && *t == text) {
            return Ok(rules);
        }
        let rules = RuleSet::with_user_file(&path.display().to_string(), &text)
            .map_err(|e| Failure::usage(format!("error: {e}")))?;
        let rules: &'static RuleSet = Box::leak(Box::new(rules));
        loaded.push((path.clone(), text, rules));
        Ok(rules)
    }

    /// `s` with the --opening, --castle and --class filters, on --side.
    fn tag_filters(&self, mut s: Selection) -> Result<Selection, Failure> {
        use shogi_batch::filter_text::{TagFlag, tag_side, tag_want};
        let side =
            tag_side(&self.side).map_err(|e| Failure::usage(format!("error: --side: {e}")))?;
        for (flag, name, value) in [
            (TagFlag::Opening, "--opening", &self.opening),
            (TagFlag::Castle, "--castle", &self.castle),
            (TagFlag::Class, "--class", &self.class),
        ] {
            if let Some(v) = value {
                let rules = self.tag_rules()?;
                let want = tag_want(rules, flag, v)
                    .map_err(|e| Failure::usage(format!("error: {name}: {e}")))?;
                s = s.tag(TagFilter { rules, want, side });
            }
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
