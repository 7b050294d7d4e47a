//! The engine's UCI options: how they are announced and how `setoption` values are checked.

use shakmaty::CastlingMode;
use vampirc_uci::UciOptionConfig;

use crate::search::strength::{self, Strength};

/// Current option values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub hash_mib: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    /// Centipawns a draw costs the engine's side (negative: the engine likes draws).
    pub contempt: i32,
    /// While a GUI analyses (rather than plays), contempt is off.
    pub analyse_mode: bool,
    /// Chess960 castling: FENs with any castling rook, castling written king takes rook.
    pub chess960: bool,
    /// How many best lines to search and report.
    pub multi_pv: usize,
    /// `info ... wdl W D L` with every score.
    pub show_wdl: bool,
    /// Directories of Syzygy tables, separated by `:` (empty: none).
    pub syzygy_path: String,
    /// See `search::Settings::syzygy_probe_depth`.
    pub syzygy_probe_depth: i32,
    /// Play at `elo` rather than full strength.
    pub limit_strength: bool,
    /// The strength `UCI_LimitStrength` plays at.
    pub elo: u32,
}

impl Options {
    /// The contempt in force: none while analysing.
    pub fn effective_contempt(&self) -> i32 {
        if self.analyse_mode { 0 } else { self.contempt }
    }

    /// The strength to play at, None for full strength.
    pub fn strength(&self) -> Option<Strength> {
        self.limit_strength.then(|| Strength::new(self.elo))
    }

    /// The castling mode positions are set up and moves written in.
    pub fn castling_mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mib: 16,
            threads: 1,
            move_overhead_ms: 10,
            ponder: false,
            contempt: 0,
            analyse_mode: false,
            chess960: false,
            multi_pv: 1,
            show_wdl: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            limit_strength: false,
            elo: strength::MIN_ELO,
        }
    }
}

pub const HASH_MAX_MIB: i64 = 65_536;
pub const THREADS_MAX: i64 = 1024;
pub const MOVE_OVERHEAD_MAX: i64 = 5000;
pub const CONTEMPT_LIMIT: i64 = 1000;
pub const MULTI_PV_MAX: i64 = 256;
pub const SYZYGY_PROBE_DEPTH_MAX: i64 = 100;
/// What GUIs show for an empty string option (the UCI convention).
pub const EMPTY: &str = "<empty>";

/// A valid `setoption`, ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    Threads(usize),
    MoveOverhead(u64),
    ClearHash,
    Ponder(bool),
    Contempt(i32),
    AnalyseMode(bool),
    Chess960(bool),
    MultiPv(usize),
    ShowWdl(bool),
    /// The new `SyzygyPath`, empty for none.
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    LimitStrength(bool),
    /// The Elo asked for, and whether it was moved into range.
    Elo {
        elo: u32,
        clamped: bool,
    },
}

/// The `option ...` lines of the `uci` answer.
pub fn announce(defaults: &Options) -> Vec<UciOptionConfig> {
    vec![
        UciOptionConfig::Spin {
            name: "Hash".into(),
            default: Some(defaults.hash_mib as i64),
            min: Some(1),
            max: Some(HASH_MAX_MIB),
        },
        UciOptionConfig::Spin {
            name: "Threads".into(),
            default: Some(defaults.threads as i64),
            min: Some(1),
            max: Some(THREADS_MAX),
        },
        UciOptionConfig::Spin {
            name: "Move Overhead".into(),
            default: Some(defaults.move_overhead_ms as i64),
            min: Some(0),
            max: Some(MOVE_OVERHEAD_MAX),
        },
        UciOptionConfig::Button {
            name: "Clear Hash".into(),
        },
        UciOptionConfig::Check {
            name: "Ponder".into(),
            default: Some(defaults.ponder),
        },
        UciOptionConfig::Spin {
            name: "Contempt".into(),
            default: Some(defaults.contempt as i64),
            min: Some(-CONTEMPT_LIMIT),
            max: Some(CONTEMPT_LIMIT),
        },
        UciOptionConfig::Check {
            name: "UCI_AnalyseMode".into(),
            default: Some(defaults.analyse_mode),
        },
        UciOptionConfig::Check {
            name: "UCI_Chess960".into(),
            default: Some(defaults.chess960),
        },
        UciOptionConfig::Spin {
            name: "MultiPV".into(),
            default: Some(defaults.multi_pv as i64),
            min: Some(1),
            max: Some(MULTI_PV_MAX),
        },
        UciOptionConfig::Check {
            name: "UCI_ShowWDL".into(),
            default: Some(defaults.show_wdl),
        },
        UciOptionConfig::String {
            name: "SyzygyPath".into(),
            default: Some(EMPTY.into()),
        },
        UciOptionConfig::Spin {
            name: "SyzygyProbeDepth".into(),
            default: Some(defaults.syzygy_probe_depth as i64),
            min: Some(1),
            max: Some(SYZYGY_PROBE_DEPTH_MAX),
        },
        UciOptionConfig::Check {
            name: "UCI_LimitStrength".into(),
            default: Some(defaults.limit_strength),
        },
        UciOptionConfig::Spin {
            name: "UCI_Elo".into(),
            default: Some(i64::from(defaults.elo)),
            min: Some(i64::from(strength::MIN_ELO)),
            max: Some(i64::from(strength::MAX_ELO)),
        },
    ]
}

/// Checks a `setoption`; the error says what is wrong and what is kept.
pub fn parse_change(name: &str, value: Option<&str>, current: &Options) -> Result<Change, String> {
    let is = |n: &str| name.eq_ignore_ascii_case(n);
    if is("Hash") {
        spin(name, value, 1, HASH_MAX_MIB, current.hash_mib as i64)
            .map(|v| Change::Hash(v as usize))
    } else if is("Threads") {
        spin(name, value, 1, THREADS_MAX, current.threads as i64)
            .map(|v| Change::Threads(v as usize))
    } else if is("Move Overhead") {
        spin(
            name,
            value,
            0,
            MOVE_OVERHEAD_MAX,
            current.move_overhead_ms as i64,
        )
        .map(|v| Change::MoveOverhead(v as u64))
    } else if is("Clear Hash") {
        Ok(Change::ClearHash)
    } else if is("Ponder") {
        check(name, value, current.ponder).map(Change::Ponder)
    } else if is("Contempt") {
        spin(
            name,
            value,
            -CONTEMPT_LIMIT,
            CONTEMPT_LIMIT,
            current.contempt as i64,
        )
        .map(|v| Change::Contempt(v as i32))
    } else if is("UCI_AnalyseMode") {
        check(name, value, current.analyse_mode).map(Change::AnalyseMode)
    } else if is("UCI_Chess960") {
        check(name, value, current.chess960).map(Change::Chess960)
    } else if is("UCI_ShowWDL") {
        check(name, value, current.show_wdl).map(Change::ShowWdl)
    } else if is("SyzygyPath") {
        let path = value.unwrap_or("").trim();
        Ok(Change::SyzygyPath(if path == EMPTY {
            String::new()
        } else {
            path.to_owned()
        }))
    } else if is("SyzygyProbeDepth") {
        spin(
            name,
            value,
            1,
            SYZYGY_PROBE_DEPTH_MAX,
            current.syzygy_probe_depth as i64,
        )
        .map(|v| Change::SyzygyProbeDepth(v as i32))
    } else if is("UCI_LimitStrength") {
        check(name, value, current.limit_strength).map(Change::LimitStrength)
    } else if is("UCI_Elo") {
        elo(name, value, current.elo)
    } else if is("MultiPV") {
        spin(name, value, 1, MULTI_PV_MAX, current.multi_pv as i64)
            .map(|v| Change::MultiPv(v as usize))
    } else {
        Err(format!(
            "unknown option '{name}' (the 'uci' command lists the options)"
        ))
    }
}

fn spin(name: &str, value: Option<&str>, min: i64, max: i64, keep: i64) -> Result<i64, String> {
    let text = value.unwrap_or("");
    match text.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(_) | Err(_) if text.is_empty() => Err(format!(
            "option '{name}' needs a value from {min} to {max}; keeping {keep}"
        )),
        _ => Err(format!(
            "option '{name}' must be an integer from {min} to {max}, got '{text}'; keeping {keep}"
        )),
    }
}

/// `UCI_Elo`: any integer is taken, moved into the offered range (GUIs often offer wider ones).
fn elo(name: &str, value: Option<&str>, keep: u32) -> Result<Change, String> {
    let (min, max) = (strength::MIN_ELO, strength::MAX_ELO);
    let text = value.unwrap_or("");
    match text.parse::<i64>() {
        Ok(asked) => {
            let elo = asked.clamp(i64::from(min), i64::from(max)) as u32;
            Ok(Change::Elo {
                elo,
                clamped: i64::from(elo) != asked,
            })
        }
        Err(_) => Err(format!(
            "option '{name}' must be an integer from {min} to {max}, got '{text}'; keeping {keep}"
        )),
    }
}

fn check(name: &str, value: Option<&str>, keep: bool) -> Result<bool, String> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!(
            "option '{name}' must be true or false, got '{}'; keeping {keep}",
            value.unwrap_or("")
        )),
    }
}
