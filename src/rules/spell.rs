//! Spell and device timing and disruption (DMG p.65-67; UA p.45).

use super::cite::{self, Rule};
use super::options::SpellStart;
use serde::Serialize;

/// The segment in which a spell of `casting` segments completes (DMG p.65), by the reading
/// in `start`. `caster_lost` with the `winning_die` matters only for
/// [`SpellStart::AfterWinningDie`].
pub fn completion_segment(
    casting: u32,
    caster_lost: bool,
    winning_die: u32,
    start: SpellStart,
) -> u32 {
    match start {
        SpellStart::RoundStart => casting,
        SpellStart::AfterWinningDie if caster_lost => winning_die + casting,
        SpellStart::AfterWinningDie => casting,
    }
}

/// Whether a routine can disrupt a spell (DMG p.65): only an attacker's first routine,
/// unless the spell takes a full round or more.
pub fn routine_can_disrupt(routine_no: u32, casting: u32) -> (bool, Rule) {
    (routine_no <= 1 || casting >= 10, cite::SPELL_FIRST_ROUTINE)
}

/// How an attack on a caster turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AttackResult {
    /// It hit.
    Hit,
    /// It missed.
    Miss,
    /// A spell or effect the caster failed to save against.
    FailedSave,
    /// A spell or effect the caster saved against.
    Saved,
}

/// Whether an attack landing before completion ruins the casting (DMG p.65): any hit or
/// unsaved attack ruins a spell; a device keeps working unless its wielder is slain or
/// incapacitated.
pub fn disrupts(result: AttackResult, device: bool, wielder_incapacitated: bool) -> (bool, Rule) {
    let landed = matches!(result, AttackResult::Hit | AttackResult::FailedSave);
    if device {
        let ruined = landed && wielder_incapacitated;
        let rule = if ruined {
            cite::DEVICE_WIELDER_FELL
        } else {
            cite::DEVICE_NOT_DISRUPTED
        };
        (ruined, rule)
    } else {
        (landed, cite::SPELL_DISRUPTED)
    }
}

/// Whether a device works at once, with no activation time of its own: the scene or the
/// action gives none (`given`) and the spell table knows none (`known`). Such a device is
/// not timed as a spell (DMG p.65 times only devices with activation times); it is used
/// when its side's initiative comes, as any other act (our reading,
/// [`cite::DEVICE_INSTANT`]). A device timed either way is timed as a spell.
pub fn instant_device(device: bool, given: Option<u32>, known: Option<u32>) -> Option<Rule> {
    (device && given.is_none() && known.is_none()).then_some(cite::DEVICE_INSTANT)
}

/// A caster's armor class while casting (DMG p.65): without its Dexterity bonus, and no
/// worse for it than AC 10 (the worst a figure's armour gives).
pub fn casting_ac(ac: i32, dex_ac_bonus: i32) -> (i32, Rule) {
    (
        (ac + dex_ac_bonus.max(0)).min(ac.max(10)),
        cite::SPELL_NO_DEX,
    )
}

/// The segments of a magic-user's two cantrips in one round (UA p.45): the first as any
/// spell (segment 1, no cantrip taking over half a segment), the second d4 segments later.
pub fn cantrip_segments(first_segment: u32, d4: u32) -> ((u32, u32), Rule) {
    ((first_segment, first_segment + d4), cite::CANTRIPS)
}

/// A potion's delay in segments from a d4 roll (DMG p.119): d4 + 1.
pub fn potion_delay(d4: u32) -> (u32, Rule) {
    (d4.clamp(1, 4) + 1, cite::POTION_DELAY)
}

/// The segment a potion takes effect (DMG p.119): d4+1 segments after drinking, given as
/// the total delay the scene rolled. Returns (round offset, segment) from the segment drunk.
pub fn potion_effect_segment(drunk_in: u32, delay: u32) -> (u32, u32) {
    let s = drunk_in + delay;
    ((s - 1) / 10, (s - 1) % 10 + 1)
}
