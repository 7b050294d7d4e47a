//! The stdin reader thread: forwards every line to the engine loop, then end of input.
//!
//! Bytes that are not UTF-8 are read lossily rather than dropped, and a line longer than
//! [`MAX_LINE_BYTES`] is skipped whole (and reported) so a runaway writer cannot exhaust memory.

use std::io::{BufRead, Read};
use std::thread;

use crossbeam_channel::{Receiver, unbounded};

/// The longest line read; a `position` with a 5000-move game is about 25 KB.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// What the reader sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line over the length limit was skipped.
    LineTooLong,
    /// stdin closed.
    End,
}

/// Starts the reader.
pub fn spawn() -> Receiver<Input> {
    let (tx, rx) = unbounded();
    let spawned = thread::Builder::new()
        .name("uci-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            loop {
                let input = match read_line(&mut lock) {
                    Ok(Some(input)) => input,
                    Ok(None) => break,
                    Err(e) => {
                        log::error!("reading stdin failed: {e}");
                        break;
                    }
                };
                if tx.send(input).is_err() {
                    return;
                }
            }
            let _ = tx.send(Input::End);
        });
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
    }
    rx
}

/// Reads one line (None at end of input).
fn read_line(reader: &mut impl BufRead) -> std::io::Result<Option<Input>> {
    let mut buf = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_LINE_BYTES)
        .read_until(b'\n', &mut buf)?;
    if read == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') && read as u64 == MAX_LINE_BYTES {
        skip_rest_of_line(reader)?;
        return Ok(Some(Input::LineTooLong));
    }
    Ok(Some(Input::Line(
        String::from_utf8_lossy(&buf).into_owned(),
    )))
}

/// Discards bytes up to and including the next newline, a buffer at a time.
fn skip_rest_of_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let len = chunk.len();
                reader.consume(len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overlong_line_is_skipped_and_the_next_one_read() {
        let mut text = vec![b'x'; MAX_LINE_BYTES as usize + 10];
        text.extend_from_slice(b"\nisready\n\xff\xfe\n");
        let mut reader = std::io::Cursor::new(text);
        assert_eq!(read_line(&mut reader).ok(), Some(Some(Input::LineTooLong)));
        assert_eq!(
            read_line(&mut reader).ok(),
            Some(Some(Input::Line("isready\n".into())))
        );
        assert_eq!(
            read_line(&mut reader).ok(),
            Some(Some(Input::Line("\u{fffd}\u{fffd}\n".into())))
        );
        assert_eq!(read_line(&mut reader).ok(), Some(None));
    }
}
