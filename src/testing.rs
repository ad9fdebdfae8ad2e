//! Test helpers: the headless runner under the name the tests know.

pub use crate::sim::Runner as SceneRun;
