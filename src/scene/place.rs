//! Where new figures go: on open ground near a point, never on a wall or on top of another
//! figure. Adding a figure, duplicating one and adding a squad all place through
//! [`free_spots`], so a DM who adds twelve orcs sees twelve tokens, spread.

use super::Scene;

/// Spots for `n` figures near `at`, nearest first: cell centres in rings round the cell
/// holding `at`, on ground a figure can stand on, none within half a cell of a figure
/// already there (or of a spot already given). Fewer than `n` when the map runs out.
pub fn free_spots(scene: &Scene, at: (f64, f64), n: usize) -> Vec<(f64, f64)> {
    let grid = scene.map.as_ref().and_then(|m| m.grid().ok());
    let cell = scene.map.as_ref().map_or(5.0, |m| m.cell_ft);
    let centre = |c: (i64, i64)| ((c.0 as f64 + 0.5) * cell, (c.1 as f64 + 0.5) * cell);
    let mut start = ((at.0 / cell).floor() as i64, (at.1 / cell).floor() as i64);
    // A point off the map starts from the nearest cell on it.
    if let Some(g) = &grid {
        start = (
            start.0.clamp(0, g.width as i64 - 1),
            start.1.clamp(0, g.height as i64 - 1),
        );
    }
    let mut taken: Vec<(f64, f64)> = scene.combatants.iter().map(|c| c.at).collect();
    let mut out = Vec::new();
    // Rings out to the map's size (or 40 cells without a map).
    let reach = grid.as_ref().map_or(40, |g| g.width.max(g.height) as i64);
    for r in 0..=reach {
        let mut ring: Vec<(i64, i64)> = (-r..=r)
            .flat_map(|dx| (-r..=r).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| dx.abs().max(dy.abs()) == r)
            .map(|(dx, dy)| (start.0 + dx, start.1 + dy))
            .collect();
        let d2 = |c: &(i64, i64)| (c.0 - start.0).pow(2) + (c.1 - start.1).pow(2);
        ring.sort_by_key(|c| (d2(c), c.1, c.0));
        for c in ring {
            let p = centre(c);
            let ground = match &grid {
                Some(g) => g.get(c.0, c.1).is_some_and(|k| !k.blocks_movement()),
                None => c.0 >= 0 && c.1 >= 0,
            };
            let free = taken
                .iter()
                .all(|t| (t.0 - p.0).hypot(t.1 - p.1) >= cell / 2.0);
            if ground && free {
                out.push(p);
                taken.push(p);
                if out.len() == n {
                    return out;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{CombatantSpec, MapSpec};

    fn room() -> Scene {
        let mut s = crate::scene::edit::new_scene(
            crate::rules::distance::Setting::Indoors,
            25.0,
            15.0,
            5.0,
        );
        s.map = Some(MapSpec {
            cell_ft: 5.0,
            rows: vec![
                "#######".into(),
                "#.....#".into(),
                "#.#...#".into(),
                "#.....#".into(),
                "#######".into(),
            ],
            ..Default::default()
        });
        s.combatants = vec![CombatantSpec {
            name: "Orc".into(),
            at: (17.5, 12.5),
            ..Default::default()
        }];
        s
    }

    #[test]
    fn spots_are_open_unshared_and_near() {
        let s = room();
        let spots = free_spots(&s, (17.5, 12.5), 13);
        // 14 open cells (5 + 4 + 5), one held by the orc.
        assert_eq!(spots.len(), 13);
        for (k, p) in spots.iter().enumerate() {
            let g = s.map.as_ref().unwrap().grid().unwrap();
            assert!(g.passable_ft(p.0, p.1), "{p:?} on open ground");
            assert!(p != &(17.5, 12.5), "not on the orc");
            assert!(!spots[..k].contains(p), "each spot once");
        }
        // Nearest first: the first spots touch the orc's cell.
        let d = |p: &(f64, f64)| (p.0 - 17.5).hypot(p.1 - 12.5);
        assert!(d(&spots[0]) <= 5.0);
        assert!(
            spots
                .windows(2)
                .all(|w| (d(&w[0]) / 5.0).round() <= (d(&w[1]) / 5.0).ceil())
        );
        assert_eq!(
            free_spots(&s, (17.5, 12.5), 40).len(),
            13,
            "the room runs out"
        );
    }
}
