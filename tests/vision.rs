//! Properties of the field of view and line of sight (issue: map, line of sight and
//! light), and agreement with bracket-pathfinding's symmetric shadowcasting, the same
//! algorithm written independently.

use bracket_pathfinding::prelude::{Algorithm2D, BaseMap, FieldOfViewAlg, Point};
use firststrike::map::{FieldOfView, Grid, SightMap, Vision, line_of_sight};
use firststrike::scene::{CellKind, MapSpec};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// A random map: `walls` holds the opaque cells, row-major.
#[derive(Clone, Debug)]
struct RandomMap {
    w: usize,
    h: usize,
    walls: Vec<bool>,
}

impl RandomMap {
    fn sight(&self) -> SightMap {
        SightMap::from_fn(self.w, self.h, |x, y| self.walls[y * self.w + x])
    }
    fn floors(&self) -> Vec<(i32, i32)> {
        (0..self.h)
            .flat_map(|y| (0..self.w).map(move |x| (x, y)))
            .filter(|&(x, y)| !self.walls[y * self.w + x])
            .map(|(x, y)| (x as i32, y as i32))
            .collect()
    }
}

impl BaseMap for RandomMap {
    fn is_opaque(&self, idx: usize) -> bool {
        self.walls[idx]
    }
}

impl Algorithm2D for RandomMap {
    fn dimensions(&self) -> Point {
        Point::new(self.w as i32, self.h as i32)
    }
}

fn random_map() -> impl Strategy<Value = RandomMap> {
    (4usize..24, 4usize..24).prop_flat_map(|(w, h)| {
        prop::collection::vec(prop::bool::weighted(0.3), w * h).prop_map(move |walls| RandomMap {
            w,
            h,
            walls,
        })
    })
}

fn set(f: &FieldOfView) -> BTreeSet<(i32, i32)> {
    f.iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The shortcut the engine takes before computing a field of view: two cells with only
    /// open floor in the rectangle they span always see each other (at the radius that
    /// reaches), and the rectangle is open exactly when it holds no wall.
    #[test]
    fn open_floor_between_is_always_seen(
        m in (4usize..24, 4usize..24).prop_flat_map(|(w, h)| {
            prop::collection::vec(prop::bool::weighted(0.08), w * h)
                .prop_map(move |walls| RandomMap { w, h, walls })
        }),
    ) {
        let s = m.sight();
        let floors = m.floors();
        for &a in &floors {
            for &b in &floors {
                let walls = (a.0.min(b.0)..=a.0.max(b.0))
                    .flat_map(|x| (a.1.min(b.1)..=a.1.max(b.1)).map(move |y| (x, y)))
                    .filter(|&(x, y)| m.walls[y as usize * m.w + x as usize])
                    .count();
                prop_assert_eq!(s.open_between(a, b), walls == 0, "{:?} {:?}", a, b);
                if walls == 0 {
                    prop_assert!(line_of_sight(&s, a, b), "{:?} does not see {:?} over open floor", a, b);
                }
            }
        }
    }

    /// A sees B exactly when B sees A, for every pair of open cells within the radius.
    #[test]
    fn sight_is_symmetric(m in random_map(), r in 1i32..12) {
        let s = m.sight();
        let floors = m.floors();
        let fovs: BTreeMap<_, _> = floors.iter().map(|&c| (c, FieldOfView::of(&s, c, r))).collect();
        for &a in &floors {
            for &b in &floors {
                prop_assert_eq!(fovs[&a].contains(b.0, b.1), fovs[&b].contains(a.0, a.1),
                    "{:?} and {:?} at radius {}", a, b, r);
            }
        }
    }

    /// Nothing beyond the radius (a cell is within r when dx² + dy² ≤ r² + r), nothing off
    /// the map, and the origin is always seen.
    #[test]
    fn nothing_beyond_the_radius(m in random_map(), r in 0i32..12, pick in any::<prop::sample::Index>()) {
        let s = m.sight();
        let floors = m.floors();
        prop_assume!(!floors.is_empty());
        let o = floors[pick.index(floors.len())];
        let f = FieldOfView::of(&s, o, r);
        prop_assert!(f.contains(o.0, o.1));
        prop_assert_eq!(f.iter().count(), f.len());
        for (x, y) in f.iter() {
            let (dx, dy) = (x - o.0, y - o.1);
            prop_assert!(dx * dx + dy * dy <= r * r + r);
            prop_assert!(s.contains(x, y));
        }
    }

    /// A larger radius changes nothing nearer: the field of view is the unlimited one cut
    /// to its disc (this is what lets the engine cache by rounded radius).
    #[test]
    fn radius_only_cuts(m in random_map(), r in 1i32..10, extra in 1i32..20, pick in any::<prop::sample::Index>()) {
        let s = m.sight();
        let floors = m.floors();
        prop_assume!(!floors.is_empty());
        let o = floors[pick.index(floors.len())];
        let near = set(&FieldOfView::of(&s, o, r));
        let far: BTreeSet<_> = set(&FieldOfView::of(&s, o, r + extra))
            .into_iter()
            .filter(|(x, y)| (x - o.0).pow(2) + (y - o.1).pow(2) <= r * r + r)
            .collect();
        prop_assert_eq!(near, far);
    }

    /// A wall right across the map hides everything on the other side.
    #[test]
    fn a_wall_across_blocks(m in random_map(), col in 1usize..3, pick in any::<prop::sample::Index>()) {
        let mut m = m;
        let col = col.min(m.w - 2);
        for y in 0..m.h { m.walls[y * m.w + col] = true; }
        let s = m.sight();
        let left: Vec<_> = m.floors().into_iter().filter(|c| (c.0 as usize) < col).collect();
        prop_assume!(!left.is_empty());
        let a = left[pick.index(left.len())];
        let f = FieldOfView::of(&s, a, 40);
        prop_assert!(f.iter().all(|(x, _)| x as usize <= col), "seen past the wall from {:?}", a);
    }

    /// On a map smaller than the radius, our cells are exactly bracket-pathfinding's
    /// symmetric shadowcasting (same algorithm, same radius rule, written independently).
    #[test]
    fn agrees_with_bracket(m in random_map(), pick in any::<prop::sample::Index>()) {
        let s = m.sight();
        let floors = m.floors();
        prop_assume!(!floors.is_empty());
        let o = floors[pick.index(floors.len())];
        let ours = set(&FieldOfView::of(&s, o, 40));
        let theirs: BTreeSet<_> = FieldOfViewAlg::SymmetricShadowcasting
            .field_of_view_set(Point::new(o.0, o.1), 40, &m)
            .into_iter()
            .map(|p| (p.x, p.y))
            .collect();
        prop_assert_eq!(ours, theirs);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// The lines the incremental look reads from one figure's field of view
    /// (`Vision::clear_lines`) are the lines `Vision::line_of_sight` gives, looked along
    /// either way, for every pair of open cells; a cell that blocks sight gets no answer.
    #[test]
    fn lines_from_one_field_of_view_are_the_lines_of_sight(
        m in random_map(),
        pick in any::<prop::sample::Index>(),
    ) {
        let rows: Vec<String> = (0..m.h)
            .map(|y| (0..m.w).map(|x| if m.walls[y * m.w + x] { '#' } else { '.' }).collect())
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut v = Vision::new(&grid(&rows));
        let cells: Vec<(i32, i32)> = (0..m.h as i32)
            .flat_map(|y| (0..m.w as i32).map(move |x| (x, y)))
            .collect();
        let from = cells[pick.index(cells.len())];
        let diagonal = firststrike::map::fov::radius_to_reach((0, 0), (m.w as i32, m.h as i32));
        let feet = |c: (i32, i32)| (f64::from(c.0) * 5.0 + 2.5, f64::from(c.1) * 5.0 + 2.5);
        let lines = v.clear_lines(from, diagonal, &cells);
        let from_wall = m.walls[from.1 as usize * m.w + from.0 as usize];
        prop_assert_eq!(lines.is_none(), from_wall);
        let Some(lines) = lines else { return Ok(()) };
        for (k, &to) in cells.iter().enumerate() {
            let wall = m.walls[to.1 as usize * m.w + to.0 as usize];
            match lines[k] {
                None => prop_assert!(wall, "{:?}: no answer for an open cell", to),
                Some(clear) => {
                    prop_assert!(!wall);
                    prop_assert_eq!(clear, v.line_of_sight(feet(from), feet(to)), "{:?} to {:?}", from, to);
                    prop_assert_eq!(clear, v.line_of_sight(feet(to), feet(from)), "{:?} from {:?}", from, to);
                }
            }
        }
    }
}

/// A field of view that reaches the whole map holds the map's cells and no more, from
/// wherever it is looked: from a corner its square of the radius is four times the map.
#[test]
fn a_field_of_view_holds_no_more_than_the_map() {
    let s = SightMap::from_fn(200, 200, |x, y| (x * 7 + y * 13) % 23 == 0);
    let diagonal = firststrike::map::fov::radius_to_reach((0, 0), (200, 200));
    for origin in [(0, 0), (199, 0), (100, 100), (0, 199), (199, 199)] {
        let f = FieldOfView::of(&s, origin, diagonal);
        // The bits of 200 × 200 cells, and the sweep's own small buffers.
        assert!(
            f.bytes() < 200 * 200 / 8 + 16 * 1024,
            "{origin:?}: {} bytes",
            f.bytes()
        );
        assert!(f.contains(origin.0, origin.1));
        assert!(!f.contains(-1, 0) && !f.contains(200, 5) && !f.contains(5, 200));
    }
}

#[test]
fn an_open_map_gives_the_full_disc() {
    let s = SightMap::from_fn(200, 200, |_, _| false);
    for r in [0, 1, 4, 12, 30, 60] {
        let f = FieldOfView::of(&s, (100, 100), r);
        let disc = (-r..=r)
            .flat_map(|dx| (-r..=r).map(move |dy| (dx, dy)))
            .filter(|(dx, dy)| dx * dx + dy * dy <= r * r + r)
            .count();
        assert_eq!(f.len(), disc, "radius {r}");
    }
}

fn grid(rows: &[&str]) -> Grid {
    MapSpec {
        cell_ft: 5.0,
        rows: rows.iter().map(|r| r.to_string()).collect(),
        ..Default::default()
    }
    .grid()
    .unwrap()
}

#[test]
fn doors_block_only_when_closed() {
    let rows = ["..#..", "..+..", "..#.."];
    let mut g = grid(&rows);
    let v = Vision::new(&g);
    assert!(!line_of_sight(v.sight_map(), (0, 1), (4, 1)), "closed door");
    g.set(2, 1, CellKind::DoorOpen);
    let v = Vision::new(&g);
    assert!(line_of_sight(v.sight_map(), (0, 1), (4, 1)), "open door");
    assert!(line_of_sight(v.sight_map(), (4, 1), (0, 1)));
    // Water, scrub, forest and marsh do not block sight here (only walls, shut doors and
    // pillars do).
    let g = grid(&["~\"T%."]);
    assert!(line_of_sight(Vision::new(&g).sight_map(), (0, 0), (4, 0)));
}

#[test]
fn lights_reach_their_radius_and_stop_at_walls() {
    use firststrike::map::LightSource;
    let g = grid(&[
        "..........", //
        "..........",
        ".....#....",
        "..........",
    ]);
    let mut v = Vision::new(&g);
    // A 10-ft light at the centre of cell (2, 2).
    let light = LightSource {
        at: (12.5, 12.5),
        radius_ft: 10.0,
    };
    let lit: BTreeSet<_> = v.lit_cells(light).iter().copied().collect();
    assert!(lit.contains(&(4, 2)) && lit.contains(&(2, 0)) && lit.contains(&(0, 2)));
    assert!(!lit.contains(&(5, 0)), "beyond the radius");
    // The pillar-like wall at (5, 2) is lit on its face but shades (6, 2)... which is out of
    // range anyway; move the light next to it to see the shadow.
    let near = LightSource {
        at: (22.5, 12.5),
        radius_ft: 15.0,
    };
    let lit: BTreeSet<_> = v.lit_cells(near).iter().copied().collect();
    assert!(lit.contains(&(5, 2)), "the wall's face");
    assert!(
        !lit.contains(&(6, 2)) && !lit.contains(&(7, 2)),
        "its shadow"
    );
    assert!(v.lights(near, (27.5, 7.5)));
    assert!(!v.lights(near, (32.5, 12.5)));
}

/// One generated figure: cell, offset in the cell, light, infravision.
type GenFigure = (
    (usize, usize),
    (f64, f64),
    Option<&'static str>,
    Option<u32>,
);

fn light_ft(name: &str) -> f64 {
    match name {
        "torch" => 15.0,
        "lantern" => 30.0,
        _ => 5.0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Who sees whom as the engine works it out (a field of view per figure in light, a
    /// grid of near figures for the dark) is exactly the pair-by-pair definition of DMG
    /// p.62: a clear line (`Vision::line_of_sight`), then its own light or a light on it
    /// (`Vision::lights`) at any distance, else within twice the viewer's light, or of the
    /// brightest light it stands in, or its infravision — on random maps, lights and figures. The sight events of the encounter
    /// are exactly those sightings.
    #[test]
    fn the_engine_sees_what_the_pairwise_rule_sees(
        w in 10usize..28, h in 10usize..28,
        walls in proptest::collection::vec(any::<u8>(), 28 * 28),
        figs in proptest::collection::vec(
            ((0usize..28, 0usize..28), (0.1f64..4.9, 0.1f64..4.9),
             proptest::option::of(proptest::sample::select(vec!["torch", "lantern", "candle"])),
             proptest::option::of(prop_oneof![Just(30u32), Just(60u32)])),
            2..14),
        fixed in proptest::collection::vec((0usize..28, 0usize..28), 0..3),
        daylight in proptest::bool::weighted(0.1),
    ) {
        let wall = |x: usize, y: usize| walls[y * 28 + x] < 40;
        let rows: Vec<String> = (0..h).map(|y| (0..w).map(|x| if wall(x, y) { '#' } else { '.' }).collect()).collect();
        // Figures and lights on open cells of the map only.
        let figs: Vec<GenFigure> = figs.into_iter().map(|((x, y), o, l, i)| ((x % w, y % h), o, l, i)).filter(|((x, y), ..)| !wall(*x, *y)).collect();
        let mut seen_cells = BTreeSet::new();
        let figs: Vec<GenFigure> = figs.into_iter().filter(|f| seen_cells.insert(f.0)).collect();
        prop_assume!(figs.len() >= 2);
        let fixed: Vec<(f64, f64)> = fixed.into_iter().map(|(x, y)| (x % w, y % h)).filter(|&(x, y)| !wall(x, y)).map(|(x, y)| (x as f64 * 5.0 + 2.5, y as f64 * 5.0 + 2.5)).collect();
        let at = |f: &GenFigure| (f.0.0 as f64 * 5.0 + f.1.0, f.0.1 as f64 * 5.0 + f.1.1);
        let mut src = format!("Scene(name: \"sight\", setting: Indoors, seed: 1, map: (cell_ft: 5.0, daylight: {daylight}, rows: [\n");
        for r in &rows { src.push_str(&format!("  \"{r}\",\n")); }
        src.push_str("], lights: [");
        for l in &fixed { src.push_str(&format!("(source: \"torch\", at: ({}, {})),", l.0, l.1)); }
        src.push_str("]),\n combatants: [\n");
        for (k, f) in figs.iter().enumerate() {
            let (x, y) = at(f);
            let light = f.2.map(|l| format!(", light: \"{l}\"")).unwrap_or_default();
            let infra = f.3.map(|i| format!(", infravision_ft: {i}.0")).unwrap_or_default();
            src.push_str(&format!("  (name: \"F{k}\", side: \"{}\", at: ({x}, {y}), weapon: \"dagger\", thac0: 20, ac: 8, hp: 5{light}{infra}),\n", ["A", "B"][k % 2]));
        }
        src.push_str(" ],\n rounds: [ (declare: {}) ])");
        let scene = firststrike::scene::parse("sight.ron", &src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let mut run = firststrike::testing::SceneRun::new(scene, None, None);
        run.step(1);
        let engine: BTreeSet<(usize, usize)> = run.app.world().resource::<firststrike::sim::Sightings>().iter().map(|p| p.0).collect();
        let events: BTreeSet<(String, String)> = run.log().events.iter()
            .filter(|e| e.kind == firststrike::sim::EventKind::Sight && e.round == 0 && e.segment == 0)
            .map(|e| (e.actor.to_string(), e.target.as_deref().unwrap().to_string()))
            .collect();
        // The rule, pair by pair.
        let grid = MapSpec { cell_ft: 5.0, rows: rows.clone(), ..Default::default() }.grid().unwrap();
        let mut vision = Vision::new(&grid);
        let lights: Vec<firststrike::map::LightSource> = fixed.iter().map(|&p| firststrike::map::LightSource { at: p, radius_ft: 15.0 })
            .chain(figs.iter().filter_map(|f| Some(firststrike::map::LightSource { at: at(f), radius_ft: light_ft(f.2?) })))
            .collect();
        let mut rule = BTreeSet::new();
        for (a, fa) in figs.iter().enumerate() {
            for (b, fb) in figs.iter().enumerate() {
                if a == b { continue; }
                let clear = vision.line_of_sight(at(fa), at(fb));
                let lit = daylight || lights.iter().any(|&l| vision.lights(l, at(fb)));
                let d = ((at(fa).0 - at(fb).0).powi(2) + (at(fa).1 - at(fb).1).powi(2)).sqrt();
                let by_own = fa.2.is_some_and(|l| d <= 2.0 * light_ft(l));
                let by_infra = fa.3.is_some_and(|r| d <= f64::from(r));
                // The brightest light whose reach the viewer stands in: relied on as its own.
                let relied = (!daylight).then(|| {
                    lights.iter().filter(|&&l| vision.lights(l, at(fa))).map(|l| l.radius_ft).fold(0.0, f64::max)
                });
                let by_relied = relied.is_some_and(|r| r > 0.0 && d <= 2.0 * r);
                if clear && (fb.2.is_some() || lit || by_own || by_infra || by_relied) {
                    rule.insert((a, b));
                }
            }
        }
        prop_assert_eq!(&engine, &rule);
        let named: BTreeSet<(String, String)> = rule.iter().map(|(a, b)| (format!("F{a}"), format!("F{b}"))).collect();
        prop_assert_eq!(events, named);
    }
}
