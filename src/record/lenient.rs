//! Movetext as old scoresheets and some programs write it, made readable for `pgn-reader`,
//! whose move parser is strict: a promotion without `=` (`e8Q`, `exd8n+`) gains the `=`, a
//! move written from square to square with a hyphen (`Ng1-f3`, `e2-e4`) loses the hyphen, and
//! an en passant capture loses the old suffix joined to it (`exd6e.p.`, `exd6ep`; a separate
//! `e.p.` word goes too). python-chess reads all of them; `pgn-reader` would otherwise skip such
//! a word without a word, and the next move would be read as the other side's.
//!
//! Tag lines, `%` escape lines, `{...}` and `;` comments pass through untouched, and so does
//! every other word.
//!
//! ```
//! use std::io::Read;
//! use threefold::record::lenient::Lenient;
//! let mut text = String::new();
//! Lenient::new("[Event \"e8Q\"]\n1. e2-e4 {e8Q} e5 2. Ng1-f3 ; f8Q\n".as_bytes())
//!     .read_to_string(&mut text)
//!     .unwrap();
//! assert_eq!(text, "[Event \"e8Q\"]\n1. e2e4 {e8Q} e5 2. Ng1f3 ; f8Q\n");
//! let mut text = String::new();
//! Lenient::new("5. exd6e.p. Qxd6 6. cxb6ep+ e.p.\n".as_bytes())
//!     .read_to_string(&mut text)
//!     .unwrap();
//! assert_eq!(text, "5. exd6 Qxd6 6. cxb6+ \n");
//! ```

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

/// A reader that rewrites the movetext of the PGN it reads, line by line (see the module).
pub struct Lenient<R: Read> {
    inner: BufReader<R>,
    line: Vec<u8>,
    served: usize,
    /// Inside a `{...}` comment that began on an earlier line.
    in_comment: bool,
    /// Raised at the first NUL byte (shared with whoever reads through this reader).
    binary: Rc<Cell<bool>>,
}

impl<R: Read> Lenient<R> {
    pub fn new(input: R) -> Lenient<R> {
        Lenient {
            inner: BufReader::new(input),
            line: Vec::new(),
            served: 0,
            in_comment: false,
            binary: Rc::new(Cell::new(false)),
        }
    }

    /// A flag that turns true once a NUL byte is read: binary data, not a text record.
    pub fn binary_flag(&self) -> Rc<Cell<bool>> {
        Rc::clone(&self.binary)
    }
}

impl<R: Read> Read for Lenient<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.served == self.line.len() {
            let mut raw = Vec::new();
            if self.inner.read_until(b'\n', &mut raw)? == 0 {
                return Ok(0);
            }
            if raw.contains(&0) {
                self.binary.set(true);
            }
            self.line = rewrite_line(&raw, &mut self.in_comment);
            self.served = 0;
        }
        let n = out.len().min(self.line.len() - self.served);
        out[..n].copy_from_slice(&self.line[self.served..self.served + n]);
        self.served += n;
        Ok(n)
    }
}

/// Bytes that end a word of movetext.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || b"{}();[]".contains(&b)
}

/// One line rewritten; `in_comment` carries a `{` comment across lines.
fn rewrite_line(raw: &[u8], in_comment: &mut bool) -> Vec<u8> {
    let first = raw.iter().position(|b| !b.is_ascii_whitespace());
    if !*in_comment && first.is_some_and(|i| raw[i] == b'[' || (i == 0 && raw[0] == b'%')) {
        return raw.to_vec();
    }
    let mut out = Vec::with_capacity(raw.len() + 4);
    let mut i = 0;
    while i < raw.len() {
        if *in_comment {
            if raw[i] == b'}' {
                *in_comment = false;
            }
            out.push(raw[i]);
            i += 1;
            continue;
        }
        match raw[i] {
            b'{' => {
                *in_comment = true;
                out.push(b'{');
                i += 1;
            }
            b';' => {
                out.extend_from_slice(&raw[i..]);
                break;
            }
            b if is_delimiter(b) => {
                out.push(b);
                i += 1;
            }
            _ => {
                let end = raw[i..]
                    .iter()
                    .position(|&b| is_delimiter(b))
                    .map_or(raw.len(), |n| i + n);
                out.extend_from_slice(&rewrite_word(&raw[i..end]));
                i = end;
            }
        }
    }
    out
}

/// A word of movetext, with a move number in front (`12.`, `12...`) kept as it is.
fn rewrite_word(word: &[u8]) -> Vec<u8> {
    let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = word[digits..].iter().take_while(|&&b| b == b'.').count();
    let split = if digits > 0 && dots > 0 {
        digits + dots
    } else {
        0
    };
    let (number, san) = word.split_at(split);
    let mut out = number.to_vec();
    out.extend_from_slice(&rewrite_san(san));
    out
}

/// A pawn capture onto the sixth or third rank (`exd6`, `cxb3`), the part before any `+#!?`,
/// split from an en passant mark joined to it; a check mark written before the mark
/// (`exd6+e.p.`) joins the marks after it: (`exd6`, `+`) for `exd6ep+` and `exd6+ep`. Any
/// other word: as it is.
fn split_en_passant_mark(core: &[u8], suffix: &[u8]) -> (Vec<u8>, Vec<u8>) {
    for mark in EN_PASSANT_MARKS {
        let Some(before) = core.strip_suffix(mark) else {
            continue;
        };
        let checks = before
            .iter()
            .rev()
            .take_while(|b| b"+#".contains(b))
            .count();
        let (capture, check) = before.split_at(before.len() - checks);
        if let [from, b'x', to_file, to_rank] = *capture
            && is_file(from)
            && is_file(to_file)
            && matches!(to_rank, b'3' | b'6')
        {
            return (capture.to_vec(), [check, suffix].concat());
        }
    }
    (core.to_vec(), suffix.to_vec())
}

fn is_file(b: u8) -> bool {
    (b'a'..=b'h').contains(&b)
}

fn is_rank(b: u8) -> bool {
    (b'1'..=b'8').contains(&b)
}

/// The old en passant mark, as a word of its own or joined to the capture.
const EN_PASSANT_MARKS: [&[u8]; 2] = [b"e.p.", b"ep"];

/// `Ng1-f3` -> `Ng1f3`, `e8Q` -> `e8=Q`, `exd6e.p.` -> `exd6`, `e.p.` -> nothing; any other
/// word unchanged.
fn rewrite_san(san: &[u8]) -> Vec<u8> {
    if san == b"e.p." {
        return Vec::new();
    }
    let core_len = san.len() - san.iter().rev().take_while(|b| b"+#!?".contains(b)).count();
    let (mut core, suffix) = split_en_passant_mark(&san[..core_len], &san[core_len..]);
    // A hyphen between two squares.
    if let Some(h) = core.iter().position(|&b| b == b'-')
        && h >= 2
        && core.len() >= h + 3
        && is_file(core[h - 2])
        && is_rank(core[h - 1])
        && is_file(core[h + 1])
        && is_rank(core[h + 2])
    {
        core.remove(h);
    }
    // A pawn move to the last rank followed by a piece letter, without `=`.
    let n = core.len();
    if n >= 3
        && is_file(core[0])
        && !core.contains(&b'=')
        && is_file(core[n - 3])
        && matches!(core[n - 2], b'1' | b'8')
        && b"QRBNqrbn".contains(&core[n - 1])
    {
        core.insert(n - 1, b'=');
    }
    core.extend_from_slice(&suffix);
    core
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str) -> String {
        String::from_utf8(rewrite_word(text.as_bytes())).expect("ascii")
    }

    #[test]
    fn promotions_gain_their_equals_sign() {
        assert_eq!(word("e8Q"), "e8=Q");
        assert_eq!(word("exd8n+"), "exd8=n+");
        assert_eq!(word("31.b1B#"), "31.b1=B#");
        assert_eq!(word("e8=Q"), "e8=Q");
        // Not pawn moves to the last rank: unchanged.
        assert_eq!(word("Qe8"), "Qe8");
        assert_eq!(word("Nb8"), "Nb8");
        assert_eq!(word("e4"), "e4");
        assert_eq!(word("1-0"), "1-0");
    }

    #[test]
    fn hyphens_between_squares_go() {
        assert_eq!(word("e2-e4"), "e2e4");
        assert_eq!(word("Ng1-f3+"), "Ng1f3+");
        assert_eq!(word("12...Nb8-c6"), "12...Nb8c6");
        assert_eq!(word("e7-e8Q"), "e7e8=Q");
        for same in ["O-O", "O-O-O", "0-0", "1/2-1/2", "0-1", "--", "1-0"] {
            assert_eq!(word(same), same);
        }
    }

    #[test]
    fn en_passant_marks_go() {
        assert_eq!(word("exd6e.p."), "exd6");
        assert_eq!(word("exd6ep"), "exd6");
        assert_eq!(word("12.cxb3e.p.+"), "12.cxb3+");
        assert_eq!(word("fxg6ep#"), "fxg6#");
        assert_eq!(word("exd6+e.p."), "exd6+");
        assert_eq!(word("e.p."), "");
        // Not a pawn capture onto the en passant ranks: unchanged.
        for same in ["exd5ep", "Nxd6ep", "d6ep", "exd6", "Rep", "ep"] {
            assert_eq!(word(same), same);
        }
    }

    #[test]
    fn comments_span_lines_untouched() {
        let mut inside = false;
        let first = rewrite_line(b"1. e8Q {a long e8Q\n", &mut inside);
        assert_eq!(first, b"1. e8=Q {a long e8Q\n");
        assert!(inside);
        let second = rewrite_line(b"comment} e2-e4\n", &mut inside);
        assert_eq!(second, b"comment} e2e4\n");
        assert!(!inside);
    }
}
