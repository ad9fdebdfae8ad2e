//! The calculator under "Take Initiative!": each figure's d10 and the Appendix B modifiers
//! of what it does, its total with every modifier named, and the order the totals give —
//! the lower first, equal totals together, a total over 20 in the next round. Without
//! dice, each pair is laid out over its 100 rolls.

use super::grammar;
use crate::rules::dexterity::reaction_adjustment;
use crate::rules::size::Size;
use crate::rules::take_initiative::spell::SpellCards;
use crate::rules::take_initiative::{
    ActsAt, Iaijutsu, Modifier, ModifierContext, Total,
    action::{Action, can_be_ready, missile_speed, modifiers},
    acts_at, acts_at_round_end, acts_at_whole_round, change,
    combine::combine,
    modifier, multiple_targets, takes_the_round,
};
use crate::scene::limits;
use crate::tables;
use serde::Serialize;
use std::fmt::Write as _;

/// Keys `first` knows under "Take Initiative!".
pub(crate) const TI_KEYS: &str =
    "d10, sf, weapon, ammo, level, dex, targets, size, iaijutsu, far, nocards, mod, change, at";

/// The kinds of action `first --system take-initiative` knows, with the rows they add.
pub const KINDS: &str = "melee, natural, unarmed, missile, move-missile, hurl, charge, set, cast, move, flee, withdraw, parry, expect, hide, turn, device, wait, block";

/// One figure: its action's modifiers and, if given, its d10.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TiFigure {
    /// Name.
    pub name: String,
    /// What it does.
    pub kind: String,
    /// Its d10, if given.
    pub base: Option<u32>,
    /// The modifiers of its action.
    pub modifiers: Vec<Modifier>,
    /// Changed to this action (§1): the new d10 and the segment it changed in.
    pub changed: Option<(u32, Option<u32>)>,
    /// It attacks several melee targets: at the round's end (App. B, Weapon).
    pub round_end: bool,
    /// Its act takes the whole round (standing up, App. B, Movement): done at the round's
    /// end, never carried into the next.
    pub whole_round: bool,
    /// The weapon named (`weapon=`), if any: its length orders the blows at a charge's
    /// contact, and a spear or pole arm may be set against it.
    #[serde(skip)]
    pub weapon: Option<String>,
}

impl TiFigure {
    /// Its total for a d10 of `base` (after a change of action, §1, if it changed).
    pub fn total(&self, base: u32) -> Total {
        match self.changed {
            Some((reroll, at)) => {
                let segment = at.unwrap_or(base).min(base);
                change::changed(base, segment, reroll, self.modifiers.clone()).0
            }
            None => Total::new(base, self.modifiers.clone()),
        }
    }

    /// Its order within ordering segment 1 for a d10 of `base`: a total below 1 still acts
    /// before a higher one (the lower wins, Glossary); every other total ranks alike.
    pub fn early(&self, base: u32) -> i64 {
        if self.round_end || self.whole_round {
            1
        } else {
            self.total(base).value().min(1)
        }
    }

    /// When it acts for a d10 of `base`, with the rule that decides.
    pub fn acts(&self, base: u32) -> (ActsAt, crate::rules::cite::Rule) {
        let total = self.total(base).value();
        if self.whole_round {
            acts_at_whole_round()
        } else if self.round_end {
            acts_at_round_end(total)
        } else {
            acts_at(total)
        }
    }
}

/// Parses 'NAME: KIND [key=value ...]'.
pub fn parse(spec: &str) -> Result<TiFigure, String> {
    let written = grammar::split(spec, KINDS, None)?;
    let (name, kind) = (written.name.to_string(), written.kind.to_string());
    let (mut base, mut ctx, mut dex, mut far) = (None, ModifierContext::default(), None, false);
    let mut ammo = None::<String>;
    let mut weapon = None::<String>;
    let (mut reroll, mut at) = (None, None);
    let mut extra = Vec::new();
    let mut size = Size::M;
    let mut cards = SpellCards::With;
    for w in &written.settings {
        let v = w.value;
        match w.key {
            "d10" => base = Some(w.number(&limits::D10)?),
            "sf" => ctx.weapon_speed = Some(w.number(&limits::SPEED_FACTOR)? as i32),
            "weapon" => {
                let wpn = tables::weapon(v).map_err(|e| w.figure_error(e))?;
                ctx.weapon_speed.get_or_insert(wpn.speed_factor as i32);
                weapon = Some(wpn.name.clone());
            }
            "ammo" => ammo = Some(v.to_string()),
            "level" => ctx.spell_level = Some(w.number(&limits::SPELL_LEVEL)?),
            "dex" => dex = Some(w.number(&limits::DEXTERITY)?),
            "targets" => ctx.targets = w.number(&limits::TARGETS)?,
            "size" => size = w.choice(&[("S", Size::S), ("M", Size::M), ("L", Size::L)])?,
            // Bare: with the weapon it uses; =both: drawing two (App. B notes 2, 3, 5).
            "iaijutsu" if w.bare() => ctx.iaijutsu = Iaijutsu::One,
            "iaijutsu" => {
                ctx.iaijutsu = w.choice(&[("one", Iaijutsu::One), ("both", Iaijutsu::Both)])?
            }
            "far" if w.bare() => far = true,
            "nocards" if w.bare() => cards = SpellCards::Without,
            "mod" => extra.push(v.to_string()),
            "change" => reroll = Some(w.number(&limits::D10)?),
            "at" => at = Some(w.number(&limits::D10)?),
            // A key of the book's (its d6, its timings) given under the variant.
            k if super::KEYS.split(", ").any(|b| b == k) => {
                return Err(w.figure_error(format!(
                    "'{}' is a setting of the book's rules, not of \"Take Initiative!\" (its keys: {TI_KEYS}); leave out --system take-initiative to use it",
                    w.word
                )));
            }
            _ => return Err(w.unknown(TI_KEYS)),
        }
    }
    // A key that means nothing for this kind is refused, never dropped or misread (ammo on
    // a melee took the place of the weapon's speed; far on a device added nothing).
    let misplaced = [
        (
            ammo.is_some(),
            "ammo=",
            &["missile", "move-missile"][..],
            "a missile's speed",
        ),
        (
            far,
            "far",
            &["move", "move-missile"][..],
            "a move over half the move; elsewhere give mod=move_full (+8) or mod=move_half (+4)",
        ),
        (
            cards == SpellCards::Without,
            "nocards",
            &["cast"][..],
            "a spell cast without spell cards",
        ),
        (
            ctx.spell_level.is_some(),
            "level=",
            &["cast"][..],
            "a spell's level",
        ),
    ];
    if let Some((_, key, kinds, what)) = misplaced
        .iter()
        .find(|(given, _, kinds, _)| *given && !kinds.contains(&kind.as_str()))
    {
        return Err(format!(
            "{name}: {key} is for {} ({what}); a {kind} has none",
            kinds.join(" or ")
        ));
    }
    let table = tables::take_initiative();
    if let Some(a) = &ammo {
        let s = table
            .missile_speeds
            .iter()
            .find(|m| &m.id == a)
            .ok_or_else(|| {
                format!("{name}: unknown ammo '{a}' (nocked, arrows, quarrels, darts, thrown)")
            })?;
        ctx.weapon_speed = Some(s.speed);
    }
    if (kind == "missile" || kind == "move-missile")
        && let Some(w) = weapon.as_deref().and_then(|w| tables::weapon(w).ok())
        && !w.can_fire()
    {
        return Err(format!(
            "{name}: a {} is neither shot nor thrown; missile fire needs a missile weapon or one with a throwing range",
            w.name
        ));
    }
    let speed = || ctx.weapon_speed.unwrap_or(0);
    let action = match kind.as_str() {
        "melee" => Action::Melee {
            speed_factor: ctx.weapon_speed.map(|s| s.max(0) as u32),
        },
        "natural" => Action::Melee { speed_factor: None },
        "unarmed" => Action::Unarmed { size },
        "wait" | "block" => Action::Other,
        // Moving and shooting: never nocked and ready on the move (§8b).
        "move-missile" if ammo.as_deref() == Some("nocked") => {
            return Err(format!(
                "{name}: ammo=nocked on the move: a bow cannot be nocked and ready while moving (Take Initiative! §8b note b); give ammo=arrows (or quarrels, darts, thrown) or weapon=NAME"
            ));
        }
        "missile" | "move-missile"
            if ammo.as_deref() == Some("nocked")
                && weapon.as_deref().is_some_and(|w| !can_be_ready(w)) =>
        {
            return Err(format!(
                "{name}: ammo=nocked with a {}: only a bow, crossbow, sling or darts is nocked and ready; a thrown weapon is an other thrown object, +4 (Take Initiative! §8 note 1)",
                weapon.as_deref().unwrap_or_default()
            ));
        }
        "move-missile" => Action::MoveAndShoot {
            far,
            speed: match (&ammo, &weapon) {
                (None, Some(w)) => missile_speed(table, w, false),
                _ => speed(),
            },
            dexterity: dex.map_or(0, reaction_adjustment),
        },
        // A weapon hurled on the charge: a thrown object's speed, not the charge's +4 (§9h).
        "hurl"
            if weapon
                .as_deref()
                .and_then(|w| tables::weapon(w).ok())
                .is_some_and(|w| w.range_in.is_none()) =>
        {
            return Err(format!(
                "{name}: weapon={} has no throwing range: a charge hurls a throwable melee weapon (Take Initiative! §9h)",
                weapon.as_deref().unwrap_or_default()
            ));
        }
        "hurl" => Action::Missile {
            speed: missile_speed(table, "thrown", false),
            dexterity: dex.map_or(0, reaction_adjustment),
        },
        "missile" => Action::Missile {
            speed: match (&ammo, &weapon) {
                (None, Some(w)) => missile_speed(table, w, false),
                _ => speed(),
            },
            dexterity: dex.map_or(0, reaction_adjustment),
        },
        "charge" => Action::Charge,
        // A weapon set to receive a charge: its own row, -2 (App. B).
        "set" => Action::SetToReceive,
        "cast" => Action::Cast {
            level: ctx
                .spell_level
                .ok_or_else(|| format!("{name}: a spell needs its level (level=N)"))?,
        },
        "move" => Action::Move { far },
        "withdraw" => Action::Withdraw,
        "flee" => Action::Flee,
        "parry" => Action::Parry,
        "expect" => Action::Expect,
        "hide" => Action::Hide,
        "turn" => Action::Turn,
        "device" => Action::Device,
        other => {
            return Err(format!(
                "{name}: unknown action kind '{other}' (one of {KINDS})"
            ));
        }
    };
    // Melee at several targets: the row for them, +1 each, and the round's end.
    let melee = matches!(action, Action::Melee { .. } | Action::Unarmed { .. });
    if ctx.targets > 1 && !melee {
        return Err(format!(
            "{name}: targets={} is melee at several targets (Take Initiative! App. B, Weapon); {kind} has none",
            ctx.targets
        ));
    }
    if melee
        && extra.iter().any(|e| e == "multiple_targets")
        && let Err(why) = crate::rules::take_initiative::row_for_targets(ctx.targets as usize)
    {
        return Err(format!("{name}: {why}: give targets=N"));
    }
    let round_end = melee
        && (multiple_targets(ctx.targets as usize).is_some()
            || extra.iter().any(|e| e == "multiple_targets"));
    if melee && round_end && !extra.iter().any(|e| e == "multiple_targets") {
        extra.push("multiple_targets".into());
    }
    let mut modifiers = modifiers(table, action).0;
    crate::rules::take_initiative::spell::without_cards(&mut modifiers, action, cards);
    for id in &extra {
        modifiers.push(modifier(table, id, &ctx).map_err(|e| format!("{name}: {e}"))?);
    }
    crate::rules::take_initiative::spell::from_scroll(&mut modifiers);
    // Set to receive a charge: a spear or pole arm only (§9a), as a scene's `Set` is.
    let set = kind == "set";
    if set && extra.iter().any(|e| e == "set_to_receive") {
        return Err(format!(
            "{name}: a set is already set to receive a charge: leave out mod=set_to_receive"
        ));
    }
    if (set || extra.iter().any(|e| e == "set_to_receive"))
        && !tables::sets_against_charge(weapon.as_deref())
    {
        return Err(format!(
            "{name}: {} needs a spear or pole arm (weapon=spear, weapon=awl_pike, weapon=halberd…): {} (Take Initiative! §9a)",
            if set { "a set" } else { "mod=set_to_receive" },
            match &weapon {
                Some(w) => format!("a {w} cannot be set against a charge"),
                None => "no weapon=NAME is given".to_string(),
            }
        ));
    }
    // Only what goes together in one round (Appendix A-B, Glossary).
    let ids: Vec<&str> = extra.iter().map(String::as_str).collect();
    let (combined, _) = combine(table, action, &ids)
        .map_err(|r| format!("{name}: {kind} with {}: {}", ids.join(", "), r.describe()))?;
    // A minor action leaves one attack (App. A): no melee at several targets beside it, as
    // a scene refuses it.
    if let Some((why, _)) = crate::rules::take_initiative::combine::several_targets_refused(
        ctx.targets as usize,
        combined.one_attack,
    ) {
        return Err(format!("{name}: {why}"));
    }
    if at.is_some() && reroll.is_none() {
        return Err(format!(
            "{name}: at=SEGMENT goes with change=D10 (the new roll)"
        ));
    }
    if let (Some(b), Some(s)) = (base, at)
        && let Err((why, rule)) = change::may_change(b, s, change::Standing::default())
    {
        return Err(format!(
            "{name}: cannot change in segment {s}: {} ({})",
            why.describe(),
            rule.page_ref()
        ));
    }
    Ok(TiFigure {
        name,
        kind,
        base,
        modifiers,
        changed: reroll.map(|r| (r, at)),
        round_end,
        whole_round: takes_the_round(table, &ids).is_some(),
        weapon,
    })
}

/// One place in the order: figures acting together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    /// When.
    pub acts: ActsAt,
    /// Who.
    pub names: Vec<String>,
    /// Blows at a charge's contact (§9a), in words: who strikes back at whose charge, and
    /// whether a spear is set in time for double damage. Only where a charge meets them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact: Option<String>,
}

/// The kinds that stand and strike back at a charge's contact, whatever their own total
/// (§9a; a scene's melee, hold, set or expect do the same,
/// `sim::plan::take_initiative::contact`).
const MEETS_A_CHARGE: [&str; 6] = ["melee", "natural", "unarmed", "set", "wait", "expect"];

/// A charge's contact with one figure listed with it: the charger, its total's place, and
/// who meets it there, each with its weapon's length.
struct Contact<'a> {
    charger: &'a TiFigure,
    at: ActsAt,
    total: i64,
}

impl Contact<'_> {
    /// The charge of a pair (with dice): one charges, the other stands to meet it. With
    /// more figures `first` does not know who charges whom (it names no targets), and
    /// every total stands as rolled.
    fn of(figs: &[TiFigure]) -> Option<Contact<'_>> {
        let [a, b] = figs else { return None };
        let (charger, other) = match (a.kind.as_str(), b.kind.as_str()) {
            ("charge", _) => (a, b),
            (_, "charge") => (b, a),
            _ => return None,
        };
        if !Self::meets(other) {
            return None;
        }
        let base = charger.base?;
        Some(Contact {
            charger,
            at: charger.acts(base).0,
            total: charger.total(base).value(),
        })
    }

    fn meets(f: &TiFigure) -> bool {
        MEETS_A_CHARGE.contains(&f.kind.as_str())
    }

    /// Whether figure `f` strikes at the contact (the charger's own blow is there too).
    fn strikes(&self, f: &TiFigure) -> bool {
        std::ptr::eq(f, self.charger) || Self::meets(f)
    }

    /// A spear or pole arm set in time (base − 2 before the charger's total, §9a).
    fn set(&self, f: &TiFigure) -> bool {
        let spear =
            f.kind == "set" || tables::sets_against_charge(f.weapon.as_deref()) && Self::meets(f);
        spear
            && f.base.is_some_and(|b| {
                crate::rules::take_initiative::charge::set_in_time(b, self.total).0
            })
    }

    /// The longer weapon first at contact: its length in tenths of a foot, negated.
    fn length_key(f: &TiFigure) -> i64 {
        let ft = f
            .weapon
            .as_deref()
            .and_then(|w| tables::weapon(w).ok())
            .map_or(0.0, |w| w.length_ft);
        -(ft * 10.0).round() as i64
    }

    /// What the place of a blow at contact says.
    fn words(&self, f: &TiFigure) -> String {
        if std::ptr::eq(f, self.charger) {
            return format!("{}'s charge makes contact (Take Initiative! §9a)", f.name);
        }
        let set = match self.set(f) {
            true => ", set: double damage",
            false => "",
        };
        format!(
            "{} strikes back at {}'s charge at contact, by weapon length{set} (Take Initiative! §9a)",
            f.name, self.charger.name
        )
    }
}

/// The figures with their dice, in the order their totals give; a charge's contact (§9a)
/// brings those who stand to meet it to the charger's total, the longer weapon first.
pub fn order(figs: &[TiFigure]) -> Result<Vec<Place>, String> {
    let mut timed: Vec<(ActsAt, i64, i64, &TiFigure)> = Vec::new();
    for f in figs {
        f.base
            .ok_or_else(|| format!("{}: give its d10 (d10=N), or no dice at all", f.name))?;
    }
    let contact = Contact::of(figs);
    for f in figs {
        let base = f.base.unwrap_or(1);
        match &contact {
            // At the contact, on the charger's total: by weapon length alone.
            Some(c) if c.strikes(f) => {
                let early = c.charger.early(c.charger.base.unwrap_or(1));
                timed.push((c.at, early, Contact::length_key(f), f))
            }
            _ => timed.push((f.acts(base).0, f.early(base), 0, f)),
        }
    }
    timed.sort_by_key(|t| (t.0.rounds_later, t.0.segment, t.1, t.2));
    let mut out: Vec<Place> = Vec::new();
    let mut last = None;
    for (acts, early, length, f) in timed {
        let words = contact
            .as_ref()
            .filter(|c| c.strikes(f))
            .map(|c| c.words(f));
        match out.last_mut() {
            Some(p) if p.acts == acts && last == Some((early, length)) => {
                p.names.push(f.name.clone());
                if let (Some(had), Some(w)) = (&mut p.contact, words) {
                    had.push_str("; ");
                    had.push_str(&w);
                }
            }
            _ => out.push(Place {
                acts,
                names: vec![f.name.clone()],
                contact: words,
            }),
        }
        last = Some((early, length));
    }
    Ok(out)
}

/// Over all 100 rolls of two d10s: how often `a` acts first, together, and second.
pub fn pair_odds(a: &TiFigure, b: &TiFigure) -> (u32, u32, u32) {
    let when = |f: &TiFigure, d| {
        let t = f.acts(d).0;
        (t.rounds_later, t.segment, f.early(d))
    };
    let mut n = (0, 0, 0);
    for da in 1..=10 {
        for db in 1..=10 {
            match when(a, da).cmp(&when(b, db)) {
                std::cmp::Ordering::Less => n.0 += 1,
                std::cmp::Ordering::Equal => n.1 += 1,
                std::cmp::Ordering::Greater => n.2 += 1,
            }
        }
    }
    n
}

/// The text report.
pub fn to_text(figs: &[TiFigure]) -> Result<String, String> {
    let mut out =
        String::from("System: Take Initiative! (d10, 20 ordering segments; lower first)\n\n");
    let dice = figs.iter().all(|f| f.base.is_some());
    for f in figs {
        let line = match f.base {
            Some(b) => {
                let t = f.total(b);
                let (at, rule) = f.acts(b);
                let when = match at.rounds_later {
                    0 if f.round_end || f.whole_round => {
                        format!("segment {}, the round's end", at.segment)
                    }
                    0 => format!("segment {}", at.segment),
                    1 => format!("next round, segment {}", at.segment),
                    n => format!("{n} rounds on, segment {}", at.segment),
                };
                format!(
                    "{} ({}): {} → {when} [{}]",
                    f.name,
                    f.kind,
                    t.describe(),
                    rule.page_ref()
                )
            }
            None => {
                let (lo, hi) = (f.total(1).value(), f.total(10).value());
                format!(
                    "{} ({}): d10 + {} → {lo} to {hi}",
                    f.name,
                    f.kind,
                    f.total(0).value()
                )
            }
        };
        let _ = writeln!(out, "  {line}");
        if f.kind == "expect" {
            // Its total only says when it is ready: the answer comes after the event (§2).
            let _ = writeln!(
                out,
                "    {} acts only after the event it expects: its answer comes at max(this total, the event's segment) - 3 + a new d10 + its weapon's speed (Take Initiative! §2; a scene plays it)",
                f.name
            );
        }
    }
    let _ = writeln!(out);
    if dice {
        let _ = writeln!(out, "The order:");
        for p in order(figs)? {
            let when = match p.acts.rounds_later {
                0 => format!("segment {:>2}", p.acts.segment),
                1 => format!("next round, segment {}", p.acts.segment),
                n => format!("{n} rounds on, segment {}", p.acts.segment),
            };
            let waits = |n: &String| {
                if figs.iter().any(|f| &f.name == n && f.kind == "expect") {
                    " (ready; answers after the event)"
                } else {
                    ""
                }
            };
            let names: Vec<String> = p.names.iter().map(|n| format!("{n}{}", waits(n))).collect();
            let _ = writeln!(out, "  {when}  {}", names.join(" and "));
            if let Some(c) = &p.contact {
                let _ = writeln!(out, "               {c}");
            }
        }
    } else {
        let _ = writeln!(out, "Over the 100 rolls of each pair's d10s:");
        for (i, a) in figs.iter().enumerate() {
            for b in &figs[i + 1..] {
                let (first, same, second) = pair_odds(a, b);
                let _ = writeln!(
                    out,
                    "  {} first {first}%, together {same}%, {} first {second}%",
                    a.name, b.name
                );
            }
        }
    }
    Ok(out)
}

/// The JSON report: `system`, `actions` (each with `base`, `modifiers`, `total`, `acts`),
/// and `order` (with dice) or `pairs` (without).
pub fn to_json(figs: &[TiFigure]) -> Result<String, String> {
    #[derive(Serialize)]
    struct Action<'a> {
        name: &'a str,
        kind: &'a str,
        base: Option<u32>,
        modifiers: Vec<Modifier>,
        total: Option<i64>,
        acts: Option<ActsAt>,
    }
    #[derive(Serialize)]
    struct Pair<'a> {
        a: &'a str,
        b: &'a str,
        a_first: u32,
        together: u32,
        b_first: u32,
    }
    let actions: Vec<Action> = figs
        .iter()
        .map(|f| {
            let t = f.base.map(|b| f.total(b));
            let total = t.as_ref().map(Total::value);
            Action {
                name: &f.name,
                kind: &f.kind,
                base: f.base,
                modifiers: t.map_or_else(|| f.modifiers.clone(), |t| t.modifiers),
                total,
                acts: f.base.map(|b| f.acts(b).0),
            }
        })
        .collect();
    let dice = figs.iter().all(|f| f.base.is_some());
    let order = if dice { Some(order(figs)?) } else { None };
    let mut pairs = Vec::new();
    if !dice {
        for (i, a) in figs.iter().enumerate() {
            for b in &figs[i + 1..] {
                let (a_first, together, b_first) = pair_odds(a, b);
                pairs.push(Pair {
                    a: &a.name,
                    b: &b.name,
                    a_first,
                    together,
                    b_first,
                });
            }
        }
    }
    let v = serde_json::json!({
        "system": "take_initiative",
        "actions": actions,
        "order": order,
        "pairs": pairs,
    });
    Ok(serde_json::to_string_pretty(&v).expect("the report serialises"))
}
