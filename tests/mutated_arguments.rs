//! Every subcommand's arguments, fuzzed: lists of arguments drawn from each command's own
//! flags, their values at the edges (0, -1, 2^63, NaN, junk), library scenes from every
//! folder (`take_initiative/`, `house/`), missing files, devices and folders, run against
//! the real binary. Each answers within the hang guard, with exit 0, 2 (a located error)
//! or 130, never a panic or a crash. Bounded: a few hundred runs, under a minute.

mod common;

use proptest::prelude::*;

const COMMANDS: &[&str] = &["first", "run", "check", "compare", "odds", "quiz", "nosuch"];

/// Flags each command takes (and some it does not).
const FLAGS: &[&str] = &[
    "--seed",
    "--rounds",
    "--format",
    "--trials",
    "--threads",
    "--reroll",
    "--vary",
    "--chart",
    "--answers",
    "--system",
    "--strict",
    "--help",
    "--version",
    "-x",
    "--",
    "--format=json",
    "--format=markdown",
    "--system=take-initiative",
];

const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "3",
    "1000",
    "9223372036854775807",
    "18446744073709551616",
    "NaN",
    "inf",
    "",
    "json",
    "text",
    "markdown",
    "book",
    "take-initiative",
    "all",
    "unfixed",
    "initiative,damage",
    "Otis.hp=1..5",
    "Otis.hp=5..1",
    "Nobody.x=0..9999999:1",
    "Robilar.segments=0..100:0",
    "1,2,3",
    "a=b",
    "mod=+1",
    "weapon=dagger",
    "cast=3",
    "charge",
    "\u{202e}x",
    "/dev/null",
    "/",
];

/// Scene-like arguments: one library scene from each folder, and things that are not scenes.
fn scene_args() -> Vec<String> {
    let mut v: Vec<String> = firststrike::testing::library_scenes()
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("stress"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    v.extend(
        [
            "/dev/null",
            "/",
            "no/such/file.ron",
            "Cargo.toml",
            "README.md",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    v
}

proptest! {
    // One fixed draw of 400 argument lists, the same on every run: a fresh draw now and
    // then paired `--rounds 1000` with `--trials 20` on a scene where no one falls — a
    // real answer, about 2 s in a release build, that takes the debug binary past the
    // hang guard, so CI failed or passed by chance.
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_1e55),
        ..ProptestConfig::default()
    })]

    #[test]
    fn fuzzed_arguments_answer_without_a_panic(
        command in 0usize..COMMANDS.len(),
        scene in 0usize..64,
        rest in prop::collection::vec((0usize..FLAGS.len(), 0usize..VALUES.len(), 0u8..3), 0..5),
    ) {
        let scenes = scene_args();
        let mut args = vec![COMMANDS[command].to_string()];
        if COMMANDS[command] != "first" {
            args.push(scenes[scene % scenes.len()].clone());
        }
        for (f, v, how) in rest {
            match how {
                0 => args.push(FLAGS[f].to_string()),
                1 => {
                    args.push(FLAGS[f].to_string());
                    args.push(VALUES[v].to_string());
                }
                _ => args.push(VALUES[v].to_string()),
            }
        }
        // Keep odds quick: few trials unless the case asks for its own.
        if COMMANDS[command] == "odds" && !args.iter().any(|a| a == "--trials") {
            args.extend(["--trials".into(), "20".into()]);
        }
        let none = [("DISPLAY", None), ("WAYLAND_DISPLAY", None)];
        let (code, _, err) = common::firststrike_guarded(&args, &none);
        prop_assert!(!err.contains("panicked"), "{:?} panicked:\n{}", args, err);
        prop_assert!(
            matches!(code, 0 | 2 | 130),
            "{:?}: exit {:?}\n{}", args, code, err
        );
    }
}
