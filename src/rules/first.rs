//! Who acts first between two declared actions: picks the chart (tied or high-vs-low),
//! reads the cell and evaluates it with the dice, speed factors, reach and casting times.
//! The result names the rule and page that decided (DMG p.61-67).

use super::action::{ActionKind, Declared};
use super::charge::SEGMENTS_PER_ROUND;
use super::chart::{self, Category, Cell, Chart, Then};
use super::cite::{self, Rule};
use super::options::{
    FirstRoundTiebreak, InstantActions, MissileVsCharge, RulesOptions, TiedSpeedFactor,
};
use super::speed_factor::{self, Extra, MeleeRound};
use super::spell::completion_segment;
use serde::Serialize;

/// Who goes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum First {
    /// The first action given.
    A,
    /// The second.
    B,
    /// Both at once.
    Together,
}

impl First {
    /// The answer with A and B swapped.
    pub fn swapped(self) -> First {
        match self {
            First::A => First::B,
            First::B => First::A,
            First::Together => First::Together,
        }
    }
}

/// The circumstances of the comparison.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Context {
    /// Where the melee stands (speed factors do not apply right after closing).
    pub melee_round: MeleeRound,
    /// The interpretation options in force.
    pub options: RulesOptions,
}

/// The answer to "who acts first, and why".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The chart consulted.
    pub chart: Chart,
    /// The cell read (from the high roller's row, or A's row on a tie).
    pub cell: Cell,
    /// Who acts first.
    pub first: First,
    /// A's segment where the rule fixes one (completion, arrival, blow on a caster).
    pub segment_a: Option<u32>,
    /// B's segment where the rule fixes one.
    pub segment_b: Option<u32>,
    /// Extra blows earned by the faster weapon, and by whom.
    pub extra: Option<(First, Extra)>,
    /// The rule that decided.
    #[serde(serialize_with = "ser_rule")]
    pub rule: Rule,
    /// A sentence saying why, with the numbers.
    pub why: String,
    /// The chart's row and column read: (the high roller's category, or A's on a tie; the
    /// other's). None when no chart decided (an item of speed, a weapon set against a
    /// charge). The rules panel lights this cell; left out of the JSON.
    #[serde(skip)]
    pub read: Option<(Category, Category)>,
}

fn ser_rule<S: serde::Serializer>(r: &Rule, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(r, s)
}

impl Decision {
    fn swapped(mut self) -> Decision {
        self.first = self.first.swapped();
        std::mem::swap(&mut self.segment_a, &mut self.segment_b);
        self.extra = self.extra.map(|(w, e)| (w.swapped(), e));
        self
    }
}

/// Decides who acts first between `a` and `b` (the charts of the initiative and combat
/// table; DMG p.61-67).
pub fn who_first(a: &Declared, b: &Declared, ctx: &Context) -> Decision {
    // Items of speed strike first whatever the dice (DMG p.168) — unless both have one.
    // Against a caster the wielder counts as having won initiative, so it strikes before
    // the spell completes.
    if a.strikes_first != b.strikes_first {
        let (fast, slow, first) = if a.strikes_first {
            (a, b, First::A)
        } else {
            (b, a, First::B)
        };
        if slow.casting().is_some() {
            let mut d = evaluate(Chart::HighLow, fast, slow, ctx);
            d.rule = cite::STRIKES_FIRST;
            // The chart read as if it had won: say so when the dice said otherwise.
            if matches!(d.cell, Cell::HighD6 | Cell::HighD6Dex)
                && fast.initiative() <= slow.initiative()
            {
                d.why = crate::words!(
                    "it counts as the winner against the caster whatever the dice ({})",
                    score(fast.initiative(), slow.initiative())
                );
            }
            d.why = crate::words!(
                "{}'s weapon strikes first regardless of initiative; {}",
                fast.name,
                d.why
            );
            return if first == First::A { d } else { d.swapped() };
        }
        return Decision {
            chart: if a.initiative() == b.initiative() {
                Chart::Tied
            } else {
                Chart::HighLow
            },
            cell: Cell::HighD6,
            first,
            segment_a: None,
            segment_b: None,
            extra: None,
            rule: cite::STRIKES_FIRST,
            why: crate::words!(
                "{}'s weapon strikes first regardless of initiative",
                fast.name
            ),
            read: None,
        };
    }
    if let Some(d) = set_against_charge(a, b) {
        return d;
    }
    let (ia, ib) = (a.initiative(), b.initiative());
    let d = if ia >= ib {
        let chart = if ia == ib {
            Chart::Tied
        } else {
            Chart::HighLow
        };
        evaluate(chart, a, b, ctx)
    } else {
        evaluate(Chart::HighLow, b, a, ctx).swapped()
    };
    instant_first(d, a, b, ctx)
}

/// A spear or pole arm set against a charger strikes first, whatever the reach or the dice
/// ("Take Initiative!" §9).
fn set_against_charge(a: &Declared, b: &Declared) -> Option<Decision> {
    let charging = |x: &Declared| matches!(x.kind, ActionKind::Charge { .. });
    let first = match (
        a.set_vs_charge && charging(b),
        b.set_vs_charge && charging(a),
    ) {
        (true, false) => First::A,
        (false, true) => First::B,
        _ => return None,
    };
    let (set, charger) = if first == First::A { (a, b) } else { (b, a) };
    Some(Decision {
        chart: Chart::HighLow,
        cell: Cell::LongerReach,
        first,
        segment_a: None,
        segment_b: None,
        extra: None,
        read: None,
        rule: cite::CHARGE_SET,
        why: crate::words!(
            "{}'s weapon is set against {}'s charge: it strikes first",
            set.name,
            charger.name
        ),
    })
}

/// The reading [`InstantActions::InstantFirst`]: an action that takes no time goes off
/// before a blow that would otherwise come first.
fn instant_first(mut d: Decision, a: &Declared, b: &Declared, ctx: &Context) -> Decision {
    if ctx.options.instant_actions != InstantActions::InstantFirst {
        return d;
    }
    let (instant, first) = match (a.casting(), b.casting()) {
        (Some(0), None) => (a, First::A),
        (None, Some(0)) => (b, First::B),
        _ => return d,
    };
    if d.first != first {
        d.first = first;
        d.read = None;
        d.rule = cite::INSTANT_FIRST;
        d.why = crate::words!("{}'s action takes no time: it goes off first", instant.name);
    }
    d
}

/// Evaluates the cell for `r` (row; the high roller, or either on a tie) against `c`.
fn evaluate(chart: Chart, r: &Declared, c: &Declared, ctx: &Context) -> Decision {
    let cell = chart::cell(chart, r.category(), c.category());
    let mut d = evaluate_cell(cell, chart, r, c, ctx);
    d.cell = cell;
    d.read = Some((r.category(), c.category()));
    d
}

fn decision(chart: Chart, first: First, rule: Rule, why: String) -> Decision {
    Decision {
        chart,
        cell: Cell::SameTime,
        first,
        segment_a: None,
        segment_b: None,
        extra: None,
        rule,
        why,
        read: None,
    }
}

/// The pair's names and values, the one that strikes first first (`first` as read from
/// `r`'s row: A is `r`), so the words follow the verdict "X before Y".
fn first_named<'a, T>(
    first: First,
    r: &'a Declared,
    c: &'a Declared,
    value: impl Fn(&Declared) -> T,
) -> ((&'a str, T), (&'a str, T)) {
    let (x, y) = if first == First::B { (c, r) } else { (r, c) };
    ((x.name.as_str(), value(x)), (y.name.as_str(), value(y)))
}

fn order_by<T: PartialOrd>(r: T, c: T, lower_first: bool) -> First {
    if r == c {
        First::Together
    } else if (r < c) == lower_first {
        First::A
    } else {
        First::B
    }
}

fn then_cell(t: Then, r: &Declared, c: &Declared, chart: Chart) -> Cell {
    match t {
        Then::SameTime => Cell::SameTime,
        Then::LongerReach => Cell::LongerReach,
        Then::HighD6 => Cell::HighD6,
        Then::HighD6Dex => Cell::HighD6Dex,
        Then::AsSingle => chart::cell(chart, r.single().category(), c.single().category()),
    }
}

fn evaluate_cell(cell: Cell, chart: Chart, r: &Declared, c: &Declared, ctx: &Context) -> Decision {
    match cell {
        Cell::SameTime => decision(
            chart,
            First::Together,
            cite::INITIATIVE_TIE,
            crate::words!("{} and {} act at the same time", r.name, c.name),
        ),
        Cell::HighD6 | Cell::HighD6Dex => {
            let rule = if c.slowed && !r.slowed {
                cite::SLOW
            } else if cell == Cell::HighD6Dex && (r.dex_adjustment != 0 || c.dex_adjustment != 0) {
                cite::INITIATIVE_DEX
            } else {
                cite::INITIATIVE_D6
            };
            decision(
                chart,
                First::A,
                rule,
                if c.slowed && !r.slowed {
                    crate::words!(
                        "{} is slowed: it acts as if it lost initiative (its die {} does not count)",
                        c.name,
                        c.die
                    )
                } else {
                    crate::words!(
                        "{} won initiative {}",
                        winner_words(r, c),
                        score(r.initiative(), c.initiative())
                    )
                },
            )
        }
        Cell::LongerReach => {
            let first = order_by(r.reach_ft, c.reach_ft, false);
            let why = match first {
                First::Together => {
                    crate::words!("equal reach ({} ft): blows land together", r.reach_ft)
                }
                _ => {
                    let ((x, xr), (y, yr)) = first_named(first, r, c, |d| d.reach_ft);
                    crate::words!(
                        "reach {xr} ft ({x}) against {yr} ft ({y}): the longer strikes first"
                    )
                }
            };
            decision(chart, first, cite::CHARGE_REACH, why)
        }
        Cell::LowSpeedFactor => low_speed_factor(chart, r, c, ctx),
        Cell::HigherAttacks(t) => {
            if r.routines != c.routines {
                let first = order_by(r.routines, c.routines, false);
                // The one with more first, each named: "3 routines (A) against 1 (B)".
                let ((x, xn), (y, yn)) = first_named(first, r, c, |d| d.routines);
                decision(
                    chart,
                    first,
                    cite::MULTIPLE_ROUTINES,
                    crate::words!(
                        "{} ({x}) against {yn} ({y}): more routines strike first and last",
                        crate::text::plural(xn, "routine"),
                    ),
                )
            } else {
                let inner = then_cell(t, r, c, chart);
                let mut d = evaluate_cell(inner, chart, r, c, ctx);
                d.why = crate::words!("equal routines ({}); {}", r.routines, d.why);
                d
            }
        }
        Cell::AsSingleVsSpell => {
            let inner = chart::cell(chart, r.single().category(), c.single().category());
            let mut d = evaluate_cell(inner, chart, &r.single(), &c.single(), ctx);
            // Against a spell of a full round or more every routine can disrupt it.
            let casting = r
                .whole_casting_time()
                .or(c.whole_casting_time())
                .unwrap_or(0);
            let which = match crate::rules::spell::routine_can_disrupt(2, casting).0 {
                true => "a spell of a full round: every routine can disrupt it",
                false => "only it can disrupt",
            };
            d.why = crate::words!(
                "the first routine is timed as a single one ({which}); {}",
                d.why
            );
            d
        }
        Cell::CasterDie => {
            let (caster, other, caster_is_r) = if r.casting().is_some() {
                (r, c, true)
            } else {
                (c, r, false)
            };
            let ct = spell_segment(caster, other, ctx);
            let blow = caster.die;
            let first_other = order_by(blow, ct, true);
            let mut d = decision(
                chart,
                if caster_is_r {
                    first_other.swapped()
                } else {
                    first_other
                },
                cite::SPELL_MISSILE_LOSE,
                crate::words!(
                    "{}'s {} on segment {} (the caster's die) against completion in {}",
                    other.name,
                    if other.kind == ActionKind::Turn {
                        "turning takes effect"
                    } else {
                        "attack lands"
                    },
                    blow,
                    crate::text::segment_words(ct)
                ),
            );
            set_segments(&mut d, caster_is_r, ct, blow);
            d
        }
        Cell::SpeedFactorVsCasting | Cell::SpeedFactorMinusLowDie => {
            let (caster, other, caster_is_r) = if r.casting().is_some() {
                (r, c, true)
            } else {
                (c, r, false)
            };
            let ct = spell_segment(caster, other, ctx);
            let sf = other.speed_factor.unwrap_or(0);
            let (blow, rule, how) = if cell == Cell::SpeedFactorMinusLowDie
                || ctx.options.tied_speed_factor == TiedSpeedFactor::MinusTiedDie
            {
                let rule = if cell == Cell::SpeedFactorMinusLowDie {
                    cite::SPELL_MELEE_LOSE
                } else {
                    cite::SPELL_MELEE_TIE
                };
                let low = losing_die(other, caster);
                let as_loser = sf.abs_diff(low);
                let unslowed = slowed_no_sooner_than(other, caster, ctx);
                match unslowed {
                    Some(straight) if straight > as_loser => (
                        straight,
                        cite::SLOW,
                        crate::words!(
                            "speed factor {sf}: slowed, it acts as the loser (|{sf} - {low}| = \
                             {as_loser}), but never sooner than it would on the tie"
                        ),
                    ),
                    _ => (
                        as_loser,
                        rule,
                        crate::words!(
                            "|speed factor {} - die {}| = {}{}",
                            sf,
                            low,
                            as_loser,
                            if low != other.die {
                                " (slowed: it acts as the loser, and the lower die is the losing one)"
                            } else {
                                ""
                            }
                        ),
                    ),
                }
            } else {
                (
                    sf,
                    cite::SPELL_MELEE_TIE,
                    crate::words!("speed factor {sf}"),
                )
            };
            // A blow is struck in its own round, by its last segment: against a spell of
            // more than a round it comes before the completion however high the number
            // (the round's blows reach a caster still casting; run plays it so).
            let (at, how) = if ct > SEGMENTS_PER_ROUND && blow > SEGMENTS_PER_ROUND {
                let how =
                    crate::words!("{how}, struck by segment {SEGMENTS_PER_ROUND} of its round");
                (SEGMENTS_PER_ROUND, how)
            } else if blow > SEGMENTS_PER_ROUND {
                // Past the round's segments: after a spell of a round or less, it is the
                // round's last act, struck in its last segment.
                let how = crate::words!(
                    "{how} (past the round's {SEGMENTS_PER_ROUND} segments: struck last, in segment {SEGMENTS_PER_ROUND})"
                );
                (blow, how)
            } else {
                (blow, how)
            };
            let first_other = order_by(at, ct, true);
            let mut d = decision(
                chart,
                if caster_is_r {
                    first_other.swapped()
                } else {
                    first_other
                },
                rule,
                crate::words!(
                    "{}'s blow at {} against completion in {}",
                    other.name,
                    how,
                    crate::text::segment_words(ct)
                ),
            );
            set_segments(&mut d, caster_is_r, ct, blow);
            d
        }
        Cell::MoveVsCasting => {
            let (caster, charger, caster_is_r) = if r.casting().is_some() {
                (r, c, true)
            } else {
                (c, r, false)
            };
            let ct = spell_segment(caster, charger, ctx);
            let arrive = match charger.kind {
                ActionKind::Charge { arrival_segment } => arrival_segment,
                _ => 0,
            };
            let first_other = order_by(arrive, ct, true);
            let mut d = decision(
                chart,
                if caster_is_r {
                    first_other.swapped()
                } else {
                    first_other
                },
                cite::CHARGE_VS_SPELL,
                crate::words!(
                    "{} arrives in segment {} against completion in {}",
                    charger.name,
                    arrive,
                    crate::text::segment_words(ct)
                ),
            );
            set_segments(&mut d, caster_is_r, ct, arrive);
            d
        }
        Cell::Missile => {
            let r_shoots = matches!(r.kind, ActionKind::Missile);
            if ctx.options.missile_vs_charge == MissileVsCharge::ByInitiative
                && chart == Chart::HighLow
                && !r_shoots
            {
                let why = crate::words!(
                    "{} won initiative {}: the charge reaches {} before any shot, and shots not yet loosed are lost",
                    winner_words(r, c),
                    score(r.initiative(), c.initiative()),
                    c.name
                );
                return decision(chart, First::A, cite::MISSILE_CHARGE_INITIATIVE, why);
            }
            let first = if r_shoots { First::A } else { First::B };
            decision(
                chart,
                first,
                cite::MISSILE_BEATS_CHARGE,
                "missile fire outreaches any charge".into(),
            )
        }
        Cell::Turn => {
            let first = if matches!(r.kind, ActionKind::Turn) {
                First::A
            } else {
                First::B
            };
            decision(
                chart,
                first,
                cite::TURN_UNDEAD,
                "turning outreaches any charge".into(),
            )
        }
        Cell::ShorterCasting(t) => {
            let (sr, sc) = (spell_segment(r, c, ctx), spell_segment(c, r, ctx));
            let mut d = if sr != sc {
                decision(
                    chart,
                    order_by(sr, sc, true),
                    cite::SPELL_VS_SPELL,
                    crate::words!(
                        "{} completes in segment {}, {} in segment {}: the shorter first",
                        r.name,
                        sr,
                        c.name,
                        sc
                    ),
                )
            } else {
                let mut d = evaluate_cell(then_cell(t, r, c, chart), chart, r, c, ctx);
                d.rule = cite::SPELL_VS_SPELL;
                d.why = crate::words!("both complete in segment {sr}; {}", d.why);
                d
            };
            d.segment_a = Some(sr);
            d.segment_b = Some(sc);
            d
        }
    }
}

/// The segment the caster's spell completes, given the opponent it is compared with: as
/// the engine placed it, or by the reading of when spells start.
fn spell_segment(caster: &Declared, other: &Declared, ctx: &Context) -> u32 {
    let ct = caster.casting().unwrap_or(0);
    if caster.completion_placed {
        return ct;
    }
    let lost = caster.initiative() < other.initiative();
    completion_segment(ct, lost, other.die, ctx.options.spell_start)
}

/// Records the segments: the caster's completion, and the other's blow or arrival. A blow
/// compared as "segment 12" (a slow weapon's speed factor) is only a comparison: it still
/// lands this round, in its last segment at the latest.
fn set_segments(d: &mut Decision, caster_is_r: bool, ct: u32, other: u32) {
    let other = other.min(SEGMENTS_PER_ROUND);
    if caster_is_r {
        d.segment_a = Some(ct);
        d.segment_b = Some(other);
    } else {
        d.segment_a = Some(other);
        d.segment_b = Some(ct);
    }
}

fn low_speed_factor(chart: Chart, r: &Declared, c: &Declared, ctx: &Context) -> Decision {
    if ctx.melee_round == MeleeRound::FirstAfterClosing {
        return match ctx.options.first_round_tiebreak {
            FirstRoundTiebreak::WeaponLength => {
                let first = order_by(r.reach_ft, c.reach_ft, false);
                let ((x, xr), (y, yr)) = first_named(first, r, c, |d| d.reach_ft);
                let why = if first == First::Together {
                    crate::words!("first round after closing: weapon length {xr} ft each")
                } else {
                    crate::words!(
                        "first round after closing: weapon length {xr} ft ({x}) against {yr} ft ({y})"
                    )
                };
                decision(chart, first, cite::SPEED_FACTOR_LENGTH, why)
            }
            FirstRoundTiebreak::Simultaneous => decision(
                chart,
                First::Together,
                cite::SPEED_FACTOR_CLOSING,
                "first round after closing: no speed factors, blows together".into(),
            ),
        };
    }
    let (applies, _) = speed_factor::speed_factor_applies(
        true,
        r.speed_factor,
        c.speed_factor,
        r.routines,
        c.routines,
        ctx.melee_round,
    );
    let (sr, sc) = (r.speed_factor.unwrap_or(0), c.speed_factor.unwrap_or(0));
    if !applies {
        return decision(
            chart,
            First::Together,
            cite::INITIATIVE_TIE,
            "tied, and speed factors do not apply: blows together".into(),
        );
    }
    let first = order_by(sr, sc, true);
    let why = if first == First::Together {
        crate::words!("tied: speed factor {sr} each, blows together")
    } else {
        let ((x, xs), (y, ys)) = first_named(first, r, c, |d| d.speed_factor.unwrap_or(0));
        crate::words!("tied: speed factor {xs} ({x}) against {ys} ({y}), the lower strikes first")
    };
    let mut d = decision(chart, first, cite::SPEED_FACTOR, why);
    if first != First::Together {
        let (lo, hi) = (sr.min(sc), sr.max(sc));
        if let Some(e) = speed_factor::extra_blows(lo, hi) {
            d.extra = Some((first, e));
            d.rule = e.rule();
            let ((x, _), (y, _)) = first_named(first, r, c, |d| d.speed_factor.unwrap_or(0));
            d.why = crate::words!(
                "tied: speed factor {lo} ({x}) against {hi} ({y}) (difference {}): {}",
                hi - lo,
                match e {
                    Extra::TwoBefore => "two blows before the slower weapon",
                    Extra::TwoBeforeOneTogether =>
                        "two blows before the slower weapon and a third with it",
                }
            );
        }
    }
    d
}

/// A category's chart row and column headings, for listings.
pub fn headings() -> Vec<&'static str> {
    Category::ALL.iter().map(|c| c.heading()).collect()
}

/// The losing die a melee attacker's blow against a caster is timed by (DMG p.66-67): its
/// own die, which lost. A slowed attacker acts as the loser whatever it rolled (reading
/// `spell.slow`), so its losing die is the lower of the two: a high roll must not make a
/// slowed figure quicker against a spell than a real loser.
fn losing_die(attacker: &Declared, caster: &Declared) -> u32 {
    if attacker.slowed {
        attacker.die.min(caster.die)
    } else {
        attacker.die
    }
}

/// The segment a slowed melee attacker's blow against a caster would have had on its tied
/// dice without the slow (the straight speed factor, DMG p.66-67), if the dice tied: being
/// slowed makes it act as the loser (reading `spell.slow`), and the loser's |speed factor -
/// die| can be sooner than the tie's speed factor, so the slow must not speed it up.
fn slowed_no_sooner_than(attacker: &Declared, caster: &Declared, ctx: &Context) -> Option<u32> {
    let tied = attacker.slowed && !caster.slowed && attacker.die == caster.die;
    let straight = ctx.options.tied_speed_factor != TiedSpeedFactor::MinusTiedDie;
    (tied && straight).then(|| attacker.speed_factor.unwrap_or(0))
}

/// Two initiative scores as a result: "5-2", or "1 to -2" when a Dexterity penalty took
/// one below zero (never "1--2").
fn score(a: i32, b: i32) -> String {
    if a < 0 || b < 0 {
        format!("{a} to {b}")
    } else {
        format!("{a}-{b}")
    }
}

/// Who won the dice, in words: the winner's side, whose die it is (the Monsters won 6-1,
/// not the one goblin named); the figure itself when a Dexterity adjustment made the number
/// its own.
fn winner_words<'a>(r: &'a Declared, c: &Declared) -> &'a str {
    if r.dex_adjustment == 0 && c.dex_adjustment == 0 && !r.side.is_empty() {
        &r.side
    } else {
        &r.name
    }
}
