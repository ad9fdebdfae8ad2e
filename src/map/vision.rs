//! Vision on a grid: fields of view cached by (cell, radius), lines of sight between
//! points in feet, the cells a light reaches, and how far an encounter can reach from a
//! point on the real map.
//!
//! Walls do not move during a scene, so a field of view computed once from a cell is kept
//! and reused. Each cell keeps the widest one asked for so far, its radius rounded up to a
//! power of two (at least [`MIN_RADIUS`], at most the map's diagonal): a field of view is
//! the unlimited one cut to its disc (see [`super::fov`]), so a wider one answers every
//! nearer question the same way, and a figure looking at many others computes one.

use super::fov::{FieldOfView, SightMap, radius_to_reach};
use super::grid::Grid;
use super::measure::{Feet, distance_ft};
// The cache is a Bevy hash map (foldhash) inside: it is looked up for every pair of figures.
use crate::bounded::BoundedCache;

/// The smallest radius cached, in cells.
pub const MIN_RADIUS: i32 = 8;

/// The cache holds at most this many fields of view before it starts afresh.
const CACHE_LIMIT: usize = 4096;

/// Nor more than this many bytes of them: on a large map one field of view can hold
/// hundreds of kilobytes, and the cache lives as long as the map (across every trial of
/// `odds`), so its memory is bounded by size, not only by count.
pub const CACHE_BYTES: usize = 64 << 20;

/// Nor more than this many bytes of the cells lights reach.
const LIT_BYTES: usize = 8 << 20;

/// A light on the map: where it is and how far it reaches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LightSource {
    /// Position in feet.
    pub at: Feet,
    /// Radius in feet.
    pub radius_ft: f64,
}

/// The map's sight with its cache of fields of view.
#[derive(Clone, Debug)]
pub struct Vision {
    map: SightMap,
    cell_ft: f64,
    cache: BoundedCache<(i32, i32), FieldOfView>,
    /// The cells each light reaches, by where it is and its radius (the bits of both):
    /// asked again at every look while the light stays put.
    lit: BoundedCache<(u64, u64, u64), Vec<(i32, i32)>>,
    computed: u64,
}

impl Vision {
    /// Vision over a grid (walls, closed doors and pillars block).
    pub fn new(grid: &Grid) -> Self {
        let map = SightMap::from_fn(grid.width, grid.height, |x, y| {
            grid.opaque(x as i64, y as i64)
        });
        Vision {
            map,
            cell_ft: grid.cell_ft,
            cache: BoundedCache::new(CACHE_LIMIT, CACHE_BYTES),
            lit: BoundedCache::new(CACHE_LIMIT, LIT_BYTES),
            computed: 0,
        }
    }

    /// The sight map.
    pub fn sight_map(&self) -> &SightMap {
        &self.map
    }

    /// The bytes of fields of view the cache holds (at most [`CACHE_BYTES`]).
    pub fn cached_bytes(&self) -> usize {
        self.cache.bytes()
    }

    /// How many fields of view have been computed (not served from the cache).
    pub fn computed(&self) -> u64 {
        self.computed
    }

    /// The cell holding a point in feet.
    pub fn cell(&self, p: Feet) -> (i32, i32) {
        (
            (p.0 / self.cell_ft).floor() as i32,
            (p.1 / self.cell_ft).floor() as i32,
        )
    }

    /// The centre of a cell in feet.
    pub fn centre(&self, cell: (i32, i32)) -> Feet {
        centre(self.cell_ft, cell)
    }

    /// The field of view from `cell` reaching at least `radius` cells, from the cache.
    pub fn fov(&mut self, cell: (i32, i32), radius: i32) -> &FieldOfView {
        let key = self.cached(cell, radius);
        self.cache
            .get(&key)
            .expect("a value inserted is always kept")
    }

    /// Makes sure a field of view from `cell` reaching `radius` is cached; returns its key.
    fn cached(&mut self, cell: (i32, i32), radius: i32) -> (i32, i32) {
        if self.cache.get(&cell).is_some_and(|f| f.radius() >= radius) {
            return cell;
        }
        let diagonal = radius_to_reach((0, 0), (self.map.width(), self.map.height()));
        let wide = (radius.max(MIN_RADIUS) as u32).next_power_of_two() as i32;
        let radius = wide.min(diagonal.max(radius));
        let fov = FieldOfView::of(&self.map, cell, radius);
        self.computed += 1;
        let bytes = fov.bytes();
        self.cache.insert(cell, fov, bytes);
        cell
    }

    /// Radius in cells that covers `feet` from anywhere in a cell.
    pub fn cells_for(&self, feet: f64) -> i32 {
        (feet / self.cell_ft).ceil() as i32 + 1
    }

    /// Whether there is a clear line between two points (symmetric).
    pub fn line_of_sight(&mut self, a: Feet, b: Feet) -> bool {
        let (ca, cb) = (self.cell(a), self.cell(b));
        if self.map.open_between(ca, cb) {
            return true;
        }
        let r = radius_to_reach(ca, cb);
        self.fov(ca, r).contains(cb.0, cb.1)
    }

    /// Whether there is a clear line from `from` to each of `to`, read in one field of view
    /// from `from` (wide enough to reach the whole map, so it answers as the narrower one
    /// [`Vision::line_of_sight`] asks for would): None for a cell of `to` that blocks sight,
    /// where the answer from it may differ; None altogether when `from` blocks sight.
    /// Between open cells a line is the same either way (symmetric shadowcasting).
    pub fn clear_lines(
        &mut self,
        from: (i32, i32),
        diagonal: i32,
        to: &[(i32, i32)],
    ) -> Option<Vec<Option<bool>>> {
        if self.map.opaque(from.0, from.1) {
            return None;
        }
        let key = self.cached(from, diagonal);
        let fov = self
            .cache
            .get(&key)
            .expect("a value inserted is always kept");
        let map = &self.map;
        Some(
            to.iter()
                .map(|&c| {
                    (!map.opaque(c.0, c.1))
                        .then(|| map.open_between(from, c) || fov.contains(c.0, c.1))
                })
                .collect(),
        )
    }

    /// Whether `light` reaches the cell holding `p` (see [`Vision::lit`]): the one
    /// definition of "in light" for figures and for the map's shading alike.
    pub fn lights(&mut self, light: LightSource, p: Feet) -> bool {
        let cell = self.cell(p);
        self.lit(light, cell)
    }

    /// Whether `light` reaches `cell`: the cell's centre is within the radius and the cell
    /// is in the field of view from the light's cell. Walls it reaches count (lit faces).
    pub fn lit(&mut self, light: LightSource, cell: (i32, i32)) -> bool {
        distance_ft(light.at, centre(self.cell_ft, cell)) <= light.radius_ft
            && self
                .fov(self.cell(light.at), self.cells_for(light.radius_ft))
                .contains(cell.0, cell.1)
    }

    /// The cells a light reaches (each passes [`Vision::lit`]), worked out once for each
    /// place and radius.
    pub fn lit_cells(&mut self, light: LightSource) -> &[(i32, i32)] {
        let key = (
            light.at.0.to_bits(),
            light.at.1.to_bits(),
            light.radius_ft.to_bits(),
        );
        if self.lit.get(&key).is_none() {
            let fov = self.cached(self.cell(light.at), self.cells_for(light.radius_ft));
            let cells: Vec<(i32, i32)> = self
                .cache
                .get(&fov)
                .expect("a value inserted is always kept")
                .iter()
                .filter(|&c| distance_ft(light.at, centre(self.cell_ft, c)) <= light.radius_ft)
                .collect();
            let bytes = crate::bounded::heap_bytes(&cells);
            self.lit.insert(key, cells, bytes);
        }
        self.lit.get(&key).expect("a value inserted is always kept")
    }

    /// How far an encounter can reach from `from` within `limit_ft` on the real map: the
    /// farthest open cell centre that is both within the limit and in sight, in feet, and
    /// how many open cells lie in that reach.
    pub fn encounter_reach(&mut self, from: Feet, limit_ft: f64) -> (f64, usize) {
        let key = self.cached(self.cell(from), self.cells_for(limit_ft));
        self.cache
            .get(&key)
            .expect("a value inserted is always kept")
            .iter()
            .filter(|&(x, y)| !self.map.opaque(x, y))
            .map(|c| distance_ft(from, centre(self.cell_ft, c)))
            .filter(|&d| d <= limit_ft)
            .fold((0.0, 0), |(far, n), d| (far.max(d), n + 1))
    }
}

/// The centre of a cell in feet, for cells `cell_ft` wide.
fn centre(cell_ft: f64, cell: (i32, i32)) -> Feet {
    (
        (f64::from(cell.0) + 0.5) * cell_ft,
        (f64::from(cell.1) + 0.5) * cell_ft,
    )
}
