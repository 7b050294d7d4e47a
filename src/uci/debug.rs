//! Debug commands outside the UCI standard: `perft N` (move generator counts), `d` (the board
//! and its game record) and `eval` (the hand-written evaluation term by term, and the network's
//! score).

use std::time::Instant;

use shakmaty::{Color, EnPassantMode, Position, fen::Fen};

use super::output::send;
use crate::eval::nnue::{self, Network};
use crate::game::{Game, uci_text};

/// `perft N`: the move counts below each legal move, their total and the speed.
pub fn perft(game: &Game, depth: u32) {
    let started = Instant::now();
    let pos = game.position();
    let mode = game.castling_mode();
    let mut total = 0;
    for (m, count) in crate::perft::divide(pos, depth) {
        send(&format!("{}: {count}", uci_text(m, mode)));
        total += count;
    }
    let ms = started.elapsed().as_millis();
    send("");
    send(&format!("Nodes searched: {total}"));
    send(&format!(
        "Time: {ms} ms ({} nps)",
        total as u128 * 1000 / ms.max(1)
    ));
}

/// `d`: the board, its FEN and key, and what the game record says of it.
pub fn display(game: &Game) {
    let pos = game.position();
    let board = pos.board();
    send("");
    for rank in (0..8u32).rev() {
        let mut row = format!(" {} |", rank + 1);
        for file in 0..8u32 {
            let sq =
                shakmaty::Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = board.piece_at(sq).map_or('.', |p| p.char());
            row.push(' ');
            row.push(c);
        }
        send(&row);
    }
    send("     a b c d e f g h");
    send("");
    send(&format!(
        "Fen: {}",
        Fen::from_position(pos, EnPassantMode::Legal)
    ));
    send(&format!("Key: {:016x}", game.key()));
    send(&format!(
        "Side to move: {}",
        if pos.turn() == Color::White {
            "white"
        } else {
            "black"
        }
    ));
    send(&format!("Halfmove clock: {}", pos.halfmoves()));
    send(&format!("Occurrences: {}", game.occurrences()));
    send(&format!("Moves played: {}", game.moves().len()));
}

/// `eval`: the static evaluation, term by term, and the network's score (`network`, the one
/// the search evaluates with, or the built-in one when the hand-written evaluation is in use).
pub fn show_eval(game: &Game, network: Option<&Network>) {
    let b = crate::eval::breakdown(game.position());
    send(&format!(
        "Evaluation from White's point of view (phase {}/{}):",
        b.phase,
        crate::eval::MAX_PHASE
    ));
    send("      term |    mg    eg");
    for (name, s) in [
        ("material", b.material),
        ("placement", b.placement),
        ("pawns", b.pawns),
        ("mobility", b.mobility),
        ("king", b.king_safety),
        ("threats", b.threats),
    ] {
        send(&format!("{name:>10} | {:>5} {:>5}", s.mg, s.eg));
    }
    send(&format!("Endgame scale: {}/128", b.scale));
    send(&format!("Total: {} cp", b.total()));
    let pos = game.position();
    let white = |mover: i32| if pos.turn().is_white() { mover } else { -mover };
    let (net, which) = match network {
        Some(net) => (net, "in use"),
        None => (Network::embedded(), "built in, not in use: UseNNUE is off"),
    };
    send(&format!(
        "NNUE ({}, {which}): {} cp from White's point of view",
        net.shape(),
        white(nnue::evaluate_position(net, pos))
    ));
    send(&format!(
        "Search evaluation ({}): {} cp for the side to move",
        if network.is_some() {
            "NNUE"
        } else {
            "hand-written"
        },
        match network {
            Some(net) => crate::eval::scale_network_score(pos, nnue::evaluate_position(net, pos)),
            None => crate::eval::evaluate(pos),
        }
    ));
}
