//! A side's chance of being surprised, as the scene's figures make it (the encounter step
//! rolls against it; `check` warns of a fixed roll that it would not call surprise).

use crate::rules::surprise;

/// A side's chance in six of being surprised (DMG p.61, PHB p.24): the scene's base, less
/// the best "surprised less often" edge among its members (the whole party benefits), plus
/// the foes' "surprises others more often" edge when every one of them has it. Returns it
/// and how it was made.
pub fn side_chance(scene: &crate::scene::Scene, side: &str, base: u32) -> (u32, String) {
    let (chance, how) = side_chance_of(scene, side, surprise::Chance::in_die(base, 6));
    (chance.in_six().unwrap_or(base).min(6), how)
}

/// [`side_chance`] from a base chance on any die, exactly (a d10's 1 in 10 and a ranger's
/// 1 in 6 make 26⅔%).
pub fn side_chance_of(
    scene: &crate::scene::Scene,
    side: &str,
    base: surprise::Chance,
) -> (surprise::Chance, String) {
    let members = scene.combatants.iter().filter(|f| f.side == side);
    let less: Vec<u32> = members.map(|f| f.surprised_less_often).collect();
    let (chance, _) = surprise::party_surprise_chance(base, &less);
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
    // Each other side is a band of its own: the one that surprises most often counts (a
    // bystander side without the edge takes nothing from a band that has it).
    let mut best: Option<(surprise::Chance, String)> = None;
    let mut bands: Vec<&str> = scene
        .combatants
        .iter()
        .filter(|f| f.side != side)
        .map(|f| f.side.as_str())
        .collect();
    bands.sort_unstable();
    bands.dedup();
    for band in bands {
        let members: Vec<_> = scene.combatants.iter().filter(|f| f.side == band).collect();
        let edges: Vec<u32> = members.iter().map(|f| f.surprises_more_often).collect();
        let (with, rule) = surprise::chance_to_surprise(chance, &edges);
        if rule != crate::rules::cite::SURPRISE_MORE_OFTEN
            || best
                .as_ref()
                .is_some_and(|(b, _)| b.sixhundredths() >= with.sixhundredths())
        {
            continue;
        }
        let least = surprise::band_edge(&edges);
        let who = match members.as_slice() {
            [one] => format!("{}, alone", one.name),
            _ => format!("{band}, every one of its {} with the edge", members.len()),
        };
        best = Some((
            with,
            format!("more {least} for {who} (surprises others more often)"),
        ));
    }
    let chance = match best {
        Some((with, words)) => {
            how.push(words);
            with
        }
        None => chance,
    };
    (chance, how.join(", "))
}
