//! The command loop: holds the game, the options and the search, and answers each command.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use shakmaty::{CastlingMode, Color, Position};
use vampirc_uci::{Serializable, UciMessage};

use super::command::{Command, GoArgs, StartPosition, parse};
use super::debug;
use super::options::{Change, Effect, Options, announce, parse_change};
use super::output::{error, info_string, send};
use super::reader::Input;
use super::report::{bestmove_line, currmove_line, info_line};
use super::wdl;
use super::{ENGINE_AUTHOR, ENGINE_NAME};
use crate::eval::nnue::{EMBEDDED_FILE, Network};
use crate::game::AutomaticEnd;
use crate::game::{Game, parse_fen_noting, parse_uci_move, start_position, uci_text};
use crate::search::ProvenPerpetual;
use crate::search::tablebase::Tables;
use crate::search::time::TimeManager;
use crate::search::{
    Clock, Limits, MAX_DEPTH, Report, SEARCH_STACK_BYTES, SearchResult, Searcher, Signals,
};
use crate::selfplay::openings::GenfensArgs;

/// A search running on its own thread; it hands the searcher back when it ends.
struct Running {
    handle: JoinHandle<Searcher>,
    signals: Arc<Signals>,
    waits_for_stop: bool,
    /// Set by the thread as its `bestmove` goes out: for the GUI the search is over, and the
    /// thread only hands the searcher back (which a loaded machine may delay).
    answered: Arc<AtomicBool>,
}

/// Where the position to search comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PositionState {
    /// At start-up and after `ucinewgame`: the start position, with no history before it.
    Unset,
    /// Set by the GUI's last `position` command.
    Set,
    /// The last `position` command was refused: there is nothing to search.
    Refused,
}

/// The engine as the GUI sees it.
pub struct Engine {
    game: Game,
    state: PositionState,
    options: Options,
    /// None while a search thread holds it.
    searcher: Option<Searcher>,
    running: Option<Running>,
    /// `Hash`, `Clear Hash` and `SyzygyPath` sent during a search, applied when it ends.
    pending_table_changes: Vec<Change>,
    debug: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let options = Options::default();
        Engine {
            game: Game::default(),
            state: PositionState::Unset,
            searcher: Some(Searcher::new(options.hash_mib)),
            options,
            running: None,
            pending_table_changes: Vec::new(),
            debug: false,
        }
    }

    /// Answers commands until `quit` or end of input.
    pub fn run(&mut self, input: &Receiver<Input>) {
        loop {
            match input.recv() {
                Ok(Input::Line(line)) => {
                    if !self.handle_line(&line) {
                        break;
                    }
                }
                Ok(Input::LineTooLong) => error(&format!(
                    "a line longer than {} bytes was ignored",
                    super::reader::MAX_LINE_BYTES
                )),
                Ok(Input::End) | Err(_) => {
                    self.finish_at_end_of_input();
                    break;
                }
            }
        }
    }

    /// Handles one line; false when the engine should exit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        if self.debug {
            log::debug!("<< {}", line.trim_end());
        }
        match parse(line) {
            Ok(command) => self.execute(command),
            Err(why) => {
                error(&why);
                true
            }
        }
    }

    fn execute(&mut self, command: Command) -> bool {
        match command {
            Command::Empty => {}
            Command::Uci => self.identify(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => send("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => info_string("registration is not needed"),
            Command::UciNewGame => self.new_game(),
            Command::Position {
                start,
                moves,
                warnings,
            } => self.set_position(start, &moves, &warnings),
            Command::Go(args) => self.go(args),
            Command::Stop => self.signal_stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {
                self.signal_stop();
                self.wait_for_search();
                return false;
            }
            Command::Perft(depth) => {
                if let Some(game) = self.current_game() {
                    debug::perft(game, depth);
                }
            }
            Command::Display => {
                if let Some(game) = self.current_game() {
                    debug::display(game);
                }
            }
            Command::Eval => {
                // The searcher's network; while a search holds it, the options' choice.
                let network = match self.searcher.as_ref() {
                    Some(searcher) => searcher.network.clone(),
                    None => chosen_network(&self.options).ok().flatten(),
                };
                if let Some(game) = self.current_game() {
                    debug::show_eval(game, network.as_deref());
                }
            }
            Command::Bench(depth) => self.bench(depth),
            Command::Genfens(args) => genfens(&args),
        }
        true
    }

    fn identify(&self) {
        send(&UciMessage::id_name(ENGINE_NAME).serialize());
        send(&UciMessage::id_author(ENGINE_AUTHOR).serialize());
        for option in announce(&Options::default()) {
            send(&UciMessage::Option(option).serialize());
        }
        send(&UciMessage::UciOk.serialize());
    }

    /// At end of input a bounded search finishes and answers; an endless one is stopped.
    fn finish_at_end_of_input(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.waits_for_stop) {
            self.signal_stop();
        }
        self.wait_for_search();
    }

    fn signal_stop(&self) {
        if let Some(r) = &self.running {
            r.signals.stop.store(true, Ordering::SeqCst);
        }
    }

    fn ponderhit(&self) {
        match &self.running {
            Some(r) => r.signals.ponderhit.store(true, Ordering::SeqCst),
            None => log::info!("ponderhit without a running search ignored"),
        }
    }

    /// Waits for a running search to end (it prints its own `bestmove`) and takes the searcher back.
    fn wait_for_search(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => log::error!("the search thread failed"),
            }
        }
        if self.searcher.is_none() {
            self.searcher = Some(Searcher::new(self.options.hash_mib));
        }
        for change in std::mem::take(&mut self.pending_table_changes) {
            self.apply_table_change(change);
        }
    }

    /// True while a search thread is still working (one that has answered is taken back).
    fn search_is_running(&mut self) -> bool {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished() || r.answered.load(Ordering::SeqCst))
        {
            self.wait_for_search();
        }
        self.running.is_some()
    }

    /// Stops any running search and returns the idle searcher.
    fn idle_searcher(&mut self) -> &mut Searcher {
        self.signal_stop();
        self.wait_for_search();
        let hash_mib = self.options.hash_mib;
        self.searcher.get_or_insert_with(|| Searcher::new(hash_mib))
    }

    /// Applies a change to the idle searcher's tables: resizes or clears the hash table, or
    /// loads (or drops) the Syzygy tables. The option keeps its old value when this fails.
    fn apply_table_change(&mut self, change: Change) {
        let hash_mib = self.options.hash_mib;
        let searcher = self.searcher.get_or_insert_with(|| Searcher::new(hash_mib));
        let done = match change.option.effect {
            Effect::ResizeHash => match searcher.tt.resize(change.int() as usize) {
                Ok(()) => true,
                Err(e) => {
                    error(&e.0);
                    false
                }
            },
            Effect::ClearHash => {
                searcher.clear();
                true
            }
            Effect::LoadTables if change.text().is_empty() => {
                searcher.tables = None;
                true
            }
            Effect::LoadTables => match Tables::load(change.text()) {
                Ok(tables) => {
                    info_string(&format!(
                        "Syzygy: {} table files, up to {} pieces, from '{}'",
                        tables.files,
                        tables.max_pieces(),
                        change.text()
                    ));
                    searcher.tables = Some(tables);
                    true
                }
                Err(e) => {
                    error(&format!("{}; keeping the previous tables", e.0));
                    false
                }
            },
            Effect::ChooseEvaluation => {
                let mut next = self.options.clone();
                change.apply(&mut next);
                match chosen_network(&next) {
                    Ok(network) => {
                        info_string(&describe_evaluation(&next, network.as_deref()));
                        searcher.network = network;
                        // The table's static evaluations are the other evaluation's.
                        searcher.tt.clear();
                        true
                    }
                    Err(e) => {
                        error(&format!("{e}; keeping the previous evaluation"));
                        false
                    }
                }
            }
            Effect::Setting => true,
        };
        if done {
            change.apply(&mut self.options);
        }
    }

    /// A new game has no history: the next bare FEN starts it afresh.
    fn new_game(&mut self) {
        self.idle_searcher().clear();
        self.game = Game::default();
        self.state = PositionState::Unset;
    }

    /// The game to search or show; None (with an error line) after a refused `position`.
    fn current_game(&mut self) -> Option<&Game> {
        match self.state {
            PositionState::Refused => {
                error("no position to search: the last 'position' command was refused");
                None
            }
            PositionState::Unset => {
                self.game = Game::new(start_position(self.options.castling_mode()));
                Some(&self.game)
            }
            PositionState::Set => Some(&self.game),
        }
    }

    /// Refuses a `position` command: until the next valid one there is no position to search.
    fn refuse_position(&mut self, why: &str) {
        error(&format!(
            "{why}; no position is set until a valid 'position' command"
        ));
        self.state = PositionState::Refused;
        self.game = Game::default();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match parse_change(name, value, &self.options) {
            Ok(change) => change,
            Err(why) => return error(&why),
        };
        if let Some(note) = &change.note {
            info_string(note);
        }
        match change.option.effect {
            Effect::Setting => {
                if let Some(remark) = change.apply(&mut self.options) {
                    info_string(&remark);
                }
            }
            _ if self.search_is_running() => {
                info_string(&format!(
                    "{} will take effect when the current search ends",
                    change.option.name
                ));
                self.pending_table_changes.push(change);
            }
            _ => self.apply_table_change(change),
        }
    }

    /// `position`: a FEN or a move list that cannot be followed is refused as a whole, and the
    /// next `go` searches nothing (it answers `bestmove 0000`). A bare FEN one or two plies
    /// after the position the GUI set last continues that game (in the current castling mode).
    fn set_position(&mut self, start: StartPosition, moves: &[String], warnings: &[String]) {
        for w in warnings {
            error(w);
        }
        let bare_fen = matches!(start, StartPosition::Fen(_)) && moves.is_empty();
        let mode = self.options.castling_mode();
        let start_pos = match start {
            StartPosition::Standard => start_position(mode),
            StartPosition::Fen(text) if text.is_empty() => {
                return self.refuse_position("position needs 'startpos' or 'fen <fen>'");
            }
            StartPosition::Fen(text) => match parse_fen_noting(&text, mode) {
                Ok(parsed) => {
                    if let Some(dropped) = parsed.dropped {
                        info_string(&format!(
                            "FEN '{text}': dropped what the position cannot have: {dropped}"
                        ));
                    }
                    parsed.position
                }
                Err(e) => return self.refuse_position(&format!("{e} in '{text}'")),
            },
        };
        if bare_fen
            && self.state == PositionState::Set
            && let Some(continued) = self
                .game
                .in_mode(mode)
                .and_then(|game| game.continued_to(&start_pos))
        {
            let plies = continued.moves().len() - self.game.moves().len();
            log::info!("bare FEN is {plies} ply after the previous position; history kept");
            self.game = continued;
            return;
        }
        let mut game = Game::new(start_pos);
        for (i, text) in moves.iter().enumerate() {
            if let Err(e) = game.play_uci(text) {
                return self.refuse_position(&format!("{e} (move {} of the list)", i + 1));
            }
        }
        self.game = game;
        self.state = PositionState::Set;
    }

    fn go(&mut self, args: GoArgs) {
        // The clock runs from here: whatever comes before the search proper counts.
        let received = Instant::now();
        for w in &args.warnings {
            error(w);
        }
        if self.current_game().is_none() {
            // Nothing to search: answer at once (after any search still running has answered).
            self.idle_searcher();
            send(&bestmove_line(None, None, self.options.castling_mode()));
            return;
        }
        let limits = self.limits_from(&args, received);
        let mut searcher = match self.searcher.take() {
            Some(s) if self.running.is_none() => s,
            other => {
                self.searcher = other;
                self.idle_searcher();
                self.searcher
                    .take()
                    .unwrap_or_else(|| Searcher::new(self.options.hash_mib))
            }
        };
        searcher.settings = self.options.settings();
        report_draw_rules(&self.game);
        if self.debug {
            report_time_budget(&limits, self.options.move_overhead_ms);
        }
        let signals = Arc::new(Signals::default());
        let game = self.game.clone();
        let thread_signals = Arc::clone(&signals);
        let waits_for_stop = limits.waits_for_stop();
        let show_wdl = self.options.show_wdl;
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = Arc::clone(&answered);
        let spawned = thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    search_and_answer(
                        &mut searcher,
                        &game,
                        &limits,
                        &thread_signals,
                        &thread_answered,
                        show_wdl,
                    );
                }));
                if outcome.is_err() {
                    // Never leave the GUI waiting: answer with some legal move, and start afresh.
                    error("internal error in the search; answering with a legal move");
                    let fallback = game.position().legal_moves().first().copied();
                    thread_answered.store(true, Ordering::SeqCst);
                    send(&bestmove_line(fallback, None, game.castling_mode()));
                    let hash_mib = searcher.tt.size_mib().max(1);
                    let tables = searcher.tables.take();
                    let network = searcher.network.take();
                    searcher = Searcher::new(hash_mib);
                    searcher.tables = tables;
                    searcher.network = network;
                }
                searcher
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    signals,
                    waits_for_stop,
                    answered,
                })
            }
            Err(e) => {
                error(&format!("cannot start the search thread: {e}"));
                let fallback = self.game.position().legal_moves().first().copied();
                send(&bestmove_line(fallback, None, self.game.castling_mode()));
            }
        }
    }

    /// Turns `go` arguments into search limits for the side to move.
    fn limits_from(&self, args: &GoArgs, received: Instant) -> Limits {
        let pos = self.game.position();
        let (time, inc) = match pos.turn() {
            Color::White => (args.wtime, args.winc),
            Color::Black => (args.btime, args.binc),
        };
        let clock = time.map(|time_ms| Clock {
            time_ms,
            increment_ms: inc.unwrap_or(0),
            moves_to_go: args.movestogo.filter(|&m| m > 0),
        });
        if let Some(d) = args.requested_depth.filter(|&d| d > u64::from(MAX_DEPTH)) {
            info_string(&format!(
                "depth {d} is beyond the maximum {MAX_DEPTH}; searching to {MAX_DEPTH}"
            ));
        }
        let mut searchmoves = Vec::new();
        for text in &args.searchmoves {
            match parse_uci_move(pos, text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => error(&format!("searchmoves: {e}; ignored")),
            }
        }
        Limits {
            depth: args.depth,
            nodes: args.nodes,
            soft_nodes: None,
            mate: args.mate,
            movetime_ms: args.movetime,
            clock,
            infinite: args.infinite,
            ponder: args.ponder,
            searchmoves,
            started: Some(received),
        }
    }

    fn bench(&mut self, depth: Option<u32>) {
        // The evaluation chosen by the options (the hash table is the bench's own).
        let network = self.idle_searcher().network.clone();
        let depth = depth.unwrap_or(crate::bench::BENCH_DEPTH);
        let result = crate::bench::run(depth, network, &mut |l| send(&format!("info string {l}")));
        send(&format!("{} nodes {} nps", result.nodes, result.nps));
    }
}

/// The network that `options` ask to evaluate with (None: the hand-written evaluation). A
/// named `EvalFile` is read and checked even while `UseNNUE` is off, so a bad file is reported
/// when it is named.
fn chosen_network(options: &Options) -> Result<Option<Arc<Network>>, String> {
    let file = match options.eval_file.as_str() {
        "" => None,
        path => Some(Network::load(std::path::Path::new(path))?),
    };
    Ok(options
        .use_nnue
        .then(|| Arc::new(file.unwrap_or_else(|| Network::embedded().clone()))))
}

/// The `info string` that says which evaluation the engine now uses.
fn describe_evaluation(options: &Options, network: Option<&Network>) -> String {
    let file = match options.eval_file.as_str() {
        "" => format!("the built-in network ({EMBEDDED_FILE})"),
        path => format!("'{path}'"),
    };
    match network {
        Some(net) => format!("evaluation: NNUE, {file}, {}", net.shape()),
        None => format!("evaluation: hand-written (UseNNUE is off; the network would be {file})"),
    }
}

/// Tells the user, before a search, what the draw rules say about the root position. A game
/// that has ended (here or at an earlier ply the GUI played past) leaves nothing to claim.
fn report_draw_rules(game: &Game) {
    match game.first_automatic_end() {
        Some((ply, end)) if ply == game.moves().len() => {
            if matches!(
                end,
                AutomaticEnd::FivefoldRepetition | AutomaticEnd::SeventyFiveMoves
            ) {
                info_string(&format!(
                    "the game is already drawn by {end} (searching anyway)"
                ));
            }
            return;
        }
        Some((ply, end)) => {
            info_string(&format!(
                "the game already ended by {end} at ply {ply}; the moves after it are void \
                 (searching anyway)"
            ));
            return;
        }
        None => {}
    }
    let claims = game.claims();
    if claims.threefold_now {
        info_string(&format!(
            "a draw by threefold repetition can be claimed now (position seen {} times)",
            game.occurrences()
        ));
    }
    if claims.fifty_now {
        info_string(&format!(
            "a draw by the fifty-move rule can be claimed now (halfmove clock {})",
            game.halfmove_clock()
        ));
    }
}

/// With `debug on`: the time the search plans to use (soft) and will never pass (hard).
fn report_time_budget(limits: &Limits, overhead_ms: u64) {
    let (soft, hard) = TimeManager::new(limits, overhead_ms).budget();
    let ms = |d: Option<Duration>| d.map_or("none".to_owned(), |d| d.as_millis().to_string());
    info_string(&format!(
        "time budget soft {} hard {} overhead {overhead_ms} (ms)",
        ms(soft),
        ms(hard)
    ));
}

/// What the perpetual-check prover proved at the root, in words.
fn perpetual_note(found: &ProvenPerpetual, mode: CastlingMode) -> String {
    let mv = uci_text(found.mv, mode);
    let size = found.strategy;
    if found.ours {
        format!(
            "perpetual check proven: {mv} keeps checking whatever the reply (a strategy of {size} \
             positions), a draw at least"
        )
    } else {
        format!(
            "{mv} lets the opponent check for ever (proven, a strategy of {size} positions): a \
             draw at most"
        )
    }
}

/// Tells the user when the best line is a forced draw by rule, as the search found it.
fn report_best_line(game: &Game, result: &SearchResult) {
    let Some(end) = result.draw else {
        return;
    };
    let mode = game.castling_mode();
    let line: Vec<String> = result.pv.iter().map(|&m| uci_text(m, mode)).collect();
    info_string(&format!(
        "the best line is a draw by {end}: {}",
        line.join(" ")
    ));
}

/// Runs on the search thread: searches, waits if `go infinite`/`ponder` asks it to, answers.
/// `answered` is set just before `bestmove` goes out, so that a command the GUI sends on reading
/// it (a `setoption` that needs the idle searcher) finds the search over and waits for the
/// thread to hand the searcher back, rather than being put off as if the search still ran.
fn search_and_answer(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    signals: &Signals,
    answered: &AtomicBool,
    show_wdl: bool,
) {
    let mode = game.castling_mode();
    let material = wdl::material(game.position());
    let result = searcher.search(game, limits, signals, &mut |report| match report {
        Report::Line(it) => {
            let chances = show_wdl.then(|| match (it.draw, it.tables) {
                (Some(_), _) => wdl::PROVEN_DRAW,
                (None, tables) => tables
                    .and_then(wdl::proven)
                    .unwrap_or_else(|| wdl::expected(it.score, material)),
            });
            send(&info_line(it, mode, chances))
        }
        Report::CurrentMove { depth, mv, number } => send(&currmove_line(depth, mv, number, mode)),
        Report::Perpetual(found) => info_string(&perpetual_note(found, mode)),
    });
    if result.best.is_none() {
        let score = if game.position().is_check() {
            "mate 0"
        } else {
            "cp 0"
        };
        send(&format!("info depth 0 score {score}"));
    }
    report_best_line(game, &result);
    // UCI: after `go infinite` or during `ponder`, bestmove waits for `stop` (or `ponderhit`).
    while !signals.stop.load(Ordering::SeqCst)
        && (limits.infinite || (limits.ponder && !signals.ponderhit.load(Ordering::SeqCst)))
    {
        thread::sleep(Duration::from_millis(1));
    }
    answered.store(true, Ordering::SeqCst);
    send(&bestmove_line(result.best, result.ponder, mode));
}

/// `genfens`: prints `info string genfens <FEN>` for each opening (see
/// [`crate::selfplay::openings::genfens`]); an unreadable or empty book is an error.
fn genfens(args: &GenfensArgs) {
    let book = match &args.book {
        None => Vec::new(),
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => crate::selfplay::openings::read_openings(&text),
            Err(e) => return error(&format!("genfens: cannot read the book {path}: {e}")),
        },
    };
    if args.book.is_some() && book.is_empty() {
        return error("genfens: no legal positions in the book");
    }
    // Each opening goes out as soon as it is made: OpenBench's client gives a line 15 s.
    crate::selfplay::openings::genfens(args, &book, |fen| {
        send(&format!("info string genfens {fen}"))
    });
}
