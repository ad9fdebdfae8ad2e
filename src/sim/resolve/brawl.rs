//! Weaponless combat (house rules, "Weaponless Combat"; the rule is
//! [`crate::rules::house::split_brawl`]): a blow with hands or feet does half its damage
//! as subdual, kept apart from the hit points; a monk's is all real, or all subdual by its
//! choice. Subdual damage that reaches the hit points left knocks the figure out.

use super::Play;
use crate::rules::house::{self, BrawlSplit};
use crate::tables;
use bevy::prelude::*;

/// How a blow of `damage` with `weapon` by `actor` splits: all real unless weaponless
/// combat is on and the weapon is hands or feet.
pub(super) fn split(p: &Play, actor: Entity, weapon: Option<&str>, damage: i32) -> BrawlSplit {
    let brawling = p.scene.0.rules.house.weaponless_combat
        && weapon
            .and_then(|w| tables::weapon(w).ok())
            .is_some_and(|w| w.brawling);
    let whole = BrawlSplit {
        real: damage,
        subdual: 0,
    };
    if !brawling {
        return whole;
    }
    let Ok(a) = p.figures.get(actor) else {
        return whole;
    };
    house::split_brawl(damage, a.fighting.monk, a.fighting.all_subdual).0
}
