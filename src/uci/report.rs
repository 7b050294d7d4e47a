//! Formats search output as UCI lines, through vampirc-uci's message types.

use shakmaty::{CastlingMode, Move};
use vampirc_uci::{
    Duration, Serializable, UciInfoAttribute, UciMessage, UciMove, UciPiece, UciSquare,
};

use crate::game::uci_text;
use crate::search::Iteration;
use crate::search::score::{UciScore, uci_score};

/// A shakmaty move as vampirc-uci's move, through the UCI text.
pub fn to_vampirc(m: Move, mode: CastlingMode) -> Option<UciMove> {
    let text = uci_text(m, mode);
    let b = text.as_bytes();
    if b.len() < 4 {
        return None;
    }
    let square = |f: u8, r: u8| UciSquare::from(f as char, r - b'0');
    let promotion = match b.get(4) {
        Some(b'q') => Some(UciPiece::Queen),
        Some(b'r') => Some(UciPiece::Rook),
        Some(b'b') => Some(UciPiece::Bishop),
        Some(b'n') => Some(UciPiece::Knight),
        _ => None,
    };
    Some(UciMove {
        from: square(b[0], b[1]),
        to: square(b[2], b[3]),
        promotion,
    })
}

/// The `info depth ... pv ...` line of a finished iteration, its fields in the order Stockfish
/// and Lc0 write them (`depth seldepth multipv score [wdl] [lowerbound|upperbound] nodes nps
/// hashfull tbhits time pv`): some GUIs read `wdl` only right after the score. `multipv` is
/// there also for a single line. With `wdl`, the line carries `wdl W D L` (per mille, for
/// `UCI_ShowWDL`).
pub fn info_line(it: &Iteration, mode: CastlingMode, wdl: Option<[u32; 3]>) -> String {
    let mut score = match uci_score(it.score) {
        UciScore::Centipawns(cp) => format!("cp {cp}"),
        UciScore::MateIn(n) => format!("mate {n}"),
    };
    if let Some([w, d, l]) = wdl {
        score += &format!(" wdl {w} {d} {l}");
    }
    match it.bound {
        Some(true) => score += " lowerbound",
        Some(false) => score += " upperbound",
        None => {}
    }
    let ms = it.elapsed.as_millis() as u64;
    // From the microseconds: a report at `time 0` shows the rate measured, not one made up
    // from a millisecond that had not passed.
    let micros = it.elapsed.as_micros().max(1);
    let nps = (u128::from(it.nodes) * 1_000_000 / micros).min(u128::from(u64::MAX)) as u64;
    let rank = it.multipv.unwrap_or(1).min(u16::MAX as usize) as u16;
    let mut attributes = vec![
        UciInfoAttribute::Depth(it.depth.min(255) as u8),
        UciInfoAttribute::SelDepth(it.seldepth.min(255) as u8),
        UciInfoAttribute::MultiPv(rank),
        UciInfoAttribute::Any("score".into(), score),
        UciInfoAttribute::Nodes(it.nodes),
        UciInfoAttribute::Nps(nps),
        UciInfoAttribute::HashFull(it.hashfull.min(1000) as u16),
        UciInfoAttribute::TbHits(it.tbhits),
    ];
    attributes.push(UciInfoAttribute::Time(Duration::milliseconds(ms as i64)));
    attributes.push(UciInfoAttribute::Pv(
        it.pv.iter().filter_map(|&m| to_vampirc(m, mode)).collect(),
    ));
    UciMessage::Info(attributes).serialize()
}

/// The `info depth D currmove M currmovenumber N` line: the root move the search is on, the
/// `number`th of its iteration (Arena and Cute Chess show it). Written by hand: vampirc-uci
/// spells the last field `currmovenum`, which is not the protocol's name.
pub fn currmove_line(depth: u32, mv: Move, number: usize, mode: CastlingMode) -> String {
    format!(
        "info depth {depth} currmove {} currmovenumber {number}",
        uci_text(mv, mode)
    )
}

/// The `bestmove` line; `bestmove 0000` when there is no legal move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, mode: CastlingMode) -> String {
    match best.and_then(|m| to_vampirc(m, mode)) {
        Some(best_move) => UciMessage::BestMove {
            best_move,
            ponder: ponder.and_then(|m| to_vampirc(m, mode)),
        }
        .serialize(),
        None => "bestmove 0000".to_owned(),
    }
}
