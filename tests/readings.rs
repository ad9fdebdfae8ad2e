//! The readings a DM may switch: each named option's default, and what its alternative does,
//! on the case it is about (DMG p.63, p.65-67).

use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::first::Context;
use firststrike::rules::options::{
    ExtraBlows, InstantActions, LaterRoutines, MissileVolley, MissileVsCharge, RulesOptions,
};
use firststrike::rules::sequence::{EventKind, Sequence, round_sequence};

fn with(options: RulesOptions) -> Context {
    Context {
        options,
        ..Context::default()
    }
}

fn cast(name: &str, die: u32, segments: u32) -> Declared {
    Declared::melee(name, die)
        .side(name)
        .kind(ActionKind::Cast {
            segments,
            device: false,
        })
}

/// DMG p.63 (VII A 5): by default a rate of fire of 2 shoots first and last like melee
/// routines; read as one block, both shots fly together where a single routine would.
#[test]
fn a_volley_spread_or_in_one_block() {
    let archer = Declared::melee("Archer", 5)
        .side("A")
        .kind(ActionKind::Missile)
        .routines(2);
    let fighter = Declared::melee("Fighter", 2).side("F").sf(5);
    let spread = round_sequence(&[archer.clone(), fighter.clone()], &Context::default());
    assert_eq!(spread.outline(), vec!["Archer", "Fighter", "Archer"]);
    let block = with(RulesOptions {
        missile_volley: MissileVolley::OneBlock,
        ..RulesOptions::default()
    });
    assert_eq!(
        round_sequence(&[archer.clone(), fighter.clone()], &block).outline(),
        vec!["Archer+Archer", "Fighter"]
    );
    // Losing initiative, the block comes after the fighter's blow.
    let loser = Declared { die: 1, ..archer };
    assert_eq!(
        round_sequence(&[loser, fighter], &block).outline(),
        vec!["Fighter", "Archer+Archer"]
    );
}

/// The table's chart: initial missile fire beats a charge. Read by the dice, a charger whose
/// side wins reaches the archer first and the shots not yet loosed are lost (DMG p.66);
/// on a tie the missiles still go first.
#[test]
fn a_charge_against_an_archer_by_the_dice() {
    let archer = Declared::melee("Archer", 2)
        .side("A")
        .kind(ActionKind::Missile);
    let ogre = Declared::melee("Ogre", 5)
        .side("O")
        .kind(ActionKind::Charge { arrival_segment: 3 });
    let default = round_sequence(&[archer.clone(), ogre.clone()], &Context::default());
    assert_eq!(
        default.decisions[0].decision.rule.id,
        "missile.beats_charge"
    );
    assert_eq!(default.outline()[0], "Archer");
    let dice = with(RulesOptions {
        missile_vs_charge: MissileVsCharge::ByInitiative,
        ..RulesOptions::default()
    });
    let s = round_sequence(&[archer.clone(), ogre.clone()], &dice);
    assert_eq!(
        s.decisions[0].decision.rule.id,
        "missile.charge_by_initiative"
    );
    assert!(
        !s.outline().iter().any(|b| b.contains("Archer")),
        "no shot is loosed"
    );
    let tied = round_sequence(&[Declared { die: 5, ..archer }, ogre], &dice);
    assert_eq!(tied.outline()[0], "Archer");
}

/// DMG p.65-67: an attacker who wins initiative strikes before a spell completes; read so,
/// an action that takes no time goes off first instead.
#[test]
fn an_instant_action_against_a_winning_attacker() {
    let wand = cast("Wand", 2, 0);
    let orc = Declared::melee("Orc", 5).side("O").sf(5);
    let default = round_sequence(&[wand.clone(), orc.clone()], &Context::default());
    assert_eq!(default.outline(), vec!["Orc", "Wand"]);
    let instant = with(RulesOptions {
        instant_actions: InstantActions::InstantFirst,
        ..RulesOptions::default()
    });
    let s = round_sequence(&[wand, orc], &instant);
    assert_eq!(s.outline(), vec!["Wand", "Orc"]);
    assert_eq!(s.decisions[0].decision.rule.id, "spell.instant_first");
}

/// DMG p.65: only the first routine is timed against a spell. By default the later ones come
/// after its completion; read otherwise, they are left unordered against it.
#[test]
fn later_routines_after_the_completion_or_unordered() {
    let orc = Declared::melee("Orc", 5).side("O").sf(5).routines(2);
    let mage = cast("Mage", 2, 5);
    let completion_before_second = |s: &Sequence| {
        let beat_of = |pred: &dyn Fn(&EventKind) -> bool| {
            s.beats
                .iter()
                .find(|b| b.events.iter().any(|e| pred(&e.kind)))
                .unwrap()
        };
        let done = beat_of(&|k| *k == EventKind::Complete);
        let second = beat_of(&|k| matches!(k, EventKind::Routine { routine: 2, .. }));
        second.after.contains(&done.beat)
    };
    let default = round_sequence(&[orc.clone(), mage.clone()], &Context::default());
    assert!(completion_before_second(&default));
    let unordered = with(RulesOptions {
        later_routines: LaterRoutines::Unordered,
        ..RulesOptions::default()
    });
    assert!(!completion_before_second(&round_sequence(
        &[orc, mage],
        &unordered
    )));
}

/// DMG p.66: a much faster weapon strikes twice before the slower one on a tie. By default
/// that holds for the first routine when both have two routines; read strictly, only for
/// single routines.
#[test]
fn speed_factor_extra_blows_with_two_routines_each() {
    let dagger = Declared::melee("Dagger", 3).side("D").sf(2).routines(2);
    let pike = Declared::melee("Pike", 3).side("P").sf(13).routines(2);
    let blows = |s: &Sequence| {
        s.beats
            .iter()
            .flat_map(|b| &b.events)
            .filter(|e| e.name == "Dagger")
            .count()
    };
    let default = round_sequence(&[dagger.clone(), pike.clone()], &Context::default());
    assert_eq!(
        blows(&default),
        4,
        "two routines, the first with two extra blows"
    );
    let strict = with(RulesOptions {
        extra_blows: ExtraBlows::SingleRoutinesOnly,
        ..RulesOptions::default()
    });
    assert_eq!(blows(&round_sequence(&[dagger, pike], &strict)), 2);
}
