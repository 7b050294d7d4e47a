//! The prover's answer written out: one JSON object (the certificate, checked by
//! `bench/perpetual/check_certificate.py` with python-chess alone) or a few lines of text for
//! a reader. `docs/perpetual.md` describes the format.
//!
//! ```
//! use shakmaty::Color;
//! use threefold::game::{Game, parse_fen};
//! use threefold::perpetual::{Budget, certificate, prove};
//!
//! let game = Game::new(parse_fen("6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1").unwrap());
//! let report = prove(&game, Color::White, Budget::nodes(10_000)).unwrap();
//! let json = certificate::json(&report);
//! assert_eq!(json["result"], "proven");
//! assert_eq!(json["strategy"][0]["check"], "h5e8");
//! assert!(certificate::text(&report).starts_with("proven: White has a perpetual check"));
//! ```

use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move};

use super::{Report, Verdict};
use crate::game::uci_text;
use crate::record::notation::{numbered_line, side_name};

/// A position as the certificate writes it: FEN with an en passant square only where the
/// capture is legal (FIDE's identity).
fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn uci(m: Move) -> String {
    uci_text(m, CastlingMode::Standard)
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The certificate: the answer, what it rests on, and what it cost.
pub fn json(report: &Report) -> Value {
    let mut out = json!({
        "start": fen(&report.start),
        "attacker": color_name(report.attacker),
        "nodes": report.nodes,
        "explored": report.explored,
        "ms": report.elapsed.as_millis() as u64,
    });
    let fields = match &report.verdict {
        Verdict::Proven(proof) => json!({
            "result": "proven",
            "size": proof.strategy.len(),
            "longest_cycle": proof.longest_cycle,
            "threefold_within": proof.threefold_within,
            "main_line": proof.main_line.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
            "strategy": proof.strategy.iter().map(|(pos, check)| json!({
                "fen": fen(pos),
                "check": uci(*check),
            })).collect::<Vec<_>>(),
        }),
        Verdict::Refuted(refutation) => json!({
            "result": "refuted",
            "first_reply": refutation.first_reply.map(uci),
            "line": refutation.line.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
            "refutation": refutation.positions.iter().map(|(pos, pairs)| json!({
                "fen": fen(pos),
                "answers": pairs.iter().map(|&(check, reply)| json!({
                    "check": uci(check),
                    "reply": uci(reply),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }),
        Verdict::Unknown => json!({ "result": "unknown" }),
    };
    if let (Some(out), Value::Object(fields)) = (out.as_object_mut(), fields) {
        out.extend(fields);
    }
    out
}

/// The answer for a reader: the verdict, the line, the cost.
pub fn text(report: &Report) -> String {
    let attacker = side_name(report.attacker);
    let defender = side_name(!report.attacker);
    let cost = format!(
        "{} positions searched, {} ms",
        report.nodes,
        report.elapsed.as_millis()
    );
    match &report.verdict {
        Verdict::Proven(proof) => {
            let size = proof.strategy.len();
            let how = match proof.longest_cycle {
                Some(0) => "; every line of it ends in mate".to_owned(),
                Some(c) => format!(
                    ", longest cycle {c} moves; one of its positions comes a third time within \
                     {} moves",
                    proof.threefold_within
                ),
                None => format!(
                    "; one of its positions comes a third time within {} moves",
                    proof.threefold_within
                ),
            };
            format!(
                "proven: {attacker} has a perpetual check (a strategy of {size} positions{how})\n\
                 line: {}\n{cost}",
                numbered_line(&report.start, &proof.main_line),
            )
        }
        Verdict::Refuted(refutation) => format!(
            "refuted: {attacker} has no perpetual check ({defender} answers every try; the \
             certificate lists {} positions)\nline: {}\n{cost}",
            refutation.positions.len(),
            if refutation.line.is_empty() {
                format!("{attacker} has no check")
            } else {
                format!(
                    "{}, and {attacker} has no check left",
                    numbered_line(&report.start, &refutation.line)
                )
            },
        ),
        Verdict::Unknown => format!(
            "unknown: the budget ran out ({} positions known)\n{cost}",
            report.explored
        ),
    }
}
