//! First Strike: AD&D 1st-edition combat timing made visible.
//!
//! - [`rules`]: the timing rules as plain, cited functions (the single source of truth).
//! - [`calc`]: the "who strikes first" calculator over the rules.
//! - [`cli`]: the command line.

pub mod calc;
pub mod cli;
pub mod rules;
pub mod tables;
