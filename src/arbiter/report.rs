//! The arbiter's output: a text report for people, one JSON object per game for programs.

use serde_json::{Value, json};
use shakmaty::Color;

use super::judge::{Claim, ClaimRule, Verdict};
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
    record.tags.get("Result").unwrap_or("*")
}

/// Whether the game's `Result` tag agrees with how the game ended by the rules.
pub fn result_consistent(record: &GameRecord) -> bool {
    record.verdict.result_consistent(result_of(record))
}

/// A finding: a position seen three times, a claim, an automatic end, an inconsistent result
/// or an error (what `--only-findings` lists).
pub fn has_findings(record: &GameRecord) -> bool {
    let v = &record.verdict;
    !v.repetitions.is_empty()
        || !v.claims.is_empty()
        || v.automatic_end.is_some()
        || !result_consistent(record)
        || v.error.is_some()
}

/// A record the rules contradict: a result tag that disagrees with the automatic end, or moves
/// recorded after it (void). Errors (an illegal move, a bad FEN tag) are counted apart.
pub fn contradicts_rules(record: &GameRecord) -> bool {
    !result_consistent(record) || record.verdict.void_moves() > 0
}

/// The counts for the closing line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub with_findings: usize,
    pub contradicting_rules: usize,
    pub with_errors: usize,
}

impl Summary {
    /// Counts one game.
    pub fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        self.with_findings += usize::from(has_findings(record));
        self.contradicting_rules += usize::from(contradicts_rules(record));
        self.with_errors += usize::from(record.verdict.error.is_some());
    }

    /// Whether every game was read to its end and agrees with the rules.
    pub fn clean(&self) -> bool {
        self.contradicting_rules == 0 && self.with_errors == 0
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "summary: {}, {} with findings, {} with a result or moves the rules contradict, {} with errors",
            count(self.games, "game", "games"),
            self.with_findings,
            self.contradicting_rules,
            self.with_errors
        )
    }
}

/// One JSON object for a game (the schema is in docs/arbiter.md).
pub fn json(record: &GameRecord) -> Value {
    let v = &record.verdict;
    let tag = |name: &str| {
        record
            .tags
            .get(name)
            .map_or(Value::Null, |t| Value::String(t.to_owned()))
    };
    json!({
        "file": record.file,
        "game": record.index,
        "tags": {
            "White": tag("White"),
            "Black": tag("Black"),
            "Event": tag("Event"),
            "Site": tag("Site"),
            "Date": tag("Date"),
            "Round": tag("Round"),
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
        "result_consistent": result_consistent(record),
        "error": v.error,
    })
}

/// A report for people.
pub fn text(record: &GameRecord) -> String {
    let v = &record.verdict;
    let known = |name: &str| {
        record
            .tags
            .get(name)
            .filter(|t| !t.is_empty() && !t.starts_with('?'))
    };
    let mut place: Vec<String> = [known("Event"), known("Site"), known("Date")]
        .into_iter()
        .flatten()
        .map(str::to_owned)
        .collect();
    if let Some(round) = known("Round").filter(|r| *r != "-") {
        place.push(format!("round {round}"));
    }
    let place = if place.is_empty() {
        "?".to_owned()
    } else {
        place.join(", ")
    };
    let mut out = format!(
        "Game {} of {}: {} - {} ({place}), {} plies, result {}\n",
        record.index,
        record.file,
        record.tags.get("White").unwrap_or("?"),
        record.tags.get("Black").unwrap_or("?"),
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
            match v.void_moves() {
                0 => {}
                1 => out += "; the recorded move after it is void",
                n => out += &format!("; the {n} recorded moves after it are void"),
            }
            out += "\n";
        }
        None => out += "  automatic end: none\n",
    }
    out += &match v.rules_result() {
        Some(given) if !result_consistent(record) => {
            format!(
                "  recorded result: NOT consistent with the automatic end, which gives {given}\n"
            )
        }
        _ => "  recorded result: consistent with the rules\n".to_owned(),
    };
    if let Some(e) = &v.error {
        out += &format!("  error: {e}\n");
    }
    out
}

/// The first claim of each side under each rule, in the order of the game.
fn claims_text(v: &Verdict) -> String {
    let mut firsts: Vec<&Claim> = Vec::new();
    for c in &v.claims {
        if !firsts.iter().any(|f| f.rule == c.rule && f.side == c.side) {
            firsts.push(c);
        }
    }
    firsts.sort_by_key(|c| c.ply);
    if firsts.is_empty() {
        return "  claims: none\n".to_owned();
    }
    let mut out = String::new();
    for c in firsts {
        let name = if c.side == Color::White {
            "White"
        } else {
            "Black"
        };
        let what = match c.rule {
            ClaimRule::Threefold => "threefold",
            ClaimRule::FiftyMoves => "fifty-move",
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
    out
}

/// `1 game`, `2 games`.
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
