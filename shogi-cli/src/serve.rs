//! `shogi serve`: the local web explorer and game viewer over a game database (the shogi-web
//! crate serves it).

use crate::ctx::{Ctx, Failure};
use shogi_web::{ServeOptions, Server};
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `shogi serve`.
#[derive(clap::Args)]
#[command(
    after_help = "Open the address it prints in a browser: a board played by clicks, the \
explorer of the position (games, sente/draw/gote, average rating, last date; a click plays the \
move), the games that reached it (a click opens the game with its evaluation graph), search by \
player, a position pasted as SFEN or USI. The JSON API under /api/ (explore, games, game, \
position, search) is described in the README. The database is opened read-only and never \
written; it listens on 127.0.0.1 unless --bind says otherwise (and warns when the address is \
reachable from elsewhere). `shogi serve --db games.sqlite` runs until stopped (Ctrl-C); --check \
only opens the database and the address, says so, and exits.\n\
Exit status: 0, 2 when the database cannot be opened or the address cannot be bound.\n\n\
Examples:\n  shogi index samples/ --db games.sqlite\n  shogi serve --db games.sqlite --bind 127.0.0.1:0 --check\n  \
shogi serve --db games.sqlite --bind 127.0.0.1:0 --threads 2 --query-time 5 --check"
)]
pub struct ServeArgs {
    /// The game database (see `shogi index`).
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// An analysis cache (`shogi analyze --cache`) whose evaluations the game viewer shows.
    #[arg(long, value_name = "FILE")]
    pub analysis: Option<PathBuf>,
    /// An opening book (YaneuraOu text, .ybb or Apery's book.bin) whose moves the explorer
    /// marks, with value, depth and count, and lists where no game played them (looked up as
    /// `shogi explore --book` does: without the move number, and flipped).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Address and port to listen on (port 0: any free port).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Threads answering requests.
    #[arg(long, default_value_t = 4)]
    pub threads: usize,
    /// Open the database and the address, say so, and exit instead of serving.
    #[arg(long)]
    pub check: bool,
    /// The longest a request's database query may run, in seconds (then it is stopped: 503).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub query_time: f64,
}

/// `shogi serve`: runs until the process is stopped.
pub fn run(args: &ServeArgs, ctx: &mut Ctx<'_>) -> Result<(), Failure> {
    let options = ServeOptions {
        bind: args.bind.clone(),
        analysis: args.analysis.clone(),
        threads: args.threads,
        query_time: std::time::Duration::try_from_secs_f64(args.query_time)
            .map_err(|_| Failure::usage("error: --query-time: a number of seconds, at least 0"))?,
        book: match &args.book {
            Some(path) => Some(Arc::new(
                shogi_book::MarkBook::open(path)
                    .map_err(|e| crate::book::files::book_failure(&e))?,
            )),
            None => None,
        },
    };
    let server =
        Server::bind(&args.db, &options).map_err(|e| Failure::usage(format!("error: {e}")))?;
    let addr = server.addr();
    if !addr.ip().is_loopback() {
        let _ = writeln!(
            ctx.stderr,
            "warning: listening on {addr}, reachable from other machines (give --bind 127.0.0.1:PORT to keep it local)"
        );
    }
    if args.check {
        return crate::ctx::emit(
            ctx.stdout,
            &format!(
                "shogi serve: {} can be served at http://{addr}/\n",
                args.db.display()
            ),
        );
    }
    crate::ctx::emit(
        ctx.stdout,
        &format!(
            "shogi serve: {} at http://{addr}/ (Ctrl-C stops)\n",
            args.db.display()
        ),
    )?;
    server
        .run()
        .map_err(|e| Failure::usage(format!("error: {e}")))
}
