//! Spawning a scene's figures: one entity per combatant with the components the rules
//! look at, built by [`combatant_bundle`] from its resolved numbers; what every figure
//! starts with alike comes with [`Combatant`] through `#[require]`.

use super::components::*;
use crate::rules::combat::Condition;
use crate::scene::CombatantSpec;
use crate::scene::figure::FigureStats;
use bevy::prelude::*;

/// The components of one figure, from its spec and resolved numbers.
pub fn combatant_bundle(index: usize, spec: &CombatantSpec, s: &FigureStats) -> impl Bundle {
    (
        Combatant {
            index,
            name: spec.name.as_str().into(),
            size: s.size,
        },
        Name::new(spec.name.clone()),
        Side(spec.side.clone()),
        Position {
            x: spec.at.0,
            y: spec.at.1,
        },
        MovementRate {
            inches: s.movement.0,
            body: s.body,
            encumbered: s.encumbered,
        },
        WeaponSpeed {
            weapon: s.weapon.clone(),
            speed_factor: s.speed_factor,
            length_ft: s.length_ft,
            missile: s.missile,
            of_speed: s.of_speed,
            ready: s.ready,
            specialist: s.specialist,
            iaijutsu: spec.iaijutsu,
        },
        Reach(s.reach_ft),
        AttackRate {
            rate: s.attacks,
            thrown: s.thrown,
            rounds_attacking: 0,
        },
        Dexterity {
            score: s.dexterity,
            reaction: s.reaction(),
            light_gear: s.light_gear,
        },
        Fighting {
            thac0: s.thac0,
            to_hit_bonus: s.to_hit_bonus,
            damage_bonus: s.damage_bonus,
            damage: s.damage.clone(),
            off_hand: s.off_hand.clone().zip(s.off_hand_damage.clone()),
            natural_attacks: s.natural_attacks.clone(),
            initiative_die: s.initiative_die,
            // A single-classed fighter, paladin or ranger ("Take Initiative!" §3).
            fighter: spec.fighter
                || spec
                    .class
                    .as_deref()
                    .and_then(|c| crate::tables::class(c).ok())
                    .is_some_and(|k| {
                        k.group == crate::rules::class::Group::Fighter && k.name != "bard"
                    }),
            weapon_magic: spec.weapon_magic,
            monk: spec.is_monk(),
            all_subdual: spec.subdual,
        },
        ArmorClass {
            ac: s.ac,
            ac_type: s.ac_type,
        },
        HitPoints {
            current: s.hp,
            max: s.hp,
            condition: Condition::Up,
            fell_in_round: None,
            subdual: 0,
        },
        JustClosed {
            last_round: spec.just_closed,
            this_round: false,
        },
    )
}

/// Each figure's numbers, resolved from the tables once per scene (every restart spawns
/// from them).
#[derive(Resource, Clone, Debug)]
pub struct FigureTable(pub std::sync::Arc<Vec<FigureStats>>);

impl FigureTable {
    /// The numbers of every figure of a validated scene.
    pub fn of(scene: &crate::scene::Scene) -> FigureTable {
        FigureTable(std::sync::Arc::new(
            scene
                .combatants
                .iter()
                .map(|c| FigureStats::resolve(c).expect("scene was validated on load"))
                .collect(),
        ))
    }
}

/// What a play spawns: figures and spell areas.
type Spawned = Or<(With<Combatant>, With<SpellArea>)>;

/// Removes the figures and spell areas of a previous play (none at the first).
pub(super) fn clear_scene(mut commands: Commands, gone: Query<Entity, Spawned>) {
    for e in &gone {
        commands.entity(e).despawn();
    }
}

/// Spawns every figure of the scene, in scene order.
pub(super) fn spawn_scene(
    mut commands: Commands,
    scene: Res<super::SimScene>,
    table: Res<FigureTable>,
) {
    for ((i, c), stats) in scene.0.combatants.iter().enumerate().zip(table.0.iter()) {
        let mut e = commands.spawn(combatant_bundle(i, c, stats));
        if let Some((source, radius_ft)) = &stats.light {
            e.insert(Light {
                source: source.clone(),
                radius_ft: *radius_ft,
            });
        }
        if let Some(r) = stats.infravision_ft {
            e.insert(Infravision(r));
        }
        if c.slowed {
            e.insert(Slowed);
        }
        if c.hasted {
            e.insert(super::components::Hasted);
        }
        if let Some(hd) = stats.hit_dice {
            e.insert(HitDice(hd, stats.hd_plus));
        }
        if !stats.immune.is_empty() {
            e.insert(Immune(stats.immune));
        }
        if !stats.person {
            e.insert(super::components::NotAPerson);
        }
        if let Some(s) = stats.save_vs_spell {
            e.insert(SavingThrow(s));
        }
        if c.fleeing {
            e.insert(Fleeing);
        }
        if c.hidden {
            e.insert(Hidden);
        }
        if let Some(p) = c.hide_in_shadows {
            e.insert(HideChance(p));
        }
        if let Some(p) = c.psionic {
            e.insert(Psionic {
                attack: p.attack,
                defense: p.defense,
            });
        }
        if let Some(s) = c.save_vs_psionics {
            e.insert(SaveVsPsionics(s));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Act;

    /// A figure spawned with its numbers alone starts not surprised, holding, with nothing
    /// on it: `#[require]` brings those, so no system meets a figure without them.
    #[test]
    fn a_combatant_brings_what_every_figure_starts_with() {
        let mut world = World::new();
        let spec = CombatantSpec {
            name: "Orc".into(),
            side: "Orcs".into(),
            ..CombatantSpec::default()
        };
        let stats = FigureStats::resolve(&spec).unwrap();
        let e = world.spawn(combatant_bundle(0, &spec, &stats)).id();
        let f = world.entity(e);
        assert_eq!(f.get::<Surprised>().map(|s| s.segments), Some(0));
        assert!(matches!(f.get::<Intent>().map(|i| &i.act), Some(Act::Hold)));
        assert!(f.get::<Affected>().is_some_and(|a| a.0.is_empty()));
        assert_eq!(f.get::<Side>(), Some(&Side("Orcs".into())));
    }
}
