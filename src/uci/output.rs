//! The protocol channel: every line to stdout goes through here, whole and flushed.
//!
//! Diagnostics never go to stdout; they go through `log` to stderr. When stdout is gone (the
//! GUI closed its end of the pipe) nobody can read an answer any more, so the process ends at
//! once with status 0 rather than searching on for no one.

use std::io::{ErrorKind, Write};

/// Writes one protocol line, holding the stdout lock so lines from threads never interleave.
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            log::info!("stdout closed (broken pipe); exiting");
            std::process::exit(0);
        }
        log::warn!("cannot write to stdout ({e}); dropped: {line}");
    }
}

/// The longest `info string` text; longer ones (echoes of long input) are cut.
const MAX_INFO_STRING_CHARS: usize = 2000;

/// Tells the user something (`info string ...`). Control characters (which may come from
/// echoed input) become `?`, so the line stays one printable protocol line.
pub fn info_string(text: &str) {
    let mut clean: String = text
        .chars()
        .take(MAX_INFO_STRING_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(MAX_INFO_STRING_CHARS).is_some() {
        clean.push_str("...");
    }
    send(&format!("info string {clean}"));
}

/// Reports bad input: one `info string error: ...` line and a log line.
pub fn error(text: &str) {
    log::warn!("{text}");
    info_string(&format!("error: {text}"));
}
