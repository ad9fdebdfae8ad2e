//! One test per worked example of the initiative and combat table, asserting what the text
//! says happens.

use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::attack_rate::AttackRate;
use firststrike::rules::charge::{self, Body};
use firststrike::rules::cite;
use firststrike::rules::declare::{self, Readied};
use firststrike::rules::dexterity;
use firststrike::rules::distance::{self, Setting, Terrain};
use firststrike::rules::first::{Context, First, who_first};
use firststrike::rules::initiative::{self, InitiativeResult};
use firststrike::rules::movement::{self, Armor};
use firststrike::rules::options::{AlternatingRate, HesitationRounding};
use firststrike::rules::sequence::round_sequence;
use firststrike::rules::speed_factor::MeleeRound;
use firststrike::rules::spell::{self, AttackResult};
use firststrike::rules::surprise::{
    self, Chance, NetSurprise, SpellFromSurprise, SurpriseAction, SurpriseRoll,
};

fn cast(name: &str, die: u32, segments: u32) -> Declared {
    Declared::melee(name, die).kind(ActionKind::Cast {
        segments,
        device: false,
    })
}

fn device(name: &str, die: u32, segments: u32) -> Declared {
    Declared::melee(name, die).kind(ActionKind::Cast {
        segments,
        device: true,
    })
}

#[test]
fn tenser_and_otis_surprise_chances() {
    let base = Chance::in_die(2, 6);
    // Together: the ranger's edge covers the party → 1 in 6.
    let (party, rule) = surprise::party_surprise_chance(base, &[0, 1]);
    assert_eq!(party.in_six(), Some(1));
    assert_eq!(rule, cite::SURPRISE_LESS_OFTEN);
    // Tenser alone: the standard 2 in 6.
    assert_eq!(
        surprise::party_surprise_chance(base, &[0]).0.in_six(),
        Some(2)
    );
    // Surprising the orcs: 2 in 6 with the party, 3 in 6 for Otis alone.
    assert_eq!(
        surprise::chance_to_surprise(base, &[1, 0]).0.in_six(),
        Some(2)
    );
    assert_eq!(surprise::chance_to_surprise(base, &[1]).0.in_six(), Some(3));
    // A band where every one has the edge (the duergar of DMG p.61): the side's.
    assert_eq!(
        surprise::chance_to_surprise(base, &[1, 1, 1]).0.in_six(),
        Some(3)
    );
}

#[test]
fn otis_surprises_duergar_26_two_thirds_percent() {
    let duergar = Chance::in_die(1, 10);
    assert_eq!(duergar, Chance::percent(10));
    let (c, rule) = surprise::chance_to_surprise(duergar, &[1]);
    assert_eq!(c.sixhundredths(), 160); // 26 2/3 % exactly
    assert!((c.as_percent() - 26.666_666).abs() < 1e-5);
    assert_eq!(c.rounded_percent(), 27);
    assert_eq!(rule, cite::SURPRISE_MORE_OFTEN);
    // Other conversions named in the text.
    assert_eq!(Chance::in_die(1, 8).as_percent(), 12.5);
    assert_eq!(Chance::in_die(9, 10).as_percent(), 90.0);
}

#[test]
fn duergar_ambush_net_surprise() {
    // The duergar surprise others more often: the party is surprised on 1-2 and rolls 2.
    let party_chance = Chance::in_die(2, 6);
    assert!(party_chance.is_surprised(SurpriseRoll::D6(2)));
    let (party, _) = surprise::segments_lost(SurpriseRoll::D6(2));
    assert_eq!(party, 2);
    // The duergar roll 12 on d% against Otis's 26 2/3 %: surprised, 12 ÷ 16 2/3 → 1.
    assert!(
        Chance::in_die(1, 10)
            .shifted_by_sixes(1)
            .is_surprised(SurpriseRoll::Percent(12))
    );
    let (duergar, rule) = surprise::segments_lost(SurpriseRoll::Percent(12));
    assert_eq!((duergar, rule), (1, cite::SURPRISE_PERCENT_SEGMENTS));
    let (net, rule) = surprise::net_surprise(Some(party), Some(duergar));
    assert_eq!(net, NetSurprise::A(1));
    assert_eq!(net.lost_by(true), 1);
    assert_eq!(rule, cite::SURPRISE_NET);
}

#[test]
fn tenser_dex_16_and_otis_dex_17_in_chain_mail() {
    // Tenser (Dex 16, no armor → 12") negates his one segment.
    let (tenser_rate, _) = movement::armor_movement(Armor::None, false);
    assert_eq!(
        surprise::individual_surprise(1, 16, movement::is_light_gear(tenser_rate)).0,
        0
    );
    // Otis (Dex 17) in non-magical chain: 9", the bonus is lost.
    let (otis_rate, _) = movement::armor_movement(Armor::Chain, false);
    assert_eq!(otis_rate, 9);
    let (otis, rule) = surprise::individual_surprise(1, 17, movement::is_light_gear(otis_rate));
    assert_eq!(otis, 1);
    assert_eq!(rule, cite::LIGHT_GEAR);
    // In his chain mail +2 he would move 12" and offset two segments.
    let (magic_rate, _) = movement::armor_movement(Armor::Chain, true);
    assert_eq!(magic_rate, 12);
    assert_eq!(dexterity::reaction_adjustment(17), 2);
    assert_eq!(
        surprise::individual_surprise(2, 17, movement::is_light_gear(magic_rate)).0,
        0
    );
}

#[test]
fn duergar_surprise_segment_options() {
    // A full round of melee in the one segment.
    assert!(surprise::may_act(SurpriseAction::MeleeRound, false, false).0);
    // Cocked crossbows: three bolts each; not ready: one.
    assert_eq!(
        SurpriseAction::Missiles {
            per_round: 1,
            ready: true
        }
        .missiles(),
        3
    );
    assert_eq!(
        SurpriseAction::Missiles {
            per_round: 1,
            ready: false
        }
        .missiles(),
        1
    );
    // In plate (6") they advance 6 feet.
    let (rate, _) = movement::armor_movement(Armor::Plate, false);
    assert_eq!(SurpriseAction::Move { rate_inches: rate }.feet_moved(), 6);
    // The cleric: command (1 segment) goes off in the surprise segment; hold person (5)
    // goes off four segments into the first round.
    assert_eq!(
        surprise::spell_completion_after_surprise(1, 1, 1),
        SpellFromSurprise::InSurprise(1)
    );
    assert_eq!(
        surprise::spell_completion_after_surprise(5, 1, 1),
        SpellFromSurprise::InRound1(4)
    );
}

#[test]
fn tenser_starts_death_spell_in_surprise() {
    // Tenser is not surprised while Otis is: he may move 12' or cast, but not be struck.
    assert!(surprise::may_act(SurpriseAction::Move { rate_inches: 12 }, false, true).0);
    assert!(
        surprise::may_act(
            SurpriseAction::Cast {
                casting_segments: 6
            },
            false,
            true
        )
        .0
    );
    assert!(!surprise::may_act(SurpriseAction::MeleeRound, false, true).0);
    assert_eq!(
        surprise::may_be_struck(false, true),
        (false, cite::SURPRISE_PARTIAL)
    );
    // Death spell (6 segments) started in the one surprise segment: 5 segments into round 1.
    assert_eq!(
        surprise::spell_completion_after_surprise(6, 1, 1),
        SpellFromSurprise::InRound1(5)
    );
}

#[test]
fn lizard_men_marsh_distance() {
    let d = distance::outdoor_distance([1, 1, 4, 4, 1, 3], Terrain::Marsh, 1);
    assert_eq!(d.inches, 10.0);
    assert_eq!(d.yards(), 100.0);
    assert_eq!(d.rule, cite::DISTANCE_OUTDOORS);
    // Without surprise it would be 11".
    assert_eq!(
        distance::outdoor_distance([1, 1, 4, 4, 1, 3], Terrain::Marsh, 0).inches,
        11.0
    );
    // Other terrains on the same dice.
    assert_eq!(
        distance::outdoor_distance([1, 1, 4, 4, 1, 3], Terrain::Open, 0).inches,
        14.0
    );
    assert_eq!(
        distance::outdoor_distance([1, 1, 4, 4, 1, 3], Terrain::Scrub, 0).inches,
        11.0
    );
    assert_eq!(
        distance::outdoor_distance([1, 1, 4, 4, 1, 3], Terrain::Forest, 0).inches,
        8.0
    );
}

#[test]
fn noise_ambush_closes_to_30_feet() {
    let d = distance::noise_distance(3, Setting::Indoors);
    assert_eq!(d.feet, 30.0);
    assert_eq!(d.rule, cite::DISTANCE_NOISE);
}

#[test]
fn thirty_foot_cave_striking_range() {
    assert_eq!(distance::area_die(30), 4);
    let d = distance::area_distance(30, 1);
    assert!(d.is_striking());
    let others: Vec<f64> = (2..=4)
        .map(|r| distance::area_distance(30, r).feet)
        .collect();
    assert_eq!(others, vec![10.0, 20.0, 30.0]);
}

#[test]
fn twenty_foot_cave_surprise_cap() {
    let d = distance::surprise_distance_cap(Some(20), Setting::Indoors);
    assert_eq!(d.inches, 2.0);
    assert_eq!(d.feet, 20.0);
}

#[test]
fn robilars_sword_light_and_quijs_infravision() {
    let (sword, rule) = distance::vision_limit_ft(&[20.0], &[]).unwrap();
    assert_eq!((sword, rule), (40.0, cite::DISTANCE_LIGHT));
    let (infra, rule) = distance::vision_limit_ft(&[20.0], &[60.0]).unwrap();
    assert_eq!((infra, rule), (60.0, cite::DISTANCE_INFRAVISION));
    assert!(distance::vision_limit_ft(&[], &[]).is_none());
}

#[test]
fn otto_hesitates_twenty_seconds() {
    let (delay, rule) = declare::hesitation_delay(20, HesitationRounding::WholeSegments);
    assert_eq!(delay, 3);
    assert_eq!(rule, cite::DECLARE_HESITATION);
    // Irresistible dance, 5 segments: segment 8 instead of 5.
    assert_eq!(5 + delay, 8);
    assert_eq!(
        declare::hesitation_delay(20, HesitationRounding::PartSegmentsCount).0,
        4
    );
}

#[test]
fn elf_bow_specialist_shoots_before_initiative() {
    assert_eq!(
        declare::pre_initiative_shot(Some(Readied::BowNocked), true),
        Some(cite::PRE_INITIATIVE_BOW)
    );
    assert_eq!(
        declare::pre_initiative_shot(Some(Readied::CrossbowCocked), true),
        Some(cite::PRE_INITIATIVE_CROSSBOW)
    );
    assert_eq!(declare::pre_initiative_shot(None, true), None);
    assert_eq!(
        declare::pre_initiative_shot(Some(Readied::BowNocked), false),
        None
    );
    // One arrow before initiative plus the specialist's rate of 2: three arrows.
    let rate: AttackRate = "2/1".parse().unwrap();
    assert_eq!(
        1 + rate.routines_in(1, AlternatingRate::ExtraInOddRounds).0,
        3
    );
}

#[test]
fn leomund_beats_the_spectators() {
    // Spectators: d8 = 5. Leomund throws his dagger: d6 5 + 1 (Dex 16, no armor).
    let (leomund, rule) = initiative::individual_initiative(5, true, 16, true);
    assert_eq!(leomund, 6);
    assert_eq!(rule, cite::INITIATIVE_DEX);
    assert_eq!(initiative::compare(leomund, 5), InitiativeResult::AWins);
    let dagger = Declared::melee("Leomund", 5)
        .kind(ActionKind::Missile)
        .dex(1);
    let spectator = Declared::melee("Spectator", 5);
    let d = who_first(&dagger, &spectator, &Context::default());
    assert_eq!(d.first, First::A);
    assert_eq!(d.rule, cite::INITIATIVE_DEX);
}

#[test]
fn erac_cousin_against_serten() {
    let ctx = Context::default();
    let rate: AttackRate = "3/2".parse().unwrap();
    let n = rate.routines_in(1, AlternatingRate::ExtraInOddRounds).0;
    assert_eq!(n, 2);
    // Cousin 2 routines, Serten 1: first and last, Serten in the middle, whatever the dice.
    for (dc, ds) in [(1, 6), (6, 1), (3, 3)] {
        let cousin = Declared::melee("Cousin", dc).sf(5).routines(n);
        let serten = Declared::melee("Serten", ds).sf(7);
        let s = round_sequence(&[cousin, serten], &ctx);
        assert_eq!(
            s.outline(),
            vec!["Cousin", "Serten", "Cousin"],
            "dice {dc}-{ds}"
        );
    }
    // Hasted Serten: both have two; the dice decide first and third.
    let cousin = Declared::melee("Cousin", 2).sf(5).routines(2);
    let serten = Declared::melee("Serten", 5).sf(7).routines(2);
    assert_eq!(
        round_sequence(&[cousin, serten], &ctx).outline(),
        vec!["Serten", "Cousin", "Serten", "Cousin"]
    );
    // Hasted Cousin: three routines; the middle one is diced for.
    for (dc, ds, middle) in [
        (5, 2, vec!["Cousin", "Cousin", "Serten", "Cousin"]),
        (2, 5, vec!["Cousin", "Serten", "Cousin", "Cousin"]),
    ] {
        let cousin = Declared::melee("Cousin", dc).sf(5).routines(3);
        let serten = Declared::melee("Serten", ds).sf(7);
        assert_eq!(round_sequence(&[cousin, serten], &ctx).outline(), middle);
    }
}

#[test]
fn giant_charges_bigby_indoors() {
    let per_segment = charge::charge_feet_per_segment(12, Setting::Indoors, Body::Biped);
    assert_eq!(per_segment, 24.0);
    let (arrive, rule) = charge::arrival_segment(200.0, per_segment);
    assert_eq!((arrive, rule), (9, cite::CHARGE_ARRIVAL));
    let giant = Declared::melee("Hill giant", 3)
        .kind(ActionKind::Charge {
            arrival_segment: arrive,
        })
        .reach(10.0);
    let bigby = cast("Bigby", 4, 7);
    let d = who_first(&bigby, &giant, &Context::default());
    assert_eq!(d.first, First::A);
    assert_eq!((d.segment_a, d.segment_b), (Some(7), Some(9)));
    assert_eq!(d.rule, cite::CHARGE_VS_SPELL);
    let s = round_sequence(&[bigby, giant], &Context::default());
    assert_eq!(s.outline(), vec!["Bigby", "Hill giant", "Hill giant"]);
    assert_eq!(s.beats[0].segment, Some(7));
    assert_eq!(s.beats[1].segment, Some(9));
}

#[test]
fn meteor_swarm_against_flame_strike() {
    let ctx = Context::default();
    for (db, dr) in [(6, 1), (1, 6), (3, 3)] {
        let d = who_first(&cast("Bigby", db, 9), &cast("Riggby", dr, 8), &ctx);
        assert_eq!(d.first, First::B, "dice {db}-{dr}: flame strike first");
        assert_eq!((d.segment_a, d.segment_b), (Some(9), Some(8)));
        assert_eq!(d.rule, cite::SPELL_VS_SPELL);
    }
    // Clenched fist (8) against flame strike (8): initiative decides.
    assert_eq!(
        who_first(&cast("Bigby", 5, 8), &cast("Riggby", 2, 8), &ctx).first,
        First::A
    );
    assert_eq!(
        who_first(&cast("Bigby", 2, 8), &cast("Riggby", 5, 8), &ctx).first,
        First::B
    );
    assert_eq!(
        who_first(&cast("Bigby", 4, 8), &cast("Riggby", 4, 8), &ctx).first,
        First::Together
    );
}

#[test]
fn power_word_kill_against_the_staff() {
    let ctx = Context::default();
    let staff = |die| Declared::melee("Riggby", die).sf(4);
    // Riggby wins: the staff strikes first.
    let d = who_first(&cast("Bigby", 2, 1), &staff(5), &ctx);
    assert_eq!(d.first, First::B);
    // Tied: the one-segment spell beats speed factor 4.
    let d = who_first(&cast("Bigby", 4, 1), &staff(4), &ctx);
    assert_eq!(d.first, First::A);
    assert_eq!((d.segment_a, d.segment_b), (Some(1), Some(4)));
    assert_eq!(d.rule, cite::SPELL_MELEE_TIE);
    // Bigby wins 6-4: |4 - 4| = 0 beats the one-segment spell.
    let d = who_first(&cast("Bigby", 6, 1), &staff(4), &ctx);
    assert_eq!(d.first, First::B);
    assert_eq!((d.segment_a, d.segment_b), (Some(1), Some(0)));
    assert_eq!(d.rule, cite::SPELL_MELEE_LOSE);
}

#[test]
fn air_elemental_against_protection_from_evil() {
    let bigby = cast("Bigby", 4, 3);
    let elemental = Declared::melee("Air elemental", 1);
    let d = who_first(&bigby, &elemental, &Context::default());
    assert_eq!(d.first, First::A);
    assert_eq!((d.segment_a, d.segment_b), (Some(3), Some(4)));
    assert_eq!(d.rule, cite::SPELL_MISSILE_LOSE);
}

#[test]
fn archers_against_cure_light_wounds() {
    let riggby = cast("Riggby", 3, 5);
    let archers = Declared::melee("Archers", 2)
        .kind(ActionKind::Missile)
        .routines(2);
    let d = who_first(&riggby, &archers, &Context::default());
    assert_eq!(
        d.first,
        First::B,
        "the first volley lands in segment 3, before completion"
    );
    assert_eq!((d.segment_a, d.segment_b), (Some(5), Some(3)));
    let s = round_sequence(&[riggby, archers], &Context::default());
    assert_eq!(s.outline(), vec!["Archers", "Riggby", "Archers"]);
    assert_eq!(s.beats[0].segment, Some(3));
    assert_eq!(s.beats[1].segment, Some(5));
    // Only the first volley can disrupt the five-segment spell.
    assert!(spell::routine_can_disrupt(1, 5).0);
    assert!(!spell::routine_can_disrupt(2, 5).0);
    assert!(spell::routine_can_disrupt(2, 10).0);
}

#[test]
fn two_cantrips_against_light() {
    let ((first, second), rule) = spell::cantrip_segments(1, 3);
    assert_eq!((first, second, rule), (1, 4, cite::CANTRIPS));
    // The yawn (segment 4) ties Riggby's light (4 segments): initiative decides.
    let ctx = Context::default();
    assert_eq!(
        who_first(&cast("Bigby", 5, second), &cast("Riggby", 2, 4), &ctx).first,
        First::A
    );
    assert_eq!(
        who_first(&cast("Bigby", 2, second), &cast("Riggby", 5, 4), &ctx).first,
        First::B
    );
}

#[test]
fn wand_of_frost_beats_the_hammer() {
    let bigby = device("Bigby", 3, 2);
    let hammer = Declared::melee("Riggby", 3).sf(4);
    let d = who_first(&bigby, &hammer, &Context::default());
    assert_eq!(d.first, First::A);
    assert_eq!(d.rule, cite::SPELL_MELEE_TIE);
    // A hit does not stop the wand unless it fells Bigby.
    assert!(!spell::disrupts(AttackResult::Hit, true, false).0);
    assert!(spell::disrupts(AttackResult::Hit, true, true).0);
    assert!(spell::disrupts(AttackResult::Hit, false, false).0);
    assert!(spell::disrupts(AttackResult::FailedSave, false, false).0);
    assert!(!spell::disrupts(AttackResult::Saved, false, false).0);
}

#[test]
fn otis_against_robilar_two_rounds() {
    let ctx = Context::default();
    let otis_rate: AttackRate = "3/2".parse().unwrap();
    let robilar_rate: AttackRate = "2/1".parse().unwrap();
    let alt = AlternatingRate::ExtraInOddRounds;
    // Round 1: both two routines; tied 3-3; long sword (5) beats battle axe (7).
    let otis = Declared::melee("Otis", 3)
        .sf(7)
        .routines(otis_rate.routines_in(1, alt).0);
    let robilar = Declared::melee("Robilar", 3)
        .sf(5)
        .routines(robilar_rate.routines_in(1, alt).0);
    let s = round_sequence(&[otis, robilar], &ctx);
    assert_eq!(s.outline(), vec!["Robilar", "Otis", "Robilar", "Otis"]);
    // Round 2: Otis has one; Robilar first and last.
    let otis = Declared::melee("Otis", 3)
        .sf(7)
        .routines(otis_rate.routines_in(2, alt).0);
    let robilar = Declared::melee("Robilar", 3)
        .sf(5)
        .routines(robilar_rate.routines_in(2, alt).0);
    assert_eq!(
        round_sequence(&[otis, robilar], &ctx).outline(),
        vec!["Robilar", "Otis", "Robilar"]
    );
}

fn zagyg(round: MeleeRound) -> Vec<String> {
    let ctx = Context {
        melee_round: round,
        ..Context::default()
    };
    let tenser = Declared::melee("Tenser", 3).sf(2).reach(1.25);
    let otis = Declared::melee("Otis", 3).sf(4).reach(3.0);
    let robilar = Declared::melee("Robilar", 3).sf(13).reach(18.0);
    round_sequence(&[tenser, otis, robilar], &ctx).outline()
}

#[test]
fn zagyg_demiplane_three_rounds() {
    // Round 1: closing, no melee (more than 1" apart).
    assert!(!charge::melee_possible(30.0, Setting::Indoors).0);
    // Round 2: first round of blows after closing: weapon length — pike, club, dagger.
    assert_eq!(
        zagyg(MeleeRound::FirstAfterClosing),
        vec!["Robilar", "Otis", "Tenser"]
    );
    // Round 3: speed factors: Tenser/Otis, Tenser/Otis, Tenser/Robilar.
    assert_eq!(
        zagyg(MeleeRound::Continuing),
        vec!["Tenser", "Otis", "Tenser", "Otis", "Tenser+Robilar"]
    );
}

#[test]
fn speed_factor_tiebreak_conditions() {
    use firststrike::rules::speed_factor::speed_factor_applies;
    let c = MeleeRound::Continuing;
    assert!(speed_factor_applies(true, Some(5), Some(7), 1, 1, c).0);
    assert!(speed_factor_applies(true, Some(5), Some(7), 2, 2, c).0);
    assert!(
        speed_factor_applies(true, Some(5), Some(7), 3, 1, c).0,
        "both odd"
    );
    assert!(
        !speed_factor_applies(true, Some(5), Some(7), 2, 1, c).0,
        "odd against even"
    );
    assert!(
        !speed_factor_applies(false, Some(5), Some(7), 1, 1, c).0,
        "dice not tied"
    );
    assert!(
        !speed_factor_applies(true, None, Some(7), 1, 1, c).0,
        "natural weapons"
    );
    assert_eq!(
        speed_factor_applies(true, Some(5), Some(7), 1, 1, MeleeRound::FirstAfterClosing),
        (false, cite::SPEED_FACTOR_CLOSING)
    );
}

#[test]
fn example_of_melee_surprise_timings() {
    // The monk's side: 22% + 1 in 6 = 38 2/3 %; a roll of 38 surprises, for 3 segments.
    let chance = Chance::percent(22).shifted_by_sixes(1);
    assert_eq!(chance.rounded_percent(), 39);
    assert!(chance.is_surprised(SurpriseRoll::Percent(38)));
    let (side, _) = surprise::segments_lost(SurpriseRoll::Percent(38));
    assert_eq!(side, 3);
    // Dex 17 (illusionist, thief, bard) → 1 segment; Dex 16 (acrobat) → 2.
    assert_eq!(surprise::individual_surprise(side, 17, true).0, 1);
    assert_eq!(surprise::individual_surprise(side, 16, true).0, 2);
    // The monk's heavy crossbow of speed fires in the second surprise segment.
    assert_eq!(surprise::crossbow_of_speed_segment(3), Some(2));
    assert_eq!(surprise::crossbow_of_speed_segment(1), None);
    // Charges over 20 feet: the barbarian (15" → 30 ft a segment) in one segment; the
    // cavalier and paladin in plate (6" → 12 ft a segment) in two.
    let barbarian = charge::charge_feet_per_segment(15, Setting::Indoors, Body::Biped);
    assert_eq!(charge::arrival_segment(20.0, barbarian).0, 1);
    let (plate, _) = movement::armor_movement(Armor::Plate, false);
    let cavalier = charge::charge_feet_per_segment(plate, Setting::Indoors, Body::Biped);
    assert_eq!(cavalier, 12.0);
    assert_eq!(charge::arrival_segment(20.0, cavalier).0, 2);
    // The fighter closes at 9": 18 feet over two segments.
    assert_eq!(SurpriseAction::Move { rate_inches: 9 }.feet_moved() * 2, 18);
    // Spells begun in surprise complete in the first round: silence (5, begun in segment 1)
    // in 2; improved invisibility and heat metal (4, begun in 2) in 2; barkskin (3, begun
    // in 2) in 1; mass suggestion (6, begun in 3) in 5.
    assert_eq!(
        surprise::spell_completion_after_surprise(5, 1, 3),
        SpellFromSurprise::InRound1(2)
    );
    assert_eq!(
        surprise::spell_completion_after_surprise(4, 2, 3),
        SpellFromSurprise::InRound1(2)
    );
    assert_eq!(
        surprise::spell_completion_after_surprise(3, 2, 3),
        SpellFromSurprise::InRound1(1)
    );
    assert_eq!(
        surprise::spell_completion_after_surprise(6, 3, 3),
        SpellFromSurprise::InRound1(5)
    );
    // The fighter's potion, sipped in segment 1 with a delay of 2, works at the end of segment 3.
    assert_eq!(spell::potion_effect_segment(1, 2), (0, 3));
}

#[test]
fn example_of_melee_round_one_blows_on_the_illusionist() {
    // Red wins 6-5. Mass suggestion completes in segment 5 of round 1. The paladin's long
    // sword (5) and the barbarian's long sword (4 as given by the text for the pair) strike at
    // |5-5| = 0 and |4-5| = 1, both before the spell.
    let illusionist = Declared::melee("Illusionist", 6)
        .side("Red")
        .kind(ActionKind::Cast {
            segments: 5,
            device: false,
        });
    let paladin = Declared::melee("Paladin", 5).side("Blue").sf(5);
    let barbarian = Declared::melee("Barbarian", 5).side("Blue").sf(4);
    let ctx = Context::default();
    let p = who_first(&paladin, &illusionist, &ctx);
    assert_eq!(
        (p.first, p.segment_a, p.segment_b),
        (First::A, Some(0), Some(5))
    );
    let b = who_first(&barbarian, &illusionist, &ctx);
    assert_eq!((b.first, b.segment_a), (First::A, Some(1)));
    // The paladin (two routines) strikes before the thief (one) whatever the dice.
    let paladin2 = Declared::melee("Paladin", 5).side("Blue").sf(5).routines(2);
    let thief = Declared::melee("Thief", 6).side("Red").sf(5);
    assert_eq!(
        round_sequence(&[paladin2, thief], &ctx).outline(),
        vec!["Paladin", "Thief", "Paladin"]
    );
}

#[test]
fn crossbow_of_speed_fires_first_even_against_a_caster() {
    // The monk's side lost 5-6 (round 1 of the Example of Melee he "automatically fires first").
    let monk = Declared::melee("Monk", 5)
        .kind(ActionKind::Missile)
        .of_speed();
    let ranger = Declared::melee("Ranger", 6).kind(ActionKind::Missile);
    let d = who_first(&monk, &ranger, &Context::default());
    assert_eq!((d.first, d.rule), (First::A, cite::STRIKES_FIRST));
    // Against a caster who won, the bolt still lands before completion.
    let caster = cast("Cleric", 6, 2);
    let d = who_first(&caster, &monk, &Context::default());
    assert_eq!((d.first, d.rule), (First::B, cite::STRIKES_FIRST));
    assert_eq!(
        initiative::strikes_first("heavy crossbow of speed"),
        Some(cite::STRIKES_FIRST)
    );
}
