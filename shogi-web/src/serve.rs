//! The local web application over a game database: the page (built in) at `/`, the JSON API
//! under `/api/`. Served by tiny_http on a few threads, each with its own read-only handle on
//! the database. No request reaches the file system: the page is a string of the binary, and
//! the API reads only the database (opened read-only at start) and the analysis cache.

use crate::analysis::Analysis;
use crate::api::{self, ApiError, Params};
use crate::book::{BookLookup, explore_marked};
use crate::page::{DRAW_JS, VIEWER_JS, page};
use serde::Serialize;
use shogi_db::Db;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The application's own script.
const APP_JS: &str = include_str!("../assets/app.js");
/// The longest request URL served (longer: 414).
pub const MAX_URL: usize = 8192;

/// How to serve.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address and port (`127.0.0.1:8080`; port 0 picks a free one).
    pub bind: String,
    /// The analysis cache whose evaluations the game viewer shows.
    pub analysis: Option<PathBuf>,
    /// Threads answering requests (at least 1).
    pub threads: usize,
    /// The longest a request's database query may run before it is interrupted (503).
    pub query_time: Duration,
    /// An opening book whose moves the explorer marks (see [`explore_marked`]).
    pub book: Option<Arc<dyn BookLookup>>,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            bind: "127.0.0.1:8080".into(),
            analysis: None,
            threads: 4,
            query_time: Duration::from_secs(10),
            book: None,
        }
    }
}

/// A server bound and ready: [`Server::run`] answers until [`Server::stop`].
pub struct Server {
    http: Arc<tiny_http::Server>,
    db: PathBuf,
    analysis: Option<PathBuf>,
    threads: usize,
    query_time: Duration,
    book: Option<Arc<dyn BookLookup>>,
    addr: SocketAddr,
    stopped: Arc<AtomicBool>,
}

/// A handle that stops a running [`Server`] from another thread.
#[derive(Clone)]
pub struct Stopper(Arc<tiny_http::Server>, Arc<AtomicBool>);

impl Stopper {
    /// Makes [`Server::run`] return once the requests being answered are done.
    pub fn stop(&self) {
        self.1.store(true, Ordering::SeqCst);
        for _ in 0..64 {
            self.0.unblock();
        }
    }
}

impl Server {
    /// Opens the database (read-only; a file that is not a game database of this version is
    /// an error naming it) and the analysis cache, and binds `options.bind`.
    pub fn bind(db: &Path, options: &ServeOptions) -> Result<Server, String> {
        Db::open_read_only(db).map_err(|e| e.to_string())?;
        if let Some(a) = &options.analysis {
            Analysis::open(a)?;
        }
        let http = tiny_http::Server::http(&options.bind)
            .map_err(|e| format!("{}: cannot listen: {e}", options.bind))?;
        let addr = match http.server_addr() {
            tiny_http::ListenAddr::IP(a) => a,
            #[allow(unreachable_patterns)]
            _ => return Err(format!("{}: not an IP address", options.bind)),
        };
        Ok(Server {
            http: Arc::new(http),
            db: db.to_path_buf(),
            analysis: options.analysis.clone(),
            threads: options.threads.max(1),
            query_time: options.query_time,
            book: options.book.clone(),
            addr,
            stopped: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The address bound (with the port chosen when 0 was asked).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A handle to stop the server.
    pub fn stopper(&self) -> Stopper {
        Stopper(Arc::clone(&self.http), Arc::clone(&self.stopped))
    }

    /// Answers requests on the server's threads until stopped.
    pub fn run(self) -> Result<(), String> {
        let app = Arc::new(app_page());
        let mut workers = Vec::with_capacity(self.threads);
        for _ in 0..self.threads {
            let http = Arc::clone(&self.http);
            let app = Arc::clone(&app);
            let stopped = Arc::clone(&self.stopped);
            let db = Db::open_read_only(&self.db).map_err(|e| e.to_string())?;
            let analysis = match &self.analysis {
                Some(a) => Some(Analysis::open(a)?),
                None => None,
            };
            let watch = Watchdog::start(db.interrupt_handle(), Arc::clone(&stopped));
            let limit = self.query_time;
            let book = self.book.clone();
            workers.push(std::thread::spawn(move || {
                let state = State {
                    db,
                    analysis,
                    app,
                    book,
                };
                while !stopped.load(Ordering::SeqCst) {
                    // An error is a failed connection, or the unblocking of `stop`.
                    if let Ok(req) = http.recv() {
                        watch.arm(limit);
                        answer(&state, &watch, limit, req);
                        watch.disarm();
                    }
                }
            }));
        }
        for w in workers {
            let _ = w.join();
        }
        Ok(())
    }
}

/// Interrupts a worker's query once its deadline has passed.
struct Watchdog {
    /// The deadline of the request being answered, if any.
    deadline: Arc<Mutex<Option<Instant>>>,
    /// Whether the current request's query was interrupted.
    fired: Arc<AtomicBool>,
}

impl Watchdog {
    /// A watchdog thread over `handle`, ending when `stopped` is set.
    fn start(handle: rusqlite::InterruptHandle, stopped: Arc<AtomicBool>) -> Watchdog {
        let deadline: Arc<Mutex<Option<Instant>>> = Arc::new(Mutex::new(None));
        let fired = Arc::new(AtomicBool::new(false));
        let (d, f) = (Arc::clone(&deadline), Arc::clone(&fired));
        std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(20));
                let mut due = d.lock().unwrap_or_else(|e| e.into_inner());
                if due.is_some_and(|t| Instant::now() >= t) {
                    *due = None;
                    f.store(true, Ordering::SeqCst);
                    handle.interrupt();
                }
            }
        });
        Watchdog { deadline, fired }
    }

    fn arm(&self, limit: Duration) {
        self.fired.store(false, Ordering::SeqCst);
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now() + limit);
    }

    fn disarm(&self) {
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    fn fired(&self) -> bool {
        self.fired.load(Ordering::SeqCst)
    }
}

/// What a worker answers from.
struct State {
    db: Db,
    analysis: Option<Analysis>,
    app: Arc<String>,
    book: Option<Arc<dyn BookLookup>>,
}

/// The application's page.
pub fn app_page() -> String {
    page(
        "shogi explorer",
        &serde_json::json!({}),
        &[DRAW_JS, VIEWER_JS, APP_JS],
    )
}

/// `%XX` and `+` decoded; `None` for bytes that are not UTF-8 or a broken escape.
fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The path and parameters of a request URL.
pub fn split_url(url: &str) -> Result<(String, Params), ApiError> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let bad = || ApiError::bad("the URL holds a bad %-escape or bytes that are not UTF-8");
    let path = decode(path).ok_or_else(bad)?;
    let mut params = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        params.push((decode(k).ok_or_else(bad)?, decode(v).ok_or_else(bad)?));
    }
    Ok((path, Params(params)))
}

/// The answer to `method` `url`: status, content type, body.
fn route(state: &State, method: &tiny_http::Method, url: &str) -> (u16, &'static str, String) {
    const JSON: &str = "application/json; charset=utf-8";
    fn json<T: Serialize>(r: Result<T, ApiError>) -> (u16, &'static str, String) {
        match r {
            Ok(v) => (
                200,
                JSON,
                serde_json::to_string(&v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")),
            ),
            Err(e) => (
                e.status,
                JSON,
                serde_json::to_string(&e).unwrap_or_default(),
            ),
        }
    }
    if url.len() > MAX_URL {
        return json::<()>(Err(ApiError {
            status: 414,
            error: format!("the URL is longer than {MAX_URL} bytes"),
        }));
    }
    if *method != tiny_http::Method::Get && *method != tiny_http::Method::Head {
        return json::<()>(Err(ApiError {
            status: 405,
            error: "only GET is served".into(),
        }));
    }
    let (path, p) = match split_url(url) {
        Ok(x) => x,
        Err(e) => return json::<()>(Err(e)),
    };
    let (db, analysis) = (&state.db, state.analysis.as_ref());
    match path.as_str() {
        "/" | "/index.html" => (200, "text/html; charset=utf-8", state.app.to_string()),
        "/api/explore" => json(explore_marked(db, state.book.as_deref(), &p)),
        "/api/games" => json(api::games(db, &p)),
        "/api/game" => json(api::game(db, analysis, &p)),
        "/api/position" => json(api::position(&p)),
        "/api/search" => json(api::search(db, &p)),
        other => json::<()>(Err(ApiError::not_found(format!("{other}: no such page")))),
    }
}

/// Answers one request (a request body is never read); a query the watchdog interrupted is
/// a 503 saying so.
fn answer(state: &State, watch: &Watchdog, limit: Duration, req: tiny_http::Request) {
    let (mut status, kind, mut body) = route(state, req.method(), req.url());
    if status >= 500 && watch.fired() {
        status = 503;
        body = serde_json::json!({
            "error": format!("the query took longer than {} s and was stopped", limit.as_secs_f64())
        })
        .to_string();
    }
    let header = |k: &str, v: &str| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).ok();
    let mut resp = tiny_http::Response::from_string(body).with_status_code(status);
    for h in [
        header("Content-Type", kind),
        header("Cache-Control", "no-store"),
        header("X-Content-Type-Options", "nosniff"),
    ]
    .into_iter()
    .flatten()
    {
        resp.add_header(h);
    }
    let _ = req.respond(resp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watchdog_stops_a_long_query() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let stopped = Arc::new(AtomicBool::new(false));
        let watch = Watchdog::start(conn.get_interrupt_handle(), Arc::clone(&stopped));
        watch.arm(Duration::from_millis(50));
        let t = Instant::now();
        // Minutes of counting, unless interrupted.
        let r: rusqlite::Result<i64> = conn.query_row(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) \
             SELECT count(*) FROM c",
            [],
            |r| r.get(0),
        );
        watch.disarm();
        stopped.store(true, Ordering::SeqCst);
        assert!(r.is_err(), "{r:?}");
        assert!(watch.fired());
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        // Armed again, a quick query is left alone.
        watch.arm(Duration::from_secs(5));
        assert!(!watch.fired());
        let one: i64 = conn.query_row("SELECT 1", [], |r| r.get(0)).unwrap();
        assert_eq!(one, 1);
    }

    #[test]
    fn urls_decode() {
        let (path, p) =
            split_url("/api/explore?pos=startpos+moves+7g7f&notation=japanese&x=%E5%85%88")
                .unwrap();
        assert_eq!(path, "/api/explore");
        assert_eq!(p.get("pos"), Some("startpos moves 7g7f"));
        assert_eq!(p.get("notation"), Some("japanese"));
        assert_eq!(p.get("x"), Some("先"));
        assert!(split_url("/a?x=%ZZ").is_err());
        assert!(split_url("/a?x=%FF").is_err());
        assert!(split_url("/a?x=%4").is_err());
    }
}
