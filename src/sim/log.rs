//! The event log: every rule event as a message with its round, segment, actor, target,
//! detail and the rule (id and page) that placed it; recorded in order with a sequence
//! number, printable as narrated text or as JSON lines.

use super::Roster;
use crate::name::Name;
use crate::rules::cite::Rule;
use crate::scene::FigureId;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use serde::Serialize;

/// What kind of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A side is (or is not) surprised, and for how long.
    Surprise,
    /// An encounter distance.
    Distance,
    /// Initiative dice.
    Initiative,
    /// An action declared.
    Declare,
    /// Movement.
    Move,
    /// A charger or closer reaches striking distance.
    Arrive,
    /// An attack roll.
    Attack,
    /// It hit.
    Hit,
    /// It missed.
    Miss,
    /// Damage dealt.
    Damage,
    /// A spell, device or potion begun.
    SpellStart,
    /// It took effect.
    SpellComplete,
    /// It was ruined.
    SpellDisrupted,
    /// What a completed spell did to a figure or the map (or that it is not modelled).
    Effect,
    /// Someone sees or stops seeing someone.
    Sight,
    /// A figure falls unconscious or dies.
    Down,
    /// Bleeding at the end of a round.
    Bleed,
    /// A figure cannot do what it declared (no target, out of reach, protected by surprise).
    Idle,
    /// Any other act (hide in shadows, drop a weapon).
    Act,
    /// The end of a round.
    RoundEnd,
    /// Psionic combat: a psionic's modes, an attack's outcome, a save in a blast's area,
    /// or the end of the psionic combat (DMG p.76-78).
    Psionic,
}

/// The groups of events a reader shows or hides together: the viewer's log filter and
/// `run --hide` share them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventGroup {
    /// Who starts or stops seeing whom (many in a lit crowd).
    Sight,
    /// Movement and arrivals.
    Moves,
    /// Blows, damage and falls.
    Blows,
    /// Spells, devices, potions and their effects.
    Spells,
    /// Everything else: surprise, distance, initiative, declarations, rounds' ends...
    Other,
}

impl EventKind {
    /// A planned act carried out: a blow rolled, a spell or device finished, another act
    /// done (what the order panel's lines stand for).
    pub fn is_an_act(self) -> bool {
        matches!(
            self,
            EventKind::Attack
                | EventKind::Hit
                | EventKind::Miss
                | EventKind::SpellComplete
                | EventKind::Act
        )
    }

    /// The group a reader shows or hides it with.
    pub fn group(self) -> EventGroup {
        use EventKind as K;
        match self {
            K::Sight => EventGroup::Sight,
            K::Move | K::Arrive => EventGroup::Moves,
            K::Attack | K::Hit | K::Miss | K::Damage | K::Down | K::Bleed => EventGroup::Blows,
            K::SpellStart | K::SpellComplete | K::SpellDisrupted | K::Effect => EventGroup::Spells,
            K::Surprise
            | K::Distance
            | K::Initiative
            | K::Declare
            | K::Idle
            | K::Act
            | K::RoundEnd
            | K::Psionic => EventGroup::Other,
        }
    }
}

/// What an event carries besides its words: the numbers a test, the odds or the quiz
/// reads. One variant per kind of event (`type` in JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Payload {
    /// Nothing beyond the event's kind.
    #[default]
    None,
    /// A side's (or figure's) surprise.
    Surprise {
        /// Segments lost (0: not surprised).
        segments: u32,
    },
    /// Two sides both surprised, netted (DMG p.61): what each loses after the netting.
    SurpriseNet {
        /// (side, segments it loses), both sides.
        lost: Vec<(String, u32)>,
    },
    /// An encounter distance.
    Distance {
        /// In feet.
        feet: f64,
    },
    /// A side's initiative die.
    Initiative {
        /// What it shows.
        die: u32,
        /// Its sides (6, or 8 for spectators).
        sides: u32,
        /// Fixed by the scene rather than rolled.
        fixed: bool,
    },
    /// A figure's initiative under "Take Initiative!": its total and when it acts.
    TakeInitiative {
        /// The d10 and its modifiers.
        total: i64,
        /// The d10 alone, where one was rolled (not for a carried-over total or a wait on
        /// another's action).
        #[serde(skip_serializing_if = "Option::is_none")]
        die: Option<u32>,
        /// Rounds from now it acts in (0: this round).
        rounds_later: u32,
        /// Its ordering segment.
        segment: u32,
    },
    /// An action declared.
    Declare {
        /// The action, in a word or two.
        action: String,
        /// Whom it is aimed at.
        targets: Vec<String>,
    },
    /// A segment's movement.
    Move {
        /// Feet covered this segment.
        feet: f64,
        /// The rate, feet per segment.
        feet_per_segment: f64,
        /// Where it ended, in feet.
        to: (f64, f64),
        /// A charge.
        charge: bool,
    },
    /// Striking distance reached.
    Arrive {
        /// The segment of arrival.
        segment: u32,
        /// Feet covered this round to get there.
        distance_ft: f64,
        /// A charge.
        charge: bool,
    },
    /// An attack roll (kinds `hit` and `miss`).
    Attack {
        /// The weapon (or "attack").
        weapon: String,
        /// 1-based routine and how many this round.
        routine: u32,
        /// Routines this round.
        of: u32,
        /// 1-based blow within the routine (speed-factor extra blows).
        blow: u32,
        /// The d20.
        roll: i32,
        /// The d20 was fixed by the scene.
        fixed_roll: bool,
        /// The sum of the modifiers.
        modifier: i32,
        /// Roll plus modifiers.
        total: i32,
        /// What was needed against the target's AC.
        needed: i32,
        /// The target's AC.
        ac: i32,
        /// Whether it hit.
        hit: bool,
        /// Whether a rule fixes the segment (otherwise it is only nominal: the earliest its
        /// fight's order allows).
        segment_fixed: bool,
        /// What the rules put directly before it in its fight.
        after: Vec<String>,
        /// Its place in the round's order of play: blows of a round with the same beat
        /// land together, a lower beat lands first.
        beat: usize,
    },
    /// Damage dealt.
    Damage {
        /// Hit points lost.
        amount: i32,
        /// Before.
        hp_before: i32,
        /// After.
        hp_after: i32,
        /// Doubled by a critical hit (house rule; only written when true).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        critical: bool,
        /// Subdual damage the blow did besides (weaponless combat; only written when not 0).
        #[serde(skip_serializing_if = "is_zero")]
        subdual: i32,
    },
    /// A spell, device or potion begun.
    SpellStart {
        /// What.
        spell: String,
        /// Casting or activation time in segments.
        casting_segments: u32,
        /// (round, segment) of completion (round 0: a surprise segment).
        completes: (u32, u32),
        /// The first and last (round, segment) the casting occupies. A spell begun with
        /// the round is logged at segment 0, "the very beginning of the round", and
        /// occupies segments 1 on: a 3-segment spell, segments 1 to 3.
        occupies: [(u32, u32); 2],
    },
    /// It took effect.
    SpellComplete {
        /// What.
        spell: String,
        /// Casting or activation time in segments.
        casting_segments: u32,
        /// Its place in the round's order, if the plan placed it: a blow of the same beat
        /// lands as it completes (not in the JSON, whose keys stay as they are).
        #[serde(skip)]
        beat: Option<usize>,
    },
    /// What a completed spell did.
    Effect {
        /// The spell.
        spell: String,
        /// What it came to (in JSON its word: slain, held, asleep, hasted, slowed,
        /// interposed, area, armor, saved, too_strong, hit_dice_unknown, no_target,
        /// already_dead, immune, not_modelled).
        outcome: crate::rules::effect::EffectOutcome,
        /// Whether it took hold.
        took: bool,
    },
    /// A blow on a held or sleeping figure: it hits without a roll.
    HelplessHit {
        /// The weapon.
        weapon: String,
        /// Which routine of the round.
        routine: u32,
        /// Of how many.
        of: u32,
    },
    /// It was ruined or lost.
    SpellDisrupted {
        /// What.
        spell: String,
        /// Whose blow ruined it (none: the caster fell).
        disrupted_by: Option<String>,
    },
    /// Someone gains or loses sight of someone.
    Sight {
        /// Gained (true) or lost.
        gained: bool,
        /// Why (in JSON, in words).
        reason: crate::rules::sight::SightReason,
    },
    /// A figure falls.
    Down {
        /// Hit points now.
        hp: i32,
        /// Dead rather than unconscious.
        dead: bool,
    },
    /// Bleeding at the end of a round.
    Bleed {
        /// Hit points lost.
        loss: i32,
        /// Hit points now.
        hp: i32,
    },
    /// A fumble (house rules, "Critical Misses"): the second roll and what came of it.
    Fumble {
        /// The second d20.
        roll: i32,
        /// The weapon's magic bonus added to it.
        magic: i32,
        /// Their sum.
        total: i32,
        /// miss, thrown or broken.
        outcome: crate::rules::house::Fumble,
        /// Where a thrown weapon lands, in feet.
        #[serde(skip_serializing_if = "Option::is_none")]
        lands: Option<(f64, f64)>,
        /// How many squares it flew.
        #[serde(skip_serializing_if = "Option::is_none")]
        squares: Option<u32>,
        /// Which way (north, north-east, ...).
        #[serde(skip_serializing_if = "Option::is_none")]
        direction: Option<String>,
    },
    /// A psionic's modes this segment and what they cost it (DMG p.76-78).
    PsionicModes {
        /// The attack mode, if it attacks.
        attack: Option<String>,
        /// The defense mode, if any.
        defense: Option<String>,
        /// Strength spent on them this segment.
        spent: u32,
        /// Attack strength after the segment.
        attack_strength: u32,
        /// Defense strength after the segment.
        defense_strength: u32,
    },
    /// One psionic attack against the target's defense, by the matrix (DMG p.76).
    PsionicAttack {
        /// The attack mode.
        attack: String,
        /// The target's defense mode (none: undefended).
        defense: Option<String>,
        /// points, chance, or unknown (no entry in the table).
        outcome: crate::rules::psionics::PsiOutcome,
        /// Strength points the target loses.
        points: u32,
        /// The chance in percent of the entry's effect.
        #[serde(skip_serializing_if = "Option::is_none")]
        chance: Option<u32>,
        /// The d% rolled against it.
        #[serde(skip_serializing_if = "Option::is_none")]
        roll: Option<i32>,
        /// The effect (death...), if it happened.
        #[serde(skip_serializing_if = "Option::is_none")]
        effect: Option<String>,
    },
    /// A non-psionic's save inside a blast's area (DMG p.78).
    PsionicSave {
        /// The d20 needed (none: not given).
        needed: Option<u32>,
        /// The d20 rolled.
        roll: Option<i32>,
        /// Saved.
        saved: bool,
    },
    /// Psionic combat ended this segment.
    PsionicEnd {
        /// decided, mundane_attack or ten_segments.
        reason: crate::rules::psionics::PsiEnd,
    },
    /// A round ended.
    RoundEnd {
        /// Which.
        round: u32,
    },
}

/// One event as it happens.
#[derive(Message, Clone, Debug, Serialize)]
pub struct LogEvent {
    /// Round (0 for the encounter and surprise segments).
    pub round: u32,
    /// Segment (0 for the encounter and "the very beginning of the round").
    pub segment: u32,
    /// Order within the segment (set when recorded).
    pub seq: u32,
    /// Who acts.
    pub actor: Name,
    /// What kind of event.
    pub kind: EventKind,
    /// At whom, if anyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Name>,
    /// What happened, with the numbers.
    pub detail: String,
    /// The rule that placed it.
    pub rule: Rule,
    /// The numbers behind it, typed per kind.
    pub payload: Payload,
    /// Placed by order alone: no rule fixes its segment, which is only nominal (the
    /// earliest its fight's order allows).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_order: bool,
    /// The figure that acts, when it is one (not a side): set when recorded.
    #[serde(skip)]
    pub who: Option<FigureId>,
    /// The figure it is aimed at, if any: set when recorded.
    #[serde(skip)]
    pub whom: Option<FigureId>,
    /// The target is the one whose blow this event answers (a spell ruined, or kept, by
    /// a hit on its caster): its words say so, "Cleric (struck by Orc)", not an arrow that
    /// reads as if the spell were aimed at the striker. The JSON is unchanged.
    #[serde(skip)]
    pub struck_by_target: bool,
    /// How many numbers of its segment it takes beyond its own: a batch of sight events
    /// counted but not made (`run --hide sight`) stands as one event in their place, so
    /// every event after it keeps the number it has when they are made.
    #[serde(skip)]
    pub stands_for_more: u32,
}

impl LogEvent {
    /// The same event, marked as placed by order alone when `fixed` is false.
    pub fn placed(mut self, fixed: bool) -> LogEvent {
        self.by_order = !fixed;
        self
    }

    /// The same event, its target the one whose blow it answers
    /// ([`LogEvent::struck_by_target`]).
    pub fn answering_a_blow(mut self) -> LogEvent {
        self.struck_by_target = true;
        self
    }

    /// The same event carrying `payload`.
    pub fn with(mut self, payload: Payload) -> LogEvent {
        self.payload = payload;
        self
    }

    /// A new event (sequence number assigned on recording).
    pub fn new(
        (round, segment): (u32, u32),
        actor: impl Into<Name>,
        kind: EventKind,
        target: Option<Name>,
        detail: impl Into<String>,
        rule: Rule,
    ) -> LogEvent {
        LogEvent {
            round,
            segment,
            seq: 0,
            actor: actor.into(),
            kind,
            target,
            detail: detail.into(),
            rule,
            payload: Payload::None,
            by_order: false,
            who: None,
            whom: None,
            struck_by_target: false,
            stands_for_more: 0,
        }
    }

    /// Whether `figure` acts in this event.
    pub fn by(&self, figure: FigureId) -> bool {
        self.who == Some(figure)
    }

    /// Whether `figure` acts in this event or is aimed at.
    pub fn involves(&self, figure: FigureId) -> bool {
        self.by(figure) || self.whom == Some(figure)
    }

    /// One line of narration: "Round 1, segment 7 — Bigby: completes … (DMG p.66)". A blow
    /// whose segment no rule fixes shows it as "~segment 1": placed by order alone.
    pub fn narrate(&self) -> String {
        self.narrate_in("segment")
    }

    /// The same, naming a round's segments `unit`: "ordering segment" under "Take
    /// Initiative!", whose 20 segments order events and are not equal spans of time.
    pub fn narrate_in(&self, unit: &str) -> String {
        let mut out = String::with_capacity(self.detail.len() + 96);
        self.narrate_into(unit, &mut out);
        out
    }

    /// Appends the narration to `out`, piece by piece: a crowd's log is hundreds of
    /// thousands of lines, and the general formatting machinery was a third of its `run`.
    pub fn narrate_into(&self, unit: &str, out: &mut String) {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        let _ = match (self.round, self.segment) {
            (0, 0) => out.write_str("Encounter"),
            (0, s) => write!(out, "Surprise segment {s}"),
            (r, s) if self.by_order => write!(out, "Round {r}, ~{unit} {s}"),
            (r, s) => write!(out, "Round {r}, {unit} {s}"),
        };
        out.push_str(" — ");
        self.push_who(out, |n, out| out.push_str(n));
        out.push_str(": ");
        out.push_str(&self.detail);
        out.push_str(" [");
        out.push_str(self.rule.id);
        out.push_str("; ");
        self.rule.write_page_ref(out);
        out.push(']');
    }

    /// Who did what to whom, in words: "Robilar → Lizard man 2"; for a fall, or a spell a
    /// blow ruined or did not, the one struck and who struck it ("Lizard man 2 (struck by
    /// Robilar)"), so the line never reads as if the striker fell or was aimed at. `name` dresses each name (bold in Markdown).
    pub fn who_words(&self, name: impl Fn(&str) -> String) -> String {
        let mut out = String::new();
        self.push_who(&mut out, |n, out| out.push_str(&name(n)));
        out
    }

    /// The same words, added to `out`; `name` adds each name, dressed as it likes.
    fn push_who(&self, out: &mut String, name: impl Fn(&str, &mut String)) {
        name(&self.actor, out);
        match (&self.target, self.kind) {
            (Some(t), _) if self.kind == EventKind::Down || self.struck_by_target => {
                out.push_str(" (struck by ");
                name(t, out);
                out.push(')');
            }
            (Some(t), _) => {
                out.push_str(" → ");
                name(t, out);
            }
            (None, _) => {}
        }
    }

    /// One JSON line.
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("events serialise")
    }
}

/// Everything recorded so far.
#[derive(Resource, Clone, Debug, Default)]
pub struct EventLog {
    /// Events in order.
    pub events: Vec<LogEvent>,
}

impl EventLog {
    /// Events of one kind.
    pub fn of_kind(&self, kind: EventKind) -> impl Iterator<Item = &LogEvent> {
        self.events.iter().filter(move |e| e.kind == kind)
    }

    /// The whole log as JSON lines.
    pub fn json_lines(&self) -> String {
        self.events.iter().map(|e| e.json() + "\n").collect()
    }

    /// Writes the log as JSON lines, one event at a time (no whole-log string: a crowd's
    /// log runs to hundreds of megabytes). Stops at the first write error (a closed pipe).
    pub fn write_json_lines(&self, w: &mut (impl std::io::Write + ?Sized)) -> std::io::Result<()> {
        write_json_lines(&self.events, w)
    }

    /// Writes the log as narrated text, naming a round's segments `unit`, one event at a
    /// time.
    pub fn write_text_in(
        &self,
        unit: &str,
        w: &mut (impl std::io::Write + ?Sized),
    ) -> std::io::Result<()> {
        write_text_in(&self.events, unit, w)
    }

    /// The whole log as narrated text.
    pub fn text(&self) -> String {
        self.text_in("segment")
    }

    /// The whole log as narrated text, naming a round's segments `unit`.
    pub fn text_in(&self, unit: &str) -> String {
        self.events
            .iter()
            .map(|e| e.narrate_in(unit) + "\n")
            .collect()
    }
}

/// The log as a system writes to it directly, for a batch too big to pass through the
/// message queue (every other system writes [`LogEvent`] messages).
#[derive(SystemParam)]
pub(super) struct LogNow<'w> {
    messages: ResMut<'w, Messages<LogEvent>>,
    log: ResMut<'w, EventLog>,
}

impl LogNow<'_> {
    /// The log's events, with the step's messages so far already moved in: what is pushed
    /// now comes after them, as a message written now would. [`record`] numbers it all.
    pub(super) fn flush(&mut self) -> &mut Vec<LogEvent> {
        self.log.events.extend(self.messages.drain());
        &mut self.log.events
    }
}

/// Moves this step's messages into the log, numbering them within their segment.
pub(super) fn record(
    mut messages: ResMut<Messages<LogEvent>>,
    mut log: ResMut<EventLog>,
    roster: Res<Roster>,
) {
    // Within a step, earlier segments first (blows at segment 0 are played in the step of
    // segment 1); the sort is stable, so events of one segment keep their order. The new
    // events are moved into the log and sorted there (no batch beside it: the encounter of
    // a crowd logs hundreds of thousands of sightings at once). This step's events start
    // after the last one numbered: some came in before the messages (`LogNow`), unnumbered.
    log.events.extend(messages.drain());
    let start = log
        .events
        .iter()
        .rposition(|e| e.seq != 0)
        .map_or(0, |p| p + 1);
    let new = &mut log.events[start..];
    // Mostly in order already: a crowd's step is hundreds of thousands of events, and a
    // stable sort moves each one.
    if !new.is_sorted_by_key(|e| (e.round, e.segment)) {
        new.sort_by_key(|e| (e.round, e.segment));
    }
    for i in start..log.events.len() {
        // Events arrive in time order: number on from the last one if it is in the same
        // segment.
        let seq = match i.checked_sub(1).map(|p| &log.events[p]) {
            Some(p) if p.round == log.events[i].round && p.segment == log.events[i].segment => {
                p.seq + 1 + p.stands_for_more
            }
            _ => 1,
        };
        let e = &mut log.events[i];
        e.seq = seq;
        // Events made knowing their figures (sight) come with them.
        if e.who.is_none() {
            e.who = roster.id(&e.actor);
            e.whom = e.target.as_deref().and_then(|t| roster.id(t));
        }
    }
}

/// Writes events as JSON lines, one at a time, straight to `w`.
pub fn write_json_lines<'a>(
    events: impl IntoIterator<Item = &'a LogEvent>,
    w: &mut (impl std::io::Write + ?Sized),
) -> std::io::Result<()> {
    // Each line is made in one reused buffer and written whole: through a `dyn Write`
    // serde's many small writes were each a call through the vtable.
    let mut line = Vec::with_capacity(512);
    for e in events {
        line.clear();
        serde_json::to_writer(&mut line, e)?;
        line.push(b'\n');
        w.write_all(&line)?;
    }
    Ok(())
}

/// Writes events as narrated text, naming a round's segments `unit`.
pub fn write_text_in<'a>(
    events: impl IntoIterator<Item = &'a LogEvent>,
    unit: &str,
    w: &mut (impl std::io::Write + ?Sized),
) -> std::io::Result<()> {
    // One line buffer for all: no string made per event.
    let mut line = String::with_capacity(256);
    for e in events {
        line.clear();
        e.narrate_into(unit, &mut line);
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Whether a number is 0 (to leave it out of the JSON).
fn is_zero(n: &i32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::cite;
    use bevy::ecs::system::RunSystemOnce;

    fn event(segment: u32, what: &str) -> LogEvent {
        LogEvent::new(
            (1, segment),
            "A",
            EventKind::Act,
            None,
            what,
            cite::SIGHT_LIGHT,
        )
    }

    /// A batch written straight into the log (sight) keeps its place between the messages
    /// written before and after it, and the step's events are numbered on from the last
    /// step's as one run.
    #[test]
    fn a_batch_written_straight_into_the_log_keeps_its_place_and_is_numbered() {
        let mut world = World::new();
        world.init_resource::<Messages<LogEvent>>();
        world.insert_resource(Roster::default());
        let mut earlier = event(1, "earlier step");
        earlier.seq = 1;
        world.insert_resource(EventLog {
            events: vec![earlier],
        });
        world.write_message(event(2, "before"));
        world
            .run_system_once(|mut now: LogNow| {
                let log = now.flush();
                log.push(event(2, "batch 1"));
                log.push(event(2, "batch 2"));
            })
            .unwrap();
        world.write_message(event(2, "after"));
        world.run_system_once(record).unwrap();
        let got: Vec<(&str, u32, u32)> = world
            .resource::<EventLog>()
            .events
            .iter()
            .map(|e| (e.detail.as_str(), e.segment, e.seq))
            .collect();
        assert_eq!(
            got,
            [
                ("earlier step", 1, 1),
                ("before", 2, 1),
                ("batch 1", 2, 2),
                ("batch 2", 2, 3),
                ("after", 2, 4),
            ]
        );
    }
}
