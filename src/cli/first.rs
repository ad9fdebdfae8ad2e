//! `firststrike first`: the "who strikes first" calculator.

use crate::calc::{self, Defaults};
use crate::rules::distance::Setting;
use crate::rules::first::Context;
use crate::rules::options::{
    AlternatingRate, ChargeWithinInch, ExtraBlows, FirstRoundTiebreak, HesitationRounding,
    InstantActions, LaterRoutines, MissileVolley, MissileVsCharge, RulesOptions, SpellStart,
    TiedSpeedFactor,
};
use crate::rules::speed_factor::MeleeRound;
use clap::{Args, ValueEnum};

const AFTER_HELP: &str = "\
ACTION is 'NAME: KIND [key=value ...]' (quote it). KIND is one of
  melee     a melee weapon (give sf=N) or natural attacks (no sf)
  natural   natural attacks without a speed factor
  missile   missile fire or a thrown weapon
  charge    a charge: give arrive=SEGMENT, or distance=FEET and move=INCHES
  cast      a spell, potion or scroll: give time=SEGMENTS
  device    a rod, staff or wand: give time=SEGMENTS (not ruined by a hit); with no
            time (a ring, a word of command) it is used when its side's initiative comes
  turn      turning undead
  set       a spear or pole arm set against a charge (give weapon=spear, awl_pike…)
  close     move to engage: no blows this round, unless the one it closes on charges it
  other     a non-combat act (search a pack, bar a door): placed by its side's die
Keys:
  d6=N / d8=N   the side's initiative die (d8 for a spectator); give none at all to see
                who strikes first on every roll (a bare d8 marks a spectator's side)
  side=NAME     the figure's side (default: its own name)
  weapon=NAME   a weapon from assets/weapons.ron (speed factor, length, rate of fire);
                write spaces as _ (weapon=battle_axe); sf= and reach= override it
  spell=NAME    a spell from assets/spells.ron (casting time); time= overrides it
  sf=N          weapon speed factor
  attacks=N     routines this round, or rate=3/2 with round=N (the figure's Nth round of attacking)
  reach=FT      weapon length in feet, 0 to 30, as a scene's length_ft (length=FT is the same)
  dex=SCORE     Dexterity (adjusts a missile user's initiative; bonuses need light gear)
  move=IN       base movement (12 = light gear); with distance=FT gives a charge's arrival
  hesitate=20s  seconds spent declaring: the action comes a segment late per 6 s (DMG p.71)
  gear=light|heavy, body=biped|quadruped, speed (an item of speed), hasted (attacks
                doubled, PHB p.74), slowed (attacks halved, acts as if it lost initiative),
                encumbered
  specialist    a weapon specialist's rate by level (UA p.18), with weapon= named and
                level=N (1-20; levels 1-6 without it), unless rate= is given
  then=WEAPON   after an item of speed's shot, a normal attack with this other weapon,
                placed by the usual rules (missile ... speed then=short_sword). A move
                after a potion has no place among the blows: declare it in a scene
                (rounds[].then)
  then=device   after a melee blow, a device with no activation time, used with the
                blow (melee ... then=device); refused after anything but melee

Examples (from the rules text):
  # Power word kill against the staff: Bigby wins 6-4, |4-4| = 0 beats the 1-segment spell
  firststrike first 'Bigby: cast time=1 d6=6' 'Riggby: melee sf=4 d6=4'
  # The giant charges 200 ft indoors at 12\" against Bigby's 7-segment spell
  firststrike first 'Bigby: cast time=7 d6=4' 'Hill giant: charge move=12 distance=200 reach=10 d6=3'
  # Zagyg's demi-plane, round 3: dagger, club and awl pike, all tied
  firststrike first 'Tenser: melee sf=2 length=1.25 d6=3' 'Otis: melee sf=4 length=3 d6=3' 'Robilar: melee sf=13 length=18 d6=3'
  # Round 2 there (first blows after closing): weapon length decides
  firststrike first --after-closing 'Tenser: melee sf=2 length=1.25 d6=3' 'Otis: melee sf=4 length=3 d6=3' 'Robilar: melee sf=13 length=18 d6=3'
  # Otis (battle axe, 3/2) against Robilar (long sword, 2/1), tied 3-3, in round 1
  firststrike first --round 1 'Otis: melee weapon=battle_axe rate=3/2 d6=3' 'Robilar: melee weapon=long_sword rate=2/1 d6=3'
  # Otto hesitates 20 s over his irresistible dance: 5 segments become 8
  firststrike first 'Otto: cast time=5 hesitate=20s d6=4' 'Cleric: melee sf=7 d6=3'
  # A spear set against a lance's charge strikes first at contact, for double damage
  firststrike first 'Pikeman: set weapon=spear d6=2' 'Knight: charge arrive=4 weapon=lance d6=5'
  # Erac's Cousin (3/2) hasted: three routines, first and last, Serten diced in the middle
  firststrike first 'Cousin: melee sf=5 rate=3/2 hasted d6=5' 'Serten: melee sf=7 d6=2'
  # A long bow's two arrows against one blow: first and last (DMG p.62-63)
  firststrike first 'Archer: missile weapon=long_bow d6=3' 'Orc: melee sf=7 d6=3'
  # Turning undead and a wand (2 segments), each against a ghoul's claws
  firststrike first 'Hal: turn d6=3' 'Ghoul: natural d6=3'
  firststrike first 'Bigby: device time=2 d6=3' 'Ghoul: natural d6=3'
  # Closing on an orc that charges: the fighter still strikes back at contact
  firststrike first 'Fighter: close d6=3' 'Orc: charge arrive=3 d6=5'
  # Slowed (a reading): the 2/1 knight attacks once and acts as if he lost initiative
  firststrike first 'Knight: melee sf=5 rate=2/1 slowed d6=6' 'Orc: melee sf=7 d6=2'
  # A crossbow of speed shoots first; the archer's short sword then waits on initiative
  firststrike first 'Archer: missile weapon=light_crossbow speed then=short_sword d6=2' 'Orc: melee weapon=long_sword d6=5'
  # A blow and a ring in one round: the ring goes with the fighter's blow
  firststrike first 'Fighter: melee weapon=long_sword then=device d6=4' 'Orc: melee weapon=long_sword d6=2'
  # The Example of Melee's ranger, an 8th-level light-crossbow specialist: 3/2, twice
  firststrike first 'Ranger: missile weapon=light_crossbow specialist level=8 d6=5' 'Acrobat: melee weapon=long_sword d6=2'
  # A thief searches a pack while the ogre swings: his side's die places the search
  firststrike first 'Thief: other d6=4' 'Ogre: melee sf=7 d6=2'
  # No dice yet: who strikes first on each of the 36 rolls, folded into words
  firststrike first 'Bigby: cast time=1' 'Riggby: melee sf=4'
  # The same, naming the spell: power word kill against the staff
  firststrike first 'Bigby: cast spell=power_word_kill d6=6' 'Riggby: melee weapon=staff d6=4'

Under --system take-initiative each figure rolls its own d10 (d10=N) and adds the
modifiers of its action (\"Take Initiative!\" Appendix B, assets/take_initiative.ron); the
lower total acts first, a total over 20 next round at total - 20. KIND is one of melee
(sf= or weapon=), natural (a monster's claws and bites: no row), unarmed (size=S|M|L:
+2/+3/+5), missile (ammo=nocked|arrows|quarrels|darts|thrown, dex=),
charge, cast (level=N), move (far for over half the move), move-missile (moving, then
shooting: never nocked), hurl (a weapon hurled on the charge), flee, withdraw, parry,
expect, hide, turn, device, wait, block; mod=ID adds any other row (mod=higher_ground);
targets=N is melee at N targets (default 1); from 2, +1 each and at the round's end (App. B);
nocards: a table without spell cards casts at +8 + level (note 6); cast ... mod=scroll
reads the spell from a scroll, as the spell (App. B);
iaijutsu (or iaijutsu=both) is the quick draw: drawing costs 0, sheathing half, changing
weapons +5 with both (notes 2, 3, 5);
change=D10 [at=SEGMENT] is an action changed to (§1): base + 2 + the new d10 + its rows.
Refused, with the rule (exit 2), as in a scene's rounds[].modifiers:
  two normal actions (a starred row such as move_full, flee, spell beside another action:
  App. A and B notes); two kinds of movement (Glossary); a move of over 10 ft with casting
  or melee (App. B, Movement); two minor actions (draw/change/sheath/drop weapon,
  open_door, a potion) beside a normal action, or three without one (App. A); several
  melee targets without melee (App. B). One minor action is played: one attack, not
  several (note 4). In a scene, a charge by a figure with a foe within 1\" is refused (§9).
  # The sword user of §1: d10 9 + speed 5 = 14 against an orc's 3 + 7 = 10
  firststrike first --system take-initiative 'Sword: melee sf=5 d10=9' 'Orc: melee sf=7 d10=3'
  # §1 again: the orc dies, the sword user changes on segment 9 to a long move: 23, next round on 3
  firststrike first --system take-initiative 'Sword: move far d10=9 change=4' 'Orc: melee sf=7 d10=3'
  # No dice: how often each acts first over the 100 rolls
  firststrike first --system take-initiative 'Mage: cast level=3' 'Knight: charge'
  # §8b: a scout moving and shooting against a crossbow ready to loose
  firststrike first --system take-initiative 'Scout: move-missile weapon=short_bow d10=3' 'Crossbow: missile ammo=nocked d10=5'

Exit status: 0 when the round was laid out, 2 when an action could not be read.";

/// The help's closing text: the actions and examples, then the house rules a scene can
/// switch on (listed from the rules core, so the list never falls behind it).
fn after_help() -> String {
    let house: String = crate::rules::house::RULES
        .iter()
        .map(|r| {
            let only = if r.book_timing { " [book only]" } else { "" };
            format!("  {}{only}\n      {}\n", r.key, r.what)
        })
        .collect();
    format!(
        "{AFTER_HELP}\n\nHouse rules (the house-rules text), off by default, switched on in a\n\
         scene with rules: (house: (NAME: true)), under either system except those marked\n\
         [book only], which change the book's segment timing:\n{house}"
    )
}

/// Arguments of `firststrike first`.
#[derive(Args, Debug)]
#[command(after_help = after_help())]
pub struct FirstArgs {
    /// Declared actions, one per figure: 'NAME: KIND [key=value ...]'.
    #[arg(required = true, value_name = "ACTION")]
    actions: Vec<String>,
    /// The round of attacking, for alternating rates such as 3/2 (1 = first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::scene::limits::ROUNDS)))]
    round: u32,
    /// The first round of blows after a round spent closing (no speed factors).
    #[arg(long)]
    after_closing: bool,
    /// Outdoors (charges: +1/3 bipeds, +1/2 quadrupeds) rather than indoors (x2).
    #[arg(long)]
    outdoors: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The rules system: the book's (DMG) or the d10 "Take Initiative!" variant.
    #[arg(long, value_enum, default_value_t = System::Book)]
    system: System,
    /// Reading: how 3/2 and 5/2 alternate.
    #[arg(long, value_enum, default_value_t = Alternation::Odd)]
    alternating_rate: Alternation,
    /// Reading: what orders the first round of blows after closing.
    #[arg(long, value_enum, default_value_t = Tiebreak::WeaponLength)]
    first_round_tiebreak: Tiebreak,
    /// Reading: when a spell's segments start counting.
    #[arg(long, value_enum, default_value_t = Start::RoundStart)]
    spell_start: Start,
    /// Reading: the speed factor against a casting time on a tie.
    #[arg(long, value_enum, default_value_t = TiedSf::Raw)]
    tied_speed_factor: TiedSf,
    /// Reading: how seconds of hesitation turn into segments (DMG p.71).
    #[arg(long, value_enum, default_value_t = Hesitation::Whole)]
    hesitation: Hesitation,
    /// Reading: a multi-routine attacker's later routines against a completion (DMG p.65).
    #[arg(long, value_enum, default_value_t = Later::AfterCompletion)]
    later_routines: Later,
    /// Reading: speed-factor extra blows when both have two or more routines (DMG p.66).
    #[arg(long, value_enum, default_value_t = Extras::FirstRoutine)]
    extra_blows: Extras,
    /// Reading: a volley's shots spread like routines, or in one block (DMG p.63).
    #[arg(long, value_enum, default_value_t = Volley::Spread)]
    missile_volley: Volley,
    /// Reading: a charge against an archer (DMG p.66; the table's chart).
    #[arg(long, value_enum, default_value_t = VsCharge::MissilesFirst)]
    missile_vs_charge: VsCharge,
    /// Reading: an action that takes no time against a winning attacker (DMG p.65-67).
    #[arg(long, value_enum, default_value_t = Instant::AttackerFirst)]
    instant_actions: Instant,
    /// Reading: a charge declared within 1" of the foe (DMG p.66).
    #[arg(long, value_enum, default_value_t = Within::AsMelee)]
    charge_within_inch: Within,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum System {
    /// The book's: side initiative on d6, ten segments (DMG p.61-67).
    Book,
    /// "Take Initiative!": each figure's d10 + its action's modifiers, 20 ordering segments.
    TakeInitiative,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Within {
    /// Fought as normal melee.
    AsMelee,
    /// Still a charge.
    AsCharge,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Hesitation {
    /// Whole 6-second spans count (20 s = 3 segments).
    Whole,
    /// Part spans count too (20 s = 4 segments).
    Part,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Later {
    /// After the completion (only the first routine can disrupt).
    AfterCompletion,
    /// Not ordered against the completion.
    Unordered,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Extras {
    /// The faster weapon's first routine gets them.
    FirstRoutine,
    /// Only single routines get them.
    SingleRoutinesOnly,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Volley {
    /// First and last, like melee routines.
    Spread,
    /// All at once, where a single routine would fall.
    OneBlock,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum VsCharge {
    /// A missile's first volley comes before a charger's blow.
    MissilesFirst,
    /// A charger that wins initiative arrives first; unloosed shots are lost.
    ByInitiative,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Instant {
    /// The winner strikes first.
    AttackerFirst,
    /// The instant action goes off first.
    InstantFirst,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Alternation {
    /// 3/2 gives 2, 1, 2, 1…
    Odd,
    /// 3/2 gives 1, 2, 1, 2…
    Even,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Tiebreak {
    WeaponLength,
    Simultaneous,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Start {
    RoundStart,
    AfterWinningDie,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TiedSf {
    Raw,
    MinusTiedDie,
}

impl FirstArgs {
    fn defaults(&self) -> Defaults {
        let options = RulesOptions {
            alternating_rate: match self.alternating_rate {
                Alternation::Odd => AlternatingRate::ExtraInOddRounds,
                Alternation::Even => AlternatingRate::ExtraInEvenRounds,
            },
            first_round_tiebreak: match self.first_round_tiebreak {
                Tiebreak::WeaponLength => FirstRoundTiebreak::WeaponLength,
                Tiebreak::Simultaneous => FirstRoundTiebreak::Simultaneous,
            },
            spell_start: match self.spell_start {
                Start::RoundStart => SpellStart::RoundStart,
                Start::AfterWinningDie => SpellStart::AfterWinningDie,
            },
            tied_speed_factor: match self.tied_speed_factor {
                TiedSf::Raw => TiedSpeedFactor::Raw,
                TiedSf::MinusTiedDie => TiedSpeedFactor::MinusTiedDie,
            },
            hesitation: match self.hesitation {
                Hesitation::Whole => HesitationRounding::WholeSegments,
                Hesitation::Part => HesitationRounding::PartSegmentsCount,
            },
            later_routines: match self.later_routines {
                Later::AfterCompletion => LaterRoutines::AfterCompletion,
                Later::Unordered => LaterRoutines::Unordered,
            },
            extra_blows: match self.extra_blows {
                Extras::FirstRoutine => ExtraBlows::FirstRoutine,
                Extras::SingleRoutinesOnly => ExtraBlows::SingleRoutinesOnly,
            },
            missile_volley: match self.missile_volley {
                Volley::Spread => MissileVolley::SpreadLikeRoutines,
                Volley::OneBlock => MissileVolley::OneBlock,
            },
            missile_vs_charge: match self.missile_vs_charge {
                VsCharge::MissilesFirst => MissileVsCharge::MissilesFirst,
                VsCharge::ByInitiative => MissileVsCharge::ByInitiative,
            },
            instant_actions: match self.instant_actions {
                Instant::AttackerFirst => InstantActions::AttackerFirst,
                Instant::InstantFirst => InstantActions::InstantFirst,
            },
            charge_within_inch: match self.charge_within_inch {
                Within::AsMelee => ChargeWithinInch::AsMelee,
                Within::AsCharge => ChargeWithinInch::AsCharge,
            },
            ..RulesOptions::default()
        };
        Defaults {
            setting: if self.outdoors {
                Setting::Outdoors
            } else {
                Setting::Indoors
            },
            round: self.round,
            context: Context {
                melee_round: if self.after_closing {
                    MeleeRound::FirstAfterClosing
                } else {
                    MeleeRound::Continuing
                },
                options,
            },
        }
    }
}

/// Runs the calculator; returns the exit code.
pub fn run(args: FirstArgs) -> i32 {
    if let Err(e) = names_fit(&args.actions) {
        return fail(&e);
    }
    if args.system == System::TakeInitiative {
        return take_initiative(&args);
    }
    let defaults = args.defaults();
    let parsed: Result<Vec<_>, String> = args
        .actions
        .iter()
        .map(|s| calc::parse_action(s, &defaults))
        .collect();
    // No dice at all: who strikes first on every roll.
    if let Ok(figures) = &parsed
        && figures.iter().all(|f| !f.die_given)
    {
        return match calc::outcomes::every_roll(figures, &defaults) {
            Ok(o) => {
                super::out(&match args.format {
                    Format::Text => calc::outcomes::to_text(&o),
                    Format::Json => format!("{}\n", calc::outcomes::to_json(&o)),
                });
                0
            }
            Err(e) => fail(&e),
        };
    }
    let result = parsed.and_then(|figures| {
        if let Some(f) = figures.iter().find(|f| !f.die_given) {
            return Err(format!(
                "{}: give every side's initiative die (d6=N), or none to see every roll",
                f.declared.name
            ));
        }
        calc::calculate_round(&figures, &defaults)
    });
    match result {
        Ok((actions, seq, idle)) => {
            match args.format {
                Format::Text => super::out(&calc::to_text(&actions, &idle, &seq, &defaults)),
                Format::Json => super::out(&format!(
                    "{}\n",
                    calc::to_json(&actions, &idle, &seq, &defaults)
                )),
            }
            0
        }
        Err(e) => fail(&e),
    }
}

/// The calculator under "Take Initiative!": every figure's total, named, and their order.
fn take_initiative(args: &FirstArgs) -> i32 {
    use crate::calc::take_initiative as ti;
    let figs: Result<Vec<_>, String> = args.actions.iter().map(|s| ti::parse(s)).collect();
    let report = figs.and_then(|figs| {
        if figs.len() < 2 {
            return Err("give at least two actions (one per figure)".into());
        }
        let given = figs.iter().filter(|f| f.base.is_some()).count();
        if given != 0 && given != figs.len() {
            return Err("give every figure's d10 (d10=N), or none to see the odds".into());
        }
        match args.format {
            Format::Text => ti::to_text(&figs),
            Format::Json => ti::to_json(&figs).map(|j| format!("{j}\n")),
        }
    });
    match report {
        Ok(r) => {
            super::out(&r);
            0
        }
        Err(e) => fail(&e),
    }
}

/// Says what is wrong, and exits 2.
/// The most actions `first` orders at once: it weighs every pair, so its work and its
/// output grow with the square of them (a crowd belongs in a scene and `run`).
pub const MAX_ACTIONS: usize = 100;

/// The actions' names: each figure once, each a name a scene could hold
/// ([`crate::scene::fit_name`]: control characters would reach the terminal as they are),
/// and not too many actions.
fn names_fit(actions: &[String]) -> Result<(), String> {
    if actions.len() > MAX_ACTIONS {
        return Err(format!(
            "{} actions: `first` orders at most {MAX_ACTIONS} (every pair is weighed); play a crowd as a scene with `run`",
            actions.len()
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for a in actions {
        let Some((name, _)) = a.split_once(':') else {
            continue;
        };
        let name = name.trim();
        // The scenes' rule for a name (not empty, not too long, no control characters).
        crate::scene::fit_name(name).map_err(|e| format!("{}: {e}", name.escape_debug()))?;
        if !seen.insert(name) {
            return Err(format!(
                "two actions are named '{name}': give each figure its own name"
            ));
        }
    }
    Ok(())
}

/// The most characters of an error `first` shows.
const ERROR_CHARS: usize = 600;

fn fail(e: &str) -> i32 {
    // What the user typed comes back in the message: escapes shown, not obeyed, and a
    // name of megabytes cut (as a scene's errors are).
    let lines: Vec<String> = e
        .lines()
        .map(|l| crate::scene::error::shown(l, ERROR_CHARS))
        .collect();
    eprintln!("error: {}", lines.join("\n"));
    eprintln!("(see 'firststrike first --help' for the syntax and examples)");
    2
}
