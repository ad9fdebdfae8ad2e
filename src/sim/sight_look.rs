//! Who sees whom from the last look: only the pairs with a figure that changed are judged
//! again (DMG p.62).
//!
//! A pair's verdict reads its two figures — where each stands, its state, its light and
//! infravision, whether it is in magical darkness or in light — and the map, which does
//! not change within a scene. So when a few figures step, turn a light on or fall, every
//! pair between two others is what it was, and only the changed figures' pairs (as viewer
//! and as seen) are judged, by the same [`Judge::verdict`] the whole look uses. A crowd
//! where most stand and fight costs a few figures' rows a look instead of every pair.

use super::sight_scan::{Frame, Judge, Looker, SeenList, by_viewer};
use crate::map::Vision;
use std::sync::Arc;

/// One look: each figure as sight read it (with whether it stood in light, and in how
/// bright a one), and who saw
/// whom then. What the next look starts from.
#[derive(Clone, Debug, Default)]
pub struct Look {
    figures: Vec<(Looker, (bool, Option<f64>))>,
    pairs: Arc<SeenList>,
}

/// Past one changed figure in this many, judging every pair afresh is the cheaper way.
const CHANGED_SHARE: usize = 3;

impl Look {
    /// The look of `list` in `frame`'s light that found `pairs`.
    pub fn new(list: &[Looker], frame: &Frame, pairs: Arc<SeenList>) -> Look {
        Look {
            figures: list
                .iter()
                .copied()
                .enumerate()
                .map(|(k, f)| (f, frame.stands(k)))
                .collect(),
            pairs,
        }
    }

    /// Who sees whom among `list` in `frame`'s light, worked out from this look: None when
    /// the figures are not the same ones (a figure added or gone) or when so many changed
    /// that a whole look is cheaper.
    pub fn next(&self, vision: &mut Vision, frame: &Frame, list: &[Looker]) -> Option<SeenList> {
        self.next_within(vision, frame, list, list.len() / CHANGED_SHARE)
    }

    /// [`Look::next`], judging again for at most `most` changed figures.
    fn next_within(
        &self,
        vision: &mut Vision,
        frame: &Frame,
        list: &[Looker],
        most: usize,
    ) -> Option<SeenList> {
        let same_figures = self.figures.len() == list.len()
            && self
                .figures
                .iter()
                .zip(list)
                .all(|(a, b)| a.0.index == b.index);
        if !same_figures {
            return None;
        }
        let changed: Vec<bool> = (self.figures.iter().zip(list).enumerate())
            .map(|(k, (was, now))| was.0 != *now || was.1 != frame.stands(k))
            .collect();
        let moved: Vec<usize> = (0..list.len()).filter(|&k| changed[k]).collect();
        if moved.len() > most {
            return None;
        }
        // Scene index -> changed (the pairs hold scene indices).
        let mut by_index = vec![false; list.iter().map(|f| f.index + 1).max().unwrap_or(0)];
        for &k in &moved {
            by_index[list[k].index] = true;
        }
        let kept = self
            .pairs
            .iter()
            .filter(|((a, b), _)| !by_index[*a] && !by_index[*b])
            .copied();
        let judge = Judge::new(vision, frame, list);
        let cells = judge.cells();
        // About as many pairs as the changed figures had before, counted twice over.
        let mut fresh = Vec::with_capacity(2 * moved.len() * self.pairs.len() / list.len().max(1));
        for &d in &moved {
            // Every line from the changed figure, read in its one field of view: sight is
            // symmetric between open cells (see `map::fov`), so the line from `j` to `d` is
            // the line from `d` to `j`. A figure on a cell that blocks sight (in a doorway
            // as it shuts) is judged the whole way, from the one seen.
            let lines = vision.clear_lines(cells[d], judge.diagonal(), cells);
            // As viewer, of everyone; as seen, by everyone who did not change (a pair of
            // two changed figures was judged with the first as viewer).
            for j in 0..list.len() {
                let line = |k: usize| lines.as_ref().and_then(|l| l[k]);
                let by = match line(j) {
                    Some(clear) => judge.verdict_by(d, j, |_| clear),
                    None => judge.verdict(vision, d, j),
                };
                if let Some(by) = by {
                    fresh.push(((list[d].index, list[j].index), by));
                }
                if changed[j] {
                    continue;
                }
                let by = match line(j) {
                    Some(clear) => judge.verdict_by(j, d, |_| clear),
                    None => judge.verdict(vision, j, d),
                };
                if let Some(by) = by {
                    fresh.push(((list[j].index, list[d].index), by));
                }
            }
        }
        Some(merge(kept, by_viewer(fresh)))
    }
}

/// Two ordered lists with no pair in common, as one ordered list.
fn merge(
    kept: impl Iterator<Item = <SeenList as IntoIterator>::Item>,
    fresh: SeenList,
) -> SeenList {
    // A filter's lower bound is nought: its upper bound, the last look's whole list, is
    // the room that spares growing a crowd's list a pair at a time.
    let (low, high) = kept.size_hint();
    let mut out = Vec::with_capacity(fresh.len() + high.unwrap_or(low));
    let mut fresh = fresh.into_iter().peekable();
    for p in kept {
        while let Some(f) = fresh.next_if(|f| f.0 < p.0) {
            out.push(f);
        }
        out.push(p);
    }
    out.extend(fresh);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::LightSource;
    use crate::rules::combat::Condition;
    use crate::scene::MapSpec;
    use crate::sim::sight_scan::seen_pairs;
    use proptest::prelude::*;

    /// A figure: its cell, a light radius (0: none), infravision (0: none), its state (0 up,
    /// 1 unconscious, 2 dead) and magical darkness on it.
    type Gen = ((u8, u8), u8, u8, u8, bool);

    fn figure() -> impl Strategy<Value = Gen> {
        (
            (0u8..20, 0u8..20),
            prop_oneof![3 => Just(0u8), 1 => Just(15u8), 1 => Just(30u8)],
            prop_oneof![2 => Just(0u8), 1 => Just(60u8)],
            prop_oneof![8 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
            proptest::bool::weighted(0.1),
        )
    }

    fn looker(index: usize, g: Gen) -> Looker {
        let ((x, y), light, infra, state, dark) = g;
        Looker {
            index,
            at: (f64::from(x) * 5.0 + 2.5, f64::from(y) * 5.0 + 2.5),
            condition: [Condition::Up, Condition::Unconscious, Condition::Dead][state as usize],
            light_ft: (light > 0).then_some(f64::from(light)),
            infravision_ft: (infra > 0).then_some(f64::from(infra)),
            in_darkness: dark,
        }
    }

    fn frame(vision: &mut Vision, list: &[Looker], fixed: &[(u8, u8)]) -> Frame {
        let lights: Vec<LightSource> = (fixed.iter())
            .map(|&(x, y)| LightSource {
                at: (f64::from(x) * 5.0 + 2.5, f64::from(y) * 5.0 + 2.5),
                radius_ft: 15.0,
            })
            .chain(list.iter().filter_map(|f| {
                Some(LightSource {
                    at: f.at,
                    radius_ft: f.light_ft?,
                })
            }))
            .collect();
        Frame::new(vision, false, &lights, list)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Looks that start from the last one find exactly what a whole look finds, step
        /// after step, on random walled maps, whatever changes: figures moving, lights
        /// carried or put out, falls and deaths, darkness — whether many pairs are judged
        /// again or few.
        #[test]
        fn a_look_from_the_last_is_a_whole_look(
            walls in proptest::collection::vec(any::<u8>(), 400),
            start in proptest::collection::vec(figure(), 2..40),
            steps in proptest::collection::vec(
                proptest::collection::vec((any::<prop::sample::Index>(), figure()), 0..4), 1..6),
            fixed in proptest::collection::vec((0u8..20, 0u8..20), 0..3),
        ) {
            let rows: Vec<String> = (0..20)
                .map(|y| (0..20).map(|x| if walls[y * 20 + x] < 30 { '#' } else { '.' }).collect())
                .collect();
            let grid = MapSpec { cell_ft: 5.0, rows, ..Default::default() }.grid().unwrap();
            let mut vision = Vision::new(&grid);
            let mut list: Vec<Looker> = start.into_iter().enumerate().map(|(k, g)| looker(k, g)).collect();
            let f = frame(&mut vision, &list, &fixed);
            let mut look = Look::new(&list, &f, Arc::new(seen_pairs(&mut vision, &f, &list, 0)));
            for step in steps {
                for (pick, g) in step {
                    let k = pick.index(list.len());
                    list[k] = looker(k, g);
                }
                let f = frame(&mut vision, &list, &fixed);
                let whole = seen_pairs(&mut vision, &f, &list, 0);
                let next = look.next_within(&mut vision, &f, &list, usize::MAX);
                prop_assert_eq!(next.as_ref(), Some(&whole));
                look = Look::new(&list, &f, Arc::new(whole));
            }
        }
    }

    /// A figure added since the last look is not worked out from it.
    #[test]
    fn another_crowd_is_looked_at_whole() {
        let grid = MapSpec {
            cell_ft: 5.0,
            rows: vec!["....".into(); 4],
            ..Default::default()
        }
        .grid()
        .unwrap();
        let mut vision = Vision::new(&grid);
        let one = vec![looker(0, ((0, 0), 15, 0, 0, false))];
        let f = frame(&mut vision, &one, &[]);
        let look = Look::new(&one, &f, Arc::new(Vec::new()));
        let two = vec![one[0], looker(1, ((3, 3), 0, 0, 0, false))];
        let f = frame(&mut vision, &two, &[]);
        assert!(look.next(&mut vision, &f, &two).is_none());
    }
}
