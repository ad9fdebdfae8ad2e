//! Field of view: symmetric shadowcasting, limited to a radius.
//!
//! The scan follows Albert Ford's symmetric shadowcasting: each of the four quadrants
//! around the origin is swept row by row, and the columns in shadow are narrowed by the
//! walls met so far. A floor cell counts as seen only when its centre lies between the
//! row's two shadow slopes, which makes sight symmetric: if A's cell sees B's cell, then
//! B's cell sees A's. Walls are shown when the sweep reaches them, so a room's walls are
//! drawn, but sight *through* them never happens.
//!
//! Everything is integer arithmetic: a slope is a fraction `n / d` with `d > 0` and all
//! tests are cross-multiplied. The result is written into a bit set that covers only the
//! `(2r + 1)²` square around the origin cut to the map (a field of view that reaches the
//! whole map, as a figure in light needs, holds the map's cells and no more: from a corner
//! its square would be four times the map), reused from call to call, so a field of view
//! costs the same on a 100×100 map as on a 1000×1000 one.
//!
//! The radius counts a cell as within `r` when its centre is within `r + ½` cells of the
//! origin's centre (`dx² + dy² ≤ r² + r`), the usual rounding that gives round discs.
//! Walls beyond the radius still cast their shadows inside it, so the field of view at
//! radius `r` is exactly the unlimited field of view cut to the disc: asking for a larger
//! radius never changes what is seen nearer.

/// Which cells stop sight, with the map's size. Outside the map counts as opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SightMap {
    width: i32,
    height: i32,
    opaque: Vec<bool>,
    /// Opaque cells above and left of each corner, `(width + 1) × (height + 1)`: how many
    /// a rectangle holds, in four lookups ([`SightMap::open_between`]).
    sums: Vec<u32>,
}

impl SightMap {
    /// A map of `width × height` cells where `opaque(x, y)` says which block sight.
    pub fn from_fn(width: usize, height: usize, opaque: impl Fn(usize, usize) -> bool) -> Self {
        let mut cells = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                cells.push(opaque(x, y));
            }
        }
        let mut map = SightMap {
            width: width as i32,
            height: height as i32,
            opaque: cells,
            sums: Vec::new(),
        };
        map.count_walls();
        map
    }

    /// Fills the table of opaque cells by corner (a summed-area table).
    fn count_walls(&mut self) {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut sums = vec![0u32; (w + 1) * (h + 1)];
        for y in 0..h {
            let mut row = 0u32;
            for x in 0..w {
                row += u32::from(self.opaque[y * w + x]);
                sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + row;
            }
        }
        self.sums = sums;
    }

    /// Whether every cell of the rectangle with corners `a` and `b` (both on the map) is
    /// open. Then each sees the other at any radius that reaches it: a wall shades only
    /// cells behind it, inside the rectangle from the origin to them (see the tests), so
    /// nothing in between can block, and no field of view is needed to say so.
    pub fn open_between(&self, a: (i32, i32), b: (i32, i32)) -> bool {
        if !self.contains(a.0, a.1) || !self.contains(b.0, b.1) {
            return false;
        }
        let (x0, x1) = (a.0.min(b.0) as usize, a.0.max(b.0) as usize + 1);
        let (y0, y1) = (a.1.min(b.1) as usize, a.1.max(b.1) as usize + 1);
        let w = self.width as usize + 1;
        let at = |x: usize, y: usize| i64::from(self.sums[y * w + x]);
        at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0) == 0
    }

    /// Cells across.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Cells down.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Whether (x, y) is on the map.
    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    /// Whether (x, y) blocks sight; outside the map does.
    #[inline]
    pub fn opaque(&self, x: i32, y: i32) -> bool {
        !self.contains(x, y) || self.opaque[(y * self.width + x) as usize]
    }

    /// Changes one cell (a door opened or shut).
    pub fn set_opaque(&mut self, x: i32, y: i32, opaque: bool) {
        if self.contains(x, y) {
            self.opaque[(y * self.width + x) as usize] = opaque;
            self.count_walls();
        }
    }
}

/// One row of a quadrant still to sweep: its depth and the slopes `start ≤ end` between
/// which it is lit, each a fraction with a positive denominator.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i32,
    start_n: i32,
    start_d: i32,
    end_n: i32,
    end_d: i32,
}

/// The cells seen from one origin within one radius.
#[derive(Clone, Debug, Default)]
pub struct FieldOfView {
    origin: (i32, i32),
    radius: i32,
    /// The cells the bits cover: the square of the radius round the origin, cut to the
    /// map; its corner (least x and y) and its width and height.
    window: (i32, i32, i32, i32),
    bits: Vec<u64>,
    count: usize,
    rows: Vec<Row>,
    /// For each depth, the largest column offset inside the disc.
    disc: Vec<i32>,
}

impl FieldOfView {
    /// An empty field of view, to be filled by [`FieldOfView::compute`].
    pub fn new() -> Self {
        Self::default()
    }

    /// The field of view from `origin` within `radius` cells (see the module docs).
    pub fn of(map: &SightMap, origin: (i32, i32), radius: i32) -> Self {
        let mut fov = Self::new();
        fov.compute(map, origin, radius);
        fov
    }

    /// Where it was computed from.
    pub fn origin(&self) -> (i32, i32) {
        self.origin
    }

    /// The memory it holds, in bytes (what the vision cache counts against its bound).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.bits.capacity() * std::mem::size_of::<u64>()
            + self.rows.capacity() * std::mem::size_of::<Row>()
            + self.disc.capacity() * std::mem::size_of::<i32>()
    }

    /// The radius in cells.
    pub fn radius(&self) -> i32 {
        self.radius
    }

    /// How many cells are seen (the origin included).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether nothing is seen (only before the first computation).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether the cell (x, y) is seen.
    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        let (x0, y0, w, h) = self.window;
        let (wx, wy) = (x - x0, y - y0);
        if wx < 0 || wy < 0 || wx >= w || wy >= h {
            return false;
        }
        let i = (wy * w + wx) as usize;
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    /// The cells seen, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        let (x0, y0, width, _) = self.window;
        self.bits.iter().enumerate().flat_map(move |(w, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                let i = (w * 64 + b) as i32;
                Some((x0 + i % width, y0 + i / width))
            })
        })
    }

    #[inline]
    fn mark(&mut self, x: i32, y: i32) {
        let (x0, y0, w, _) = self.window;
        let i = ((y - y0) * w + (x - x0)) as usize;
        self.mark_index(i);
    }

    #[inline]
    fn mark_index(&mut self, i: usize) {
        self.bits[i / 64] |= 1u64 << (i % 64);
    }

    /// Recomputes in place from `origin` within `radius` cells, reusing the buffers.
    /// An origin off the map sees nothing.
    pub fn compute(&mut self, map: &SightMap, origin: (i32, i32), radius: i32) {
        let radius = radius.max(0);
        self.origin = origin;
        self.radius = radius;
        // The square round the origin, cut to the map (empty for an origin off it).
        let (x0, y0) = ((origin.0 - radius).max(0), (origin.1 - radius).max(0));
        let (x1, y1) = (
            (origin.0 + radius).min(map.width - 1),
            (origin.1 + radius).min(map.height - 1),
        );
        self.window = (x0, y0, (x1 - x0 + 1).max(0), (y1 - y0 + 1).max(0));
        self.count = 0;
        let words = (self.window.2 * self.window.3) as usize / 64 + 1;
        self.bits.clear();
        self.bits.resize(words, 0);
        if !map.contains(origin.0, origin.1) {
            return;
        }
        self.mark(origin.0, origin.1);
        let limit = radius * radius + radius;
        let mut disc = std::mem::take(&mut self.disc);
        disc.clear();
        disc.extend((0..=radius).map(|depth| isqrt(limit - depth * depth)));
        for quadrant in [
            Quadrant::North,
            Quadrant::East,
            Quadrant::South,
            Quadrant::West,
        ] {
            self.sweep(map, quadrant, &disc);
        }
        self.disc = disc;
        self.count = self.bits.iter().map(|w| w.count_ones() as usize).sum();
    }

    fn sweep(&mut self, map: &SightMap, quadrant: Quadrant, disc: &[i32]) {
        let radius = self.radius;
        let (ox, oy) = self.origin;
        let (wx0, wy0, side) = (self.window.0, self.window.1, self.window.2);
        let w = map.width;
        // Steps along a row (one column) and the valid column range of each row are
        // worked out once per row, so the inner loop is index arithmetic only.
        let (col_dx, col_dy) = quadrant.cell(0, 0, 0, 1);
        let mut rows = std::mem::take(&mut self.rows);
        rows.clear();
        rows.push(Row {
            depth: 1,
            start_n: -1,
            start_d: 1,
            end_n: 1,
            end_d: 1,
        });
        while let Some(mut row) = rows.pop() {
            let depth = row.depth;
            if depth > radius {
                continue;
            }
            // Columns from depth·start rounded half up to depth·end rounded half down.
            let first = (2 * depth * row.start_n + row.start_d).div_euclid(2 * row.start_d);
            let last = -((row.end_d - 2 * depth * row.end_n).div_euclid(2 * row.end_d));
            // Columns inside the disc, and on the map.
            let disc = disc[depth as usize];
            let (x0, y0) = quadrant.cell(ox, oy, depth, 0);
            let (on_lo, on_hi) = if col_dx != 0 {
                if y0 < 0 || y0 >= map.height {
                    (1, 0)
                } else {
                    (-x0, w - 1 - x0)
                }
            } else if x0 < 0 || x0 >= w {
                (1, 0)
            } else {
                (-y0, map.height - 1 - y0)
            };
            let map_step = (col_dx + col_dy * w) as isize;
            let win_step = (col_dx + col_dy * side) as isize;
            let map_base = (y0 * w + x0) as isize;
            // A cell marked is on the map and within the radius: inside the window.
            let win_base = ((y0 - wy0) * side + (x0 - wx0)) as isize;
            let mut prev_wall: Option<bool> = None;
            for col in first..=last {
                let on_map = col >= on_lo && col <= on_hi;
                let wall = !on_map || map.opaque[(map_base + col as isize * map_step) as usize];
                if on_map
                    && col.abs() <= disc
                    && (wall
                        || (col * row.start_d >= depth * row.start_n
                            && col * row.end_d <= depth * row.end_n))
                {
                    self.mark_index((win_base + col as isize * win_step) as usize);
                }
                match prev_wall {
                    Some(true) if !wall => {
                        row.start_n = 2 * col - 1;
                        row.start_d = 2 * depth;
                    }
                    Some(false) if wall => rows.push(Row {
                        depth: depth + 1,
                        end_n: 2 * col - 1,
                        end_d: 2 * depth,
                        ..row
                    }),
                    _ => {}
                }
                prev_wall = Some(wall);
            }
            if prev_wall == Some(false) {
                rows.push(Row {
                    depth: depth + 1,
                    ..row
                });
            }
        }
        self.rows = rows;
    }
}

/// The largest `c ≥ 0` with `c² ≤ n` (−1 when `n < 0`).
fn isqrt(n: i32) -> i32 {
    if n < 0 {
        return -1;
    }
    let mut c = f64::from(n).sqrt() as i32;
    while c * c > n {
        c -= 1;
    }
    while (c + 1) * (c + 1) <= n {
        c += 1;
    }
    c
}

/// The four quadrants swept from the origin.
#[derive(Clone, Copy, Debug)]
enum Quadrant {
    North,
    East,
    South,
    West,
}

impl Quadrant {
    /// The map cell at `depth` rows out and `col` columns across.
    #[inline]
    fn cell(self, ox: i32, oy: i32, depth: i32, col: i32) -> (i32, i32) {
        match self {
            Quadrant::North => (ox + col, oy - depth),
            Quadrant::South => (ox + col, oy + depth),
            Quadrant::East => (ox + depth, oy + col),
            Quadrant::West => (ox - depth, oy + col),
        }
    }
}

/// Whether cell `b` can be seen from cell `a` (and so `a` from `b`) on `map`, at any
/// distance. Computes a field of view; callers that ask often should cache them.
pub fn line_of_sight(map: &SightMap, a: (i32, i32), b: (i32, i32)) -> bool {
    let radius = radius_to_reach(a, b);
    FieldOfView::of(map, a, radius).contains(b.0, b.1)
}

/// The smallest radius whose field of view can hold cell `b` seen from `a`.
pub fn radius_to_reach(a: (i32, i32), b: (i32, i32)) -> i32 {
    // The ceiling of the exact distance, in integers (no rounding of a square root).
    let (dx, dy) = ((b.0 - a.0).unsigned_abs(), (b.1 - a.1).unsigned_abs());
    let d2 = u64::from(dx) * u64::from(dx) + u64::from(dy) * u64::from(dy);
    let r = d2.isqrt();
    (if r * r < d2 { r + 1 } else { r }) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(rows: &[&str]) -> SightMap {
        let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        SightMap::from_fn(grid[0].len(), grid.len(), |x, y| grid[y][x] == '#')
    }

    #[test]
    fn open_room_sees_the_disc() {
        let m = SightMap::from_fn(21, 21, |_, _| false);
        let f = FieldOfView::of(&m, (10, 10), 3);
        let disc = (-3i32..=3)
            .flat_map(|dx| (-3i32..=3).map(move |dy| (dx, dy)))
            .filter(|(dx, dy)| dx * dx + dy * dy <= 12)
            .count();
        assert_eq!(f.len(), disc);
        assert!(f.contains(13, 10) && f.contains(12, 12) && !f.contains(13, 13));
    }

    #[test]
    fn a_wall_hides_what_is_behind_it() {
        let m = map(&[
            ".......", //
            "...#...", //
            ".......",
        ]);
        let f = FieldOfView::of(&m, (3, 2), 5);
        assert!(f.contains(3, 1), "the wall itself is seen");
        assert!(!f.contains(3, 0), "the cell behind it is not");
        assert!(f.contains(0, 0) && f.contains(6, 0));
        assert_eq!(f.iter().count(), f.len());
    }

    #[test]
    fn corridor_corner() {
        let m = map(&[
            "#####", //
            "#...#", //
            "#.###", //
            "#.###",
        ]);
        assert!(line_of_sight(&m, (1, 3), (1, 1)));
        assert!(line_of_sight(&m, (1, 1), (3, 1)));
        assert!(!line_of_sight(&m, (1, 3), (3, 1)));
        assert!(!line_of_sight(&m, (3, 1), (1, 3)));
    }
}
