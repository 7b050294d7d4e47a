//! The data manifest (`nnue/DATA.md`) read back, and `threefold datagen --verify DIR`: do the
//! `.tfd` files of a directory hold exactly what the manifest says?
//!
//! The manifest is Markdown written for people; two kinds of its lines are read here:
//!
//! - a **batch row**, a table row whose third cell names the batch's files
//!   (`| date | made on | s27-t0..t1 | ... | games | positions | W/D/L |`): the seed is the
//!   cell's first word up to `-`, and the last three cells are the batch's counts;
//! - a **checksum line**, as `sha256sum` writes it: 64 hex digits, two spaces, a file name
//!   (`s27-t0.tfd`). `sha256sum -c` reads the same lines.
//!
//! A directory verifies when every data file in it has a checksum line and matches it, every
//! batch it holds files of is whole (all the files the checksums list for that seed) and reads
//! back to its row's games, positions and W/D/L, and no file ends in a partial record.
//!
//! ```
//! use threefold::datagen::manifest::Manifest;
//! let text = "| 2026-11-27 | 2 cores | s27-t0..t1 | 5000 | random | abc | 3 | 400 | 1/1/1 |\n\
//!             ```text\n\
//!             0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  s27-t0.tfd\n\
//!             ```\n";
//! let manifest = Manifest::parse(text);
//! assert_eq!(manifest.row(27).map(|r| r.positions), Some(400));
//! assert_eq!(manifest.files_of(27), ["s27-t0.tfd"]);
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::generator::Tally;
use super::stats;
use crate::data::files::{EXTENSION, data_files};

/// One batch's row: what its files must add up to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchRow {
    pub seed: u64,
    pub games: u64,
    pub positions: u64,
    /// White wins / draws / Black wins, as [`Tally::wdl`] writes them.
    pub wdl: String,
}

/// The batch rows and checksum lines of a manifest.
#[derive(Debug, Clone, Default)]
pub struct Manifest {
    rows: BTreeMap<u64, BatchRow>,
    /// File name -> sha256 (lowercase hex).
    checksums: BTreeMap<String, String>,
}

impl Manifest {
    /// Reads the rows and checksum lines of a manifest's text; other lines are prose.
    pub fn parse(text: &str) -> Manifest {
        let mut manifest = Manifest::default();
        for line in text.lines().map(str::trim) {
            if let Some(row) = batch_row(line) {
                manifest.rows.insert(row.seed, row);
            } else if let Some((sum, name)) = checksum_line(line) {
                manifest.checksums.insert(name.to_string(), sum.to_string());
            }
        }
        manifest
    }

    /// Reads the manifest file at `path`.
    pub fn load(path: &Path) -> Result<Manifest, String> {
        std::fs::read_to_string(path)
            .map(|text| Manifest::parse(&text))
            .map_err(|e| format!("cannot read the manifest {}: {e}", path.display()))
    }

    /// The row of batch `seed`.
    pub fn row(&self, seed: u64) -> Option<&BatchRow> {
        self.rows.get(&seed)
    }

    /// The file names the checksums list for batch `seed`, sorted.
    pub fn files_of(&self, seed: u64) -> Vec<&str> {
        self.checksums
            .keys()
            .filter(|name| seed_of(name) == Some(seed))
            .map(String::as_str)
            .collect()
    }
}

/// A table row whose third cell starts with `s<SEED>-` and whose last three cells are games,
/// positions and W/D/L.
fn batch_row(line: &str) -> Option<BatchRow> {
    let cells: Vec<&str> = line
        .strip_prefix('|')?
        .strip_suffix('|')?
        .split('|')
        .map(str::trim)
        .collect();
    let [.., games, positions, wdl] = cells.as_slice() else {
        return None;
    };
    let seed = seed_of(cells.get(2)?)?;
    Some(BatchRow {
        seed,
        games: games.parse().ok()?,
        positions: positions.parse().ok()?,
        wdl: wdl.to_string(),
    })
}

/// `<64 hex digits>  <name>.tfd`.
fn checksum_line(line: &str) -> Option<(&str, &str)> {
    let (sum, name) = line.split_once("  ")?;
    let hex = sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit());
    let data = name.ends_with(&format!(".{EXTENSION}")) && !name.contains('/');
    (hex && data).then_some((sum, name))
}

/// The seed of a batch file name or files cell: `s27-t0.tfd` and `s27-t0..t1` are batch 27.
fn seed_of(name: &str) -> Option<u64> {
    name.strip_prefix('s')?.split('-').next()?.parse().ok()
}

/// The sha256 of a file, as lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, String> {
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = file
            .read(&mut buffer)
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        }))
}

/// The checksum lines of the files of `dir` (as `sha256sum` writes them), for the manifest.
pub fn checksum_lines(dir: &Path) -> Result<String, String> {
    let mut lines = String::new();
    for file in data_files(dir)? {
        let name = file_name(&file);
        let _ = writeln!(lines, "{}  {name}", sha256_file(&file)?);
    }
    Ok(lines)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// What `--verify` found: a line per batch checked, and every problem.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    /// `s27: 2 files, 3 games, 400 positions, W/D/L 1/1/1, as the manifest says`.
    pub batches: Vec<String>,
    pub problems: Vec<String>,
}

/// Checks the data files of `dir` against the manifest (see the module documentation).
pub fn verify(manifest: &Manifest, dir: &Path) -> Result<Verification, String> {
    let files = data_files(dir)?;
    let mut found = Verification::default();
    let mut by_seed: BTreeMap<u64, Vec<&Path>> = BTreeMap::new();
    for file in &files {
        let name = file_name(file);
        match manifest.checksums.get(&name) {
            None => found
                .problems
                .push(format!("{name}: no checksum line in the manifest")),
            Some(expected) if *expected != sha256_file(file)? => found
                .problems
                .push(format!("{name}: sha256 differs from the manifest's")),
            Some(_) => {}
        }
        match seed_of(&name) {
            Some(seed) => by_seed.entry(seed).or_default().push(file),
            None => found
                .problems
                .push(format!("{name}: not named s<SEED>-t<THREAD>.tfd")),
        }
    }
    for (seed, files) in by_seed {
        let here: Vec<String> = files.iter().map(|f| file_name(f)).collect();
        for listed in manifest.files_of(seed) {
            if !here.iter().any(|h| h == listed) {
                found.problems.push(format!(
                    "s{seed}: {listed} is missing from {}",
                    dir.display()
                ));
            }
        }
        let mut tally = Tally::default();
        for file in &files {
            let read = stats::collect(file)?;
            found.problems.extend(read.problems);
            tally.merge(&read.tally);
        }
        let counts = format!(
            "{} games, {} positions, W/D/L {}",
            tally.games,
            tally.positions,
            tally.wdl()
        );
        match manifest.row(seed) {
            None => found.problems.push(format!("s{seed}: no row in the manifest")),
            Some(row)
                if (row.games, row.positions, row.wdl.as_str())
                    != (tally.games, tally.positions, tally.wdl().as_str()) =>
            {
                found.problems.push(format!(
                    "s{seed}: the files hold {counts}; the row says {} games, {} positions, W/D/L {}",
                    row.games, row.positions, row.wdl
                ))
            }
            Some(_) => found.batches.push(format!(
                "s{seed}: {} files, {counts}, as the manifest says",
                files.len()
            )),
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_checksums_are_told_from_prose() {
        let text = "\
| date | made on | files | nodes | openings | commit | games | positions | W/D/L |
|---|---|---|---|---|---|---|---|---|
| 2026-11-25 | 2 cores | s8-t0 (6218 games), s8-t1 (6225) | 5000 | random | cdc6fbc | 12443 | 1757007 | 3814/4569/4060 |
| 2026-11-24 | 2 cores | s3-t0 | 5000 | random | 94ffb17 | 6253 | 909407 | 32.0% / 34.6% / 33.3% |
- s8: files archived (sha256 `294dd8c2...` s8-t0).
9f0e07fe5bf8af8e641f3631ecc35834a6f54a4275e46a70c9c42002fa80bdb5  s8-t0.tfd
9f0e07fe5bf8af8e641f3631ecc35834a6f54a4275e46a70c9c42002fa80bdb  s8-t1.tfd
b4582a8a21d73e92b009ec462cf34b7a22d23f382bc78e4eb6898e3b4cf574f4  notes.txt
";
        let manifest = Manifest::parse(text);
        let row = manifest.row(8).expect("s8's row");
        assert_eq!((row.games, row.positions), (12443, 1757007));
        assert_eq!(row.wdl, "3814/4569/4060");
        // The header row has no counts; s3's is kept as written (it is never matched by files).
        assert_eq!(manifest.rows.len(), 2);
        // A short sum and a file that is not data are not checksum lines.
        assert_eq!(manifest.files_of(8), ["s8-t0.tfd"]);
        assert!(manifest.files_of(3).is_empty());
    }

    #[test]
    fn seeds_come_from_names_and_cells() {
        assert_eq!(seed_of("s27-t15.tfd"), Some(27));
        assert_eq!(seed_of("s14-t0..t15 (482-513 games each)"), Some(14));
        assert_eq!(seed_of("files"), None);
        assert_eq!(seed_of("sx-t0.tfd"), None);
    }
}
