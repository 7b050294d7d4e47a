//! The network built into the binary, and whether the engine evaluates with a network when
//! no option says otherwise.
//!
//! The file is chosen at build time (`EVALFILE`, default the repository's best net in `nnue/`:
//! see `build.rs`) and named in [`EMBEDDED_FILE`]; the `EvalFile` option loads another at run
//! time.
//!
//! ```
//! use threefold::eval::nnue::Network;
//! // The embedded network is a valid one (its validation is the loader's).
//! assert!(Network::embedded().hidden() >= 16);
//! ```

use std::sync::{Arc, OnceLock};

use super::network::Network;

/// The embedded network's file as the build named it: relative to the repository root unless
/// `EVALFILE` gave an absolute path (for messages and `eval`).
pub const EMBEDDED_FILE: &str = env!("THREEFOLD_EVALFILE");

/// The embedded network's bytes.
static EMBEDDED_BYTES: &[u8] = include_bytes!(env!("THREEFOLD_EVALFILE_PATH"));

/// Whether the engine evaluates with a network by default (`UseNNUE`'s default). True since
/// net 1 passed SPRT [0, 10] against the hand-written evaluation at 5+0.05 (`nnue/NETS.md`)
/// and, once reverse futility pruning counted material en prise, keeps the seed behaviour
/// suite at 100 ms (it had missed the Lasker-Alekhine perpetual there). The built-in net is
/// the latest that beat the one before in a match and keeps every test: net 12 (256 hidden
/// neurons, 8 output buckets; `nnue/NETS.md`). The hand-written evaluation stays for `UseNNUE
/// false`, limited strength and the tuner.
pub const USE_NNUE_BY_DEFAULT: bool = true;

impl Network {
    /// The network built into the binary, read once.
    pub fn embedded() -> &'static Network {
        static NETWORK: OnceLock<Network> = OnceLock::new();
        NETWORK.get_or_init(|| {
            // The bytes are fixed at compile time and a test loads them: this cannot fail in
            // a binary whose tests passed.
            Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is valid")
        })
    }
}

/// The network the engine evaluates with when no option says otherwise: the embedded one if
/// [`USE_NNUE_BY_DEFAULT`], else none (the hand-written evaluation).
pub fn default_network() -> Option<Arc<Network>> {
    USE_NNUE_BY_DEFAULT.then(|| Arc::new(Network::embedded().clone()))
}
