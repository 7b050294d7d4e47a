//! The analysis written out: annotated PGN (lichess's `[%eval]` comments, NAGs, verdicts as
//! comments, the best line as a variation) and one JSON object per game.
//!
//! What the input carried is kept beside the engine's annotations, as lichess keeps it: its
//! comments (`[%clk]` clocks and the rest), NAGs and variations. Where the engine writes its
//! own `[%eval]` for a move, an `[%eval]` of the input's comment is dropped, and where it
//! marks the move, the input's move marks (NAGs 1 to 6) give way to its mark.

use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::notation::{eval_value, move_number, san_line, white_score};
use super::study::{Assessment, GameAnalysis, PlyRecord, Verdict, VerdictKind};
use crate::game::uci_text;
use crate::perpetual::certificate;
use crate::record::{Line, RecordedMove};
use crate::search::score::UciScore;

/// Longest movetext line, as PGN export format asks (a long comment may pass it).
const LINE_WIDTH: usize = 79;

/// Results a PGN game may end with; any other `Result` tag ends the movetext with `*`.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Text inside `{}`: braces would end the comment early.
fn comment(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    format!("{{{clean}}}")
}

/// The `[%eval]` of a position (White's point of view, with the depth when searched); None
/// for a checkmate, which the move's `#` already says.
fn eval_tag(a: &Assessment, side_to_move: Color) -> Option<String> {
    if a.end == Some(crate::game::AutomaticEnd::Checkmate) {
        return None;
    }
    let value = eval_value(white_score(a.score, side_to_move));
    Some(if a.depth > 0 {
        format!("[%eval {value},{}]", a.depth)
    } else {
        format!("[%eval {value}]")
    })
}

/// Move-number and SAN tokens of `line` from `pos`.
fn line_tokens(pos: &Chess, line: &[Move]) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut turn = pos.turn();
    let mut number = pos.fullmoves().get();
    for (i, san) in san_line(pos, line).into_iter().enumerate() {
        match turn {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(san);
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    tokens
}

/// NAGs that mark a move's quality (`!`, `?`, `!!`, `??`, `!?`, `?!`).
fn is_move_mark(nag: u8) -> bool {
    (1..=6).contains(&nag)
}

/// A comment of the input without its `[%eval ...]` commands (when the engine writes its own);
/// None when nothing else is left.
fn without_eval(text: &str) -> Option<String> {
    let mut rest = text;
    let mut kept = String::new();
    while let Some(start) = rest.find("[%eval") {
        kept.push_str(&rest[..start]);
        rest = rest[start..]
            .find(']')
            .map_or("", |end| &rest[start + end + 1..]);
    }
    kept.push_str(rest);
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    (!kept.is_empty()).then_some(kept)
}

/// The input's NAGs of one move, after its SAN; the engine's mark takes the place of the
/// input's move marks.
fn recorded_nags(tokens: &mut Vec<String>, recorded: &RecordedMove, engine_marks: bool) {
    for &nag in &recorded.nags {
        if !(engine_marks && is_move_mark(nag)) {
            tokens.push(format!("${nag}"));
        }
    }
}

/// The input's comments of one move, without `[%eval]` where the engine writes its own.
fn recorded_comments(recorded: &RecordedMove, engine_evals: bool) -> Vec<String> {
    recorded
        .comments
        .iter()
        .filter_map(|text| {
            if engine_evals {
                without_eval(text)
            } else {
                Some(text.clone())
            }
        })
        .collect()
}

/// A variation of the input, from the position before the move it replaces: numbers, SAN,
/// its NAGs, comments and nested variations.
fn recorded_line(from: &Chess, line: &Line) -> Vec<String> {
    let mut tokens: Vec<String> = line.comments.iter().map(|c| comment(c)).collect();
    let mut pos = from.clone();
    let mut need_number = true;
    for recorded in &line.moves {
        if pos.turn() == Color::White || need_number {
            tokens.push(move_number(&pos));
        }
        let before = pos.clone();
        tokens.push(san_line(&pos, &[recorded.mv]).pop().unwrap_or_default());
        pos.play_unchecked(recorded.mv);
        recorded_nags(&mut tokens, recorded, false);
        let comments = recorded_comments(recorded, false);
        need_number = !comments.is_empty();
        tokens.extend(comments.iter().map(|c| comment(c)));
        for variation in &recorded.variations {
            tokens.push(format!("({})", recorded_line(&before, variation).join(" ")));
            need_number = true;
        }
    }
    tokens
}

fn is_move_verdict(kind: VerdictKind) -> bool {
    matches!(
        kind,
        VerdictKind::MissedPerpetual
            | VerdictKind::MissedRepetition
            | VerdictKind::DrawnWhileWinning
    )
}

/// The annotated PGN of one game, ending with a blank line.
pub fn pgn(analysis: &GameAnalysis) -> String {
    let input = &analysis.input;
    let mut text = String::new();
    for (name, value) in &input.tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    let position_notes = |p: usize| -> Vec<&str> {
        analysis
            .verdicts
            .iter()
            .filter(|v| v.ply == p && !is_move_verdict(v.kind))
            .map(|v| v.text.as_str())
            .collect()
    };
    tokens.extend(input.recorded.comments.iter().map(|c| comment(c)));
    let start_notes = position_notes(0);
    if !start_notes.is_empty() {
        tokens.push(comment(&start_notes.join(" ")));
    }
    let mut pos = input.start.clone();
    let mut need_number = true;
    for (i, &m) in input.moves.iter().enumerate() {
        let ply = i + 1;
        if pos.turn() == Color::White || need_number {
            tokens.push(move_number(&pos));
        }
        need_number = false;
        let before = pos.clone();
        let san = san_line(&pos, &[m]).pop().unwrap_or_default();
        tokens.push(san);
        pos.play_unchecked(m);
        let record = analysis.plies.iter().find(|r| r.ply == ply);
        let eval = record.and_then(|r| eval_tag(&r.after, pos.turn()));
        let recorded = input.recorded.moves.get(i);
        let class = record.and_then(|r| r.class);
        if let Some(recorded) = recorded {
            recorded_nags(&mut tokens, recorded, class.is_some());
        }
        if let Some(class) = class {
            tokens.push(format!("${}", class.nag()));
        }
        // One comment: the engine's eval, then the input's comments, then the verdicts.
        let mut notes: Vec<String> = Vec::new();
        if let Some(tag) = &eval {
            notes.push(tag.clone());
        }
        if let Some(recorded) = recorded {
            notes.extend(recorded_comments(recorded, eval.is_some()));
        }
        let move_verdicts: Vec<&Verdict> = analysis
            .verdicts
            .iter()
            .filter(|v| v.ply == ply && is_move_verdict(v.kind))
            .collect();
        notes.extend(move_verdicts.iter().map(|v| v.text.clone()));
        notes.extend(position_notes(ply).into_iter().map(str::to_owned));
        if !notes.is_empty() {
            tokens.push(comment(&notes.join(" ")));
            need_number = true;
        }
        if let Some(record) = record
            && (record.class.is_some() || !move_verdicts.is_empty())
            && record.before.best.is_some_and(|b| b != m)
        {
            let variation = line_tokens(&before, &record.before.pv);
            if !variation.is_empty() {
                tokens.push(format!("({})", variation.join(" ")));
                need_number = true;
            }
        }
        for variation in recorded.map_or(&[][..], |r| &r.variations[..]) {
            tokens.push(format!("({})", recorded_line(&before, variation).join(" ")));
            need_number = true;
        }
    }
    let mut closing = Vec::new();
    if let Some(error) = &input.error {
        closing.push(error.clone());
    }
    if let Some(stopped) = &analysis.stopped {
        closing.push(format!("analysis stopped: {stopped}"));
    }
    if !closing.is_empty() {
        tokens.push(comment(&closing.join("; ")));
    }
    let result = input
        .tags
        .get("Result")
        .filter(|r| RESULTS.contains(r))
        .unwrap_or("*");
    tokens.push(result.to_owned());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// A score from White's point of view ([`white_score`]): `{"cp": 35}` or `{"mate": -3}`.
fn score_json(score: UciScore) -> Value {
    match score {
        UciScore::Centipawns(cp) => json!({ "cp": cp }),
        UciScore::MateIn(n) => json!({ "mate": n }),
    }
}

fn side_json(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A position's assessment in JSON; `pos` is the position, `side` its side to move.
fn assessment_json(a: &Assessment, pos: &Chess) -> Value {
    let mode = pos.castles().mode();
    json!({
        "score": score_json(white_score(a.score, pos.turn())),
        "best": a.best.and_then(|m| san_line(pos, &[m]).pop()),
        "best_uci": a.best.map(|m| uci_text(m, mode)),
        "line": san_line(pos, &a.pv),
        "draw": a.draw.filter(|_| a.end.is_none()).map(|end| end.to_string()),
        "end": a.end.map(|e| e.to_string()),
        "depth": a.depth,
        "nodes": a.nodes,
    })
}

/// A ply in JSON, with the input's NAGs and comments of that move (`recorded`).
fn ply_json(
    record: &PlyRecord,
    recorded: Option<&RecordedMove>,
    before: &Chess,
    after: &Chess,
) -> Value {
    let mode = before.castles().mode();
    let (nags, comments) = recorded.map_or((Vec::new(), Vec::new()), |r| {
        (r.nags.clone(), r.comments.clone())
    });
    json!({
        "ply": record.ply,
        "move_number": before.fullmoves().get(),
        "side": side_json(record.mover),
        "move": record.san,
        "uci": uci_text(record.played, mode),
        "before": assessment_json(&record.before, before),
        "after": assessment_json(&record.after, after),
        "played_score": score_json(white_score(record.played_score, record.mover)),
        "played_draw": record.played_draw,
        "expected_best": (record.expected_best * 1000.0).round() / 1000.0,
        "expected_played": (record.expected_played * 1000.0).round() / 1000.0,
        "class": record.class.map(|c| c.symbol()),
        "input_nags": nags,
        "input_comments": comments,
    })
}

fn verdict_json(v: &Verdict, pos_at_line: Option<&Chess>) -> Value {
    let line_uci: Vec<String> = match pos_at_line {
        Some(pos) => v
            .line
            .iter()
            .map(|&m| uci_text(m, pos.castles().mode()))
            .collect(),
        None => Vec::new(),
    };
    json!({
        "kind": v.kind.name(),
        "ply": v.ply,
        "side": side_json(v.side),
        "text": v.text,
        "line": v.line_san,
        "line_uci": line_uci,
        "perpetual": v.perpetual.as_ref().map(certificate::json),
    })
}

/// One game as a JSON object (its fields are in docs/analyse.md).
pub fn json(analysis: &GameAnalysis) -> Value {
    let input = &analysis.input;
    // The position after every ply, the start first.
    let mut positions = vec![input.start.clone()];
    for &m in &input.moves {
        let mut next = positions.last().cloned().unwrap_or_default();
        next.play_unchecked(m);
        positions.push(next);
    }
    let tags: serde_json::Map<String, Value> = input
        .tags
        .iter()
        .map(|(n, v)| (n.clone(), Value::String(v.clone())))
        .collect();
    let plies: Vec<Value> = analysis
        .plies
        .iter()
        .filter_map(|r| {
            Some(ply_json(
                r,
                input.recorded.moves.get(r.ply - 1),
                positions.get(r.ply - 1)?,
                positions.get(r.ply)?,
            ))
        })
        .collect();
    let verdicts: Vec<Value> = analysis
        .verdicts
        .iter()
        .map(|v| verdict_json(v, positions.get(v.line_from)))
        .collect();
    json!({
        "file": input.file,
        "index": input.index,
        "tags": tags,
        "start_fen": Fen::from_position(&input.start, EnPassantMode::Legal).to_string(),
        "moves": input.moves.len(),
        "error": input.error,
        "stopped": analysis.stopped,
        "nodes": analysis.nodes,
        "plies": plies,
        "verdicts": verdicts,
    })
}
