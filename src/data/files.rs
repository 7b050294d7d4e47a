//! The data files: `s<SEED>-t<THREAD>.tfd`, one per game thread of a batch, and the files a
//! path names (a file, or every `.tfd` file of a directory).
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

/// The data files `path` names: the file itself, or the `.tfd` files of a directory, sorted. A
/// directory without any is an error, as is a path that is neither a file nor a directory.
pub fn data_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
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
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == EXTENSION))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no .{EXTENSION} data files in {}", path.display()));
    }
    Ok(files)
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
}
