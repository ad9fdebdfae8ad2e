//! `firststrike run` and `firststrike check`: play a scene headless and print its event
//! log, or validate scenes.

use crate::rules::options::RulesSystem;
use crate::scene::{self, limits};
use crate::sim::{EventGroup, LogEvent, Runner};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Output format of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Narrated text, one event per line.
    Text,
    /// JSON, one event per line.
    Json,
    /// A round-by-round summary in Markdown: each fight's blows, spells and falls with
    /// their rules (`compare`: the comparison under a Markdown heading).
    Markdown,
}

/// What playing a scene takes: `run` and `compare` share it.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The scene file (RON).
    pub scene: PathBuf,
    /// Seed for the dice the scene does not fix (default: the scene's seed).
    #[arg(long, allow_negative_numbers = true, value_parser = super::seed)]
    pub seed: Option<u64>,
    /// Rounds to play (default: the rounds the scene declares, at least one).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::scene::limits::ROUNDS)))]
    pub rounds: Option<u32>,
    /// Output format (`run`: one JSON event per line; `compare`: one JSON document).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Arguments of `run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The scene, its seed, rounds and output.
    #[command(flatten)]
    pub play: PlayArgs,
    /// Play under this rules system instead of the scene's own (the scene's fixed
    /// initiative dice belong to its own system; the other rolls from the seed).
    #[arg(long, value_enum)]
    pub system: Option<System>,
    /// Leave these groups of events out of the text or JSON log, comma-separated (as the
    /// viewer's log filter): a lit crowd's log is nearly all sight. The events left keep
    /// their numbers (`seq`) in the whole log.
    #[arg(long, value_delimiter = ',', value_name = "GROUP,...", value_parser = Trimmed::<Hide>::default())]
    pub hide: Vec<Hide>,
}

/// A value of `E` read with the blanks round it left out: `--hide "sight, moves"` as
/// `--hide sight,moves` (the blank after a comma was refused as a group " moves"). Its
/// possible values are `E`'s, for the help and the completions.
#[derive(Clone)]
pub struct Trimmed<E>(std::marker::PhantomData<E>);

impl<E> Default for Trimmed<E> {
    fn default() -> Self {
        Trimmed(std::marker::PhantomData)
    }
}

impl<E: ValueEnum + Clone + Send + Sync + 'static> clap::builder::TypedValueParser for Trimmed<E> {
    type Value = E;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<E, clap::Error> {
        let trimmed = value.to_str().map(str::trim).map(std::ffi::OsStr::new);
        clap::builder::EnumValueParser::<E>::new().parse_ref(cmd, arg, trimmed.unwrap_or(value))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            E::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

/// A group of events `run --hide` leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Hide {
    /// Who starts or stops seeing whom.
    Sight,
    /// Movement and arrivals.
    Moves,
    /// Attacks, hits, misses, damage, falls and bleeding.
    Blows,
    /// Spells, devices and potions begun, completed or ruined, and their effects.
    Spells,
    /// Everything else: surprise, distance, initiative, declarations, acts, rounds' ends.
    Other,
}

impl Hide {
    /// The group of events it names.
    fn group(self) -> EventGroup {
        match self {
            Hide::Sight => EventGroup::Sight,
            Hide::Moves => EventGroup::Moves,
            Hide::Blows => EventGroup::Blows,
            Hide::Spells => EventGroup::Spells,
            Hide::Other => EventGroup::Other,
        }
    }
}

/// A rules system, as `run --system` and `compare` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum System {
    /// The book's: side initiative on d6, ten segments a round.
    Book,
    /// "Take Initiative!": each figure's d10 + its action's modifiers, 20 ordering segments.
    TakeInitiative,
}

impl System {
    /// The rules' own name for it.
    pub fn rules(self) -> RulesSystem {
        match self {
            System::Book => RulesSystem::Book,
            System::TakeInitiative => RulesSystem::TakeInitiative,
        }
    }
}

/// How a round's segments are named in the narration.
pub fn segment_word(system: RulesSystem) -> &'static str {
    system.segment_word()
}

/// Arguments of `compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The scene, its seed, rounds and output.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// Plays a scene under both systems with the same seed and prints both and their
/// differences.
pub fn compare(args: CompareArgs) -> i32 {
    use crate::calc::compare::{Summarizer, differences, to_text};
    let Some(scene) = load_to_play(&args.play.scene, args.play.rounds) else {
        return 2;
    };
    // The book's timing switches have no place under the variant (`check` refuses them in
    // a scene of its own): its side is played without them, and says so.
    let mut dropped: Vec<&str> = scene.rules.house.timing_switches().map(|r| r.key).collect();
    // Hesitation is the book's too (DMG p.71): the variant's side plays without it.
    if scene.rounds.iter().any(|r| !r.hesitation_s.is_empty()) {
        dropped.push("hesitation_s");
    }
    // The variant's own declarations: the book's side plays them as nothing, and says so.
    let not_in_book: Vec<String> = scene
        .variant_only()
        .into_iter()
        .map(|v| format!("{}'s {} ({}[{}])", v.figure, v.what, v.list, v.item))
        .chain(
            scene
                .variant_fields()
                .into_iter()
                .map(|(i, f)| format!("{}'s `{f}` (combatants[{i}])", scene.combatants[i].name)),
        )
        .collect();
    let play = |system| {
        let mut s = scene.clone();
        s.switch_system(system);
        // The comparison reads no sight: none is logged (a crowd's would be millions).
        // Summed up as it plays: the log is not kept (1,000 rounds of a crowd's is
        // gigabytes).
        let mut run = Runner::new(s, args.play.seed, args.play.rounds).without_sight_events();
        let mut z = Summarizer::default();
        run.stream_to_end(|events| {
            z.read(events);
            Ok(())
        })
        .expect("reading events into a summary cannot fail");
        z.done()
    };
    let (book, ti) = (play(RulesSystem::Book), play(RulesSystem::TakeInitiative));
    let d = differences(&book, &ti);
    match args.play.format {
        Format::Text => super::out(&format!(
            "{} — the book's rules against Take Initiative!\n{}{}\n{}",
            scene.name,
            not_played(&dropped),
            not_in_the_book(&not_in_book),
            to_text(&book, &ti, &d)
        )),
        Format::Markdown => super::out(&format!(
            "# {} — the book's rules against Take Initiative!\n{}{}\n```text\n{}```\n",
            scene.name,
            not_played(&dropped),
            not_in_the_book(&not_in_book),
            to_text(&book, &ti, &d)
        )),
        Format::Json => {
            let v = serde_json::json!({
                "scene": scene.name,
                "book": book,
                "take_initiative": ti,
                "differences": d,
                "not_under_take_initiative": dropped,
                "not_under_the_book": not_in_book,
            });
            super::out(&format!("{v}\n"));
        }
    }
    0
}

/// The line saying which of the scene's house rules the variant's side does not play
/// (empty when none).
fn not_played(keys: &[&str]) -> String {
    if keys.is_empty() {
        return String::new();
    }
    // Hesitation is the scene's own setting, not a house rule.
    let named: Vec<String> = keys
        .iter()
        .map(|k| match *k {
            "hesitation_s" => "hesitation_s (DMG p.71)".to_string(),
            k => format!("house.{k}"),
        })
        .collect();
    format!(
        "Take Initiative! is played without {}: {} the book's segment timing.\n",
        named.join(", "),
        if keys.len() == 1 {
            "it changes"
        } else {
            "they change"
        }
    )
}

/// The variant's own declarations the book's side plays as nothing, said.
fn not_in_the_book(what: &[String]) -> String {
    if what.is_empty() {
        return String::new();
    }
    format!(
        "The book's rules have no action for {}: its side plays without them.\n",
        what.join(", ")
    )
}

/// Arguments of `check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Scene files to validate.
    #[arg(required = true)]
    pub scenes: Vec<PathBuf>,
    /// Treat warnings (figures on defaults: 1 hp, AC 10, THAC0 20, no weapon) as errors.
    #[arg(long)]
    pub strict: bool,
}

/// The scene to play, or none after saying why (a located error, or rounds out of range).
pub(super) fn load_to_play(path: &std::path::Path, rounds: Option<u32>) -> Option<scene::Scene> {
    let scene = match scene::library::load_arg(path) {
        Ok(s) => s,
        Err(e) => {
            eprint!("{}", e.render());
            return None;
        }
    };
    if rounds.is_some_and(|r| r == 0 || r > limits::ROUNDS) {
        eprintln!("error: --rounds runs from 1 to {}", limits::ROUNDS);
        return None;
    }
    Some(scene)
}

/// The events not in a hidden group.
fn shown<'a>(
    events: &'a [LogEvent],
    hidden: &'a [EventGroup],
) -> impl Iterator<Item = &'a LogEvent> {
    events.iter().filter(|e| !hidden.contains(&e.kind.group()))
}

/// Plays a scene and prints the log.
pub fn run(args: RunArgs) -> i32 {
    // The summary is of blows, spells and falls, not a log to thin: a `--hide` there
    // would be silently ignored.
    if args.play.format == Format::Markdown && !args.hide.is_empty() {
        eprintln!(
            "error: --hide thins the text or JSON log; the Markdown summary has no groups to hide"
        );
        return 2;
    }
    let Some(mut scene) = load_to_play(&args.play.scene, args.play.rounds) else {
        return 2;
    };
    if let Some(s) = args.system {
        // As `check` refuses such a switch in a scene written for the variant.
        if s.rules() == RulesSystem::TakeInitiative
            && scene.rules.system != s.rules()
            && scene.rules.house.timing_switches().next().is_some()
        {
            // Each switch located in the file, as `check` locates one in a scene written
            // for the variant.
            let refused = scene::library::source_of(&args.play.scene)
                .map(|(file, src)| scene::refuse_book_timing(&file, &src, &scene));
            match refused {
                Some(Err(e)) => eprint!("{}", e.render()),
                // The file went between two reads: refused all the same, unlocated.
                _ => eprintln!(
                    "error: {}: rules.house: a switch that changes the book's segment timing; \"Take Initiative!\" has its own",
                    crate::text::terminal_safe(&args.play.scene.display().to_string())
                ),
            }
            return 2;
        }
        // The variant's own declarations under the book, which has no such actions: refused,
        // each located, as `check` refuses them in a book scene (they were dropped in
        // silence, an outside tester's sentry "expecting" doing nothing).
        if s.rules() == RulesSystem::Book
            && scene.rules.system != s.rules()
            && !(scene.variant_only().is_empty() && scene.variant_fields().is_empty())
        {
            let refused = scene::library::source_of(&args.play.scene)
                .map(|(file, src)| scene::refuse_variant_declarations(&file, &src, &scene));
            match refused {
                Some(Err(e)) => eprint!("{}", e.render()),
                _ => eprintln!(
                    "error: {}: a Take Initiative! declaration the book has no action for",
                    crate::text::terminal_safe(&args.play.scene.display().to_string())
                ),
            }
            return 2;
        }
        // Hesitation is the book's (DMG p.71): played without it, and said so.
        if s.rules() == RulesSystem::TakeInitiative
            && scene.rules.system != s.rules()
            && scene.rounds.iter().any(|r| !r.hesitation_s.is_empty())
        {
            eprintln!(
                "note: hesitation_s is a setting of the book's rules (DMG p.71): not played under \"Take Initiative!\""
            );
        }
        scene.switch_system(s.rules());
    }
    let unit = segment_word(scene.rules.system);
    let title = scene.title();
    let options = scene.rules.describe().join(", ");
    let hidden: Vec<EventGroup> = args.hide.iter().map(|h| h.group()).collect();
    let mut run = Runner::new(scene, args.play.seed, args.play.rounds);
    // Hidden sight events are counted, not made: the rest keep their numbers, and a lit
    // crowd's log costs a fraction of the time and memory.
    // The Markdown summary tells no sight: none is made for it either.
    if hidden.contains(&EventGroup::Sight) || args.play.format == Format::Markdown {
        run = run.counting_sight_events();
    }
    // Text and JSON go out step by step as they are played (a crowd's log is hundreds of
    // megabytes); the summary needs the whole log.
    match args.play.format {
        Format::Json => super::out_with(|w| {
            run.stream_to_end(|events| crate::sim::write_json_lines(shown(events, &hidden), w))
        }),
        Format::Markdown => {
            // Only what the summary tells is kept as it plays: a crowd's whole log, its
            // moves and attack rolls, took a gigabyte for one round.
            let mut told = Vec::new();
            let kept = run.stream_to_end(|events| {
                told.extend(crate::calc::summary::told(events).cloned());
                Ok(())
            });
            kept.expect("keeping events in memory cannot fail");
            super::out(&crate::calc::summary::markdown(&title, &told, unit))
        }
        Format::Text => super::out_with(|w| {
            writeln!(w, "{title}\nReadings in force: {options}")?;
            run.stream_to_end(|events| crate::sim::write_text_in(shown(events, &hidden), unit, w))
        }),
    }
    0
}

/// Validates scenes; 0 when all are valid, 2 otherwise.
pub fn check(args: CheckArgs) -> i32 {
    let mut bad = 0;
    for path in &args.scenes {
        match scene::library::load_arg_with_warnings(path) {
            Ok((s, warnings)) if warnings.is_empty() || !args.strict => {
                for w in &warnings {
                    eprintln!("warning: {w}");
                }
                // Say which was checked: the user's file, or the scene built in.
                let file = scene::library::user_file(path);
                let which = if file.exists() {
                    file.display().to_string()
                } else {
                    format!("{} (built in)", path.display())
                };
                super::out(&format!("ok: {which} ({})\n", s.name));
            }
            Ok((_, warnings)) => {
                bad += 1;
                for w in &warnings {
                    eprintln!("error (--strict): {w}");
                }
            }
            Err(e) => {
                bad += 1;
                eprint!("{}", e.render());
            }
        }
    }
    if bad > 0 {
        eprintln!("{bad} of {} scene(s) invalid", args.scenes.len());
        2
    } else {
        0
    }
}
