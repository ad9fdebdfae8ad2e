//! First Strike: AD&D 1st-edition combat timing made visible.
//!
//! - [`rules`]: the timing rules as plain, cited functions (the single source of truth).
//! - [`scene`]: RON scenes, parsed and validated with located errors.
//! - [`map`]: the grid, distances, line of sight and light.
//! - [`sim`]: the headless Bevy simulation that plays a scene segment by segment.
//! - [`calc`]: the "who strikes first" calculator over the rules.
//! - [`cli`]: the command line.
//! - [`narrate`]: words for people, made only when shown.
//! - [`bounded`]: the caches kept across trials, bounded in entries and in bytes.

/// Every binary that links the engine (the command line, the viewer, the tests and the
/// benches) allocates through mimalloc: the odds' trials make and drop many small strings
/// and vectors.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `eprintln!` for the whole crate, never panicking: a closed or failing standard error
/// (`firststrike check bad.ron 2>&1 | head -1`) drops the message instead of aborting
/// with a panic, as the standard macro does.
macro_rules! eprintln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// `eprint!` for the whole crate, never panicking (see `eprintln!`).
#[allow(unused_macros)]
macro_rules! eprint {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}

pub mod bounded;
pub mod calc;
pub mod cli;
pub mod dice;
pub mod map;
pub mod name;
pub mod narrate;
pub mod rules;
pub mod scene;
pub mod sim;
pub mod tables;
pub mod teach;
pub mod testing;
pub mod text;
#[cfg(feature = "viewer")]
pub mod viewer;
