//! Teaching the segment system: questions asked before each beat of a round and answered
//! from the engine's own typed events, never written per scene; the chart cell behind each
//! "who goes first"; and the scene's guided tour. The viewer's predict-then-reveal mode and
//! `firststrike quiz` both ask the questions of [`Lesson::questions`].
//!
//! - [`lesson`]: play a scene once, keeping its log and each round's decisions;
//! - [`question`]: the questions, built from that play;
//! - [`light`]: which chart cell decided a pair, and the one the other die result reads;
//! - [`quiz`]: asking, answering and scoring;
//! - `surprise` and `take_initiative`: the surprise question, and "who goes first" under
//!   the d10 variant.

pub mod lesson;
pub mod light;
pub mod question;
pub mod quiz;
mod surprise;
mod take_initiative;

pub use lesson::Lesson;
pub use light::LitCell;
pub use question::{Question, QuestionKind};
pub use quiz::{Quiz, Reveal};
