//! The data files: `s<SEED>-t<THREAD>.tfd`, one per game thread of a batch, and the files a
//! path names (a file, or every `.tfd` file of a directory). The batches kept in the
//! repository's tree are stored compressed (`.tfd.xz`, `xz -9`); they are unpacked beside
//! themselves (`xz -dk`) before anything reads them, and a compressed file still packed is an
//! error that says so rather than a batch silently left out.
//!
//! ```
//! use threefold::data::files::file_name;
//! assert_eq!(file_name(27, 3), "s27-t3.tfd");
//! ```

use std::path::{Path, PathBuf};

/// The extension of the data files.
pub const EXTENSION: &str = "tfd";

/// The data file of thread `thread` of batch `seed`.
pub fn file_name(seed: u64, thread: usize) -> String {
    format!("s{seed}-t{thread}.{EXTENSION}")
}

/// The extension of a compressed data file, after [`EXTENSION`].
pub const COMPRESSED: &str = "xz";

/// The data files `path` names: the file itself, or the `.tfd` files of a directory, sorted. A
/// directory without any is an error, as is a path that is neither a file nor a directory,
/// and so is a compressed data file (`.tfd.xz`) without its unpacked `.tfd` beside it.
pub fn data_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
        if is_compressed(path) {
            return Err(still_packed(&[path.to_path_buf()]));
        }
        return Ok(vec![path.to_path_buf()]);
    }
    if !path.is_dir() {
        return Err(format!(
            "{} is neither a file nor a directory",
            path.display()
        ));
    }
    let entries =
        std::fs::read_dir(path).map_err(|e| format!("cannot list {}: {e}", path.display()))?;
    let listed: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    let mut packed: Vec<PathBuf> = listed
        .iter()
        .filter(|p| is_compressed(p) && !p.with_extension("").is_file())
        .cloned()
        .collect();
    if !packed.is_empty() {
        packed.sort();
        return Err(still_packed(&packed));
    }
    let mut files: Vec<PathBuf> = listed
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == EXTENSION))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no .{EXTENSION} data files in {}", path.display()));
    }
    Ok(files)
}

/// Whether `path` is a compressed data file (`*.tfd.xz`).
fn is_compressed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == COMPRESSED)
        && Path::new(path.file_stem().unwrap_or_default())
            .extension()
            .is_some_and(|e| e == EXTENSION)
}

/// The error for compressed data files that are not unpacked.
fn still_packed(files: &[PathBuf]) -> String {
    let first = files
        .first()
        .map_or(String::new(), |f| f.display().to_string());
    format!(
        "{} compressed data file(s) not unpacked, the first {first}: unpack them beside themselves \
         first (`xz -dk FILE.tfd.xz`)",
        files.len()
    )
}

/// The data files of every path, in the order given.
pub fn data_files_of(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        files.extend(data_files(path)?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_directory_and_a_missing_path_are_errors() {
        let dir = std::env::temp_dir().join(format!("tf-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        assert!(data_files(&dir).is_err());
        std::fs::write(dir.join("notes.txt"), "x").expect("written");
        std::fs::write(dir.join(file_name(2, 0)), "").expect("written");
        std::fs::write(dir.join(file_name(1, 0)), "").expect("written");
        let found = data_files(&dir).expect("two files");
        let names: Vec<_> = found.iter().filter_map(|p| p.file_name()).collect();
        assert_eq!(names, ["s1-t0.tfd", "s2-t0.tfd"]);
        assert!(data_files(&dir.join("missing")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_compressed_file_counts_only_once_unpacked() {
        let dir = std::env::temp_dir().join(format!("tf-packed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join(file_name(1, 0)), "").expect("written");
        let packed = dir.join(format!("{}.{COMPRESSED}", file_name(2, 0)));
        std::fs::write(&packed, "").expect("written");
        // Left packed, the batch is not silently skipped.
        let error = data_files(&dir).expect_err("a packed file");
        assert!(
            error.contains("s2-t0.tfd.xz") && error.contains("xz -dk"),
            "{error}"
        );
        assert!(data_files(&packed).is_err());
        // Unpacked beside itself, the .tfd is read and the .xz ignored.
        std::fs::write(dir.join(file_name(2, 0)), "").expect("written");
        let found = data_files(&dir).expect("two files");
        let names: Vec<_> = found.iter().filter_map(|p| p.file_name()).collect();
        assert_eq!(names, ["s1-t0.tfd", "s2-t0.tfd"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
