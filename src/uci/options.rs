//! The engine's UCI options, declared once: the table [`OPTIONS`] gives each option's name,
//! kind, range and the field of [`Options`] it sets. The `uci` announcement ([`announce`]) and
//! `setoption` ([`parse_change`], [`Change::apply`]) are both driven by it, the defaults come
//! from [`Options::default`] (whose search part is [`Settings::default`]), and
//! [`Options::settings`] is the one conversion that gives the search its settings.
//!
//! Adding an option: a field in [`Options`] (and its default), a row in [`OPTIONS`], and, if the
//! search reads it, a line in [`Options::settings`].
//!
//! A tuning build (`--features tune`) has one more spin option for each tunable search number,
//! declared where the number is (`search::params`), and set there ([`Kind::Param`]).

use shakmaty::CastlingMode;
use vampirc_uci::UciOptionConfig;

use crate::eval::nnue::USE_NNUE_BY_DEFAULT;
use crate::search::Settings;
use crate::search::params::{self, TUNABLES};
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
    /// See `search::Settings::syzygy_probe_limit`.
    pub syzygy_probe_limit: usize,
    /// Play at `elo` rather than full strength.
    pub limit_strength: bool,
    /// The strength `UCI_LimitStrength` plays at.
    pub elo: u32,
    /// Evaluate with the network (`EvalFile`) rather than the hand-written evaluation.
    pub use_nnue: bool,
    /// The network file to evaluate with (empty: the one built into the binary).
    pub eval_file: String,
}

impl Options {
    /// The contempt in force: none while analysing.
    pub fn effective_contempt(&self) -> i32 {
        if self.analyse_mode { 0 } else { self.contempt }
    }

    /// The strength to play at, None for full strength (the limit off, or `UCI_Elo` at the
    /// top of its range).
    pub fn strength(&self) -> Option<Strength> {
        self.limit_strength
            .then(|| Strength::at(self.elo))
            .flatten()
    }

    /// The castling mode positions are set up and moves written in.
    pub fn castling_mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// What the search reads of the options (the one conversion from one to the other).
    pub fn settings(&self) -> Settings {
        Settings {
            move_overhead_ms: self.move_overhead_ms,
            contempt: self.effective_contempt(),
            threads: self.threads,
            multi_pv: self.multi_pv,
            syzygy_probe_depth: self.syzygy_probe_depth,
            syzygy_probe_limit: self.syzygy_probe_limit,
            strength: self.strength(),
        }
    }
}

impl Default for Options {
    /// The search's own defaults ([`Settings::default`]) and the front end's.
    fn default() -> Self {
        let search = Settings::default();
        Options {
            hash_mib: 16,
            threads: search.threads,
            move_overhead_ms: search.move_overhead_ms,
            ponder: false,
            contempt: search.contempt,
            analyse_mode: false,
            chess960: false,
            multi_pv: search.multi_pv,
            show_wdl: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: search.syzygy_probe_depth,
            syzygy_probe_limit: search.syzygy_probe_limit,
            limit_strength: search.strength.is_some(),
            elo: search.strength.map_or(strength::MIN_ELO, Strength::elo),
            use_nnue: USE_NNUE_BY_DEFAULT,
            eval_file: String::new(),
        }
    }
}

/// What GUIs show for an empty string option (the UCI convention).
pub const EMPTY: &str = "<empty>";

/// The value an option takes, and the field of [`Options`] that holds it.
#[derive(Clone, Copy)]
pub enum Kind {
    /// An integer in `min..=max`. With `clamp`, any integer is taken and moved into the range
    /// (GUIs often offer wider ones); otherwise a value outside it is refused.
    Spin {
        min: i64,
        max: i64,
        clamp: bool,
        get: fn(&Options) -> i64,
        set: fn(&mut Options, i64),
    },
    /// `true` or `false`.
    Check {
        get: fn(&Options) -> bool,
        set: fn(&mut Options, bool),
    },
    /// Any text; [`EMPTY`] stands for the empty string.
    Text {
        get: fn(&Options) -> &str,
        set: fn(&mut Options, String),
    },
    /// No value: pressing it acts (see [`Effect`]).
    Button,
    /// A tunable search number of a tuning build: an integer in its range, held in
    /// `params::VALUES` at `index` (the row of `params::TUNABLES`), not in [`Options`].
    Param { index: usize },
}

/// When and on what a change acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Written into [`Options`] at once; the next search reads it.
    Setting,
    /// Resizes the hash table (which a running search holds: applied when it ends).
    ResizeHash,
    /// Clears the hash and move-ordering tables (when no search runs).
    ClearHash,
    /// Loads the Syzygy tables (when no search runs).
    LoadTables,
    /// Chooses the evaluation, loading the network if it is one, and clears the hash table
    /// (which holds the other evaluation's scores); when no search runs.
    ChooseEvaluation,
}

/// One UCI option: its name, its kind, and what changing it does.
pub struct Descriptor {
    pub name: &'static str,
    pub kind: Kind,
    pub effect: Effect,
    /// A remark to show with a valid new value, if any (such as more threads than cores).
    pub remark: Option<fn(&Options) -> Option<String>>,
}

/// Every option, in the order `uci` announces them.
pub static OPTIONS: [Descriptor; 17] = [
    Descriptor {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: 65_536,
            clamp: false,
            get: |o| o.hash_mib as i64,
            set: |o, v| o.hash_mib = v as usize,
        },
        effect: Effect::ResizeHash,
        remark: None,
    },
    Descriptor {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: 1024,
            clamp: false,
            get: |o| o.threads as i64,
            set: |o, v| o.threads = v as usize,
        },
        effect: Effect::Setting,
        remark: Some(more_threads_than_cores),
    },
    Descriptor {
        name: "Move Overhead",
        kind: Kind::Spin {
            min: 0,
            max: 5000,
            clamp: false,
            get: |o| o.move_overhead_ms as i64,
            set: |o, v| o.move_overhead_ms = v as u64,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "Clear Hash",
        kind: Kind::Button,
        effect: Effect::ClearHash,
        remark: None,
    },
    Descriptor {
        name: "Ponder",
        kind: Kind::Check {
            get: |o| o.ponder,
            set: |o, v| o.ponder = v,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "Contempt",
        kind: Kind::Spin {
            min: -1000,
            max: 1000,
            clamp: false,
            get: |o| i64::from(o.contempt),
            set: |o, v| o.contempt = v as i32,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "UCI_AnalyseMode",
        kind: Kind::Check {
            get: |o| o.analyse_mode,
            set: |o, v| o.analyse_mode = v,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "UCI_Chess960",
        kind: Kind::Check {
            get: |o| o.chess960,
            set: |o, v| o.chess960 = v,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: 256,
            clamp: false,
            get: |o| o.multi_pv as i64,
            set: |o, v| o.multi_pv = v as usize,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "UCI_ShowWDL",
        kind: Kind::Check {
            get: |o| o.show_wdl,
            set: |o, v| o.show_wdl = v,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "SyzygyPath",
        kind: Kind::Text {
            get: |o| &o.syzygy_path,
            set: |o, v| o.syzygy_path = v,
        },
        effect: Effect::LoadTables,
        remark: None,
    },
    Descriptor {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            min: 1,
            max: 100,
            clamp: false,
            get: |o| i64::from(o.syzygy_probe_depth),
            set: |o, v| o.syzygy_probe_depth = v as i32,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            min: 0,
            max: 7,
            clamp: false,
            get: |o| o.syzygy_probe_limit as i64,
            set: |o, v| o.syzygy_probe_limit = v as usize,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "UCI_LimitStrength",
        kind: Kind::Check {
            get: |o| o.limit_strength,
            set: |o, v| o.limit_strength = v,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: strength::MIN_ELO as i64,
            max: strength::MAX_ELO as i64,
            clamp: true,
            get: |o| i64::from(o.elo),
            set: |o, v| o.elo = v as u32,
        },
        effect: Effect::Setting,
        remark: None,
    },
    Descriptor {
        name: "UseNNUE",
        kind: Kind::Check {
            get: |o| o.use_nnue,
            set: |o, v| o.use_nnue = v,
        },
        effect: Effect::ChooseEvaluation,
        remark: None,
    },
    Descriptor {
        name: "EvalFile",
        kind: Kind::Text {
            get: |o| &o.eval_file,
            set: |o, v| o.eval_file = v,
        },
        effect: Effect::ChooseEvaluation,
        remark: None,
    },
];

/// The remark on `Threads`: more threads than cores share them.
fn more_threads_than_cores(options: &Options) -> Option<String> {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    (options.threads > cores).then(|| {
        format!(
            "Threads {} is more than the {cores} cores here; searches will share them",
            options.threads
        )
    })
}

/// The options of a tuning build's search numbers, in the order of `params::TUNABLES` (none in
/// a normal build).
pub fn param_options() -> &'static [Descriptor] {
    static PARAMS: std::sync::LazyLock<Vec<Descriptor>> = std::sync::LazyLock::new(|| {
        (0..TUNABLES.len())
            .map(|index| Descriptor {
                name: TUNABLES[index].name,
                kind: Kind::Param { index },
                effect: Effect::Setting,
                remark: None,
            })
            .collect()
    });
    if params::TUNING { &PARAMS } else { &[] }
}

/// Every option of this build: [`OPTIONS`], then [`param_options`].
pub fn all() -> impl Iterator<Item = &'static Descriptor> {
    OPTIONS.iter().chain(param_options())
}

/// The option called `name` (UCI names are case-insensitive).
pub fn find(name: &str) -> Option<&'static Descriptor> {
    all().find(|d| d.name.eq_ignore_ascii_case(name))
}

/// A checked `setoption` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    /// Text, with [`EMPTY`] already turned into the empty string.
    Text(String),
    /// A button was pressed.
    Press,
}

/// A valid `setoption`, ready to apply.
#[derive(Clone)]
pub struct Change {
    pub option: &'static Descriptor,
    pub value: Value,
    /// Something to tell the user about the value taken (a clamped spin), if anything.
    pub note: Option<String>,
}

impl std::fmt::Debug for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Change")
            .field("option", &self.option.name)
            .field("value", &self.value)
            .field("note", &self.note)
            .finish()
    }
}

impl Change {
    /// Writes the new value into `options` (for a button, nothing) and returns the option's
    /// remark on it, if any.
    pub fn apply(&self, options: &mut Options) -> Option<String> {
        match (self.option.kind, &self.value) {
            (Kind::Spin { set, .. }, Value::Int(v)) => set(options, *v),
            (Kind::Check { set, .. }, Value::Bool(v)) => set(options, *v),
            (Kind::Text { set, .. }, Value::Text(v)) => set(options, v.clone()),
            (Kind::Param { index }, Value::Int(v)) => {
                // parse_change has checked the range.
                if let Err(e) = params::VALUES.set(index, *v) {
                    return Some(e.to_string());
                }
            }
            _ => {}
        }
        self.option.remark.and_then(|remark| remark(options))
    }

    /// The new integer value (0 for other kinds).
    pub fn int(&self) -> i64 {
        match self.value {
            Value::Int(v) => v,
            _ => 0,
        }
    }

    /// The new text value ("" for other kinds).
    pub fn text(&self) -> &str {
        match &self.value {
            Value::Text(v) => v,
            _ => "",
        }
    }
}

/// The `option ...` lines of the `uci` answer, with the values of `defaults`.
pub fn announce(defaults: &Options) -> Vec<UciOptionConfig> {
    all()
        .map(|d| {
            let name = d.name.to_owned();
            match d.kind {
                Kind::Spin { min, max, get, .. } => UciOptionConfig::Spin {
                    name,
                    default: Some(get(defaults)),
                    min: Some(min),
                    max: Some(max),
                },
                Kind::Check { get, .. } => UciOptionConfig::Check {
                    name,
                    default: Some(get(defaults)),
                },
                Kind::Text { get, .. } => UciOptionConfig::String {
                    name,
                    default: Some(match get(defaults) {
                        "" => EMPTY.to_owned(),
                        text => text.to_owned(),
                    }),
                },
                Kind::Button => UciOptionConfig::Button { name },
                Kind::Param { index } => UciOptionConfig::Spin {
                    name,
                    default: Some(i64::from(TUNABLES[index].default)),
                    min: Some(i64::from(TUNABLES[index].min)),
                    max: Some(i64::from(TUNABLES[index].max)),
                },
            }
        })
        .collect()
}

/// Checks a `setoption`; the error says what is wrong and what is kept.
pub fn parse_change(name: &str, value: Option<&str>, current: &Options) -> Result<Change, String> {
    let option = find(name)
        .ok_or_else(|| format!("unknown option '{name}' (the 'uci' command lists the options)"))?;
    let name = option.name;
    let text = value.unwrap_or("");
    let mut note = None;
    let value = match option.kind {
        Kind::Spin {
            min,
            max,
            clamp,
            get,
            ..
        } => {
            let (v, clamped) = parse_int(name, text, (min, max), clamp, get(current))?;
            note = clamped;
            Value::Int(v)
        }
        Kind::Param { index } => {
            let t = &TUNABLES[index];
            let range = (i64::from(t.min), i64::from(t.max));
            let keep = params::VALUES.get(index);
            Value::Int(parse_int(name, text, range, false, i64::from(keep))?.0)
        }
        Kind::Check { get, .. } => match text.to_ascii_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => {
                return Err(format!(
                    "option '{name}' must be true or false, got '{text}'; keeping {}",
                    get(current)
                ));
            }
        },
        Kind::Text { .. } => match text.trim() {
            EMPTY => Value::Text(String::new()),
            path => Value::Text(path.to_owned()),
        },
        Kind::Button => Value::Press,
    };
    Ok(Change {
        option,
        value,
        note,
    })
}

/// A spin option's value: `text` as an integer in `min..=max`, or with `clamp` any integer
/// moved into the range (with a note saying so); the error names the value kept, `keep`.
fn parse_int(
    name: &str,
    text: &str,
    (min, max): (i64, i64),
    clamp: bool,
    keep: i64,
) -> Result<(i64, Option<String>), String> {
    match text.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok((v, None)),
        Ok(v) if clamp => {
            let taken = v.clamp(min, max);
            let note = format!("{name} {v} is outside {min}..{max}; playing at {taken}");
            Ok((taken, Some(note)))
        }
        _ if text.is_empty() => Err(format!(
            "option '{name}' needs a value from {min} to {max}; keeping {keep}"
        )),
        _ => Err(format!(
            "option '{name}' must be an integer from {min} to {max}, got '{text}'; keeping {keep}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_announces_the_default_it_starts_with() {
        let defaults = Options::default();
        for (d, announced) in OPTIONS.iter().zip(announce(&defaults)) {
            let text = format!("{announced:?}");
            assert!(text.contains(d.name), "{text}");
            if let Kind::Spin { min, max, get, .. } = d.kind {
                assert!((min..=max).contains(&get(&defaults)), "{}", d.name);
            }
        }
        assert_eq!(announce(&defaults).len(), all().count());
    }

    #[test]
    fn search_numbers_are_options_only_in_a_tuning_build() {
        let options = Options::default();
        let announced = announce(&options);
        let names: Vec<String> = announced.iter().map(|a| format!("{a:?}")).collect();
        let mentions_rfp = names.iter().any(|n| n.contains("reverse_futility_margin"));
        assert_eq!(mentions_rfp, params::TUNING);
        assert_eq!(
            param_options().len(),
            if params::TUNING { TUNABLES.len() } else { 0 }
        );
        let change = parse_change("reverse_futility_margin", Some("100"), &options);
        if params::TUNING {
            assert_eq!(change.expect("a tunable number").value, Value::Int(100));
            let refused = parse_change("reverse_futility_margin", Some("1000"), &options);
            assert!(refused.is_err_and(|e| e.contains("from 40 to 160")));
        } else {
            assert!(change.is_err_and(|e| e.contains("unknown option")));
        }
    }

    #[test]
    fn names_are_unique_and_found_in_any_case() {
        for d in &OPTIONS {
            let found = find(&d.name.to_ascii_uppercase()).map(|f| f.name);
            assert_eq!(found, Some(d.name));
        }
    }

    #[test]
    fn a_change_sets_its_field_and_only_that() {
        let before = Options::default();
        let mut options = before.clone();
        let change = parse_change("multipv", Some("3"), &options).expect("valid");
        change.apply(&mut options);
        assert_eq!(options.multi_pv, 3);
        assert_eq!(
            Options {
                multi_pv: before.multi_pv,
                ..options.clone()
            },
            before
        );
        let change = parse_change("SyzygyPath", Some(EMPTY), &options).expect("valid");
        assert_eq!(change.value, Value::Text(String::new()));
    }

    #[test]
    fn out_of_range_values_are_refused_or_clamped_by_kind() {
        let options = Options::default();
        let refused = parse_change("Contempt", Some("2000"), &options);
        assert!(refused.is_err_and(|e| e.contains("keeping 0")));
        let clamped = parse_change("UCI_Elo", Some("3500"), &options).expect("clamped");
        assert_eq!(clamped.value, Value::Int(i64::from(strength::MAX_ELO)));
        assert!(clamped.note.is_some());
        assert!(parse_change("Ponder", Some("maybe"), &options).is_err());
        assert!(parse_change("Nonsense", Some("1"), &options).is_err());
    }

    #[test]
    fn settings_follow_the_options() {
        let mut options = Options {
            contempt: 30,
            threads: 3,
            ..Options::default()
        };
        assert_eq!(options.settings().contempt, 30);
        assert_eq!(options.settings().threads, 3);
        options.analyse_mode = true;
        assert_eq!(options.settings().contempt, 0);
    }
}
