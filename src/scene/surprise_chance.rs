//! A side's chance of being surprised, as the scene's figures make it (the encounter step
//! rolls against it; `check` warns of a fixed roll that it would not call surprise).

use crate::rules::surprise;

/// A side's chance in six of being surprised (DMG p.61, PHB p.24): the scene's base, less
/// the best "surprised less often" edge among its members (the whole party benefits), plus
/// the foes' "surprises others more often" edge when every one of them has it. Returns it
/// and how it was made.
pub fn side_chance(scene: &crate::scene::Scene, side: &str, base: u32) -> (u32, String) {
    let members = scene.combatants.iter().filter(|f| f.side == side);
    let less: Vec<u32> = members.map(|f| f.surprised_less_often).collect();
    let (chance, _) = surprise::party_surprise_chance(surprise::Chance::in_die(base, 6), &less);
    let mut how = Vec::new();
    if let Some(f) = scene
        .combatants
        .iter()
        .filter(|f| f.side == side && f.surprised_less_often > 0)
        .max_by_key(|f| f.surprised_less_often)
    {
        how.push(format!(
            "less {} for {} (surprised less often)",
            f.surprised_less_often, f.name
        ));
    }
    let foes: Vec<_> = scene.combatants.iter().filter(|f| f.side != side).collect();
    let edges: Vec<u32> = foes.iter().map(|f| f.surprises_more_often).collect();
    let (chance, rule) = surprise::chance_to_surprise(chance, &edges);
    if rule == crate::rules::cite::SURPRISE_MORE_OFTEN {
        let least = edges.iter().copied().min().unwrap_or(0);
        let who = match foes.as_slice() {
            [one] => format!("{}, alone", one.name),
            _ => format!("{} foes, every one with the edge", foes.len()),
        };
        how.push(format!(
            "more {least} for {who} (surprises others more often)"
        ));
    }
    (chance.in_six().unwrap_or(base).min(6), how.join(", "))
}
