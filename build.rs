//! Build script: records the git commit the engine is built from (`THREEFOLD_COMMIT`, with
//! `+dirty` when tracked files differ from it, `unknown` outside a git checkout), so datagen can
//! write it into the data manifest; and chooses the network built into the binary: the file
//! the `EVALFILE` environment variable names (`make EVALFILE=net.nnue`, `EVALFILE=net.nnue
//! cargo build --release`), else [`DEFAULT_EVALFILE`]. The loader checks the file when the
//! engine first evaluates with it, and a test loads it.

use std::path::Path;
use std::process::Command;

/// The network built in when `EVALFILE` is not set: the repository's best, relative to its root.
const DEFAULT_EVALFILE: &str = "nnue/net16-h256b8.nnue";

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        println!("cargo:rerun-if-changed={git_dir}/index");
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(path) = git(&["rev-parse", "--git-path", &branch])
    {
        println!("cargo:rerun-if-changed={path}");
    }
    let commit = match git(&["rev-parse", "--short=10", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{hash}+dirty") } else { hash }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=THREEFOLD_COMMIT={commit}");
    embed_network();
}

/// `THREEFOLD_EVALFILE`: the network file as named (for messages), `THREEFOLD_EVALFILE_PATH`:
/// its absolute path (for `include_bytes!`).
fn embed_network() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let named = std::env::var("EVALFILE")
        .ok()
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| DEFAULT_EVALFILE.to_string());
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let path = if Path::new(&named).is_absolute() {
        Path::new(&named).to_path_buf()
    } else {
        Path::new(&root).join(&named)
    };
    if !path.is_file() {
        panic!("EVALFILE: no network file at {}", path.display());
    }
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=THREEFOLD_EVALFILE={named}");
    println!("cargo:rustc-env=THREEFOLD_EVALFILE_PATH={}", path.display());
}
