//! Syzygy tablebases through UCI, with the 3-piece tables and KQvKR in tests/data/syzygy: a
//! tablebase win, a win the fifty-move rule turns into a draw, a drawn pawn ending, the
//! fifty-move boundary, the game's history against the tables' ranking (threefolds made or
//! allowed), MultiPV, and a bad path.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move, Position};
use threefold::game::rules::FIFTY_MOVE_HALFMOVES;
use threefold::game::{Game, parse_fen_in, parse_uci_move, position_key};
use threefold::search::tablebase::{Outcome, RootRanking, RootResult, TB_WIN_BOUND, Tables};

use common::{Uci, last_info_field};

const SECOND: Duration = Duration::from_secs(1);
const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// An engine with the test tables loaded.
fn with_tables() -> Uci {
    let mut e = Uci::handshake();
    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Syzygy: 12 table files, up to 4 pieces")),
        "{lines:?}"
    );
    e
}

/// The `score cp` of the last `info depth` line before `bestmove`.
fn last_cp(lines: &[String]) -> i32 {
    last_info_field(lines, "cp", 1)[0]
        .parse()
        .expect("a number")
}

#[test]
fn a_tablebase_win_is_scored_as_one_with_tbhits() {
    let mut e = with_tables();
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
    e.send("go depth 6");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    // The root's ranking probes every move's position: every report counts those probes.
    let hits: Vec<u64> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let at = words.iter().position(|w| *w == "tbhits")?;
            words[at + 1].parse().ok()
        })
        .collect();
    assert!(!hits.is_empty() && hits.iter().all(|&h| h > 0), "{lines:?}");
    assert!(!mv.is_empty());
}

/// `SyzygyProbeLimit` (OpenBench sends it for tests restricted to N-piece tables): positions
/// with more pieces are neither ranked at the root nor probed in the search.
#[test]
fn the_probe_limit_keeps_bigger_positions_out_of_the_tables() {
    let tbhits = |limit: u32, fen: &str| -> u64 {
        let mut e = with_tables();
        e.send(&format!("setoption name SyzygyProbeLimit value {limit}"));
        e.send(&format!("position fen {fen}"));
        e.send("go depth 6");
        let (lines, _) = e.bestmove(10 * SECOND);
        last_info_field(&lines, "tbhits", 1)[0]
            .parse()
            .expect("a number")
    };
    // K+Q v K: three pieces at the root.
    let queen = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1";
    assert!(tbhits(7, queen) > 0);
    assert!(tbhits(3, queen) > 0);
    assert_eq!(tbhits(2, queen), 0);
    // K+Q+P v K+P: five pieces, beyond the four-piece tables; after a capture, four.
    let five = "4k3/4p3/8/8/8/8/4P3/4K2Q w - - 0 1";
    assert_eq!(tbhits(3, five), 0);
}

#[test]
fn a_win_the_fifty_move_rule_frustrates_is_a_draw() {
    let mut e = with_tables();
    // KQvK with mate 13 plies away but only 5 halfmoves left before the clock reaches 100.
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 95 1");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(10 * SECOND);
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
    // The same position with a fresh clock is a win.
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(10 * SECOND);
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
}

/// The `wdl W D L` of the last `info depth` line before `bestmove`.
fn last_wdl(lines: &[String]) -> [u32; 3] {
    let chances = last_info_field(lines, "wdl", 3);
    let chance = |i: usize| chances[i].parse().expect("a number");
    [chance(0), chance(1), chance(2)]
}

#[test]
fn what_the_tables_prove_shows_as_certain_chances() {
    let mut e = with_tables();
    e.send("setoption name UCI_ShowWDL value true");
    for (fen, chances) in [
        // A draw by the tables (K+P v K, the defending king in front).
        ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", [0, 1000, 0]),
        // A win the fifty-move rule spoils: a draw as certain as any.
        ("4k3/8/8/8/8/8/8/4K2Q w - - 95 1", [0, 1000, 0]),
        // The same win with a fresh clock, and the loss on the other side.
        ("4k3/8/8/8/8/8/8/4K2Q w - - 0 1", [1000, 0, 0]),
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", [0, 0, 1000]),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 4");
        let (lines, _) = e.bestmove(10 * SECOND);
        assert_eq!(last_wdl(&lines), chances, "{fen}: {lines:?}");
    }
}

#[test]
fn the_search_probes_after_captures() {
    let mut e = with_tables();
    // Kxd3 leaves K+P against K with the defending king in front of the pawn, a draw (the
    // tables say so, and python-chess's prober agrees): the search settles it by a probe after
    // the capture, with no table for the four pieces at the root.
    e.send("position fen 8/8/4k3/8/4P3/3r4/3K4/8 w - - 0 1");
    e.send("go depth 3 searchmoves d2d3");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert_eq!(mv, "d2d3");
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
    let probed = lines.iter().filter_map(|l| {
        let words: Vec<&str> = l.split(' ').collect();
        let at = words.iter().position(|w| *w == "tbhits")?;
        words[at + 1].parse::<u64>().ok()
    });
    assert!(probed.max().unwrap_or(0) > 0, "{lines:?}");
}

/// The tables' ranking of every legal move in the position `game` is in.
fn ranking(tables: &Tables, game: &Game) -> RootRanking {
    let moves: Vec<Move> = game.position().legal_moves().to_vec();
    tables.rank_root_moves(game, &moves).expect("in the tables")
}

/// The moves the tables keep in `fen` (a game with no moves before it), sorted, and the result
/// they keep.
fn kept_in(tables: &Tables, fen: &str) -> (Vec<String>, RootResult) {
    let ranked = ranking(tables, &game_after(fen, &[]));
    let mut kept = texts(&ranked.kept());
    kept.sort();
    (kept, ranked.result())
}

#[test]
fn root_moves_keep_the_best_tablebase_result() {
    let tables = Tables::load(TABLES).expect("test tables load");
    // K+P v K: of White's six moves only Ke5 (the opposition in front of the pawn) keeps the
    // win; e5 and the other king moves draw. (Checked with python-chess's own prober.)
    let (kept, result) = kept_in(&tables, "8/4k3/8/3K4/4P3/8/8/8 w - - 0 1");
    assert_eq!(kept, ["d5e5"]);
    assert!(matches!(result, RootResult::Win { .. }), "{result:?}");
    // Black to move against the opposition: all five king moves lose, each to a pawn move
    // three plies on (DTZ 3), so all are kept, and the loss is four plies to that move.
    let (kept, result) = kept_in(&tables, "8/4k3/8/4K3/4P3/8/8/8 b - - 0 1");
    assert_eq!(kept, ["e7d7", "e7d8", "e7e8", "e7f7", "e7f8"]);
    assert_eq!(result, RootResult::Loss { plies: 4 });
    let (_, result) = kept_in(&tables, "8/4k3/8/4K3/4P3/8/8/8 w - - 0 1");
    assert_eq!(result, RootResult::Draw);
    // Every move is ranked, best first.
    let ranked = ranking(&tables, &game_after("8/4k3/8/3K4/4P3/8/8/8 w - - 0 1", &[]));
    assert_eq!(ranked.moves.len(), 6);
    assert!(ranked.moves.windows(2).all(|w| w[0].1 >= w[1].1));
}

#[test]
fn a_bad_path_is_reported_and_the_engine_plays_on() {
    let mut e = Uci::handshake();
    e.send("setoption name SyzygyPath value /no/such/directory");
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        lines.iter().any(|l| l
            .starts_with("info string error: cannot read Syzygy directory '/no/such/directory'")),
        "{lines:?}"
    );
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        env!("CARGO_MANIFEST_DIR")
    ));
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.contains("no Syzygy tables found")),
        "{lines:?}"
    );
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
    e.send("go depth 3");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(
        !mv.is_empty()
            && lines
                .iter()
                .all(|l| !l.starts_with("info depth") || l.contains(" tbhits 0 ")),
        "{lines:?}"
    );
}

/// KRvK with the mate landing exactly on halfmove 100: 1.Ke2 (also 1.Kf2 and 1.Ra5) mates in 27
/// plies, so from a clock of 73 the mate comes on halfmove 100 (mate beats the fifty-move rule)
/// and it is a win; 1.Kd2 mates later. From a clock of 74 every mate comes too late: a draw.
/// The DTZ table stores this ending rounded, so the boundary must be settled exactly. (The three
/// moves and Kd2's longer mate were checked by an exhaustive mate search without tables.)
#[test]
fn a_mate_landing_on_halfmove_100_is_a_win_one_ply_later_a_draw() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let (kept, result) = kept_in(&tables, "8/8/8/8/3k4/8/8/R3K3 w - - 73 100");
    assert!(matches!(result, RootResult::Win { .. }), "{result:?}");
    assert_eq!(kept, vec!["a1a5", "e1e2", "e1f2"]);
    let (_, result) = kept_in(&tables, "8/8/8/8/3k4/8/8/R3K3 w - - 74 100");
    assert_eq!(result, RootResult::Draw);

    let mut e = with_tables();
    e.send("position fen 8/8/8/8/3k4/8/8/R3K3 w - - 73 100");
    e.send("go depth 6");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(kept.contains(&mv), "{lines:?}");
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    e.send("position fen 8/8/8/8/3k4/8/8/R3K3 w - - 73 100");
    e.send("go depth 6 searchmoves e1e2");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert_eq!(mv, "e1e2");
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    e.send("position fen 8/8/8/8/3k4/8/8/R3K3 w - - 74 100");
    e.send("go depth 6");
    let (lines, _) = e.bestmove(10 * SECOND);
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
}

/// K+Q v K, White to move, and a shuffle that returns to it: 1.Qe1 Kc5 2.Qa1 Kd5. From here
/// the tables keep one move, 1.Qe1, so the shuffle walks White's only DTZ-best move.
const SHUFFLE_FROM: &str = "8/8/8/3k4/8/2K5/8/Q7 w - - 10 1";
const SHUFFLE: [&str; 4] = ["a1e1", "d5c5", "e1a1", "c5d5"];

/// The game from `fen` after `moves`.
fn game_after(fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(parse_fen_in(fen, CastlingMode::Standard).expect("fen"));
    for m in moves {
        game.play_uci(m).expect("legal test move");
    }
    game
}

/// `position fen ... moves ...` for the game `moves` from `fen`.
fn position_command(fen: &str, moves: &[&str]) -> String {
    format!("position fen {fen} moves {}", moves.join(" "))
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// The moves the tables keep in the position the game is in, its history forgotten (the same
/// placement and clock, nothing played before).
fn kept_without_history(tables: &Tables, game: &Game) -> Vec<String> {
    texts(&ranking(tables, &Game::new(game.position().clone())).kept())
}

/// True when some line says the best line is a draw by rule.
fn reports_a_drawn_line(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info string the best line is a draw"))
}

/// True when some line says the best line is a draw by repetition.
fn reports_a_repetition(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info string the best line is a draw by repetition"))
}

#[test]
fn a_win_is_not_thrown_away_on_the_move_that_makes_a_threefold() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let moves: Vec<&str> = SHUFFLE.iter().chain(&SHUFFLE).copied().collect();
    let game = game_after(SHUFFLE_FROM, &moves);
    // The premise: the tables' one DTZ-best move is the move that makes a threefold.
    let repeating = texts(&game.claims().threefold_by_moves);
    let kept = kept_without_history(&tables, &game);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(repeating.contains(&kept[0]), "{kept:?} {repeating:?}");
    // With the history, that move is a draw, below the other wins.
    let ranked = ranking(&tables, &game);
    assert!(!texts(&ranked.kept()).contains(&kept[0]));
    assert!(matches!(ranked.result(), RootResult::Win { .. }));
    let made = parse_uci_move(game.position(), &kept[0]).expect("legal");
    assert_eq!(ranked.result_of(made), Some(RootResult::Draw));

    let mut e = with_tables();
    e.send(&position_command(SHUFFLE_FROM, &moves));
    e.send("go depth 8");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(
        !repeating.contains(&mv),
        "{mv} makes a threefold: {lines:?}"
    );
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    assert!(!reports_a_drawn_line(&lines), "{lines:?}");
}

#[test]
fn the_losing_side_takes_the_threefold_the_tables_rank_as_a_loss() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let moves: Vec<&str> = SHUFFLE
        .iter()
        .chain(&SHUFFLE)
        .chain(&SHUFFLE[..1])
        .copied()
        .collect();
    let game = game_after(SHUFFLE_FROM, &moves);
    // Black to move: one move makes a threefold, and the tables alone would not play it.
    let repeating = texts(&game.claims().threefold_by_moves);
    assert_eq!(repeating.len(), 1, "{repeating:?}");
    let kept = kept_without_history(&tables, &game);
    assert!(!kept.contains(&repeating[0]), "{kept:?}");
    // With the history, that move is the best: a draw beats every table loss.
    let ranked = ranking(&tables, &game);
    assert_eq!(texts(&ranked.kept()), repeating);
    assert_eq!(ranked.result(), RootResult::Draw);

    let mut e = with_tables();
    e.send(&position_command(SHUFFLE_FROM, &moves));
    e.send("go depth 8");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert_eq!(mv, repeating[0], "{lines:?}");
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
    assert!(reports_a_repetition(&lines), "{lines:?}");
}

/// The shuffle started one move later: the root has occurred twice, and 1.Qe1 (again the only
/// DTZ-best move) makes only a twofold, but lets Black make a threefold with 1...Kc5.
const CLAIMABLE_FROM: &str = "8/8/8/2k5/8/2K5/8/4Q3 w - - 12 2";
const CLAIMABLE: [&str; 6] = ["e1a1", "c5d5", "a1e1", "d5c5", "e1a1", "c5d5"];

#[test]
fn a_win_that_lets_the_loser_claim_a_threefold_gives_way_to_one_that_does_not() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let game = game_after(CLAIMABLE_FROM, &CLAIMABLE);
    let kept = kept_without_history(&tables, &game);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let mut after_kept = game.clone();
    after_kept.play_uci(&kept[0]).expect("legal");
    assert!(!after_kept.claims().threefold_now, "only a twofold");
    assert!(after_kept.claims().can_claim_threefold(), "Black can claim");

    let mut e = with_tables();
    e.send(&position_command(CLAIMABLE_FROM, &CLAIMABLE));
    e.send("go depth 8");
    let (lines, mv) = e.bestmove(10 * SECOND);
    let mut after = game.clone();
    after.play_uci(&mv).expect("legal best move");
    assert!(
        !after.claims().can_claim_threefold(),
        "{mv} lets Black claim a threefold: {lines:?}"
    );
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    assert!(!reports_a_drawn_line(&lines), "{lines:?}");

    // Made to play the DTZ-best move, the engine shows what it is: a draw, not the tables' win.
    e.send(&position_command(CLAIMABLE_FROM, &CLAIMABLE));
    e.send(&format!("go depth 8 searchmoves {}", kept[0]));
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert_eq!(mv, kept[0]);
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
    assert!(reports_a_repetition(&lines), "{lines:?}");
}

/// (rank, score in cp, first move) of each `info depth {depth}` line with a `multipv` field;
/// every line must have a cp score.
fn multipv_cp_lines(lines: &[String], depth: u32) -> Vec<(usize, i32, String)> {
    common::multipv_lines(lines, depth)
        .into_iter()
        .map(|(rank, cp, first)| (rank, cp.expect("a cp score"), first))
        .collect()
}

#[test]
fn multipv_shows_as_many_lines_as_asked_the_tables_best_first() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let game = game_after(SHUFFLE_FROM, &[]);
    let kept = kept_without_history(&tables, &game);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let mut e = with_tables();
    e.send("setoption name MultiPV value 3");
    e.send(&format!("position fen {SHUFFLE_FROM}"));
    e.send("go depth 6");
    let (lines, mv) = e.bestmove(10 * SECOND);
    let got = multipv_cp_lines(&lines, 6);
    assert_eq!(
        got.iter().map(|l| l.0).collect::<Vec<_>>(),
        [1, 2, 3],
        "{lines:?}"
    );
    assert_eq!(got[0].2, kept[0], "{got:?}");
    assert_eq!(mv, kept[0]);
    let mut firsts: Vec<&String> = got.iter().map(|l| &l.2).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{got:?}");
    // Every line is a win (K+Q v K with the queen safe), the slower ones below the fastest.
    assert!(got.iter().all(|l| l.1 >= TB_WIN_BOUND), "{got:?}");
    assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "{got:?}");
    assert!(got[0].1 > got[1].1, "{got:?}");
}

/// An exhaustive search over the WDL tables alone (no DTZ): whether the winning side forces,
/// within so many plies, a mate or a capture or pawn move after which it still wins. The
/// fifty-move boundary by brute force, to check the ranking against.
struct Oracle<'a> {
    tables: &'a Tables,
    memo: HashMap<(u64, u32, bool), bool>,
}

impl Oracle<'_> {
    /// The side to move forces such a move within `left` plies.
    fn wins_within(&mut self, pos: &Chess, left: u32) -> bool {
        if left == 0 {
            return false;
        }
        let key = (position_key(pos), left, true);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let answer = pos.legal_moves().into_iter().any(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if after.is_checkmate() {
                true
            } else if m.is_zeroing() {
                self.tables.wdl_after_zeroing(&after) == Some(Outcome::Loss)
            } else {
                self.loses_within(&after, left - 1)
            }
        });
        self.memo.insert(key, answer);
        answer
    }

    /// The side to move cannot stop the opponent forcing such a move within `left` plies.
    fn loses_within(&mut self, pos: &Chess, left: u32) -> bool {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return pos.is_check();
        }
        if left == 0 {
            return false;
        }
        let key = (position_key(pos), left, false);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let answer = moves.into_iter().all(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if m.is_zeroing() {
                self.tables.wdl_after_zeroing(&after) == Some(Outcome::Win)
            } else {
                self.wins_within(&after, left - 1)
            }
        });
        self.memo.insert(key, answer);
        answer
    }

    /// Whether the side to move in `pos` loses under the fifty-move rule as the clock stands:
    /// every move lets the opponent force its winning zeroing move (or mate) by halfmove 100.
    fn loses(&mut self, pos: &Chess) -> bool {
        pos.legal_moves().into_iter().all(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if m.is_zeroing() {
                return self.tables.wdl_after_zeroing(&after) == Some(Outcome::Win);
            }
            let left = FIFTY_MOVE_HALFMOVES.saturating_sub(after.halfmoves());
            self.wins_within(&after, left)
        })
    }
}

/// K+P v K, Black to move, with the boundary on White's next pawn move: from a clock of 86,
/// whatever Black plays, White can push the pawn (keeping the win) on halfmove 100 at the
/// latest, so Black loses; from 87, 1...Kd3 holds it off until halfmove 101, a draw. The
/// ranking settles 1...Kd3's rounded distance (White's DTZ 13 on a clock of 87) by searching
/// the tables, and that search ends on positions whose distance the tables give exactly: Black
/// to move, the pawn push two plies away, two plies left. A pawn move landing on halfmove 100
/// keeps the win (dtz + clock = 100 is in time), which the clocks around the boundary check
/// against a brute-force search over the WDL tables.
#[test]
fn a_pawn_move_landing_exactly_on_halfmove_100_is_in_time() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let mut oracle = Oracle {
        tables: &tables,
        memo: HashMap::new(),
    };
    // Whether a draw and a loss were seen.
    let mut seen = [false; 2];
    for clock in 80..=92 {
        let fen = format!("8/8/8/8/8/8/1P1k4/K7 b - - {clock} 1");
        let (_, result) = kept_in(&tables, &fen);
        let pos = parse_fen_in(&fen, CastlingMode::Standard).expect("fen");
        let loses = oracle.loses(&pos);
        assert_eq!(
            matches!(result, RootResult::Loss { .. }),
            loses,
            "clock {clock}: ranked {result:?}"
        );
        if !loses {
            assert_eq!(result, RootResult::Draw, "clock {clock}");
        }
        seen[usize::from(loses)] = true;
    }
    assert_eq!(seen, [true, true], "the clocks straddle the boundary");
}
