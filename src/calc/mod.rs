//! The "who strikes first" calculator: reads declared actions written the way a DM would
//! say them, builds a small scene of them and plans its round with the same engine as
//! `run` and the viewer ([`scene`]), then reports the round with the rule and page behind
//! every step ([`report`]). `firststrike first` is a thin wrapper around this module.
//!
//! An action is `NAME: KIND [key=value ...]`, for example
//! `"Riggby: melee sf=4 d6=4"` or `"Hill giant: charge move=12 distance=200 d6=3"`.

pub mod compare;
pub mod grammar;
pub mod odds;
pub mod outcomes;
mod report;
mod scene;
pub mod summary;
pub mod sweep;
pub mod sweep_chart;
pub mod take_initiative;

pub use report::{to_json, to_text};
pub use scene::{Idle, calculate, calculate_round, to_scene};

use crate::rules::action::{ActionKind, Declared};
use crate::rules::attack_rate::AttackRate;
use crate::rules::charge::{self, Body};
use crate::rules::declare::hesitation_delay;
use crate::rules::dexterity;
use crate::rules::distance::Setting;
use crate::rules::first::Context;
use crate::rules::initiative;
use crate::rules::movement;
use crate::rules::speed_factor::MeleeRound;
use crate::scene::CombatantSpec;
use crate::scene::limits;
use crate::tables;

/// Settings that apply to every action of a calculation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Defaults {
    /// Indoors or outdoors (charge rates).
    pub setting: Setting,
    /// The round of attacking for alternating rates (1-based).
    pub round: u32,
    /// Rules context (melee round, options).
    pub context: Context,
}

/// The kinds an action may name, for messages.
pub const KINDS: &str = "melee, natural, missile, charge, cast, device, turn, set, close, other";
pub(crate) const KEYS: &str = "d6, d8, side, weapon, spell, sf, attacks, rate, round, reach, dex, move, gear, time, distance, arrive, body, hesitate, hasted, slowed, speed, then, encumbered, specialist, level";

/// What a parsed action does, in scene terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Does {
    /// Melee, with a weapon or natural attacks.
    Melee,
    /// Missile fire.
    Missile,
    /// A charge with this many feet to cover before striking.
    Charge {
        /// Feet to cover.
        gap_ft: f64,
    },
    /// A spell, potion or device.
    Cast {
        /// Its name (a placeholder when none was given).
        spell: String,
        /// Casting or activation time.
        segments: u32,
        /// A rod, staff or wand.
        device: bool,
    },
    /// Turning undead.
    Turn,
    /// A spear or pole arm set against a charge.
    Set,
    /// Closing: no blows this round unless charged by the one it closes on.
    Close,
    /// A non-combat act, placed by its side's initiative.
    Other,
    /// A device with no activation time, used at its side's initiative.
    Device {
        /// Its name (a placeholder when none was given).
        name: String,
    },
}

/// One parsed action: as the timing rules see it, and as a figure of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The action as the timing rules see it.
    pub declared: Declared,
    /// The figure's numbers (its place is set when the scene is built).
    pub spec: CombatantSpec,
    /// What it does.
    pub does: Does,
    /// Seconds it hesitated in declaring.
    pub hesitation_s: Option<u32>,
    /// Whether its side's die was given (d6=N).
    pub die_given: bool,
    /// A normal attack with this weapon after an item of speed's shot.
    pub then: Option<String>,
    /// A device with no activation time after its melee blow (`then=device`).
    pub then_device: bool,
}

/// Parses one action. Errors name the bad part.
pub fn parse_action(spec: &str, defaults: &Defaults) -> Result<Figure, String> {
    let written = grammar::split(spec, KINDS, Some("Riggby: melee sf=4 d6=4"))?;
    let (name, kind_word) = (written.name, written.kind);
    let mut a = Declared::melee(name, 0);
    let mut die: Option<u32> = None;
    let mut hesitate: Option<u32> = None;
    let (mut hasted, mut slowed) = (false, false);
    let mut then = None::<&tables::Weapon>;
    let mut then_device = false;
    let mut d8 = false;
    let (mut rate, mut round) = (None::<AttackRate>, defaults.round.max(1));
    let (mut dex, mut move_in, mut light) = (None::<u32>, None::<u32>, None::<bool>);
    let (mut time, mut distance, mut arrive) = (None::<u32>, None::<f64>, None::<u32>);
    let (mut body, mut encumbered) = (Body::Biped, false);
    let (mut specialist, mut level) = (false, None::<u32>);
    let (mut weapon, mut spell, mut reach_given) = (None, None, false);
    let table = |e: String| format!("{name}: {}", typed_as_a_setting(&e));
    // One die a figure: a d6 and a d8 both given is a conflict, not the last one winning.
    let dice: Vec<_> = written
        .settings
        .iter()
        .filter(|w| matches!(w.key, "d6" | "d8"))
        .collect();
    if let [_, later, ..] = dice[..]
        && dice.iter().any(|w| w.key != later.key)
    {
        return Err(later.error(
            "both a d6 and a d8 given: a side rolls one die (d8 marks a spectator's side); give one",
        ));
    }
    for w in &written.settings {
        // Every number within the limits scenes have (scene::limits).
        let (k, v) = (w.key, w.value);
        match k {
            // A side's die named without a number: every roll is laid out.
            "d8" if w.bare() => d8 = true,
            "d6" if w.bare() => {}
            "d6" | "d8" => {
                let sides = if k == "d8" { 8 } else { 6 };
                let n = w.number(&(0..=limits::ROUNDS))?;
                if !(1..=sides).contains(&n) {
                    return Err(w.error(format!("a {k} shows 1 to {sides}")));
                }
                die = Some(n);
                d8 = k == "d8";
            }
            "side" if !w.bare() => {
                a.side = v.replace('_', " ");
                // The scenes' rule for a name: no control characters, not too long.
                crate::scene::fit_name(&a.side).map_err(|e| w.error(format!("side: {e}")))?;
            }
            "sf" => a.speed_factor = Some(w.number(&limits::SPEED_FACTOR)?),
            "weapon" => weapon = Some(tables::weapon(v).map_err(table)?),
            "spell" => spell = Some(tables::spell(v).map_err(table)?),
            "attacks" => a.routines = w.number(&limits::ROUTINES)?,
            "rate" => {
                let r: AttackRate = v.parse().map_err(table)?;
                limits::check("routines", r.routines, &limits::ROUTINES)
                    .and(limits::check("rounds", r.per_rounds, &limits::RATE_ROUNDS))
                    .map_err(|m| w.error(m))?;
                rate = Some(r);
            }
            "round" => round = w.number(&(1..=limits::ROUNDS))?,
            "reach" | "length" => {
                a.reach_ft = w.feet(&limits::LENGTH_FT)?;
                reach_given = true;
            }
            "dex" => dex = Some(w.number(&limits::DEXTERITY)?),
            "move" => move_in = Some(w.number(&limits::MOVEMENT_IN)?),
            "gear" => light = Some(w.choice(&[("light", true), ("heavy", false)])?),
            "time" => time = Some(w.number(&limits::CASTING_SEGMENTS)?),
            "distance" => distance = Some(w.feet(&(0.0..=limits::COORDINATE_FT))?),
            "arrive" => arrive = Some(w.number(&(0..=limits::ROUNDS))?),
            "body" => body = w.choice(&[("biped", Body::Biped), ("quadruped", Body::Quadruped)])?,
            "hesitate" => {
                hesitate = Some(w.number_of(v.trim_end_matches('s'), &limits::HESITATION_S)?)
            }
            "speed" if w.bare() => a.strikes_first = true,
            "hasted" if w.bare() => hasted = true,
            "slowed" if w.bare() => slowed = true,
            "then" if v == "device" => then_device = true,
            "then" => then = Some(tables::weapon(v).map_err(table)?),
            "encumbered" if w.bare() => encumbered = true,
            "specialist" if w.bare() => specialist = true,
            "level" => level = Some(w.number(&crate::rules::class::LEVELS)?),
            // A key of the variant's (its d10, its modifiers) given under the book: every
            // key both know was matched above.
            k if take_initiative::TI_KEYS.split(", ").any(|t| t == k) => {
                return Err(w.figure_error(format!(
                    "'{}' is a setting of \"Take Initiative!\": give --system take-initiative (the book's keys: {KEYS})",
                    w.word
                )));
            }
            _ => return Err(w.unknown(KEYS)),
        }
    }
    if (specialist || level.is_some()) && weapon.is_none() {
        return Err(format!(
            "{name}: specialist and level= give a weapon specialist's rate (UA p.18): name the weapon (weapon=...)"
        ));
    }
    if level.is_some() && !specialist {
        return Err(format!(
            "{name}: level= is read only for a weapon specialist's rate (UA p.18): add specialist, or give rate="
        ));
    }
    let weapon_name = weapon.map(|w| w.name.clone());
    if let Some(w) = weapon {
        let missile = kind_word == "missile";
        if !missile && w.missile {
            return Err(format!(
                "{name}: a {} is a missile weapon; use 'missile weapon=...'",
                w.name
            ));
        }
        if missile && !w.can_fire() {
            return Err(format!(
                "{name}: a {} is neither shot nor thrown; missile fire needs a bow, a sling, a crossbow or a weapon with a throwing range",
                w.name
            ));
        }
        if !missile && a.speed_factor.is_none() {
            a.speed_factor = Some(w.speed_factor);
        }
        if !reach_given {
            a.reach_ft = w.length_ft;
        }
        // The weapon's own rate, unless one is given: a crossbow of speed's doubled (DMG
        // p.168), as a scene's is.
        // A specialist's rate by level (UA p.18), for a melee blow as for a shot.
        if rate.is_none() && a.routines == 1 {
            use crate::rules::specialist::{self, Use};
            let how = if missile { Use::Fire } else { Use::Melee };
            let own = match (specialist, missile) {
                (true, _) => Some(specialist::rate(tables::specialists(), &w.name, level, how).0),
                (false, true) => w.fire_rate,
                (false, false) => None,
            };
            rate = own.map(|r| initiative::rate_of_fire(&w.name, a.strikes_first, r).0);
        }
        if initiative::strikes_first(&w.name).is_some() {
            a.strikes_first = true;
        }
    }
    let spell_name = spell.map(|s| s.name.clone());
    if let Some(s) = spell {
        time = time.or(Some(s.segments));
    }
    // Without a die, the calculator lays out every roll (see [`outcomes`]).
    a.die = die.unwrap_or(0);
    // Haste doubles the rate (PHB p.74): a 3/2 fighter attacks three times a round; slow
    // halves it, and the slowed figure acts as if it lost initiative.
    if hasted && slowed {
        return Err(format!(
            "{name}: a figure cannot be hasted and slowed at once"
        ));
    }
    let base = || AttackRate {
        routines: a.routines,
        per_rounds: 1,
    };
    // Haste doubles the rate: one past the most a rate may hold is refused, on the hasted
    // rate itself, as a scene's hasted figure is (it was cut to 12 without a word).
    if hasted {
        let doubled = rate.unwrap_or_else(base).hasted().0.routines;
        limits::check("routines", doubled, &limits::ROUTINES)
            .map_err(|m| format!("{name}: hasted, {m}"))?;
    }
    // Slow halves the rate (a 3/2 fighter makes 3 routines in 4 rounds): the routines of
    // the asked round are counted from the halved rate, as `run` counts them.
    let rate = match (rate, hasted, slowed) {
        (r, true, _) => Some(r.unwrap_or_else(base).hasted().0),
        (r, _, true) => Some(r.unwrap_or_else(base).slowed().0),
        (r, false, false) => r,
    };
    a.slowed = slowed;
    // Movement as a scene's figure has it: doubled by haste, halved by slow. The figure
    // handed to the engine is marked slowed and halves its own, so it gets it as given.
    let move_given = move_in;
    let move_in = move_in.map(|m| crate::rules::movement::under_haste_or_slow(m, hasted, slowed));
    // A normal attack after an item of speed's shot, with another weapon (rules::second_action).
    if let Some(w) = then {
        use crate::rules::second_action::{First, Second, may_follow};
        let first = match kind_word {
            "missile" => First::Missile {
                of_speed: a.strikes_first,
            },
            _ => First::Other,
        };
        may_follow(first, Second::Melee { other_weapon: true }).map_err(|m| {
            format!(
                "{name}: then={}: {m}",
                w.name.replace(' ', "_").replace('\'', "")
            )
        })?;
    }
    // A device with no activation time after a melee blow (rules::second_action).
    if then_device {
        use crate::rules::second_action::{First, Second, may_follow};
        let first = match kind_word {
            "melee" | "natural" => First::Melee,
            _ => First::Other,
        };
        may_follow(first, Second::Device { instant: true })
            .map_err(|m| format!("{name}: then=device: {m}"))?;
    }
    if let Some(r) = rate {
        a.routines = r
            .routines_in(round, defaults.context.options.alternating_rate)
            .0
            .min(*limits::ROUTINES.end());
        if a.routines == 0 {
            return Err(format!(
                "{name}: at a rate of {r}{} it has no attack in its round {round} of attacking (DMG p.63): it has nothing to order this round (give round=1 for the round it attacks in)",
                if slowed {
                    " (slowed: half its rate)"
                } else {
                    ""
                }
            ));
        }
    }
    let light_gear = light.unwrap_or_else(|| move_in.is_none_or(movement::is_light_gear));
    if let Some(d) = dex {
        a.dex_adjustment = dexterity::effective_adjustment(d, light_gear);
    }
    let mut gap_ft = None;
    let mut closing = false;
    a.kind = match kind_word {
        "melee" | "natural" => {
            if kind_word == "natural" && a.speed_factor.is_some() {
                return Err(format!(
                    "{name}: natural attacks have no speed factor; use 'melee sf=N' for a weapon"
                ));
            }
            ActionKind::Melee
        }
        "missile" => ActionKind::Missile,
        "turn" => ActionKind::Turn,
        // A non-combat act: no one is struck; its side's die places it (DMG p.61-62).
        "other" => {
            a.routines = 1;
            a.speed_factor = None;
            ActionKind::Other
        }
        // Closing: no blows this round, unless the one it closes on charges it.
        "close" => {
            closing = true;
            a.routines = 1;
            ActionKind::Melee
        }
        "set" => {
            // A spear or pole arm set against a charge ("Take Initiative!" §9).
            if !weapon.is_some_and(|w| w.set_vs_charge) {
                return Err(format!(
                    "{name}: set needs a spear or pole arm, e.g. 'set weapon=spear'"
                ));
            }
            a.set_vs_charge = true;
            a.routines = 1;
            ActionKind::Melee
        }
        // A device with no activation time is used at its side's initiative, as any other
        // act (rules::spell::instant_device).
        "device" if time.is_none() => {
            a.routines = 1;
            a.speed_factor = None;
            ActionKind::Other
        }
        "cast" | "device" => {
            let segments = time.ok_or_else(|| {
                format!("{name}: {kind_word} needs time=SEGMENTS (casting or activation time)")
            })?;
            a.routines = 1;
            ActionKind::Cast {
                segments,
                device: kind_word == "device",
            }
        }
        "charge" => {
            if !charge::may_charge(encumbered).0 {
                return Err(format!(
                    "{name}: an encumbered creature cannot charge (DMG p.66)"
                ));
            }
            let per =
                charge::charge_feet_per_segment(move_in.unwrap_or(12), defaults.setting, body);
            let arrival_segment = match (arrive, distance, move_in) {
                // Both ways of placing the arrival: they may disagree (segment 9 at 50 ft
                // and 24 ft a segment was played as 9 without a word).
                (Some(_), Some(_), _) => {
                    return Err(format!(
                        "{name}: give arrive=SEGMENT, or distance=FEET with move=INCHES, not both"
                    ));
                }
                (Some(0), _, _) => {
                    return Err(format!(
                        "{name}: a charge arrives in segment 1 to 10 (arrive=1..10)"
                    ));
                }
                (Some(n), _, _) => {
                    // Half a segment's move short of n segments: contact in segment n.
                    gap_ft = Some((f64::from(n) - 0.5) * per);
                    n
                }
                (None, Some(d), Some(m)) => {
                    gap_ft = Some(d);
                    let per = charge::charge_feet_per_segment(m, defaults.setting, body);
                    if per <= 0.0 {
                        return Err(format!("{name}: move must be above 0 to charge"));
                    }
                    if !charge::arrives_this_round(d, per) {
                        return Err(format!(
                            "{name}: at {per} ft a segment the charge cannot cover {d} ft this round (DMG p.66); spend the round closing"
                        ));
                    }
                    charge::arrival_segment(d, per).0
                }
                _ => {
                    return Err(format!(
                        "{name}: a charge needs arrive=SEGMENT, or distance=FEET with move=INCHES"
                    ));
                }
            };
            if arrival_segment > charge::SEGMENTS_PER_ROUND {
                return Err(format!(
                    "{name}: the charge needs {arrival_segment} segments and cannot arrive this round (DMG p.66); spend the round closing"
                ));
            }
            a.routines = 1;
            ActionKind::Charge { arrival_segment }
        }
        other => {
            return Err(format!(
                "{name}: unknown action kind '{other}' (one of {KINDS})"
            ));
        }
    };
    // The scene is given the action as declared; the engine applies the hesitation.
    let does = match a.kind {
        ActionKind::Melee if closing => Does::Close,
        ActionKind::Melee if a.set_vs_charge => Does::Set,
        ActionKind::Melee => Does::Melee,
        ActionKind::Missile => Does::Missile,
        ActionKind::Turn => Does::Turn,
        ActionKind::Other if kind_word == "device" => Does::Device {
            name: spell_name.clone().unwrap_or_else(|| "the device".into()),
        },
        ActionKind::Other => Does::Other,
        ActionKind::Charge { .. } => Does::Charge {
            gap_ft: gap_ft.unwrap_or(0.0),
        },
        ActionKind::Cast { segments, device } => Does::Cast {
            spell: spell_name
                .unwrap_or_else(|| if device { "the device" } else { "the spell" }.to_string()),
            // As declared: the engine adds the hesitation itself.
            segments,
            device,
        },
    };
    // The report's view of the action: hesitation delays it by whole segments (DMG p.71),
    // a spell's completion and a charge's arrival that much later.
    a.delay = hesitate.map_or(0, |s| {
        hesitation_delay(s, defaults.context.options.hesitation).0
    });
    match &mut a.kind {
        ActionKind::Cast { segments, .. } => *segments += a.delay,
        ActionKind::Charge { arrival_segment } => {
            *arrival_segment += a.delay;
            if *arrival_segment > charge::SEGMENTS_PER_ROUND {
                return Err(format!(
                    "{name}: hesitating {} late, the charge cannot arrive this round (DMG p.66, p.71)",
                    crate::text::plural(a.delay, "segment")
                ));
            }
        }
        _ => {}
    }
    let spec = CombatantSpec {
        name: a.name.clone(),
        side: a.side.clone(),
        movement: if slowed { move_given } else { move_in }.or(if light == Some(false) {
            Some(9)
        } else {
            None
        }),
        dexterity: dex,
        speed_factor: a.speed_factor,
        length_ft: Some(a.reach_ft),
        // The engine halves a slowed figure's rate itself (its scene marks it slowed): it
        // is given twice the routines it makes in this round.
        attacks: Some(AttackRate {
            routines: if a.slowed {
                a.routines.saturating_mul(2)
            } else {
                a.routines
            },
            per_rounds: 1,
        }),
        of_speed: a.strikes_first,
        initiative_die: d8.then_some(8),
        encumbered,
        body: Some(body),
        just_closed: defaults.context.melee_round == MeleeRound::FirstAfterClosing,
        slowed: a.slowed,
        // A set weapon must be named: the engine checks it can be set.
        weapon: weapon_name.filter(|_| a.set_vs_charge),
        ..CombatantSpec::default()
    };
    Ok(Figure {
        declared: a,
        spec,
        does,
        hesitation_s: hesitate,
        die_given: die.is_some(),
        then: then.map(|w| w.name.clone()),
        then_device,
    })
}

/// A table's "did you mean 'long sword'?" written as a setting is typed: a value holds no
/// spaces on the command line, so the name is suggested with underscores (`long_sword`),
/// and without apostrophes, which the tables do without (`bigbys_clenched_fist`).
fn typed_as_a_setting(e: &str) -> String {
    const ASK: &str = "(did you mean '";
    match e.split_once(ASK).and_then(|(head, tail)| {
        let (name, rest) = tail.split_once("'?)")?;
        Some(format!(
            "{head}{ASK}{}'?){rest}",
            name.replace(' ', "_").replace('\'', "")
        ))
    }) {
        Some(s) => s,
        None => e.to_string(),
    }
}
