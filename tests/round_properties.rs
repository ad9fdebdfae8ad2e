//! Properties of whole rounds played by the engine, over generated multi-figure scenes:
//! fights are independent, a ruined spell never completes, nothing happens after the last
//! round, and an item of speed strikes before its opponent's first blow.

use firststrike::scene::{Scene, parse};
use firststrike::sim::{EventKind as K, LogEvent};
use firststrike::testing::SceneRun;
use proptest::prelude::*;

/// One generated figure: its action and its numbers.
#[derive(Clone, Debug)]
struct Fig {
    /// 0 melee, 1 missile, 2 cast, 3 charge.
    kind: u8,
    weapon: &'static str,
    rate: &'static str,
    casting: u32,
    target: usize,
    to_hit: Vec<u32>,
    hp: u32,
    of_speed: bool,
}

const WEAPONS: [&str; 5] = ["dagger", "long sword", "club", "halberd", "short sword"];
const RATES: [&str; 4] = ["1/1", "3/2", "2/1", "1/1"];

fn fig() -> impl Strategy<Value = Fig> {
    (
        0u8..4,
        0usize..5,
        0usize..4,
        1u32..=10,
        0usize..8,
        prop::collection::vec(1u32..=20, 8),
        3u32..=30,
        prop::bool::weighted(0.15),
    )
        .prop_map(|(kind, w, r, casting, target, to_hit, hp, of_speed)| Fig {
            kind,
            weapon: WEAPONS[w],
            rate: RATES[r],
            casting,
            target,
            to_hit,
            hp,
            of_speed,
        })
}

/// A fight: 2-4 figures on two sides, and each side's initiative die.
fn fight() -> impl Strategy<Value = (Vec<Fig>, u32, u32)> {
    (prop::collection::vec(fig(), 2..=4), 1u32..=6, 1u32..=6)
}

/// Figures of fight `f` are named "F{f}-{k}" on sides "F{f}a"/"F{f}b", standing around
/// x = 1000·f; chargers start 60 ft off.
fn write_fight(
    f: usize,
    figs: &[Fig],
    combatants: &mut String,
    declare: &mut String,
    dice: &mut String,
) {
    let name = |k: usize| format!("F{f}-{k}");
    let side = |k: usize| format!("F{f}{}", if k.is_multiple_of(2) { "a" } else { "b" });
    for (k, g) in figs.iter().enumerate() {
        let x = 1000.0 * f as f64 + 4.0 * k as f64;
        let y = if g.kind == 3 { 60.0 } else { 0.0 };
        let weapon = if g.kind == 1 {
            "light crossbow"
        } else {
            g.weapon
        };
        combatants.push_str(&format!(
            r#"(name: "{}", side: "{}", at: ({x}, {y}), weapon: Some("{weapon}"), attacks: Some("{}"), hp: Some({}), ac: Some(5), of_speed: {}),"#,
            name(k),
            side(k),
            g.rate,
            g.hp,
            g.of_speed
        ));
        // A target on the other side.
        let foes: Vec<usize> = (0..figs.len()).filter(|j| j % 2 != k % 2).collect();
        let t = name(foes[g.target % foes.len()]);
        let act = match g.kind {
            0 => format!(r#"Melee(targets: ["{t}"])"#),
            1 => format!(r#"Missile(targets: ["{t}"])"#),
            2 => format!(
                r#"Cast(spell: "hold person", target: Some("{t}"), segments: Some({}))"#,
                g.casting
            ),
            _ => format!(r#"Charge(targets: ["{t}"])"#),
        };
        declare.push_str(&format!(r#""{}": {act},"#, name(k)));
        let hits: Vec<String> = g.to_hit.iter().map(u32::to_string).collect();
        dice.push_str(&format!(r#""{}": [{}],"#, name(k), hits.join(", ")));
    }
}

fn scene(fights: &[(Vec<Fig>, u32, u32)], rounds: u32) -> Scene {
    let (mut c, mut d, mut dice, mut init) =
        (String::new(), String::new(), String::new(), String::new());
    for (f, (figs, da, db)) in fights.iter().enumerate() {
        write_fight(f, figs, &mut c, &mut d, &mut dice);
        init.push_str(&format!(r#""F{f}a": {da}, "F{f}b": {db},"#));
    }
    let round = format!("(declare: {{{d}}}, initiative: {{{init}}}),");
    let more = format!("(initiative: {{{init}}}),").repeat(rounds as usize - 1);
    let src = format!(
        r#"Scene(name: "generated", setting: Indoors, seed: 11, combatants: [{c}],
            rounds: [{round}{more}], dice: {{ ToHit: {{{dice}}} }})"#
    );
    parse("generated.ron", &src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn play(s: Scene) -> Vec<LogEvent> {
    let mut r = SceneRun::new(s, None, None);
    r.run_to_end();
    r.log().events.clone()
}

/// What a fight's own events say, in their order (the log's numbering within a segment
/// counts other fights' events too, so it is left out).
fn of_fight(events: &[LogEvent], f: usize) -> Vec<String> {
    let mine = |who: &str| who.starts_with(&format!("F{f}"));
    events
        .iter()
        .filter(|e| mine(&e.actor) && e.target.as_deref().is_none_or(mine))
        .map(|e| {
            format!(
                "{} {} {:?} {} {:?} {}",
                e.round, e.segment, e.kind, e.actor, e.target, e.detail
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Adding a fight between two new figures that nobody else aims at never changes the
    /// order, segments or outcomes of the fights already there.
    #[test]
    fn fights_are_independent(a in fight(), b in fight(), c in fight()) {
        let alone = play(scene(&[a.clone(), b.clone()], 2));
        let more = play(scene(&[a, b, c], 2));
        for f in 0..2 {
            prop_assert_eq!(of_fight(&alone, f), of_fight(&more, f));
        }
    }

    /// A spell that was ruined, or whose caster fell, never completes afterwards; and no
    /// one who is down completes anything.
    #[test]
    fn a_ruined_spell_never_completes(a in fight(), b in fight()) {
        let log = play(scene(&[a, b], 2));
        for (i, e) in log.iter().enumerate() {
            if e.kind == K::SpellDisrupted {
                let later = log[i..].iter().any(|x| x.kind == K::SpellComplete && x.actor == e.actor);
                prop_assert!(!later, "{} completes after being ruined", e.actor);
            }
            if e.kind == K::Down {
                let later = log[i..].iter().any(|x| x.kind == K::SpellComplete && x.actor == e.actor);
                prop_assert!(!later, "{} completes while down", e.actor);
            }
        }
    }

    /// Nothing happens after the last round's end: it is the log's last event, and every
    /// round ends exactly once.
    #[test]
    fn nothing_after_the_last_round(a in fight(), rounds in 1u32..=3) {
        let log = play(scene(&[a], rounds));
        let last = log.last().unwrap();
        prop_assert_eq!(last.kind, K::RoundEnd);
        prop_assert_eq!((last.round, last.segment), (rounds, 10));
        let ends: Vec<u32> = log.iter().filter(|e| e.kind == K::RoundEnd).map(|e| e.round).collect();
        prop_assert_eq!(ends, (1..=rounds).collect::<Vec<_>>());
        prop_assert!(log.iter().all(|e| e.round <= rounds));
    }

    /// An item of speed strikes before its opponent's first blow in the round, whatever
    /// the dice and however many routines the opponent has (DMG p.168).
    #[test]
    fn an_item_of_speed_strikes_first(mut x in fig(), mut y in fig(), da in 1u32..=6, db in 1u32..=6) {
        x.kind = 0;
        y.kind = 0;
        x.of_speed = true;
        y.of_speed = false;
        (x.target, y.target) = (0, 0);
        x.hp = 200;
        y.hp = 200;
        let log = play(scene(&[(vec![x, y], da, db)], 1));
        let first = |who: &str| log.iter().position(|e| e.actor == who && matches!(e.kind, K::Hit | K::Miss));
        let (Some(fast), Some(slow)) = (first("F0-0"), first("F0-1")) else {
            return Err(TestCaseError::fail("both strike"));
        };
        prop_assert!(fast < slow);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Two figures charging each other (DMG p.66): the meeting is symmetric, never later than
    /// either would arrive alone, and the engine's figures arrive in exactly the segments the
    /// rule gives, whatever their rates, reaches and distance (from farther than 1").
    #[test]
    fn two_charges_meet_as_the_rule_says(
        ma in 3u32..=18, mb in 3u32..=18, ra in 1u32..=3, rb in 1u32..=3, gap in 11u32..=200,
    ) {
        use firststrike::rules::charge::{arrival_segment, charge_feet_per_segment, mutual_arrival, Body};
        use firststrike::rules::distance::Setting;
        let (fa, fb) = (
            charge_feet_per_segment(ma, Setting::Indoors, Body::Biped),
            charge_feet_per_segment(mb, Setting::Indoors, Body::Biped),
        );
        let (reach_a, reach_b) = (f64::from(ra * 5), f64::from(rb * 5));
        let d = f64::from(gap) + reach_a.max(reach_b);
        let ((sa, sb), _) = mutual_arrival(d, (fa, reach_a), (fb, reach_b));
        let ((tb, ta), _) = mutual_arrival(d, (fb, reach_b), (fa, reach_a));
        prop_assert_eq!((sa, sb), (ta, tb));
        prop_assert!(sa <= arrival_segment(d - reach_a, fa).0.max(1));
        prop_assert!(sb <= arrival_segment(d - reach_b, fb).0.max(1));
        prop_assume!(sa.max(sb) <= 10);
        let src = format!(
            r#"Scene(name: "m", setting: Indoors, combatants: [
                (name: "A", side: "A", at: (0.0, 0.0), movement: {ma}, reach_ft: {reach_a:?}, hp: 100),
                (name: "B", side: "B", at: (0.0, {d:?}), movement: {mb}, reach_ft: {reach_b:?}, hp: 100)],
               rounds: [(declare: {{ "A": Charge(targets: ["B"]), "B": Charge(targets: ["A"]) }},
                         initiative: {{ "A": 3, "B": 4 }})])"#
        );
        let log = play(parse("m.ron", &src).unwrap_or_else(|e| panic!("{e}")));
        let arrive = |who: &str| log.iter().find(|e| e.kind == K::Arrive && e.actor == who).map(|e| e.segment);
        prop_assert_eq!(arrive("A"), Some(sa.max(1)));
        prop_assert_eq!(arrive("B"), Some(sb.max(1)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// DMG p.66: whatever the charger's rate, the distance, the weapons and the dice, a figure
    /// that declared melee at its charger (or nothing) strikes back in the segment the charge
    /// arrives; between weapons of different length the longer strikes first.
    #[test]
    fn a_charged_figure_strikes_back_at_contact(
        m in 6u32..=18, gap in 11u32..=200, wc in 0usize..5, wd in 0usize..5,
        declared in 0u8..3, dc in 1u32..=6, dd in 1u32..=6,
    ) {
        let (wc, wd) = (WEAPONS[wc], WEAPONS[wd]);
        let act = ["Melee(targets: [\"Charger\"])", "Hold", "Other(\"searches a pack\")"][declared as usize];
        let src = format!(
            r#"Scene(name: "c", setting: Indoors, combatants: [
                (name: "Charger", side: "C", at: (0.0, 0.0), movement: {m}, weapon: "{wc}", hp: 500),
                (name: "Defender", side: "D", at: (0.0, {d:?}), weapon: "{wd}", hp: 500)],
               rounds: [(declare: {{ "Charger": Charge(targets: ["Defender"]), "Defender": {act} }},
                         initiative: {{ "C": {dc}, "D": {dd} }})])"#,
            d = f64::from(gap) + 5.0
        );
        let log = play(parse("c.ron", &src).unwrap_or_else(|e| panic!("{e}")));
        let Some(arrived) = log.iter().find(|e| e.kind == K::Arrive && e.actor == "Charger") else {
            return Ok(()); // too far for this round
        };
        let blows: Vec<&LogEvent> = log.iter().filter(|e| matches!(e.kind, K::Hit | K::Miss)).collect();
        let def = blows.iter().find(|e| e.actor == "Defender").expect("the defender strikes back");
        prop_assert_eq!((def.round, def.segment), (arrived.round, arrived.segment));
        let len = |w: &str| firststrike::tables::weapon(w).unwrap().length_ft;
        let first = blows[0].actor.as_str();
        if len(wd) > len(wc) {
            prop_assert_eq!(first, "Defender");
        } else if len(wc) > len(wd) {
            prop_assert_eq!(first, "Charger");
        }
    }
}
