//! The analysis of one game: every position searched with the game's history before it, the
//! played move compared with the best one, and the verdicts drawn from that.
//!
//! The draw facts come from elsewhere, never recomputed here: whether a line ends in a draw by
//! rule (and whether a repetition is a perpetual check) is the search's verdict
//! ([`SearchResult::draw`](crate::search::SearchResult)); what a player may claim, now or by
//! announcing a move, is [`Game::claims`]; automatic ends are [`Game::automatic_end`].

use shakmaty::{Chess, Color, Move, Position};

use super::marks::{MoveClass, classify, winning_chances};
use super::notation::{numbered_line, san_line, score_text, side_name, white_score};
use super::read::GameInput;
use crate::game::{AutomaticEnd, Claims, Game};
use crate::perpetual::{self, Verdict as PerpetualVerdict};
use crate::search::line::LineEnd;
use crate::search::score::{DRAW, mated_in, score_of_move};
use crate::search::{Limits, SearchResult, Searcher, Signals};

/// A side "stands lost" at this score or below, "stands winning" at its negation or above
/// (centipawns, its own point of view).
pub const DECISIVE: i32 = 150;

/// What the engine makes of one position of the game.
#[derive(Debug, Clone, Default)]
pub struct Assessment {
    /// From the side to move's point of view.
    pub score: i32,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    /// How the best line ends in a draw by rule, when the search proved it does.
    pub draw: Option<LineEnd>,
    /// The game ended here by itself (no search then).
    pub end: Option<AutomaticEnd>,
    pub depth: u32,
    pub nodes: u64,
}

impl Assessment {
    /// The position is a draw: proven by the search along a line (its verdict, `draw`), or
    /// ended by a drawing rule.
    pub fn is_proven_draw(&self) -> bool {
        match self.end {
            Some(end) => end != AutomaticEnd::Checkmate,
            None => self.draw.is_some(),
        }
    }
}

/// One analysed move.
#[derive(Debug, Clone)]
pub struct PlyRecord {
    /// 1 for the first move of the game.
    pub ply: usize,
    pub mover: Color,
    pub played: Move,
    pub san: String,
    /// The position before the move, from the mover's point of view.
    pub before: Assessment,
    /// The position after the move, from the opponent's point of view.
    pub after: Assessment,
    /// The played move's score, from the mover's point of view: the best line's when it is the
    /// best move, else the negated score of the position after it.
    pub played_score: i32,
    /// The played move leads to a proven draw.
    pub played_draw: bool,
    /// The mover's winning chances (0 to 1: lichess's win percentage over 100) with the best
    /// and with the played move, on the curve the marks are given by ([`super::marks`]).
    pub expected_best: f64,
    pub expected_played: f64,
    pub class: Option<MoveClass>,
}

/// What a verdict says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictKind {
    /// Lost by every other move, a perpetual check saved the game, a losing move was played.
    MissedPerpetual,
    /// As a missed perpetual, with a repetition that is not all checks.
    MissedRepetition,
    /// Winning, and played a move after which the opponent forces or claims a draw by rule.
    DrawnWhileWinning,
    /// The side to move could claim a draw (threefold or fifty moves; now or by announcing).
    ClaimAvailable,
    /// The side to move can force a draw by rule (the best line ends in one): where it arises.
    ForcedDraw,
}

impl VerdictKind {
    /// The name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            VerdictKind::MissedPerpetual => "missed_perpetual",
            VerdictKind::MissedRepetition => "missed_repetition",
            VerdictKind::DrawnWhileWinning => "drawn_while_winning",
            VerdictKind::ClaimAvailable => "claim_available",
            VerdictKind::ForcedDraw => "forced_draw",
        }
    }
}

/// A verdict and its evidence.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub kind: VerdictKind,
    /// The move it is about (1 for the first); for a claim or a forced draw, the ply after
    /// which the position arises (0: the start position).
    pub ply: usize,
    /// The side it concerns (the mover; the claimant; the side that can force the draw).
    pub side: Color,
    /// One sentence, with the evidence line in it.
    pub text: String,
    /// The evidence line, played from the position after `line_from` plies.
    pub line: Vec<Move>,
    pub line_from: usize,
    /// The evidence line in SAN.
    pub line_san: Vec<String>,
    /// For a perpetual check the search found (a missed perpetual, a forced draw by checks):
    /// what the exact prover says of it, with its certificate.
    pub perpetual: Option<perpetual::Report>,
}

/// The analysis of one game.
#[derive(Debug, Clone)]
pub struct GameAnalysis {
    pub input: GameInput,
    /// The analysed moves, in order (those in the `--from`/`--to` range).
    pub plies: Vec<PlyRecord>,
    pub verdicts: Vec<Verdict>,
    /// The start position's assessment, when the first move is analysed.
    pub start: Option<Assessment>,
    /// Why the analysis stopped before the last move (the game ended by itself), if it did.
    pub stopped: Option<String>,
    /// Nodes searched for this game, in all.
    pub nodes: u64,
}

/// Which moves to analyse: full move numbers, both ends included.
#[derive(Debug, Clone, Copy)]
pub struct MoveRange {
    pub from: u32,
    pub to: u32,
}

impl Default for MoveRange {
    fn default() -> Self {
        MoveRange {
            from: 1,
            to: u32::MAX,
        }
    }
}

impl MoveRange {
    fn contains(self, pos: &Chess) -> bool {
        (self.from..=self.to).contains(&pos.fullmoves().get())
    }
}

/// The searcher and the limits of one game's analysis: every search the verdicts need goes
/// through it, with the game's history.
struct Engine<'a> {
    searcher: &'a mut Searcher,
    limits: &'a Limits,
    signals: &'a Signals,
    /// Nodes searched so far.
    nodes: u64,
}

impl Engine<'_> {
    /// Searches the current position of `game` (its history included), or notes how the game
    /// ended there.
    fn assess(&mut self, game: &Game) -> Assessment {
        if let Some(end) = game.automatic_end() {
            let score = if end == AutomaticEnd::Checkmate {
                mated_in(0)
            } else {
                DRAW
            };
            return Assessment {
                score,
                end: Some(end),
                ..Assessment::default()
            };
        }
        let result = self.search(game, self.limits.clone());
        Assessment {
            score: result.score,
            best: result.best,
            pv: result.pv,
            draw: result.draw,
            end: None,
            depth: result.depth,
            nodes: result.nodes,
        }
    }

    /// The best line among the moves other than `excluded`, searched with the game's history;
    /// None when there is no other move.
    fn best_other(&mut self, game: &Game, excluded: Move) -> Option<SearchResult> {
        let others: Vec<Move> = game
            .position()
            .legal_moves()
            .into_iter()
            .filter(|&m| m != excluded)
            .collect();
        if others.is_empty() {
            return None;
        }
        let limits = Limits {
            searchmoves: others,
            ..self.limits.clone()
        };
        Some(self.search(game, limits))
    }

    /// A search of `game` under `limits`, with move-ordering tables learned afresh: what the
    /// searches of other positions (and of the same position without its best move) taught
    /// them would otherwise steer which lines this one sees, so that a verdict could rest on
    /// the order in which positions were analysed. The hash table is kept: what it holds is
    /// true of its positions.
    fn search(&mut self, game: &Game, limits: Limits) -> SearchResult {
        self.searcher.heuristics.clear();
        let result = self
            .searcher
            .search(game, &limits, self.signals, &mut |_| {});
        self.nodes += result.nodes;
        result
    }
}

/// Analyses one game: every move in `range`, with a search per position under `limits`. The
/// searcher's tables are cleared first, so a game's analysis does not depend on the games
/// before it.
pub fn analyse_game(
    input: GameInput,
    searcher: &mut Searcher,
    limits: &Limits,
    range: MoveRange,
    signals: &Signals,
) -> GameAnalysis {
    searcher.clear();
    let mut engine = Engine {
        searcher,
        limits,
        signals,
        nodes: 0,
    };
    let mut game = Game::new(input.start.clone());
    let mut analysis = GameAnalysis {
        input,
        plies: Vec::new(),
        verdicts: Vec::new(),
        start: None,
        stopped: None,
        nodes: 0,
    };
    let moves = analysis.input.moves.clone();
    // The assessment of the position before the current move, when it was searched.
    let mut previous: Option<(Game, Assessment)> = None;
    let mut said = Said::default();
    for p in 0..=moves.len() {
        let analyse_next = p < moves.len() && range.contains(game.position());
        let analysed_last = previous.is_some();
        let mut current = None;
        if analyse_next || analysed_last {
            if signals.stop.load(std::sync::atomic::Ordering::Relaxed) {
                analysis.stopped = Some("interrupted".to_owned());
                break;
            }
            let here = engine.assess(&game);
            if p == 0 {
                analysis.start = Some(here.clone());
            }
            if let Some((before_game, before)) = previous.take() {
                let record = ply_record(&before_game, before, here.clone(), moves[p - 1]);
                move_verdicts(
                    &mut analysis.verdicts,
                    &record,
                    &before_game,
                    &game,
                    &mut engine,
                );
                analysis.plies.push(record);
            }
            position_verdicts(&mut analysis, &game, p, &here, &mut said, &mut engine);
            current = Some(here);
        }
        if let Some(end) = game.automatic_end()
            && p < moves.len()
        {
            analysis.stopped = Some(format!(
                "the game ended by {end} after ply {p}; the moves after it are void"
            ));
            break;
        }
        if p < moves.len() {
            if analyse_next && let Some(here) = current {
                previous = Some((game.clone(), here));
            }
            game.play(moves[p]);
        }
    }
    analysis.nodes = engine.nodes;
    analysis
}

/// Compares the played move with the best one.
fn ply_record(
    before_game: &Game,
    before: Assessment,
    after: Assessment,
    played: Move,
) -> PlyRecord {
    let pos = before_game.position();
    let mover = pos.turn();
    let (played_score, played_draw) = if before.best == Some(played) {
        (before.score, before.is_proven_draw())
    } else {
        (score_of_move(after.score), after.is_proven_draw())
    };
    let best_draw = before.is_proven_draw();
    let win = |score, draw| (winning_chances(score, draw) + 1.0) / 2.0;
    let expected_best = win(before.score, best_draw);
    let expected_played = win(played_score, played_draw);
    let class = classify(before.score, best_draw, played_score, played_draw);
    let san = san_line(pos, &[played]).pop().unwrap_or_default();
    PlyRecord {
        ply: before_game.moves().len() + 1,
        mover,
        played,
        san,
        before,
        after,
        played_score,
        played_draw,
        expected_best,
        expected_played,
        class,
    }
}

/// The verdicts on a move: missed perpetual or repetition, drawn while winning.
fn move_verdicts(
    verdicts: &mut Vec<Verdict>,
    record: &PlyRecord,
    before_game: &Game,
    after_game: &Game,
    engine: &mut Engine,
) {
    let mover = record.mover;
    let before = &record.before;
    let pos = before_game.position();
    let played_text = numbered_line(pos, &[record.played]);
    // Missed perpetual or repetition: the best line is a proven draw by repetition, the played
    // move loses, and so does every other move.
    if let (Some(LineEnd::Repetition { perpetual_by }), Some(best)) = (before.draw, before.best)
        && best != record.played
        && record.played_score <= -DECISIVE
        && let Some(other) = engine.best_other(before_game, best)
        && other.score <= -DECISIVE
    {
        // Checks on every move, as the search sees them: the prover says whether they are a
        // perpetual check whatever the defender does (a refuted one is a repetition at most).
        let checks = perpetual_by == Some(mover);
        let report = checks
            .then(|| prove_perpetual(before_game, mover))
            .flatten();
        let (kind, how) = if checks && !refuted(report.as_ref()) {
            (VerdictKind::MissedPerpetual, "perpetual check")
        } else {
            (VerdictKind::MissedRepetition, "repetition")
        };
        let line_text = numbered_line(pos, &before.pv);
        verdicts.push(Verdict {
            kind,
            ply: record.ply,
            side: mover,
            text: format!(
                "missed {how}: {line_text} draws by {how}{}; every other move loses ({} at best), and {played_text} scores {}.",
                proven_note(report.as_ref()),
                score_text(white_score(other.score, mover)),
                score_text(white_score(record.played_score, mover)),
            ),
            line: before.pv.clone(),
            line_from: record.ply - 1,
            line_san: san_line(pos, &before.pv),
            perpetual: report,
        });
    }
    // Drawn while winning: the mover stood winning with a line that does not end in a draw,
    // played a move other than the search's best, after which the opponent forces a draw by
    // rule or may claim one; and the other moves, searched again without the played one, still
    // win without a draw (the score before the move came from a shallower search than the one
    // after it, and may have been an illusion the played move alone escaped).
    if before.score >= DECISIVE
        && !before.is_proven_draw()
        && before.best.is_some_and(|best| best != record.played)
        && let Some((how, line)) = opponent_draw(&record.after, after_game)
        && let Some(other) = engine.best_other(before_game, record.played)
        && other.score >= DECISIVE
        && other.draw.is_none()
    {
        let after_pos = after_game.position();
        verdicts.push(Verdict {
            kind: VerdictKind::DrawnWhileWinning,
            ply: record.ply,
            side: mover,
            text: format!(
                "drawn while winning: {} stood {} (best {}), but after {played_text} {} {how}.",
                side_name(mover),
                score_text(white_score(other.score, mover)),
                numbered_line(pos, &other.pv),
                side_name(!mover),
            ),
            line_san: san_line(after_pos, &line),
            line,
            line_from: record.ply,
            perpetual: None,
        });
    }
}

/// How the side to move in `game` (whose position `after` assesses) draws by rule: a claim
/// (now or by announcing a move), an automatic end, or a line the search proved. The text
/// and the evidence line.
fn opponent_draw(after: &Assessment, game: &Game) -> Option<(String, Vec<Move>)> {
    let pos = game.position();
    if let Some(end) = after.end {
        return (end != AutomaticEnd::Checkmate)
            .then(|| (format!("the game is drawn by {end}"), Vec::new()));
    }
    let claims = game.claims();
    if let Some((text, line)) = claim_text(&claims, game) {
        return Some((format!("can claim a draw: {text}"), line));
    }
    let end = after.draw?;
    let line_text = numbered_line(pos, &after.pv);
    Some((
        format!("forces a draw by {}: {line_text}", end),
        after.pv.clone(),
    ))
}

/// What the player to move in `game` may claim, in words, and a move to announce for it (if
/// the claim is by announcing). None when there is nothing to claim.
fn claim_text(claims: &Claims, game: &Game) -> Option<(String, Vec<Move>)> {
    let pos = game.position();
    let moves_text = |moves: &[Move]| {
        moves
            .iter()
            .map(|&m| numbered_line(pos, &[m]))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let mut parts = Vec::new();
    let mut line = Vec::new();
    if claims.threefold_now {
        parts.push(format!(
            "threefold repetition now (the position has occurred {} times)",
            game.occurrences()
        ));
    } else if let Some(&first) = claims.threefold_by_moves.first() {
        parts.push(format!(
            "threefold repetition by announcing {}",
            moves_text(&claims.threefold_by_moves)
        ));
        line.push(first);
    }
    if claims.fifty_now {
        parts.push(format!(
            "the fifty-move rule now (halfmove clock {})",
            game.halfmove_clock()
        ));
    } else if let Some(&first) = claims.fifty_by_moves.first() {
        parts.push(format!(
            "the fifty-move rule by announcing {}",
            moves_text(&claims.fifty_by_moves)
        ));
        if line.is_empty() {
            line.push(first);
        }
    }
    (!parts.is_empty()).then(|| (parts.join("; "), line))
}

/// What the position verdicts of a game have said so far.
#[derive(Debug, Default)]
struct Said {
    /// Per side (shakmaty's index): a fifty-move claim was named.
    fifty: [bool; 2],
    /// The last position (its ply) whose proven draw was said, by a forced-draw verdict or a
    /// claim, and how its line ends as told (a perpetual check the prover refuted is told as a
    /// repetition).
    draw: Option<(usize, LineEnd)>,
}

/// The verdicts on a position: a claim open to the side to move, a forced draw that arises.
fn position_verdicts(
    analysis: &mut GameAnalysis,
    game: &Game,
    p: usize,
    here: &Assessment,
    said: &mut Said,
    engine: &mut Engine,
) {
    let pos = game.position();
    let side = pos.turn();
    let mut claims = game.claims();
    // A fifty-move claim stays open move after move: name it once per side.
    if said.fifty[side as usize] {
        claims.fifty_now = false;
        claims.fifty_by_moves.clear();
    }
    if claims.can_claim_fifty_moves() {
        said.fifty[side as usize] = true;
    }
    let claimable = claims.can_claim_threefold() || claims.can_claim_fifty_moves();
    if let Some((text, line)) = claim_text(&claims, game) {
        let went_on = if p < analysis.input.moves.len() {
            "; the game went on"
        } else {
            ""
        };
        analysis.verdicts.push(Verdict {
            kind: VerdictKind::ClaimAvailable,
            ply: p,
            side,
            text: format!(
                "claim available: {} may claim {text}{went_on}.",
                side_name(side)
            ),
            line_san: san_line(pos, &line),
            line,
            line_from: p,
            perpetual: None,
        });
    }
    let Some(end) = here.draw else {
        return;
    };
    // How the position before told its draw, if it told one.
    let told_before = said.draw.filter(|&(q, _)| q + 1 == p).map(|(_, told)| told);
    // Said already: the position before told the same draw, or a claim open here says the
    // draw is there for the taking.
    if told_before == Some(end) || claimable {
        said.draw = Some((p, end));
        return;
    }
    // A perpetual check as the search sees it, put to the prover: a refuted one is told as the
    // repetition it is. (Where the defender is to move and could leave the checks, a forced
    // draw is a repetition; once the checks are forced, a ply or two on, the proven perpetual
    // check is news, and is told then.)
    let report = match end {
        LineEnd::Repetition {
            perpetual_by: Some(checker),
        } => prove_perpetual(game, checker),
        _ => None,
    };
    let told = if refuted(report.as_ref()) {
        LineEnd::Repetition { perpetual_by: None }
    } else {
        end
    };
    if told_before == Some(told) {
        said.draw = Some((p, told));
        return;
    }
    // Who forces it is the search's line's to say: the checker even where the checks alone do
    // not force it.
    let Some(by) = forced_by(game, here, end, engine) else {
        return;
    };
    said.draw = Some((p, told));
    let line_text = numbered_line(pos, &here.pv);
    analysis.verdicts.push(Verdict {
        kind: VerdictKind::ForcedDraw,
        ply: p,
        side: by,
        text: format!(
            "forced draw: {} forces a draw by {}{}: {line_text}; {} cannot avoid it.",
            side_name(by),
            told,
            proven_note(report.as_ref()),
            side_name(!by),
        ),
        line: here.pv.clone(),
        line_from: p,
        line_san: san_line(pos, &here.pv),
        perpetual: report,
    });
}

/// Attacker-to-move positions the prover may search for one verdict: the perpetual checks of
/// the proof suite it proves take a few hundred at most (docs/perpetual.md).
pub const PROVER_NODES: u64 = 20_000;

/// The exact prover's answer on `attacker`'s perpetual check from the current position of
/// `game` (its history bounds the repetition); None where there is no question to ask (no
/// legal move, nothing to check with), which counts as not refuted.
fn prove_perpetual(game: &Game, attacker: Color) -> Option<perpetual::Report> {
    perpetual::prove(game, attacker, perpetual::Budget::nodes(PROVER_NODES)).ok()
}

/// Whether the prover refuted the perpetual check.
fn refuted(report: Option<&perpetual::Report>) -> bool {
    report.is_some_and(|r| matches!(r.verdict, PerpetualVerdict::Refuted(_)))
}

/// ", proven: a strategy of N positions" for a perpetual the prover proved; else nothing.
fn proven_note(report: Option<&perpetual::Report>) -> String {
    match report.map(|r| &r.verdict) {
        Some(PerpetualVerdict::Proven(proof)) => format!(
            " (proven: a strategy of {} positions)",
            proof.strategy.len()
        ),
        _ => String::new(),
    }
}

/// How many searches in a row of the position after a forced draw's first move must prove the
/// draw: each after the first starts from what the one before stored and sees further, as the
/// analysis's search of each position of a game builds on those before it.
const CONFIRMING_SEARCHES: usize = 2;

/// Whether the draw by rule the search proved in the current position of `game` (`here`, its
/// line ending by `end`) is forced, and by whom. The side that forces it: the one giving a
/// perpetual check, else the side to move, which plays into it. Forced: the proof holds on the
/// next ply, at a depth that reaches past the first proof's horizon (the position after the
/// line's first move, searched [`CONFIRMING_SEARCHES`] times in a row, proves a draw every
/// time, the last search at least as deep as `here`, one ply further from the current
/// position), and the other side cannot step out of it ([`avoidable`]).
fn forced_by(game: &Game, here: &Assessment, end: LineEnd, engine: &mut Engine) -> Option<Color> {
    let &first = here.pv.first()?;
    let mut next_game = game.clone();
    next_game.play(first);
    let mut last_depth = 0;
    for _ in 0..CONFIRMING_SEARCHES {
        let next = engine.assess(&next_game);
        if !next.is_proven_draw() {
            return None;
        }
        // A game that ends in a draw right there is no search's proof: nothing to deepen.
        if next.end.is_some() {
            last_depth = u32::MAX;
            break;
        }
        last_depth = next.depth;
    }
    if last_depth < here.depth {
        return None;
    }
    let by = match end {
        LineEnd::Repetition {
            perpetual_by: Some(checker),
        } => checker,
        _ => game.position().turn(),
    };
    (!avoidable(game, &next_game, &here.pv, by, engine)).then_some(by)
}

/// Whether the side that would have to accept the draw `line` leads to (the side other than
/// `by`) can step out of it at its first turn in the line: another move, searched with the
/// game's history, that does not lose (it scores above `-DECISIVE` for that side: a forced
/// draw's "cannot avoid it" is a missed perpetual's "every other move loses") and does not
/// end in a draw by rule itself. A search proves the draw as soon as every way out scores
/// below it, and on a level board that can be a few centipawns, or half a pawn, that a deeper
/// search takes back. No other move, or a draw reached before that side moves, cannot be
/// avoided. `next_game` is `game` after the line's first move.
fn avoidable(game: &Game, next_game: &Game, line: &[Move], by: Color, engine: &mut Engine) -> bool {
    // That side's first turn: here when it is to move, else after the line's first move
    // (`next_game`, the game with that move played).
    let (at, answer) = if game.position().turn() == by {
        (next_game, line.get(1))
    } else {
        (game, line.first())
    };
    let Some(&answer) = answer else {
        return false;
    };
    if at.automatic_end().is_some() {
        return false;
    }
    engine
        .best_other(at, answer)
        .is_some_and(|other| steps_out(&other))
}

/// Whether `other`, the search of a side's best move besides the one a drawing line gives it,
/// steps out of the draw: its line ends in no draw by rule, and it does not lose (it scores
/// above `-DECISIVE`). A move that keeps a level game refuses the draw as well as a winning
/// one does.
fn steps_out(other: &SearchResult) -> bool {
    other.draw.is_none() && other.score > -DECISIVE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_refused_by_a_move_that_neither_wins_nor_loses() {
        let other = |score: i32, draw: Option<LineEnd>| SearchResult {
            score,
            draw,
            ..SearchResult::default()
        };
        // Level, slightly worse, winning: each steps out of the draw.
        for score in [0, 35, -DECISIVE + 1, DECISIVE + 300] {
            assert!(steps_out(&other(score, None)), "{score}");
        }
        // A losing move does not, nor one whose own line ends in a draw by rule.
        assert!(!steps_out(&other(-DECISIVE, None)));
        assert!(!steps_out(&other(-900, None)));
        let repetition = LineEnd::Repetition { perpetual_by: None };
        assert!(!steps_out(&other(20, Some(repetition))));
    }

    #[test]
    fn a_checkmated_position_is_no_draw_and_a_stalemate_is() {
        let mated = Assessment {
            score: mated_in(0),
            end: Some(AutomaticEnd::Checkmate),
            ..Assessment::default()
        };
        assert!(!mated.is_proven_draw());
        let stalemate = Assessment {
            end: Some(AutomaticEnd::Stalemate),
            ..Assessment::default()
        };
        assert!(stalemate.is_proven_draw());
        // A level score without a line that ends in a draw by rule is no proof.
        assert!(!Assessment::default().is_proven_draw());
    }
}
