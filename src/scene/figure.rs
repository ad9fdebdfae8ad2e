//! A figure's numbers as the engine uses them: the scene's values, else its class and
//! level's (THAC0, attack rate, hit points, hit dice, save: a monster given a class fights
//! as one of its levels — an orc shaman as a 3rd-level cleric), else the monster's, else
//! the weapon table's, else the books' defaults.

use super::CombatantSpec;
use super::limits;
use crate::dice::DiceExpr;
use crate::rules::attack_rate::AttackRate;
use crate::rules::charge::Body;
use crate::rules::cite::Rule;
use crate::rules::dexterity::reaction_adjustment;
use crate::rules::movement::{is_encumbered, is_light_gear, movement_rate};
use crate::rules::specialist::{self, Use};
use crate::tables::{self, Monster, Weapon};

/// Adjacent figures strike each other from 5 ft, centre to centre (one 5-ft square).
pub const DEFAULT_REACH_FT: f64 = 5.0;

/// A problem found while resolving a figure: the field and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldProblem {
    /// Field name within the combatant.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
    /// A suggestion.
    pub help: Option<String>,
}

/// Everything the engine needs to know about one figure.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureStats {
    /// Movement rate in inches and the rule that set it.
    pub movement: (u32, Rule),
    /// Biped or quadruped.
    pub body: Body,
    /// Dexterity score.
    pub dexterity: u32,
    /// Light gear (12" base), which Dexterity bonuses need (PHB p.101).
    pub light_gear: bool,
    /// Loaded too heavily to charge (DMG p.66).
    pub encumbered: bool,
    /// Main weapon's name.
    pub weapon: Option<String>,
    /// Off-hand weapon's name.
    pub off_hand: Option<String>,
    /// Speed factor of the main weapon.
    pub speed_factor: Option<u32>,
    /// Length of the main weapon in feet (none without a weapon or a length given).
    pub length_ft: Option<f64>,
    /// Melee reach, centre to centre, in feet.
    pub reach_ft: f64,
    /// The main weapon is a missile weapon.
    pub missile: bool,
    /// Attack routines per round.
    pub attacks: AttackRate,
    /// Throws per round of a melee weapon that can be thrown (a dagger 2, PHB p.38), when
    /// it is thrown and no rate is given: its rate of fire, not its melee rate.
    pub thrown: Option<AttackRate>,
    /// To hit AC 0.
    pub thac0: i32,
    /// Standing to-hit bonus.
    pub to_hit_bonus: i32,
    /// Standing damage bonus.
    pub damage_bonus: i32,
    /// Damage of a main-weapon strike.
    pub damage: DiceExpr,
    /// Damage of an off-hand strike.
    pub off_hand_damage: Option<DiceExpr>,
    /// A bestiary monster's natural attacks, each rolled on its own within a routine (the
    /// bear's claw/claw/bite, DMG p.63); empty for one attack or a weapon.
    pub natural_attacks: Vec<DiceExpr>,
    /// Armor class.
    pub ac: i32,
    /// Armor type for weapon adjustments.
    pub ac_type: i32,
    /// Hit points.
    pub hp: i32,
    /// Light carried: name and radius in feet.
    pub light: Option<(String, f64)>,
    /// Infravision range in feet.
    pub infravision_ft: Option<f64>,
    /// Weapon specialist.
    pub specialist: bool,
    /// Item of speed.
    pub of_speed: bool,
    /// Missile weapon ready at the start.
    pub ready: bool,
    /// Initiative die (6 unless a monster rolls another).
    pub initiative_die: u32,
    /// Hit dice or level, if known.
    pub hit_dice: Option<u32>,
    /// Points added to or taken from the hit dice: its monster's, unless the scene gives
    /// other dice (then none).
    pub hd_plus: i32,
    /// Size: the figure's, else its monster's, else man-sized.
    pub size: crate::rules::size::Size,
    /// Saving throw vs. spells, if given.
    pub save_vs_spell: Option<u32>,
    /// The spells it ignores: the scene's and its monster's.
    pub immune: crate::rules::monster::Immunities,
    /// A person, for hold person: a figure without a monster, or a monster marked so.
    pub person: bool,
}

fn problem(field: &'static str, message: String) -> FieldProblem {
    let (message, help) = match message.split_once(" (did you mean") {
        Some((m, h)) => (
            m.to_string(),
            Some(format!("did you mean{}", h.trim_end_matches(')'))),
        ),
        None => (message, None),
    };
    FieldProblem {
        field,
        message,
        help,
    }
}

/// The figure's own numbers against [`limits`]; `within(field, result)` records a problem.
fn within_numbers(c: &CombatantSpec, within: &mut dyn FnMut(&'static str, Result<(), String>)) {
    if let Some(psi) = &c.psionic {
        for (what, v) in [
            ("attack strength", psi.attack),
            ("defense strength", psi.defense),
        ] {
            within("psionic", limits::check(what, v, &limits::PSIONIC_STRENGTH));
        }
    }
    if let Some(sf) = c.speed_factor {
        within(
            "speed_factor",
            limits::check("speed factor", sf, &limits::SPEED_FACTOR),
        );
    }
    if let Some(l) = c.length_ft {
        within(
            "length_ft",
            limits::check_ft("weapon length", l, &limits::LENGTH_FT),
        );
    }
    if let Some(t) = c.thac0 {
        within("thac0", limits::check("THAC0", t, &limits::THAC0));
    }
    within(
        "to_hit_bonus",
        limits::check("to-hit bonus", c.to_hit_bonus, &limits::TO_HIT_BONUS),
    );
    within(
        "damage_bonus",
        limits::check("damage bonus", c.damage_bonus, &limits::DAMAGE_BONUS),
    );
    if let Some(t) = c.ac_type {
        within("ac_type", limits::check("armor type", t, &limits::AC));
    }
    if let Some(r) = c.infravision_ft {
        within(
            "infravision_ft",
            limits::check_ft("infravision", r, &limits::VISION_FT),
        );
    }
    if let Some(w) = c.load_lb {
        within("load_lb", limits::check("load", w, &limits::LOAD_LB));
    }
    within(
        "strength_allowance_lb",
        limits::check(
            "Strength allowance",
            c.strength_allowance_lb,
            &limits::ALLOWANCE_LB,
        ),
    );
    if let Some(d) = c.initiative_die
        && d != 6
        && d != 8
    {
        within(
            "initiative_die",
            Err(format!(
                "an initiative die is a d6 or a d8 (the spectator's, DMG p.62), not a d{d}"
            )),
        );
    }
    within("at", limits::check_point("position", c.at));
    if let Some(hd) = c.hit_dice {
        within("hit_dice", limits::check("hit dice", hd, &limits::HIT_DICE));
    }
    if let Some(h) = c.hide_in_shadows {
        within(
            "hide_in_shadows",
            limits::check("a chance to hide of", h, &(0..=100)),
        );
    }
    if let Some(s) = c.save_vs_spell {
        within(
            "save_vs_spell",
            limits::check("saving throw", s, &limits::SAVE),
        );
    }
    if let Some(s) = c.save_vs_psionics {
        within(
            "save_vs_psionics",
            limits::check("saving throw", s, &limits::SAVE),
        );
    }
    within(
        "weapon_magic",
        limits::check("a weapon's magic of", c.weapon_magic, &limits::WEAPON_MAGIC),
    );
    within(
        "surprised_less_often",
        limits::check("sixes", c.surprised_less_often, &(0..=5)),
    );
    within(
        "surprises_more_often",
        limits::check("sixes", c.surprises_more_often, &(0..=5)),
    );
}

impl FigureStats {
    /// Resolves a figure's numbers, or says which fields are wrong.
    pub fn resolve(c: &CombatantSpec) -> Result<FigureStats, Vec<FieldProblem>> {
        let mut problems = Vec::new();
        let monster: Option<&Monster> = match &c.monster {
            Some(m) => match tables::monster(m) {
                Ok(m) => Some(m),
                Err(e) => {
                    problems.push(problem("monster", e));
                    None
                }
            },
            None => None,
        };
        let weapon_name = c
            .weapon
            .clone()
            .or_else(|| monster.and_then(|m| m.weapon.clone()));
        let weapon: Option<&Weapon> = match &weapon_name {
            Some(w) => match tables::weapon(w) {
                Ok(w) => Some(w),
                Err(e) if c.speed_factor.is_none() => {
                    let mut p = problem("weapon", e);
                    p.message.push_str(" and no speed_factor is given for it");
                    problems.push(p);
                    None
                }
                Err(_) => None,
            },
            None => None,
        };
        let off_hand: Option<&Weapon> = match &c.off_hand {
            // A bow, crossbow or sling strikes no blow in the off hand (the second weapon of
            // a melee, DMG p.70).
            Some(w) => match tables::weapon(w) {
                Ok(w) if w.missile => {
                    problems.push(problem(
                        "off_hand",
                        format!(
                            "a {} is shot, not swung: the off hand's weapon strikes in melee",
                            w.name
                        ),
                    ));
                    None
                }
                Ok(w) => Some(w),
                Err(e) => {
                    problems.push(problem("off_hand", e));
                    None
                }
            },
            None => None,
        };
        let light = match &c.light {
            Some(l) => match tables::light(l) {
                Ok(l) => Some((l.name.clone(), l.radius_ft)),
                Err(e) => {
                    problems.push(problem("light", e));
                    None
                }
            },
            None => None,
        };
        let damage_text = c
            .damage
            .clone()
            .or_else(|| monster.map(|m| m.damage.clone()))
            .or_else(|| weapon.map(|w| w.damage.clone()))
            .unwrap_or_else(|| "1d2".into());
        let damage = DiceExpr::parse(&damage_text).unwrap_or_else(|e| {
            problems.push(problem("damage", e));
            DiceExpr::parse("1d2").expect("valid")
        });
        // The bestiary's sum of attacks, when the monster fights with them (no damage or
        // weapon of the scene's own).
        let natural_attacks = match (monster, &c.damage, weapon) {
            (Some(m), None, None) => DiceExpr::attacks(&m.damage)
                .ok()
                .filter(|a| a.len() > 1)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let class = match (&c.class, c.level) {
            (Some(name), Some(level)) => match tables::class(name) {
                Ok(k) if crate::rules::class::LEVELS.contains(&level) => Some((k, level)),
                Ok(_) => {
                    problems.push(problem(
                        "level",
                        format!("level {level} is outside 1 to 20"),
                    ));
                    None
                }
                Err(e) => {
                    problems.push(problem("class", e));
                    None
                }
            },
            (Some(_), None) => {
                problems.push(problem("level", "a class needs its level (1 to 20)".into()));
                None
            }
            (None, Some(_)) => {
                problems.push(problem("class", "a level needs its class".into()));
                None
            }
            (None, None) => None,
        };
        let dexterity = c.dexterity.unwrap_or(10);
        let mut within = |field: &'static str, r: Result<(), String>| {
            if let Err(m) = r {
                problems.push(problem(field, m));
            }
        };
        within(
            "dexterity",
            limits::check("Dexterity", dexterity, &limits::DEXTERITY),
        );
        within_numbers(c, &mut within);
        let movement = match (c.movement, monster) {
            (Some(m), _) => (m, crate::rules::cite::MOVEMENT_SEGMENT),
            (None, Some(m)) => (m.movement, crate::rules::cite::MOVEMENT_SEGMENT),
            (None, None) => movement_rate(
                c.armor.unwrap_or_default(),
                c.magic_armor,
                c.load_lb,
                c.strength_allowance_lb,
            ),
        };
        let encumbered = c.encumbered
            || c.load_lb
                .is_some_and(|w| is_encumbered(w, c.strength_allowance_lb));
        let missile = weapon.is_some_and(|w| w.missile);
        // A weapon specialist's rates by level (UA p.18): fighters and rangers only.
        if c.specialist
            && let Err(m) = specialist::may_specialize(
                tables::specialists(),
                class.map(|(k, _)| k.name.as_str()),
            )
        {
            problems.push(problem("specialist", m));
        }
        let level = class.map(|(_, l)| l);
        let specialized = |w: &Weapon, how| {
            c.specialist
                .then(|| specialist::rate(tables::specialists(), &w.name, level, how).0)
        };
        // A weapon shot or thrown: the specialist's rate, else its own; a crossbow of
        // speed doubles it (DMG p.168).
        let fire = |w: &Weapon| {
            let rate = specialized(w, Use::Fire).or(w.fire_rate)?;
            Some(crate::rules::initiative::rate_of_fire(&w.name, c.of_speed, rate).0)
        };
        let attacks = c
            .attacks
            .or_else(|| fire(weapon.filter(|w| w.missile)?))
            .or_else(|| specialized(weapon?, Use::Melee))
            .or(class.map(|(k, l)| crate::rules::class::attack_rate(k, l).0))
            .or(monster.map(|m| m.attacks))
            .unwrap_or_else(|| "1/1".parse().expect("valid"));
        // A dagger or a hand axe thrown goes at its rate of fire (PHB p.38), a rate given
        // for the figure aside: the same rule as a missile weapon's, and as `first`'s.
        let thrown = c
            .attacks
            .is_none()
            .then(|| fire(weapon.filter(|w| !w.missile)?))
            .flatten();
        // Haste doubles attacks and movement (PHB p.74); slow halves them (reading).
        let (attacks, thrown) = match (c.hasted, c.slowed) {
            (true, false) => (attacks.hasted().0, thrown.map(|t| t.hasted().0)),
            (false, true) => (attacks.slowed().0, thrown.map(|t| t.slowed().0)),
            _ => (attacks, thrown),
        };
        let movement = (
            crate::rules::movement::under_haste_or_slow(movement.0, c.hasted, c.slowed),
            movement.1,
        );
        if c.hasted && c.slowed {
            problems.push(problem(
                "slowed",
                "a figure cannot be hasted and slowed at once".into(),
            ));
        }
        let ac = c.ac.or(monster.map(|m| m.ac)).unwrap_or(10);
        let hp =
            c.hp.or(class.map(|(k, l)| crate::rules::class::average_hp(k, l)))
                .or(monster.map(|m| m.typical_hp_as(c.hit_dice)))
                .unwrap_or(1);
        let reach_ft = c
            .reach_ft
            .or(monster.and_then(|m| m.reach_ft))
            .unwrap_or(DEFAULT_REACH_FT);
        let mut within = |field: &'static str, r: Result<(), String>| {
            if let Err(m) = r {
                problems.push(problem(field, m));
            }
        };
        within("ac", limits::check("armor class", ac, &limits::AC));
        within("hp", limits::check("hit points", hp, &limits::HP));
        within(
            "reach_ft",
            limits::check_ft("reach", reach_ft, &limits::REACH_FT),
        );
        within(
            "movement",
            limits::check("movement", movement.0, &limits::MOVEMENT_IN),
        );
        within(
            "attacks",
            limits::check("routines", attacks.routines, &limits::ROUTINES),
        );
        within(
            "attacks",
            limits::check(
                "rounds of an attack rate",
                attacks.per_rounds,
                // A slowed figure's halved rate counts over up to four rounds.
                &if c.slowed { 1..=4 } else { limits::RATE_ROUNDS },
            ),
        );
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(FigureStats {
            movement,
            body: c.body.or(monster.map(|m| m.body)).unwrap_or_default(),
            dexterity,
            light_gear: is_light_gear(movement.0),
            encumbered,
            weapon: weapon_name,
            off_hand: c.off_hand.clone(),
            speed_factor: c
                .speed_factor
                .or_else(|| weapon.filter(|w| !w.missile).map(|w| w.speed_factor)),
            length_ft: c.length_ft.or(weapon.map(|w| w.length_ft)),
            reach_ft,
            missile,
            attacks,
            thrown,
            thac0: c
                .thac0
                .or(class.map(|(k, l)| crate::rules::class::thac0(k, l).0))
                .or(monster.map(|m| m.thac0_as(c.hit_dice)))
                .unwrap_or(20),
            to_hit_bonus: c.to_hit_bonus,
            damage_bonus: c.damage_bonus,
            damage,
            off_hand_damage: off_hand.map(|w| DiceExpr::parse(&w.damage).expect("table checked")),
            natural_attacks,
            ac,
            ac_type: c.ac_type.unwrap_or(ac),
            hp,
            light,
            infravision_ft: c.infravision_ft.or(monster.and_then(|m| m.infravision_ft)),
            specialist: c.specialist,
            of_speed: c.of_speed,
            ready: c.ready,
            initiative_die: c
                .initiative_die
                .or(monster.and_then(|m| m.initiative_die))
                .unwrap_or(6),
            hit_dice: c
                .hit_dice
                .or(class.map(|(_, l)| l))
                .or(monster.map(|m| m.hit_dice)),
            // The bestiary's points go with the bestiary's dice: a scene's own hit_dice
            // are plain dice (docs/scenes.md), even when the number is the same.
            hd_plus: match (class, monster, c.hit_dice) {
                (None, Some(m), None) => m.hd_plus,
                _ => 0,
            },
            size: c.size.or(monster.and_then(|m| m.size)).unwrap_or_default(),
            save_vs_spell: c
                .save_vs_spell
                .or(class.map(|(k, l)| crate::rules::class::save_vs_spell(k, l).0)),
            immune: crate::rules::monster::Immunities::of(
                &[&c.immune[..], monster.map_or(&[][..], |m| &m.immune[..])].concat(),
            ),
            person: monster.is_none_or(|m| m.person),
        })
    }

    /// Dexterity reaction adjustment (PHB p.11): counts for surprise and missile initiative.
    pub fn reaction(&self) -> i32 {
        reaction_adjustment(self.dexterity)
    }
}
