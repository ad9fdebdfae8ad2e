//! The grid built from rows of map characters and a legend (plain values: the map
//! knows nothing of scenes). Cell (0, 0) is the top-left; a cell of
//! size `cell_ft` covers x in [cx·cell, (cx+1)·cell) feet, likewise y.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a map cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CellKind {
    /// Open floor.
    Floor,
    /// Solid wall: blocks movement and sight.
    Wall,
    /// A closed door: blocks movement and sight.
    DoorClosed,
    /// An open door.
    DoorOpen,
    /// A pillar: blocks movement and sight.
    Pillar,
    /// Water: passable, does not block sight.
    Water,
    /// Scrub (outdoor terrain, DMG p.49).
    Scrub,
    /// Forest (outdoor terrain, DMG p.49).
    Forest,
    /// Marsh (outdoor terrain, DMG p.49).
    Marsh,
}

/// What stops a mover at a point, in words: the cell's obstacle, or the map's edge.
pub fn obstacle_words(kind: Option<CellKind>) -> &'static str {
    match kind {
        Some(CellKind::DoorClosed) => "a closed door",
        Some(CellKind::Pillar) => "a pillar",
        Some(_) => "a wall",
        None => "the map's edge",
    }
}

impl CellKind {
    /// Whether a figure can stand in or move through the cell.
    pub fn blocks_movement(self) -> bool {
        matches!(
            self,
            CellKind::Wall | CellKind::DoorClosed | CellKind::Pillar
        )
    }

    /// Whether the cell stops sight and light.
    pub fn blocks_sight(self) -> bool {
        matches!(
            self,
            CellKind::Wall | CellKind::DoorClosed | CellKind::Pillar
        )
    }

    /// The default meaning of a map character.
    pub fn from_char(c: char) -> Option<CellKind> {
        Some(match c {
            '#' => CellKind::Wall,
            '.' | ' ' => CellKind::Floor,
            '+' => CellKind::DoorClosed,
            '/' => CellKind::DoorOpen,
            'O' => CellKind::Pillar,
            '~' => CellKind::Water,
            '"' => CellKind::Scrub,
            'T' => CellKind::Forest,
            '%' => CellKind::Marsh,
            _ => return None,
        })
    }
}

/// A bad map row.
#[derive(Clone, Debug, PartialEq)]
pub struct GridError {
    /// Row index.
    pub row: usize,
    /// The row's text, to locate it.
    pub row_text: String,
    /// What is wrong.
    pub message: String,
}

/// The map's cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Cells across.
    pub width: usize,
    /// Cells down.
    pub height: usize,
    /// Cell size in feet.
    pub cell_ft: f64,
    /// Row-major cells.
    pub cells: Vec<CellKind>,
}

impl Grid {
    /// Builds the grid from rows of map characters, read through `legend` first and the
    /// default characters after; short rows are padded with wall.
    pub fn from_rows(
        cell_ft: f64,
        rows: &[String],
        legend: &BTreeMap<char, CellKind>,
    ) -> Result<Grid, GridError> {
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        let height = rows.len();
        if width == 0 || height == 0 {
            return Err(GridError {
                row: 0,
                row_text: String::new(),
                message: "the map has no cells".into(),
            });
        }
        if cell_ft.is_nan() || cell_ft <= 0.0 {
            return Err(GridError {
                row: 0,
                row_text: String::new(),
                message: format!("cell_ft must be positive, not {cell_ft}"),
            });
        }
        let mut cells = Vec::with_capacity(width * height);
        for (y, row) in rows.iter().enumerate() {
            for c in row.chars() {
                let kind = legend
                    .get(&c)
                    .copied()
                    .or_else(|| CellKind::from_char(c))
                    .ok_or_else(|| GridError {
                        row: y,
                        row_text: row.clone(),
                        message: format!("unknown map character '{c}' in row {y}"),
                    })?;
                cells.push(kind);
            }
            cells.extend(std::iter::repeat_n(
                CellKind::Wall,
                width - row.chars().count(),
            ));
        }
        Ok(Grid {
            width,
            height,
            cell_ft,
            cells,
        })
    }

    /// An open grid of floor.
    pub fn open(width: usize, height: usize, cell_ft: f64) -> Grid {
        Grid {
            width,
            height,
            cell_ft,
            cells: vec![CellKind::Floor; width * height],
        }
    }

    /// Width in feet.
    pub fn width_ft(&self) -> f64 {
        self.width as f64 * self.cell_ft
    }

    /// Height in feet.
    pub fn height_ft(&self) -> f64 {
        self.height as f64 * self.cell_ft
    }

    /// The cell at (x, y), if inside.
    pub fn get(&self, x: i64, y: i64) -> Option<CellKind> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| self.cells[y as usize * self.width + x as usize])
    }

    /// Sets a cell (for tests and door toggles).
    pub fn set(&mut self, x: usize, y: usize, kind: CellKind) {
        self.cells[y * self.width + x] = kind;
    }

    /// The cell containing a point in feet.
    pub fn cell_of(&self, x_ft: f64, y_ft: f64) -> (i64, i64) {
        (
            (x_ft / self.cell_ft).floor() as i64,
            (y_ft / self.cell_ft).floor() as i64,
        )
    }

    /// The kind of cell under a point in feet, if inside the map.
    pub fn kind_at_ft(&self, x_ft: f64, y_ft: f64) -> Option<CellKind> {
        let (x, y) = self.cell_of(x_ft, y_ft);
        self.get(x, y)
    }

    /// Whether the cell blocks sight (outside the map counts as blocking).
    pub fn opaque(&self, x: i64, y: i64) -> bool {
        self.get(x, y).is_none_or(CellKind::blocks_sight)
    }

    /// Whether the straight line between two points crosses no cell a figure cannot pass
    /// (a wall, a closed door, a pillar): what a blow or a step along it would meet. Read
    /// every quarter cell, the ends left out (the figures stand there).
    pub fn open_line_ft(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let d = (b.0 - a.0).hypot(b.1 - a.1);
        let n = (d / (self.cell_ft / 4.0)).ceil().max(1.0) as usize;
        (1..n).all(|k| {
            let t = k as f64 / n as f64;
            self.passable_ft(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
        })
    }

    /// Whether a figure may stand at a point in feet.
    pub fn passable_ft(&self, x_ft: f64, y_ft: f64) -> bool {
        self.kind_at_ft(x_ft, y_ft)
            .is_some_and(|k| !k.blocks_movement())
    }
}
