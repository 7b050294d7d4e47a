//! The arbiter's output: a text report for people, one JSON object per game for programs.

use serde_json::{Value, json};
use shakmaty::Color;

use super::judge::{ClaimRule, Verdict};
use super::pgn::GameRecord;
use crate::game::rules::AutomaticEnd;

fn side_name(c: Color) -> &'static str {
    if c == Color::White { "white" } else { "black" }
}

fn rule_name(rule: ClaimRule) -> &'static str {
    match rule {
        ClaimRule::Threefold => "threefold",
        ClaimRule::FiftyMoves => "fifty",
    }
}

fn end_name(rule: AutomaticEnd) -> &'static str {
    match rule {
        AutomaticEnd::Checkmate => "checkmate",
        AutomaticEnd::Stalemate => "stalemate",
        AutomaticEnd::FivefoldRepetition => "fivefold",
        AutomaticEnd::SeventyFiveMoves => "seventy-five",
        AutomaticEnd::DeadPosition => "insufficient_material",
    }
}

/// The recorded result, or "*" when the tag is missing.
fn result_of(record: &GameRecord) -> &str {
    record.tag("Result").unwrap_or("*")
}

/// One JSON object for a game (the schema is in the README).
pub fn json(record: &GameRecord) -> Value {
    let v = &record.verdict;
    let tag = |name: &str| {
        record
            .tag(name)
            .map_or(Value::Null, |t| Value::String(t.to_owned()))
    };
    json!({
        "file": record.file,
        "game": record.index,
        "tags": {
            "White": tag("White"),
            "Black": tag("Black"),
            "Event": tag("Event"),
            "Result": tag("Result"),
        },
        "plies": v.plies,
        "repetitions": v.repetitions.iter().map(|r| json!({
            "occurrences": r.plies,
            "moves": r.plies.iter().map(|&p| v.label(p)).collect::<Vec<_>>(),
            "fen": r.fen,
        })).collect::<Vec<_>>(),
        "claims": v.claims.iter().map(|c| json!({
            "rule": rule_name(c.rule),
            "side": side_name(c.side),
            "ply": c.ply,
            "after": v.label(c.ply),
            "by_announcing_move": c.by_announcing,
            "by_announcing_san": c.by_announcing_san,
        })).collect::<Vec<_>>(),
        "automatic_end": v.automatic_end.map(|e| json!({
            "rule": end_name(e.rule),
            "ply": e.ply,
            "after": v.label(e.ply),
        })),
        "void_moves": v.void_moves(),
        "result_consistent": v.result_consistent(result_of(record)),
        "error": v.error,
    })
}

/// A report for people.
pub fn text(record: &GameRecord) -> String {
    let v = &record.verdict;
    let mut out = format!(
        "Game {} of {}: {} - {} ({}), {} plies, result {}\n",
        record.index,
        record.file,
        record.tag("White").unwrap_or("?"),
        record.tag("Black").unwrap_or("?"),
        record.tag("Event").unwrap_or("?"),
        v.plies,
        result_of(record)
    );
    for r in &v.repetitions {
        let at: Vec<String> = r
            .plies
            .iter()
            .map(|&p| format!("{} (ply {p})", v.label(p)))
            .collect();
        out += &format!(
            "  position seen {} times: after {}\n    {}\n",
            r.plies.len(),
            at.join(", "),
            r.fen
        );
    }
    out += &claims_text(v);
    match v.automatic_end {
        Some(e) => {
            out += &format!(
                "  automatic end: {} at ply {} ({})",
                e.rule,
                e.ply,
                v.label(e.ply)
            );
            if v.void_moves() > 0 {
                out += &format!("; the {} recorded moves after it are void", v.void_moves());
            }
            out += "\n";
        }
        None => out += "  automatic end: none\n",
    }
    let consistent = v.result_consistent(result_of(record));
    out += &format!(
        "  recorded result: {}\n",
        if consistent {
            "consistent with the rules"
        } else {
            "NOT consistent with the automatic end"
        }
    );
    if let Some(e) = &v.error {
        out += &format!("  error: {e}\n");
    }
    out
}

fn claims_text(v: &Verdict) -> String {
    let mut out = String::new();
    for rule in [ClaimRule::Threefold, ClaimRule::FiftyMoves] {
        for side in [Color::White, Color::Black] {
            let name = if side == Color::White {
                "White"
            } else {
                "Black"
            };
            let what = if rule == ClaimRule::Threefold {
                "threefold"
            } else {
                "fifty-move"
            };
            let Some(c) = v.claims.iter().find(|c| c.rule == rule && c.side == side) else {
                continue;
            };
            out += &match &c.by_announcing_san {
                Some(san) => format!(
                    "  {what} claim: {name} first at ply {} by announcing {san}\n",
                    c.ply
                ),
                None => format!(
                    "  {what} claim: {name} first at ply {}, after {}\n",
                    c.ply,
                    v.label(c.ply)
                ),
            };
        }
    }
    if out.is_empty() {
        out += "  claims: none\n";
    }
    out
}
