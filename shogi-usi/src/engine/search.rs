//! Searching: the `position` and `go` of a search, its lines read and checked up to the
//! `bestmove`, mate searches and the end of a game.

use super::*;

impl Engine {
    fn replay(&self, start: &Position, moves: &[Move]) -> Result<Position, EngineError> {
        let mut pos = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            if let Err(e) = pos.play(m) {
                return Err(self.error(EngineErrorKind::InvalidRequest(format!(
                    "move {} ({}) is illegal in {}: {e}",
                    i + 1,
                    m.usi(),
                    pos.to_sfen()
                ))));
            }
        }
        Ok(pos)
    }

    /// Does ahead of time what the next search of `start` after `moves` does before it
    /// writes `position`: a restart when the process is stale, the variant, and, with
    /// [`StartOptions::fresh_state`], the fresh state ([`FreshState`]); that search then
    /// skips it. The result is the same as without: only the waiting moves, so that a caller
    /// can prepare one process while another searches (YaneuraOu's `isready` sleeps at
    /// least 100 ms: [`FreshState::processes_per_search`]). Anything sent to the engine
    /// between this and the search other than that search's own commands is not allowed.
    pub fn prepare(&mut self, start: &Position, moves: &[Move]) -> Result<(), EngineError> {
        self.prepared = false;
        let position = self.replay(start, moves)?;
        self.check_idle()?;
        self.restart_if_stale(start, moves)?;
        self.set_variant(position.variant())?;
        if self.start_options.fresh_state {
            self.make_fresh(moves)?;
            self.prepared = true;
        }
        Ok(())
    }

    /// Writes `position` and `go` for the search of `position` (`start` after `moves`, already
    /// replayed by the caller: a game's move list is checked once per move, not twice).
    fn begin(
        &mut self,
        start: &Position,
        moves: &[Move],
        position: Position,
        go: String,
        mate: bool,
        budget: Option<Duration>,
    ) -> Result<(), EngineError> {
        self.check_idle()?;
        self.restart_if_stale(start, moves)?;
        self.set_variant(position.variant())?;
        let fresh = self.start_options.fresh_state && !std::mem::take(&mut self.prepared);
        // fairy-stockfish reads its commands one after the other (its `isready` answers once
        // the `setoption` before it is done), so the fresh state's lines go in the same write
        // as the search's: the engine goes from `readyok` to the search without waiting for
        // us, one round trip fewer per position. Other engines wait for `readyok` first.
        let ahead = if fresh && !mate && self.fresh == FreshState::Threads {
            self.threads_line()
        } else {
            if fresh {
                self.make_fresh(moves)?;
            }
            None
        };
        self.drain()?;
        self.used = true;
        let position_line = shogi_core::position_line(start, moves);
        let mut started = Instant::now();
        match &ahead {
            Some(threads) => {
                self.send_lines(&[threads, "isready", &position_line, &go])?;
                started = self.read_ready(started + self.start_options.timeouts.readyok)?;
            }
            // One write for both lines: the engine wakes once, with the whole request.
            None => self.send_lines(&[&position_line, &go])?,
        }
        if is_gpsusi(self.name.as_deref()) {
            self.last_sent = Some((start.clone(), moves.to_vec()));
        }
        let t = &self.start_options.timeouts;
        let deadline = Some(started + budget.map_or(t.search_unbounded, |b| b + t.search_margin));
        self.state = State::Searching {
            position,
            deadline,
            started,
            mate,
        };
        Ok(())
    }

    /// Sends `position` and `go` and returns at once; finish with [`Engine::wait`] or
    /// [`Engine::stop`] (`go infinite` needs `stop`).
    pub fn start_search(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: &Limit,
    ) -> Result<(), EngineError> {
        let pos = self.replay(start, moves)?;
        let black = pos.side_to_move() == shogi_core::Color::Black;
        let budget = limit.time_budget(black);
        let go = limit.go_command(self.swap_clocks);
        self.begin(start, moves, pos, go, false, budget)?;
        if limit.infinite {
            if let State::Searching { deadline, .. } = &mut self.state {
                *deadline = None;
            }
        }
        Ok(())
    }

    /// Searches the position after `moves` from `start` and waits for `bestmove` (the time
    /// budget of `limit` plus [`Timeouts::search_margin`], or [`Timeouts::search_unbounded`]).
    /// `infinite` is refused here: use [`Engine::start_search`] and [`Engine::stop`].
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: &Limit,
    ) -> Result<Search, EngineError> {
        if limit.infinite {
            return Err(self.error(EngineErrorKind::InvalidRequest(
                "go infinite never ends by itself: use start_search and stop".into(),
            )));
        }
        self.start_search(start, moves, limit)?;
        self.wait()
    }

    /// As [`Engine::search`]; when the engine crashed, hung or broke the protocol (or was
    /// already dead), restarts it and tries once more. The retried result carries the first
    /// error in [`Search::retried`].
    pub fn search_with_retry(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: &Limit,
    ) -> Result<Search, EngineError> {
        match self.search(start, moves, limit) {
            Ok(s) => Ok(s),
            Err(first) if first.needs_restart() => {
                self.restart()?;
                let mut s = self.search(start, moves, limit)?;
                s.retried = Some(Box::new(first));
                Ok(s)
            }
            Err(e) => Err(e),
        }
    }

    /// Waits for the `bestmove` of the running search.
    pub fn wait(&mut self) -> Result<Search, EngineError> {
        self.check_alive()?;
        let State::Searching { deadline, .. } = &self.state else {
            return Err(self.error(EngineErrorKind::InvalidRequest(
                "no search is running".into(),
            )));
        };
        if deadline.is_none() {
            return Err(self.error(EngineErrorKind::InvalidRequest(
                "go infinite: call stop".into(),
            )));
        }
        self.collect(None, &mut |_| {})
    }

    /// As [`Engine::wait`], handing every `info` line to `on_info` as it arrives (raw, not
    /// checked: the checked final lines are in the result), e.g. to show progress.
    pub fn wait_with(&mut self, on_info: &mut dyn FnMut(&Info)) -> Result<Search, EngineError> {
        self.check_alive()?;
        match &self.state {
            State::Searching {
                deadline: Some(_), ..
            } => self.collect(None, on_info),
            State::Searching { .. } => Err(self.error(EngineErrorKind::InvalidRequest(
                "go infinite: call stop".into(),
            ))),
            _ => Err(self.error(EngineErrorKind::InvalidRequest(
                "no search is running".into(),
            ))),
        }
    }

    /// Sends `stop` and waits for the `bestmove` ([`Timeouts::stop`]).
    pub fn stop(&mut self) -> Result<Search, EngineError> {
        self.check_alive()?;
        if !matches!(self.state, State::Searching { .. }) {
            return Err(self.error(EngineErrorKind::InvalidRequest(
                "no search is running".into(),
            )));
        }
        self.send("stop")?;
        let d = Instant::now() + self.start_options.timeouts.stop;
        self.collect(Some(d), &mut |_| {})
    }

    fn collect(
        &mut self,
        deadline_override: Option<Instant>,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Search, EngineError> {
        let (position, deadline, started) = match &self.state {
            State::Searching {
                position,
                deadline,
                started,
                ..
            } => (position.clone(), *deadline, *started),
            _ => {
                return Err(self.error(EngineErrorKind::InvalidRequest(
                    "no search is running".into(),
                )));
            }
        };
        let deadline = deadline_override
            .or(deadline)
            .unwrap_or_else(|| Instant::now() + self.start_options.timeouts.search_unbounded);
        let heard = self.read_to_bestmove(deadline, on_info)?;
        self.state = State::Idle;
        let elapsed = heard.at.saturating_duration_since(started);
        let bestmove = checked_bestmove(&position, &heard.text, self.start_options.impasse_rule)
            .map_err(|kind| self.error(kind))?;
        let mut warnings = Vec::new();
        let ponder = ponder_move(&position, &heard.text, bestmove, &mut warnings);
        let lines = search_lines(&position, heard.finals, &mut warnings);
        if heard.scored {
            self.searched = true;
        }
        Ok(Search {
            position,
            bestmove,
            ponder,
            lines,
            nodes: heard.nodes,
            elapsed,
            bestmove_read_at: heard.at,
            strings: heard.strings.into_iter().collect(),
            warnings,
            retried: None,
        })
    }

    /// Reads the engine's lines until `bestmove` (or `deadline`): the last info of each
    /// multipv line that has a score or a PV, the most nodes said, the last 16 strings.
    fn read_to_bestmove(
        &mut self,
        deadline: Instant,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Heard, EngineError> {
        let mut heard = Heard {
            finals: Vec::new(),
            nodes: None,
            strings: VecDeque::new(),
            scored: false,
            text: BestMoveText::Resign,
            at: Instant::now(),
        };
        loop {
            match self.recv_until(deadline, "bestmove")? {
                (EngineLine::Info(info), _) => {
                    on_info(&info);
                    heard.scored |= info.score.is_some();
                    if let Some(n) = info.nodes {
                        heard.nodes = Some(heard.nodes.map_or(n, |m: u64| m.max(n)));
                    }
                    if let Some(s) = &info.string {
                        if heard.strings.len() == 16 {
                            heard.strings.pop_front();
                        }
                        heard.strings.push_back(s.clone());
                    }
                    if info.score.is_none() && info.pv.is_empty() {
                        continue;
                    }
                    let k = info.multipv.unwrap_or(1).max(1);
                    if k > MAX_MULTIPV {
                        continue;
                    }
                    let k = k as usize;
                    if heard.finals.len() < k {
                        heard.finals.resize(k, None);
                    }
                    heard.finals[k - 1] = Some(info);
                }
                (EngineLine::BestMove(b), at) => {
                    heard.text = b;
                    heard.at = at;
                    return Ok(heard);
                }
                (EngineLine::Malformed { line, reason }, _) if line.starts_with("bestmove") => {
                    return Err(self.fail(EngineErrorKind::Protocol(format!("{reason}: `{line}`"))));
                }
                _ => {}
            }
        }
    }

    /// `go mate <ms>` (`go mate infinite` for `None`) and the `checkmate` answer, every move of
    /// a mating line checked legal. The wait is the time plus [`Timeouts::search_margin`]
    /// ([`Timeouts::search_unbounded`] for infinite). An engine that answers with `bestmove`
    /// (fairy-stockfish reads `go mate` as UCI's) is [`EngineErrorKind::Unsupported`].
    pub fn go_mate(
        &mut self,
        start: &Position,
        moves: &[Move],
        time: Option<Duration>,
    ) -> Result<MateAnswer, EngineError> {
        let go = match time {
            Some(t) => format!("go mate {}", t.as_millis()),
            None => "go mate infinite".to_owned(),
        };
        let position = self.replay(start, moves)?;
        self.begin(start, moves, position, go, true, time)?;
        let State::Searching {
            position, deadline, ..
        } = &self.state
        else {
            return Err(self.error(EngineErrorKind::InvalidRequest(
                "no search is running".into(),
            )));
        };
        let position = position.clone();
        let deadline = deadline
            .unwrap_or_else(|| Instant::now() + self.start_options.timeouts.search_unbounded);
        loop {
            match self.recv_until(deadline, "checkmate")? {
                (EngineLine::Checkmate(c), _) => {
                    self.state = State::Idle;
                    return match c {
                        CheckmateText::NoMate => Ok(MateAnswer::NoMate),
                        CheckmateText::Timeout => Ok(MateAnswer::Timeout),
                        CheckmateText::NotImplemented => Ok(MateAnswer::NotImplemented),
                        CheckmateText::Mate(line) => {
                            if is_gpsusi(self.name.as_deref()) {
                                self.stale = Some(GPSUSI_AFTER_GO_MATE);
                            }
                            let (pv, cut) = check_pv(&position, &line);
                            match cut {
                                None => Ok(MateAnswer::Mate(pv)),
                                Some(c) => Err(self.error(EngineErrorKind::IllegalMove {
                                    text: c.text,
                                    reason: format!(
                                        "move {} of the checkmate line: {}, from {}",
                                        c.index + 1,
                                        c.reason,
                                        position.to_sfen()
                                    ),
                                    why: c.why,
                                })),
                            }
                        }
                    };
                }
                (EngineLine::BestMove(_), _) => {
                    self.state = State::Idle;
                    return Err(self.error(EngineErrorKind::Unsupported(
                        "go mate answered with bestmove (the engine reads it as UCI's mate in N moves)".into(),
                    )));
                }
                _ => {}
            }
        }
    }

    /// `gameover win|lose|draw` (a running search is stopped first and its result dropped).
    pub fn gameover(&mut self, result: GameResult) -> Result<(), EngineError> {
        self.check_alive()?;
        if matches!(self.state, State::Searching { mate: false, .. }) {
            let _ = self.stop()?;
        }
        let word = match result {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            GameResult::Draw => "draw",
        };
        self.send(&format!("gameover {word}"))
    }
}

/// What a search's lines said, up to its `bestmove`.
struct Heard {
    /// The last info of each multipv line (index k-1 for line k) with a score or a PV.
    finals: Vec<Option<Info>>,
    nodes: Option<u64>,
    strings: VecDeque<String>,
    /// Whether any info had a score.
    scored: bool,
    text: BestMoveText,
    /// When the `bestmove` line was read.
    at: Instant,
}

/// The engine's `bestmove` checked against `position`: a move must be USI and legal there; a
/// win is the declaration judged by `rule`.
fn checked_bestmove(
    position: &Position,
    text: &BestMoveText,
    rule: ImpasseRule,
) -> Result<BestMove, EngineErrorKind> {
    Ok(match text {
        BestMoveText::Resign => BestMove::Resign,
        BestMoveText::Win => BestMove::Win(position.declaration(rule)),
        BestMoveText::Move { mv, .. } => {
            let m = Move::from_usi(mv).map_err(|e| EngineErrorKind::IllegalMove {
                text: mv.clone(),
                reason: format!("not a USI move ({}), in {}", e.message, position.to_sfen()),
                why: Illegality::NotUsi(e),
            })?;
            position
                .check_move(m)
                .map_err(|e| EngineErrorKind::IllegalMove {
                    text: mv.clone(),
                    reason: format!("{e}, in {}", position.to_sfen()),
                    why: Illegality::Rule(e),
                })?;
            BestMove::Move(m)
        }
    })
}

/// The ponder move of `bestmove … ponder P`, when legal after the best move (else a warning).
fn ponder_move(
    position: &Position,
    text: &BestMoveText,
    bestmove: BestMove,
    warnings: &mut Vec<String>,
) -> Option<Move> {
    let (
        BestMoveText::Move {
            ponder: Some(p), ..
        },
        BestMove::Move(m),
    ) = (text, bestmove)
    else {
        return None;
    };
    let mut after = position.clone();
    after.play_unchecked(m);
    match Move::from_usi(p) {
        Ok(pm) if after.is_legal(pm) => Some(pm),
        _ => {
            warnings.push(format!("ponder move `{p}` is not legal after {}", m.usi()));
            None
        }
    }
}

/// The search's lines from the last info of each multipv line, PVs checked against
/// `position` (cut at the first illegal move); the infos' problems become warnings.
fn search_lines(
    position: &Position,
    finals: Vec<Option<Info>>,
    warnings: &mut Vec<String>,
) -> Vec<SearchLine> {
    let turn = position.side_to_move();
    let mut lines = Vec::new();
    for (i, info) in finals.into_iter().enumerate() {
        let Some(info) = info else { continue };
        let (pv, pv_cut) = check_pv(position, &info.pv);
        for p in &info.problems {
            warnings.push(format!("info (multipv {}): {p}", i + 1));
        }
        lines.push(SearchLine {
            multipv: i as u32 + 1,
            score: info.score.map(|score| PovScore {
                score,
                bound: info.bound,
                turn,
            }),
            pv,
            pv_cut,
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            nps: info.nps,
            time_ms: info.time_ms,
            hashfull: info.hashfull,
        });
    }
    lines
}
