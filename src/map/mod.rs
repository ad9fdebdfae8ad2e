//! The map: a grid of cells from the scene's ASCII rows, with walls, doors and terrain;
//! distances in feet and inches of scale; line of sight and light (see the children).

mod grid;

pub use grid::{Grid, GridError};
