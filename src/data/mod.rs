//! Training data for the network, as `threefold datagen` writes it and `threefold train`
//! reads it: the floor both stand on.
//!
//! - `format.rs`: the game records (a packed start position and result, then 4 bytes a ply);
//! - `files.rs`: the files of a batch and the files a path names;
//! - `filter.rs`: which positions the trainer learns from.

pub mod files;
pub mod filter;
pub mod format;
