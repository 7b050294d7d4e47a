//! The root of the search: iterative deepening, the MultiPV lines of each iteration, and the
//! aspiration windows around the previous iteration's score. Every search of the root, in the
//! main thread and the helpers alike, goes through [`Worker::search_root`].
//!
//! Where the root is in the tables, the lines take the root moves group by group, the moves the
//! tables rank alike together and the best group first, and each line shows its first move's
//! result by the tables unless the line ends in a draw by rule. A line whose draw by rule the
//! tables did not foresee (a win that lets the opponent repeat) falls below the table wins not
//! yet searched, and the next group is searched for one.

use std::sync::atomic::Ordering;

use shakmaty::{Chess, Move, Position};

use super::limits::Limits;
use super::line::{self, LineEnd};
use super::params::{self, ASPIRATION_DEPTH, BOUND_REPORT_AFTER};
use super::proofs::SoFar;
use super::score::{INFINITE, is_mate};
use super::tablebase::RootResult;
use super::tt::{self, TranspositionTable};
use super::worker::Worker;
use super::{Iteration, Line, MAX_DEPTH, ProvenPerpetual, Report, SearchResult};
use crate::game::Game;

impl Worker<'_> {
    /// Searches the root position of `game` to `depth` in the window `alpha..beta`.
    pub fn search_root(&mut self, game: &Game, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.negamax(game.position(), game.key(), depth as i32, alpha, beta, 0)
    }
}

/// The main thread's iterations: each finished one goes into `result` and, its first
/// `shown_lines` lines, to the worker's reporter; `searched_lines` lines are searched (more
/// than shown at limited strength, which chooses among them).
pub(super) fn iterative_deepening(
    worker: &mut Worker,
    game: &Game,
    result: &mut SearchResult,
    shown_lines: usize,
    searched_lines: usize,
) {
    let max_depth = max_depth(worker.budget.limits);
    let all_moves = worker.root.moves.clone();
    let groups = match &worker.root.tb {
        Some(ranking) => ranking.groups(),
        None => vec![all_moves.clone()],
    };
    // Between iterations the root moves are those played from (for time management).
    let kept = groups.first().cloned().unwrap_or_default();
    let lines_wanted = searched_lines.clamp(1, all_moves.len().max(1));
    // Whether an iteration past the soft limit was already taken for a best move the prover
    // held to a draw (one per search: where every move lets the opponent check for ever, each
    // iteration would find another).
    let mut reconsidered = false;
    for depth in 1..=max_depth {
        worker.stats.seldepth = 0;
        let previous = result.lines.first().map(|l| l.searched);
        worker.root.move_nodes.clear();
        let previous_pv = result.pv.clone();
        let mut report_bound = |worker: &mut Worker, score: i32, lower: bool| {
            // A long search shows where its score is heading, as Stockfish does.
            if shown_lines <= 1 && worker.budget.started.elapsed() >= BOUND_REPORT_AFTER {
                let pv = match worker.path.pv[0].as_slice() {
                    [] => previous_pv.clone(),
                    pv => pv.to_vec(),
                };
                let bound = Iteration {
                    depth,
                    seldepth: worker.stats.seldepth.max(depth),
                    multipv: None,
                    score,
                    tbhits: worker.stats.tbhits,
                    bound: Some(lower),
                    nodes: worker.stats.nodes,
                    elapsed: worker.budget.started.elapsed(),
                    hashfull: worker.shared.tt.hashfull(),
                    pv,
                    draw: None,
                    tables: None,
                };
                worker.emit(Report::Line(&bound));
            }
        };
        let mut lines = best_lines(
            worker,
            game,
            depth,
            &groups,
            lines_wanted,
            previous,
            &mut report_bound,
        );
        worker.root.moves = kept.clone();
        if lines.is_empty() || (worker.budget.stopped && depth > 1) {
            break;
        }
        let proven = consult_prover(worker, game, &lines[0]);
        if let Some(found) = &proven {
            worker.emit(Report::Perpetual(found));
            let draw = worker.draw_score(0);
            worker
                .root
                .proofs
                .apply(&mut lines, draw, found, lines_wanted);
        }
        let best = &lines[0];
        result.best = best.pv.first().copied();
        result.ponder = best.pv.get(1).copied();
        result.score = best.score;
        result.depth = depth;
        result.pv = best.pv.clone();
        result.draw = best.draw;
        result.lines = lines.clone();
        worker.budget.iteration_done = true;
        if worker.budget.stopped {
            break;
        }
        if let Some(m) = result.best {
            worker.root.trend.record(m, best.searched);
        }
        for (index, line) in lines.iter().take(shown_lines.max(1)).enumerate() {
            let shown = Iteration {
                depth,
                seldepth: worker.stats.seldepth.max(depth),
                multipv: (shown_lines > 1).then_some(index + 1),
                score: line.score,
                tbhits: worker.stats.tbhits,
                bound: None,
                nodes: worker.stats.nodes,
                elapsed: worker.budget.started.elapsed(),
                hashfull: worker.shared.tt.hashfull(),
                pv: line.pv.clone(),
                draw: line.draw,
                tables: line.tables,
            };
            worker.emit(Report::Line(&shown));
        }
        // A best move just found to let the opponent check for ever is looked at again, once.
        let reconsider =
            !reconsidered && proven.is_some_and(|found| !found.ours) && !worker.stop_signalled();
        reconsidered |= reconsider;
        if !reconsider && worker.should_stop_after_iteration(lines[0].searched) {
            break;
        }
    }
}

/// Puts the best line's question to the perpetual-check prover (see `proofs.rs`), unless the
/// search has stopped or the tables settle the root; the prover ends early on the search's
/// stop and its clock.
fn consult_prover(worker: &mut Worker, game: &Game, best: &Line) -> Option<ProvenPerpetual> {
    if worker.budget.stopped || worker.root.tb.is_some() {
        return None;
    }
    let draw = worker.draw_score(0);
    let nodes = worker.stats.nodes;
    let signals = worker.shared.signals;
    let pondering = worker.pondering();
    let time = &worker.budget.time;
    let halt = || signals.stop.load(Ordering::Relaxed) || (!pondering && time.hard_expired());
    let elapsed = worker.budget.started.elapsed();
    let so_far = SoFar {
        nodes,
        elapsed,
        room: worker.budget.limits.nodes.map(|n| n.saturating_sub(nodes)),
    };
    let before = worker.root.proofs.spent();
    let proven = worker.root.proofs.consult(game, best, draw, so_far, &halt);
    // The prover's positions are the engine's work too: `info nodes` and node limits count them.
    worker.stats.nodes += worker.root.proofs.spent() - before;
    proven
}

/// The tables' score of root move `m`, when the root is in the tables.
fn table_score(worker: &Worker, m: Move) -> Option<i32> {
    table_result(worker, m).map(|result| result.score(worker.draw_score(0)))
}

/// The tables' result of root move `m`, when the root is in the tables.
fn table_result(worker: &Worker, m: Move) -> Option<RootResult> {
    worker.root.tb.as_ref()?.result_of(m)
}

/// The score to show for a line the search scored `searched`, and the tables' verdict when
/// that is what it shows: the tables' verdict on its first move where they settled it, unless
/// the search found a mate or the line ends in a draw by rule.
fn shown_score(
    worker: &Worker,
    pv: &[Move],
    searched: i32,
    draw: Option<LineEnd>,
) -> (i32, Option<RootResult>) {
    match pv.first().and_then(|&m| table_result(worker, m)) {
        Some(result) if result.is_settled() && !is_mate(searched) && draw.is_none() => {
            (result.score(worker.draw_score(0)), Some(result))
        }
        _ => (searched, None),
    }
}

/// One iteration's `count` best lines, best first: each a full-window search of the root moves
/// not yet heading a line, taken from the first of `groups` that has some (MultiPV). Each line
/// is scored on its own, so a draw one move allows does not pull the other lines to 0.00.
/// Lines are searched until `count` of them show at least what the moves left could by the
/// tables (without tables, until there are `count`), so a line that ends in a draw by rule
/// the tables did not foresee makes way for a table win that avoids it.
fn best_lines(
    worker: &mut Worker,
    game: &Game,
    depth: u32,
    groups: &[Vec<Move>],
    count: usize,
    previous: Option<i32>,
    on_bound: &mut dyn FnMut(&mut Worker, i32, bool),
) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    loop {
        let unused = |group: &Vec<Move>| -> Vec<Move> {
            group
                .iter()
                .copied()
                .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                .collect()
        };
        let Some(moves) = groups.iter().map(unused).find(|g| !g.is_empty()) else {
            break;
        };
        let ceiling = table_score(worker, moves[0]);
        let settled = lines
            .iter()
            .filter(|l| ceiling.is_none_or(|c| l.score >= c))
            .count();
        if settled >= count {
            break;
        }
        worker.root.moves = moves;
        let expected =
            previous.filter(|_| count == 1 && lines.is_empty() && depth >= ASPIRATION_DEPTH);
        let searched = aspiration_search(worker, game, depth, expected, on_bound);
        let mut pv = worker.path.pv[0].clone();
        if pv.is_empty() || (worker.budget.stopped && !lines.is_empty()) {
            break;
        }
        let mut draw = None;
        if searched == worker.draw_score(0) {
            // The search stops a line where the side to move can repeat; show that move too.
            line::complete_repetition(game, &mut pv);
            draw = line::drawn_end(game, &pv);
        }
        let (score, tables) = shown_score(worker, &pv, searched, draw);
        lines.push(Line {
            score,
            searched,
            pv,
            draw,
            tables,
        });
        if worker.budget.stopped {
            break;
        }
    }
    // Later lines may score above earlier ones when a search was cut; keep the order honest.
    lines.sort_by_key(|l| std::cmp::Reverse(l.score));
    lines.truncate(count);
    lines
}

/// The root searched in a window around `guess` (aspiration); a score outside the window is
/// searched again in a wider one on that side, until the score falls inside (or the search
/// stops). With no guess, or a mate score for one, the window is full. Each score outside the
/// window goes to `on_bound` (true for a lower bound: the score is at least that).
pub(super) fn aspiration_search(
    worker: &mut Worker,
    game: &Game,
    depth: u32,
    guess: Option<i32>,
    on_bound: &mut dyn FnMut(&mut Worker, i32, bool),
) -> i32 {
    let mut delta = params::aspiration_window();
    let (mut alpha, mut beta) = match guess.filter(|&g| !is_mate(g)) {
        Some(guess) => (
            (guess - delta).max(-INFINITE),
            (guess + delta).min(INFINITE),
        ),
        None => (-INFINITE, INFINITE),
    };
    loop {
        let score = worker.search_root(game, depth, alpha, beta);
        if worker.budget.stopped {
            return score;
        }
        delta += delta;
        if score <= alpha && alpha > -INFINITE {
            // Fail low: the window moves down, and its top down toward the middle.
            on_bound(worker, score, false);
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITE);
        } else if score >= beta && beta < INFINITE {
            on_bound(worker, score, true);
            beta = (score + delta).min(INFINITE);
        } else {
            return score;
        }
    }
}

/// The depth limit: `go depth`, twice the moves of `go mate`, or the maximum.
pub(super) fn max_depth(limits: &Limits) -> u32 {
    let mut depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    if let Some(moves) = limits.mate {
        depth = depth.min((moves.max(1) * 2).min(MAX_DEPTH));
    }
    depth
}

/// The opponent's expected reply after `best`, read from the hash table.
pub(super) fn ponder_from_table(tt: &TranspositionTable, root: &Chess, best: Move) -> Option<Move> {
    let mut next = root.clone();
    next.play_unchecked(best);
    let entry = tt.probe(crate::game::position_key(&next))?;
    next.legal_moves()
        .iter()
        .copied()
        .find(|&m| tt::pack_move(m) == entry.packed_move)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_fen;
    use crate::search::Settings;
    use crate::search::worker::Rig;

    /// The full-window score and best move at `depth`, from fresh tables.
    fn full_window(game: &Game, depth: u32) -> (i32, Option<Move>) {
        let mut rig = Rig::new();
        let mut worker = rig.worker(game, Settings::default());
        let score = aspiration_search(&mut worker, game, depth, None, &mut |_, _, _| {});
        (score, worker.path.pv[0].first().copied())
    }

    #[test]
    fn a_guess_outside_the_window_is_searched_again_to_the_true_score() {
        // The Scotch, Black to move: a level position, 600 cp from both guesses below.
        let game = Game::new(
            parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
                .expect("fen"),
        );
        let depth = 5;
        let (truth, best) = full_window(&game, depth);
        for guess in [truth + 600, truth - 600] {
            let mut rig = Rig::new();
            let mut worker = rig.worker(&game, Settings::default());
            let mut bounds = Vec::new();
            let score = aspiration_search(
                &mut worker,
                &game,
                depth,
                Some(guess),
                &mut |_, score, lower| bounds.push((score, lower)),
            );
            // Every failed window was reported, on the side it failed.
            assert!(!bounds.is_empty(), "guess {guess}");
            assert!(
                bounds.iter().all(|&(_, lower)| lower == (guess < truth)),
                "guess {guess}: {bounds:?}"
            );
            // A fail low leaves no principal variation: only the re-search finds one.
            assert_eq!(score, truth, "guess {guess}");
            assert_eq!(worker.path.pv[0].first().copied(), best, "guess {guess}");
        }
    }

    /// The depth-1 score of root move `uci` searched alone; with `asked_score`, after the
    /// prover has been asked what a line of that move with that score raises (and proved it).
    fn alone_at_depth_1(fen: &str, uci: &str, asked_score: Option<i32>) -> i32 {
        let game = Game::new(parse_fen(fen).expect("fen"));
        let m = crate::game::parse_uci_move(game.position(), uci).expect("legal");
        let mut rig = Rig::new();
        let mut worker = rig.worker(&game, Settings::default());
        worker.root.moves = vec![m];
        if let Some(score) = asked_score {
            let line = Line {
                score,
                searched: score,
                pv: vec![m],
                draw: None,
                tables: None,
            };
            let found = worker.root.proofs.consult(
                &game,
                &line,
                0,
                SoFar {
                    nodes: 1_000_000,
                    elapsed: std::time::Duration::from_secs(3600),
                    room: None,
                },
                &|| false,
            );
            assert!(found.is_some(), "{fen}: not proven");
        }
        let score = aspiration_search(&mut worker, &game, 1, None, &mut |_, _, _| {});
        assert_eq!(worker.path.pv[0].first(), Some(&m));
        score
    }

    #[test]
    fn a_proven_perpetual_lifts_its_check_to_a_draw_where_the_search_sees_none() {
        // White, a rook down and facing mate, checks from h5 and e8 for ever; one ply deep the
        // search sees only the rook down.
        let fen = "6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1";
        assert!(alone_at_depth_1(fen, "h5e8", None) < -200);
        assert_eq!(alone_at_depth_1(fen, "h5e8", Some(-300)), 0);
    }

    #[test]
    fn a_move_that_lets_the_opponent_check_for_ever_is_held_to_a_draw() {
        // Black, a queen and rook up: ...f6 lets White's queen check from e8 and h5 for ever;
        // one ply deep the search sees only the material.
        let fen = "6k1/5pp1/8/7Q/3q4/1P1r4/PP6/K7 b - - 0 1";
        assert!(alone_at_depth_1(fen, "f7f6", None) > 200);
        assert_eq!(alone_at_depth_1(fen, "f7f6", Some(300)), 0);
    }

    #[test]
    fn a_mate_limit_limits_the_depth() {
        let limits = Limits {
            mate: Some(3),
            ..Limits::default()
        };
        assert_eq!(max_depth(&limits), 6);
        assert_eq!(max_depth(&Limits::default()), MAX_DEPTH);
    }
}
