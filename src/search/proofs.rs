//! The perpetual-check prover ([`crate::perpetual`]) at the root. Between iterations the main
//! thread puts it one question about the best line, within a small share of its own nodes
//! ([`PROVER_NODE_SHARE`]) and time. Two questions are asked at once, within
//! [`PROVER_FIRST_NODES`] positions: the side to move's own perpetual, the first time its best
//! line stands no better than a draw (after the first iteration, where it does from the start),
//! and, when the side to move is in check, whether each best move in turn lets the opponent go
//! on checking for ever:
//!
//! - when the side to move stands no better than a draw: has it a perpetual check? If so,
//!   the strategy's first check is worth a draw at least (and where the search already shows
//!   the draw, the user learns that it is forced);
//! - when it stands better: does its best move let the opponent check for ever? If so, that
//!   move is worth a draw at most, and the next iteration looks for another.
//!
//! The answers bound those root moves' scores wherever the main thread searches the root
//! ([`RootProofs::bound`]), every MultiPV line alike. A proof is exact chess, not the
//! evaluation's opinion: a perpetual the network misjudges is still taken when worse and still
//! avoided when better.

use shakmaty::{Move, Position};

use std::time::Duration;

use super::params::{PROVER_FIRST_NODES, PROVER_NODE_SHARE, PROVER_TIME_SHARE};
use super::{Line, ProvenPerpetual};
use crate::game::Game;
use crate::perpetual::{self, Budget, Verdict};

/// A question for the prover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Question {
    /// Has the side to move at the root a perpetual check?
    Ours,
    /// After this root move, has the opponent one?
    After(Move),
}

/// What the search has spent when it consults the prover.
#[derive(Debug, Clone, Copy)]
pub struct SoFar {
    /// The main thread's nodes.
    pub nodes: u64,
    /// The search's time.
    pub elapsed: Duration,
    /// The nodes a node limit leaves, where there is one (the prover's positions count as
    /// nodes).
    pub room: Option<u64>,
}

/// What the prover has answered in one search, and what it has cost.
#[derive(Debug, Default)]
pub struct RootProofs {
    /// The first check of the root side's proven perpetual.
    floor: Option<Move>,
    /// Root moves after which the opponent has a proven perpetual.
    ceilings: Vec<Move>,
    /// Questions answered either way (asked no more).
    answered: Vec<Question>,
    /// Questions left unknown, with the budget they were last asked with.
    unknown: Vec<(Question, u64)>,
    /// Prover positions searched in this search.
    spent: u64,
    /// The prover's time in this search.
    spent_time: Duration,
}

impl RootProofs {
    /// Root move `m`'s `score` (the root side's view) within what the proofs say of it:
    /// at least `draw` for the proven perpetual's first check, at most `draw` for a move that
    /// lets the opponent check for ever.
    pub fn bound(&self, m: Move, score: i32, draw: i32) -> i32 {
        let mut bounded = score;
        if self.floor == Some(m) {
            bounded = bounded.max(draw);
        }
        if self.ceilings.contains(&m) {
            bounded = bounded.min(draw);
        }
        bounded
    }

    /// Prover positions searched so far in this search.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Asks the prover the question the best line raises (`best`, scored against `draw`),
    /// if the shares of what the search has spent so far allow it (`so_far`), and within what
    /// a node limit leaves; `halt` ends the prover early (the search's stop). Returns what was
    /// newly proven.
    pub fn consult(
        &mut self,
        game: &Game,
        best: &Line,
        draw: i32,
        so_far: SoFar,
        halt: &dyn Fn() -> bool,
    ) -> Option<ProvenPerpetual> {
        let SoFar {
            nodes,
            elapsed,
            room,
        } = so_far;
        // At a level score too: a proof then tells the user that the draw shown is forced.
        let question = if best.score <= draw {
            Question::Ours
        } else {
            Question::After(*best.pv.first()?)
        };
        if self.answered.contains(&question) {
            return None;
        }
        let last = self.unknown.iter().position(|(q, _)| *q == question);
        // Whether the side to move has a perpetual is asked at once, the first time its best
        // line stands no better than a draw, within a fixed number of positions: most proven
        // perpetuals take a handful, so the user sees the forced draw from that line on, and
        // the search takes it from then. So is whether a best move lets the opponent check for
        // ever when the side to move is in check: the opponent's perpetual may be under way,
        // and the few moves out of check are each asked once at most. Everything else lives on
        // the shares (a move that wins material elsewhere, held to a draw from the first
        // iteration, would hand the early iterations to moves the search cannot yet judge).
        let first = last.is_none()
            && match question {
                Question::Ours => true,
                Question::After(_) => game.position().is_check(),
            };
        let (allowance, time) = if first {
            (PROVER_FIRST_NODES, None)
        } else {
            let allowance = (nodes / PROVER_NODE_SHARE).saturating_sub(self.spent);
            let needed = last.map_or(PROVER_FIRST_NODES, |i| 2 * self.unknown[i].1);
            let time = (elapsed / PROVER_TIME_SHARE).saturating_sub(self.spent_time);
            if allowance < needed || time.is_zero() {
                return None;
            }
            (allowance, Some(time))
        };
        let allowance = room.map_or(allowance, |room| allowance.min(room));
        if allowance == 0 {
            return None;
        }
        let asked = match question {
            Question::Ours => game.clone(),
            Question::After(m) => {
                let mut after = game.clone();
                after.play(m);
                after
            }
        };
        let attacker = asked.position().turn();
        let report = perpetual::can_check(asked.position())
            .then(|| {
                let budget = Budget {
                    nodes: Some(allowance),
                    time,
                };
                perpetual::prove_until(&asked, attacker, budget, halt)
            })
            .and_then(Result::ok);
        if let Some(i) = last {
            self.unknown.swap_remove(i);
        }
        let Some(report) = report else {
            // No check at all (or nothing to check with): no perpetual.
            self.answered.push(question);
            return None;
        };
        self.spent += report.nodes;
        self.spent_time += report.elapsed;
        log::debug!(
            "prover at the root, {question:?}: {} in {} positions ({} this search)",
            match report.verdict {
                Verdict::Proven(_) => "proven",
                Verdict::Refuted(_) => "refuted",
                Verdict::Unknown => "unknown",
            },
            report.nodes,
            self.spent
        );
        match report.verdict {
            Verdict::Unknown => {
                self.unknown.push((question, allowance));
                None
            }
            Verdict::Refuted(_) => {
                self.answered.push(question);
                None
            }
            Verdict::Proven(proof) => {
                self.answered.push(question);
                let strategy = proof.strategy.len();
                let found = match question {
                    Question::Ours => {
                        let first = *proof.main_line.first()?;
                        self.floor = Some(first);
                        ProvenPerpetual {
                            mv: first,
                            ours: true,
                            strategy,
                            line: proof.main_line,
                        }
                    }
                    Question::After(m) => {
                        self.ceilings.push(m);
                        let mut line = vec![m];
                        line.extend(proof.main_line);
                        ProvenPerpetual {
                            mv: m,
                            ours: false,
                            strategy,
                            line,
                        }
                    }
                };
                Some(found)
            }
        }
    }

    /// `lines` (best first) within the proofs: each line's scores bounded by its first move's
    /// proof, the proven perpetual's line added when no line starts with its check, then
    /// sorted again, best first, and cut back to `count` lines.
    pub fn apply(&self, lines: &mut Vec<Line>, draw: i32, found: &ProvenPerpetual, count: usize) {
        for line in lines.iter_mut() {
            if let Some(&m) = line.pv.first() {
                line.score = self.bound(m, line.score, draw);
                line.searched = self.bound(m, line.searched, draw);
            }
        }
        if found.ours && !lines.iter().any(|l| l.pv.first() == Some(&found.mv)) {
            lines.push(Line {
                score: draw,
                searched: draw,
                pv: found.line.clone(),
                draw: None,
                tables: None,
            });
        }
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        lines.truncate(count.max(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_fen;

    fn game(fen: &str) -> Game {
        Game::new(parse_fen(fen).expect("fen"))
    }

    fn line(game: &Game, uci: &str, score: i32) -> Line {
        let mut g = game.clone();
        let m = g.play_uci(uci).expect("legal");
        Line {
            score,
            searched: score,
            pv: vec![m],
            draw: None,
            tables: None,
        }
    }

    fn so_far(nodes: u64, elapsed: Duration, room: Option<u64>) -> SoFar {
        SoFar {
            nodes,
            elapsed,
            room,
        }
    }

    /// A search that has run long enough for any question's time share.
    const HOUR: Duration = Duration::from_secs(3600);

    /// White, a rook down and facing mate, checks from h5 and e8 for ever.
    const WHITE_CHECKS: &str = "6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1";

    #[test]
    fn the_worse_side_gets_its_perpetual_as_a_floor_under_its_check() {
        let g = game(WHITE_CHECKS);
        let mut proofs = RootProofs::default();
        // The first question is asked at once, with no nodes or time of search behind it.
        let worse = line(&g, "b3b4", -500);
        let found = proofs
            .consult(&g, &worse, 0, so_far(20, Duration::ZERO, None), &|| false)
            .expect("proven");
        assert!(proofs.spent() > 0 && proofs.spent() <= PROVER_FIRST_NODES);
        assert!(found.ours);
        assert_eq!(found.strategy, 2);
        let check = found.mv;
        assert!(crate::game::gives_check(g.position(), check));
        assert_eq!(proofs.bound(check, -500, 0), 0);
        assert_eq!(proofs.bound(check, 300, 0), 300);
        let other = worse.pv[0];
        assert_eq!(proofs.bound(other, -500, 0), -500);
        // The check's line goes first, the others keep their scores.
        let mut lines = vec![worse.clone()];
        proofs.apply(&mut lines, 0, &found, 2);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].pv.first(), Some(&check));
        assert_eq!(lines[0].score, 0);
        assert_eq!(lines[1].score, -500);
        // Answered: not asked again.
        assert!(
            proofs
                .consult(&g, &worse, 0, so_far(10_000_000, HOUR, None), &|| false)
                .is_none()
        );
    }

    #[test]
    fn a_move_that_lets_the_opponent_check_for_ever_gets_a_ceiling() {
        // Black to move, a rook up: ...f6 opens e8 to White's queen, which then checks from
        // e8 and h5 for ever; ...g6 leaves White no lasting check.
        let g = game("6k1/5pp1/8/7Q/3q4/1P1r4/PP6/K7 b - - 0 1");
        let mut proofs = RootProofs::default();
        let careless = line(&g, "f7f6", 400);
        let found = proofs
            .consult(&g, &careless, 0, so_far(1_000_000, HOUR, None), &|| false)
            .expect("proven");
        assert!(!found.ours);
        assert_eq!(found.mv, careless.pv[0]);
        assert_eq!(proofs.bound(found.mv, 400, 0), 0);
        assert_eq!(proofs.bound(found.mv, -50, 0), -50);
        let careful = line(&g, "g7g6", 350);
        let mut lines = vec![careless.clone(), careful.clone()];
        proofs.apply(&mut lines, 0, &found, 2);
        assert_eq!(lines[0].pv, careful.pv);
        assert_eq!(lines[1].score, 0);
        // ...g6 leaves White no perpetual: refuted, nothing to bound.
        assert!(
            proofs
                .consult(&g, &careful, 0, so_far(1_000_000, HOUR, None), &|| false)
                .is_none()
        );
        assert_eq!(proofs.bound(careful.pv[0], 350, 0), 350);
    }

    #[test]
    fn in_check_a_move_that_lets_the_opponent_check_for_ever_is_asked_about_at_once() {
        // Black, a rook up, in check from e8: ...Kh7 is forced, and White checks from h5 and
        // e8 for ever. Asked with no nodes or time of search behind it.
        let g = game("4Q1k1/6p1/5p2/8/3q4/1P1r4/PP6/K7 b - - 1 2");
        let mut proofs = RootProofs::default();
        let forced = line(&g, "g8h7", 400);
        let found = proofs
            .consult(&g, &forced, 0, so_far(20, Duration::ZERO, None), &|| false)
            .expect("proven");
        assert!(!found.ours);
        assert_eq!(found.mv, forced.pv[0]);
        assert!(proofs.spent() > 0 && proofs.spent() <= PROVER_FIRST_NODES);
        assert_eq!(proofs.bound(found.mv, 400, 0), 0);
        // Out of check the same kind of question waits for the shares.
        let g = game("6k1/5pp1/8/7Q/3q4/1P1r4/PP6/K7 b - - 0 1");
        let mut proofs = RootProofs::default();
        let careless = line(&g, "f7f6", 400);
        assert!(
            proofs
                .consult(&g, &careless, 0, so_far(20, Duration::ZERO, None), &|| {
                    false
                })
                .is_none()
        );
        assert_eq!(proofs.spent(), 0);
    }

    #[test]
    fn an_unknown_answer_is_asked_again_only_with_twice_the_budget() {
        // Halted at once: unknown, whatever the budget.
        let g = game(WHITE_CHECKS);
        let mut proofs = RootProofs::default();
        let worse = line(&g, "b3b4", -500);
        assert!(
            proofs
                .consult(&g, &worse, 0, so_far(1_000_000, HOUR, None), &|| true)
                .is_none()
        );
        assert_eq!(proofs.spent(), 0, "halted at once");
        // Later questions live on the node share: below twice the first question's budget
        // (one position in PROVER_NODE_SHARE nodes), not asked.
        let short = 2 * PROVER_FIRST_NODES * PROVER_NODE_SHARE - 1;
        assert!(
            proofs
                .consult(&g, &worse, 0, so_far(short, HOUR, None), &|| false)
                .is_none()
        );
        assert_eq!(proofs.spent(), 0);
        // Nor without the time share, whatever the nodes.
        assert!(
            proofs
                .consult(
                    &g,
                    &worse,
                    0,
                    so_far(1_000_000, Duration::ZERO, None),
                    &|| false
                )
                .is_none()
        );
        assert!(
            proofs
                .consult(&g, &worse, 0, so_far(short + 1, HOUR, None), &|| false)
                .is_some()
        );
    }

    #[test]
    fn a_node_limit_bounds_the_provers_positions() {
        let g = game(WHITE_CHECKS);
        let worse = line(&g, "b3b4", -500);
        // No room left under the limit: not asked, so asked later.
        let mut proofs = RootProofs::default();
        assert!(
            proofs
                .consult(&g, &worse, 0, so_far(20, Duration::ZERO, Some(0)), &|| {
                    false
                })
                .is_none()
        );
        assert_eq!(proofs.spent(), 0);
        assert!(proofs.answered.is_empty() && proofs.unknown.is_empty());
        // The proof takes two positions: one position of room leaves it unknown.
        assert!(
            proofs
                .consult(&g, &worse, 0, so_far(20, Duration::ZERO, Some(1)), &|| {
                    false
                })
                .is_none()
        );
        assert_eq!(proofs.spent(), 1);
        assert_eq!(proofs.unknown, vec![(Question::Ours, 1)]);
    }

    #[test]
    fn a_level_score_asks_about_the_side_to_moves_own_perpetual() {
        // The search already shows the draw: the proof says it is forced.
        let g = game(WHITE_CHECKS);
        let mut proofs = RootProofs::default();
        let found = proofs
            .consult(
                &g,
                &line(&g, "h5e8", 0),
                0,
                so_far(1_000_000, HOUR, None),
                &|| false,
            )
            .expect("proven");
        assert!(found.ours);
        // White's checks (Ra8+, Bf7+) run out: refuted, and not asked again.
        let g = game("6k1/R5p1/1n3pB1/6r1/8/6P1/5P1P/6K1 w - - 1 43");
        let mut proofs = RootProofs::default();
        assert!(
            proofs
                .consult(
                    &g,
                    &line(&g, "a7a8", 0),
                    0,
                    so_far(1_000_000, HOUR, None),
                    &|| { false }
                )
                .is_none()
        );
        assert!(proofs.answered.contains(&Question::Ours));
    }
}
