//! The map: a grid of cells from the scene's ASCII rows, with walls, doors and terrain;
//! distances in feet and inches of scale; symmetric fields of view, lines of sight and the
//! reach of lights.
//!
//! - [`grid`]: cells, their kinds and positions in feet
//! - [`measure`]: distances in feet and inches of scale
//! - [`fov`]: the field-of-view algorithm (symmetric shadowcasting, radius-limited)
//! - [`vision`]: cached fields of view, lines of sight between points, lit cells

pub mod fov;
mod grid;
pub mod measure;
pub mod vision;

pub use fov::{FieldOfView, SightMap, line_of_sight};
pub use grid::{CellKind, Grid, GridError, obstacle_words};
pub use measure::{Feet, Measure, distance_ft, measure};
pub use vision::{LightSource, Vision};
