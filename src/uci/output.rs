//! The protocol channel: every line to stdout goes through here, whole and flushed.
//!
//! Diagnostics never go to stdout; they go through `log` to stderr.

use std::io::Write;

/// Writes one protocol line, holding the stdout lock so lines from threads never interleave.
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // A closed stdout (the GUI went away) is not worth a panic; the engine ends at EOF anyway.
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        log::debug!("stdout closed; dropped: {line}");
    }
}

/// Tells the user something (`info string ...`).
pub fn info_string(text: &str) {
    send(&format!("info string {text}"));
}

/// Reports bad input: one `info string error: ...` line and a log line.
pub fn error(text: &str) {
    log::warn!("{text}");
    send(&format!("info string error: {text}"));
}
