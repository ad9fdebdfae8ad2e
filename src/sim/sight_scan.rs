//! Who sees whom among many figures, without looking pair by pair (DMG p.62).
//!
//! A figure in light — carrying one, or standing where one reaches, or in daylight — is
//! seen along any clear line: its own field of view (symmetric shadowcasting, so the viewer
//! is in it exactly when it is in the viewer's) is computed once from its cell, cached by
//! the map's [`Vision`], and every viewer is one bit test in it. A figure in the dark is
//! seen only near a viewer — within twice the radius of the viewer's light or of the light
//! it stands in, or within its infravision — so each such viewer looks only at the figures
//! a grid of cells puts near it. The decision for each pair found is still
//! [`sight::sees`], then magical darkness.
//!
//! The light is worked out once per look: every light's cells go into one map, each cell
//! with the radius of the brightest light on it, and each figure is in light (and relies
//! on that radius) if its cell is.

use crate::map::{LightSource, Vision, distance_ft};
use crate::rules::cite::Rule;
use crate::rules::combat::Condition;
use crate::rules::sight::{self, Seen, SeenBy, Unseen, Viewer};
use std::collections::HashMap;

/// One figure as sight sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Looker {
    /// Its index in the scene.
    pub index: usize,
    /// Where it stands, in feet.
    pub at: (f64, f64),
    /// Its state (a figure down sees nothing; a dead one is not looked for).
    pub condition: Condition,
    /// The radius of the light it carries, if any.
    pub light_ft: Option<f64>,
    /// Its infravision range, if any.
    pub infravision_ft: Option<f64>,
    /// It stands inside magical darkness.
    pub in_darkness: bool,
}

impl Looker {
    /// What it brings to the looking, standing in the reach of a light of `relied_ft`.
    fn viewer(&self, relied_ft: Option<f64>) -> Viewer {
        Viewer {
            light_radius_ft: self.light_ft,
            relied_light_ft: relied_ft,
            infravision_ft: self.infravision_ft,
        }
    }

    /// How far it sees a figure in the dark: twice the radius of its light or of the light
    /// it stands in (`relied_ft`), or its infravision.
    fn dark_reach_ft(&self, relied_ft: Option<f64>) -> f64 {
        let light = match (self.light_ft, relied_ft) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
        .map_or(0.0, crate::rules::distance::light_limit_ft);
        light.max(self.infravision_ft.unwrap_or(0.0))
    }
}

/// The light of one look: which figures stand in it.
pub struct Frame {
    /// For each figure (in the list's order): a light reaches where it stands.
    pub in_light: Vec<bool>,
    /// For each figure: the radius of the brightest light that reaches where it stands
    /// (none in daylight, where no one is in the dark to be seen by it).
    pub relied_ft: Vec<Option<f64>>,
}

impl Frame {
    /// Works out which of `list` stand in light: daylight, or a cell that one of `lights`
    /// reaches ([`Vision::lit_cells`], the one definition of "lit").
    pub fn new(
        vision: &mut Vision,
        daylight: bool,
        lights: &[LightSource],
        list: &[Looker],
    ) -> Frame {
        if daylight {
            return Frame {
                in_light: vec![true; list.len()],
                relied_ft: vec![None; list.len()],
            };
        }
        // Each lit cell with the radius of the brightest light on it.
        let mut lit: HashMap<(i32, i32), f64> = HashMap::new();
        for &l in lights {
            for &c in vision.lit_cells(l).iter() {
                let r = lit.entry(c).or_insert(l.radius_ft);
                *r = r.max(l.radius_ft);
            }
        }
        let relied_ft: Vec<Option<f64>> = list
            .iter()
            .map(|f| lit.get(&vision.cell(f.at)).copied())
            .collect();
        Frame {
            in_light: relied_ft.iter().map(Option::is_some).collect(),
            relied_ft,
        }
    }

    /// How figure `k` stands in this look's light: in it or not, and the radius of the
    /// brightest light on it (what a look compares with the last).
    pub(super) fn stands(&self, k: usize) -> (bool, Option<f64>) {
        (self.in_light[k], self.relied_ft[k])
    }

    /// How figure `j` stands for the looking.
    fn seen(&self, list: &[Looker], j: usize) -> Seen {
        Seen {
            carries_light: list[j].light_ft.is_some(),
            in_light: self.in_light[j],
        }
    }
}

/// Who sees whom, as (viewer, seen) scene indices in order, with how (its rule is
/// [`SeenBy::rule`]).
pub type SeenList = Vec<((usize, usize), SeenBy)>;

/// What judging one pair reads besides its two figures: the look's light, each figure's
/// cell, and the map's diagonal (the field of view that reaches everywhere).
pub(super) struct Judge<'a> {
    frame: &'a Frame,
    list: &'a [Looker],
    cells: Vec<(i32, i32)>,
    diagonal: i32,
}

impl<'a> Judge<'a> {
    pub(super) fn new(vision: &Vision, frame: &'a Frame, list: &'a [Looker]) -> Judge<'a> {
        let m = vision.sight_map();
        Judge {
            frame,
            list,
            cells: list.iter().map(|f| vision.cell(f.at)).collect(),
            diagonal: crate::map::fov::radius_to_reach((0, 0), (m.width(), m.height())),
        }
    }

    /// Figure `j` carries a light or stands in one: seen along any clear line.
    fn lit(&self, j: usize) -> bool {
        let s = self.frame.seen(self.list, j);
        s.carries_light || s.in_light
    }

    /// How `i` sees `j` when the line between them is `clear` or not (DMG p.62), through
    /// any magical darkness; None if it does not.
    fn decide(&self, i: usize, j: usize, clear: bool) -> Option<SeenBy> {
        let (a, b) = (&self.list[i], &self.list[j]);
        let seen = sight::sees(
            clear,
            distance_ft(a.at, b.at),
            a.viewer(self.frame.relied_ft[i]),
            self.frame.seen(self.list, j),
        );
        sight::sees_through_darkness(a.in_darkness, b.in_darkness, seen)
            .ok()
            .map(|(by, _)| by)
    }

    /// Whether a line from figure `j` in light reaches figure `i`: open floor between (four
    /// lookups), else `j`'s field of view.
    fn clear_to_lit(&self, vision: &mut Vision, i: usize, j: usize) -> bool {
        let (ci, cj) = (self.cells[i], self.cells[j]);
        vision.sight_map().open_between(cj, ci)
            || vision.fov(cj, self.diagonal).contains(ci.0, ci.1)
    }

    /// How figure `i` sees figure `j`, if it does: the whole verdict for one pair, the one
    /// [`seen_pairs`] reaches for it.
    pub(super) fn verdict(&self, vision: &mut Vision, i: usize, j: usize) -> Option<SeenBy> {
        self.verdict_by(i, j, |lit| {
            if lit {
                self.clear_to_lit(vision, i, j)
            } else {
                vision.line_of_sight(self.list[i].at, self.list[j].at)
            }
        })
    }

    /// [`Judge::verdict`] with the line between the two given by `line` (told whether `j`
    /// is in light), asked only when the verdict needs it.
    pub(super) fn verdict_by(
        &self,
        i: usize,
        j: usize,
        line: impl FnOnce(bool) -> bool,
    ) -> Option<SeenBy> {
        let (a, b) = (&self.list[i], &self.list[j]);
        if i == j || !a.condition.is_up() || b.condition == Condition::Dead {
            return None;
        }
        let lit = self.lit(j);
        if !lit {
            let reach = a.dark_reach_ft(self.frame.relied_ft[i]);
            if reach <= 0.0 || distance_ft(a.at, b.at) > reach {
                return None;
            }
        }
        self.decide(i, j, line(lit))
    }

    /// Each figure's cell, in the list's order.
    pub(super) fn cells(&self) -> &[(i32, i32)] {
        &self.cells
    }

    /// The field of view that reaches the whole map (the radius of its diagonal).
    pub(super) fn diagonal(&self) -> i32 {
        self.diagonal
    }
}

/// Who sees whom among `list`, in order; `expect` is about how many (the last look's
/// count), to size the list once.
pub fn seen_pairs(vision: &mut Vision, frame: &Frame, list: &[Looker], expect: usize) -> SeenList {
    let judge = Judge::new(vision, frame, list);
    let cells = &judge.cells;
    let up: Vec<usize> = (0..list.len())
        .filter(|&i| list[i].condition.is_up())
        .collect();
    // Room for every viewer seeing every figure in light, at most (the list of a crowd's
    // first look, grown a pair at a time, was a tenth of its round).
    // The pairs in the dark come first, being few: the list is then sized for them and
    // the lit ones together, never grown past its room (a crowd's list, copied whole).
    let dark = dark_pairs(vision, &judge, list, &up);
    let lit = (0..list.len()).filter(|&j| judge.lit(j)).count();
    let mut out = Vec::with_capacity(expect.max(lit * up.len() + dark.len()));
    out.extend(dark);
    let mut decide = |i: usize, j: usize, clear: bool| {
        if let Some(by) = judge.decide(i, j, clear) {
            out.push(((list[i].index, list[j].index), by));
        }
    };
    // Figures in light: a viewer with only open floor between is clear at once (four
    // lookups); the rest are one bit test each in the figure's field of view, computed
    // once and only if some viewer needs it.
    let (mut clear, mut behind) = (Vec::with_capacity(up.len()), Vec::new());
    for j in 0..list.len() {
        if list[j].condition == Condition::Dead || !judge.lit(j) {
            continue;
        }
        clear.clear();
        behind.clear();
        let map = vision.sight_map();
        for &i in up.iter().filter(|&&i| i != j) {
            match map.open_between(cells[j], cells[i]) {
                true => clear.push((i, true)),
                false => behind.push(i),
            }
        }
        if !behind.is_empty() {
            let fov = vision.fov(cells[j], judge.diagonal);
            clear.extend(
                behind
                    .iter()
                    .map(|&i| (i, fov.contains(cells[i].0, cells[i].1))),
            );
        }
        for &(i, c) in &clear {
            decide(i, j, c);
        }
    }
    by_viewer(out)
}

/// Who sees whom among figures in the dark: only near a viewer with a light or
/// infravision, by the buckets of [`Buckets`], not pair by pair.
fn dark_pairs(vision: &mut Vision, judge: &Judge, list: &[Looker], up: &[usize]) -> SeenList {
    let grid = Buckets::new(list, |j| {
        list[j].condition != Condition::Dead && !judge.lit(j)
    });
    let mut out = Vec::new();
    for &i in up {
        let reach = list[i].dark_reach_ft(judge.frame.relied_ft[i]);
        if reach <= 0.0 {
            continue;
        }
        for j in grid.near(list[i].at, reach) {
            if j != i && distance_ft(list[i].at, list[j].at) <= reach {
                let clear = vision.line_of_sight(list[i].at, list[j].at);
                if let Some(by) = judge.decide(i, j, clear) {
                    out.push(((list[i].index, list[j].index), by));
                }
            }
        }
    }
    out
}

/// The pairs in (viewer, seen) order: a counting pass by viewer, then each viewer's few
/// pairs sorted (one sort of a crowd's whole list was a tenth of its round).
pub(super) fn by_viewer(pairs: SeenList) -> SeenList {
    let viewers = pairs.iter().map(|p| p.0.0 + 1).max().unwrap_or(0);
    let mut start = vec![0usize; viewers + 1];
    for p in &pairs {
        start[p.0.0 + 1] += 1;
    }
    for i in 0..viewers {
        start[i + 1] += start[i];
    }
    let mut next = start.clone();
    let mut out = vec![((0, 0), SeenBy::Lit); pairs.len()];
    for p in pairs {
        out[next[p.0.0]] = p;
        next[p.0.0] += 1;
    }
    for w in start.windows(2) {
        out[w[0]..w[1]].sort_unstable_by_key(|p| p.0.1);
    }
    out
}

/// Why `a` does not see `b` (scene list positions), for a sight just lost.
pub fn why_not(
    vision: &mut Vision,
    frame: &Frame,
    list: &[Looker],
    a: usize,
    b: usize,
) -> Option<(Unseen, Rule)> {
    let (fa, fb) = (&list[a], &list[b]);
    // Sight is symmetric, so the line is looked along from the one seen: a figure in light
    // had its field of view worked out in this very look, and it is in the cache.
    let clear = vision.line_of_sight(fb.at, fa.at);
    let seen = sight::sees(
        clear,
        distance_ft(fa.at, fb.at),
        fa.viewer(frame.relied_ft[a]),
        frame.seen(list, b),
    );
    sight::sees_through_darkness(fa.in_darkness, fb.in_darkness, seen).err()
}

/// Figures by square buckets of [`BUCKET_FT`], for "who is near this point".
struct Buckets {
    cells: HashMap<(i64, i64), Vec<usize>>,
}

/// The side of a bucket in feet.
const BUCKET_FT: f64 = 40.0;

impl Buckets {
    fn new(list: &[Looker], keep: impl Fn(usize) -> bool) -> Buckets {
        let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (j, f) in list.iter().enumerate() {
            if keep(j) {
                cells.entry(Self::key(f.at)).or_default().push(j);
            }
        }
        Buckets { cells }
    }

    fn key(at: (f64, f64)) -> (i64, i64) {
        (
            (at.0 / BUCKET_FT).floor() as i64,
            (at.1 / BUCKET_FT).floor() as i64,
        )
    }

    /// The figures in every bucket that a circle of `r` feet round `at` touches, in list
    /// order.
    fn near(&self, at: (f64, f64), r: f64) -> Vec<usize> {
        let (lo, hi) = (
            Self::key((at.0 - r, at.1 - r)),
            Self::key((at.0 + r, at.1 + r)),
        );
        let span = (hi.0 - lo.0 + 1).saturating_mul(hi.1 - lo.1 + 1);
        let mut out: Vec<usize> = if span > self.cells.len() as i64 {
            // A reach wider than the crowd: every bucket that holds anyone.
            self.cells.values().flatten().copied().collect()
        } else {
            (lo.0..=hi.0)
                .flat_map(|x| (lo.1..=hi.1).map(move |y| (x, y)))
                .filter_map(|k| self.cells.get(&k))
                .flatten()
                .copied()
                .collect()
        };
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Ordering by viewer and then by the one seen gives the same list as sorting the
        /// whole list, whatever order the pairs were found in.
        #[test]
        fn by_viewer_is_the_sorted_list(
            pairs in proptest::collection::btree_set((0usize..40, 0usize..40), 0..300),
            shuffle in any::<u64>(),
        ) {
            let mut list: SeenList = pairs.iter().map(|&p| (p, SeenBy::Lit)).collect();
            // Any order: rotate and reverse by the seed.
            let k = (shuffle as usize) % list.len().max(1);
            list.rotate_left(k);
            if shuffle % 2 == 0 {
                list.reverse();
            }
            let got: Vec<(usize, usize)> = by_viewer(list).into_iter().map(|p| p.0).collect();
            let want: Vec<(usize, usize)> = pairs.into_iter().collect();
            prop_assert_eq!(got, want);
        }
    }
}
