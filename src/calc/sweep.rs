//! Sweeps: the odds at each value of one field of the scene — a figure's start position,
//! movement, Dexterity, hit points, armor class, THAC0, or the casting time it declares —
//! so a DM can read a curve: "P(spell ruined) against the charger's start distance".

use super::odds::{self, Odds, Progress, Reroll};
use crate::scene::{Act, Scene};

/// What a sweep varies: `FIGURE.FIELD` and the values it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    /// The figure.
    pub figure: String,
    /// The field: x, y, movement, dexterity, hp, ac, thac0, segments.
    pub field: String,
    /// The values, in order.
    pub values: Vec<f64>,
}

/// The fields a sweep can vary.
pub const FIELDS: &str = "x, y, movement, dexterity, hp, ac, thac0, segments";

/// The most values one sweep may take.
pub const MAX_VALUES: usize = 200;

/// Reads `FIGURE.FIELD=FROM..TO[:STEP]` (STEP 1 by default).
pub fn parse(text: &str) -> Result<Vary, String> {
    read(text).map_err(|e| format!("--vary {e}"))
}

/// [`parse`], its errors without the command line's flag (the viewer's odds panel says
/// them beside its own field).
pub fn read(text: &str) -> Result<Vary, String> {
    let (path, range) = text
        .split_once('=')
        .ok_or_else(|| format!("{text}: write FIGURE.FIELD=FROM..TO[:STEP]"))?;
    let (figure, field) = path
        .rsplit_once('.')
        .ok_or_else(|| format!("{text}: name the figure and the field, e.g. 'Hill giant.y'"))?;
    if !FIELDS.split(", ").any(|f| f == field) {
        return Err(format!(
            "'{field}' is not a field a sweep varies ({FIELDS})"
        ));
    }
    let (span, step) = range.split_once(':').unwrap_or((range, "1"));
    let (from, to) = span
        .split_once("..")
        .ok_or_else(|| format!("{text}: the range is FROM..TO"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && v.abs() <= 100_000.0)
            .ok_or_else(|| format!("{text}: '{s}' is not a number within ±100000"))
    };
    let (from_text, to_text, step_text) = (from, to, step);
    let (from, to, step) = (num(from)?, num(to)?, num(step)?);
    if step <= 0.0 || to < from {
        return Err(format!(
            "{text}: FROM must not exceed TO, and STEP must be above 0"
        ));
    }
    // Only a position is measured in feet and may take any value; every other field is a
    // whole number, and a fraction would be rounded to the same value twice.
    let whole = |v: f64| v.fract() == 0.0;
    let feet = matches!(field, "x" | "y");
    if !(feet || whole(from) && whole(to) && whole(step)) {
        return Err(format!(
            "{text}: {field} takes whole numbers; FROM, TO and STEP must be whole"
        ));
    }
    // As many decimals as the DM wrote (0.1 steps stay 0.3, not 0.30000000000000004), and
    // a last value reached within rounding (0..1:0.1 ends at 1).
    let decimals = [from_text, to_text, step_text]
        .iter()
        .map(|t| t.trim().split_once('.').map_or(0, |(_, d)| d.len()))
        .max()
        .unwrap_or(0);
    // Finer than a millionth, the values would be written alike (eleven columns all
    // "17.5"): refused, not shown as one value many times.
    if decimals > 6 {
        return Err(format!(
            "{text}: at most 6 decimals (a millionth of a foot or a point)"
        ));
    }
    let decimals = decimals as i32;
    let scale = 10f64.powi(decimals);
    // Counted as a float first: a step of 1e-300 makes more values than a usize holds,
    // and the cast's saturation plus one wrapped round to none at all.
    let count = ((to - from) / step + 1e-9).floor() + 1.0;
    if count > MAX_VALUES as f64 {
        let many = if count < 1e9 {
            format!("{count:.0} values")
        } else {
            "more than a billion values (the step is too small)".to_string()
        };
        return Err(format!("{text}: {many}; at most {MAX_VALUES}"));
    }
    let n = count as usize;
    Ok(Vary {
        figure: figure.to_string(),
        field: field.to_string(),
        values: (0..n)
            .map(|k| ((from + step * k as f64) * scale).round() / scale)
            .collect(),
    })
}

/// The scene with the field set to `v`, or why not.
pub fn with_value(scene: &Scene, vary: &Vary, v: f64) -> Result<Scene, String> {
    let mut s = scene.clone();
    let f = s
        .combatants
        .iter_mut()
        .find(|c| c.name == vary.figure)
        .ok_or_else(|| format!("--vary: no figure is named '{}'", vary.figure))?;
    // A count (movement, Dexterity, casting time) is never below nought: a negative value
    // is refused, not played as nought under the value the table would show.
    let count_field = matches!(vary.field.as_str(), "movement" | "dexterity" | "segments");
    if count_field && v < 0.0 {
        return Err(format!(
            "--vary {}={v}: {} is never negative ({})",
            vary.field,
            vary.field,
            crate::scene::limits::allowed_for(&vary.field)
        ));
    }
    let whole = || v.round() as u32;
    match vary.field.as_str() {
        "x" => f.at.0 = v,
        "y" => f.at.1 = v,
        "movement" => f.movement = Some(whole()),
        "dexterity" => f.dexterity = Some(whole()),
        "hp" => f.hp = Some(v.round() as i32),
        "ac" => f.ac = Some(v.round() as i32),
        "thac0" => f.thac0 = Some(v.round() as i32),
        "segments" => {
            let mut any = false;
            for r in &mut s.rounds {
                if let Some(Act::Cast { segments, .. }) = r.declare.get_mut(&vary.figure) {
                    *segments = Some(whole());
                    any = true;
                }
            }
            if !any {
                return Err(format!("--vary: '{}' casts nothing to time", vary.figure));
            }
        }
        _ => unreachable!("checked by parse"),
    }
    // The value must make a scene the loader accepts (a position inside the map, a
    // Dexterity from 3 to 25...).
    crate::scene::check(&s)
        .map(|()| s)
        .map_err(|e| format!("--vary {}={v}: {e}", vary.field))
}

/// A field in words, with its unit, for a chart's axis.
pub fn field_words(field: &str) -> &'static str {
    match field {
        "x" => "starting x (ft)",
        "y" => "starting y (ft)",
        "movement" => "movement (inches)",
        "dexterity" => "Dexterity",
        "hp" => "hit points",
        "ac" => "armor class",
        "thac0" => "THAC0",
        "segments" => "casting time (segments)",
        _ => "value",
    }
}

impl Vary {
    /// The varied field in words, for an axis: "Hill giant's starting y (ft)".
    pub fn axis(&self) -> String {
        format!("{}'s {}", self.figure, field_words(&self.field))
    }
}

/// Plays the sweep: every value's scene is made (and checked) first, so a value the scene
/// refuses is said before any trial runs; then the trials at each value, in order, until
/// `progress` is told to stop (the values played are the first `runs.len()`).
pub fn run(
    scene: &Scene,
    vary: &Vary,
    (trials, seed, reroll, rounds): (u64, u64, &Reroll, Option<u32>),
    progress: &Progress,
) -> Result<Vec<Odds>, String> {
    let scenes = vary
        .values
        .iter()
        .map(|&v| with_value(scene, vary, v))
        .collect::<Result<Vec<_>, _>>()?;
    let mut runs = Vec::new();
    for s in &scenes {
        runs.push(odds::run_watched(s, trials, seed, reroll, rounds, progress));
        if progress.stopped() {
            break;
        }
    }
    every_outcome_in_every_run(&mut runs);
    Ok(runs)
}

/// Gives every run each outcome any run of the sweep met, at 0 trials where it never
/// happened: a reader of the JSON (or a chart) finds the same keys at every value, and a
/// missing key never has to be read as "0%".
fn every_outcome_in_every_run(runs: &mut [Odds]) {
    let mut met: std::collections::BTreeMap<String, String> = Default::default();
    for o in runs.iter().flat_map(|r| &r.outcomes) {
        let label = met.entry(o.key.clone()).or_default();
        if label.is_empty() {
            label.clone_from(&o.label);
        }
    }
    for r in runs {
        for (key, label) in &met {
            if r.outcomes.iter().all(|o| &o.key != key) {
                let (low, high) = odds::wilson(0, r.trials);
                r.outcomes.push(odds::Outcome {
                    key: key.clone(),
                    label: label.clone(),
                    count: 0,
                    trials: r.trials,
                    p: 0.0,
                    low,
                    high,
                });
            }
        }
        r.outcomes.sort_by(|a, b| a.key.cmp(&b.key));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command line's words name its flag; the viewer's (`read`) do not (outside
    /// tester: the odds panel said "--vary abc: ...").
    #[test]
    fn only_the_command_line_names_its_flag() {
        for bad in [
            "abc",
            "Giant.y=1",
            "Giant.q=1..2",
            "Giant.hp=5..1",
            "Giant.x=17.5..17.50000000001:0.000000000001",
        ] {
            let viewer = read(bad).unwrap_err();
            assert!(!viewer.contains("--vary"), "{viewer}");
            assert!(parse(bad).unwrap_err().starts_with("--vary "), "{bad}");
        }
    }

    /// A step so small its values overflow a count is refused as too many, not read as
    /// none (outside tester: `x=1..30:1e-300` printed an empty table and exit 0).
    #[test]
    fn a_vanishing_step_is_too_many_values() {
        for tiny in ["Bigby.x=1..30:1e-300", "Bigby.y=0..100000:1e-6"] {
            let e = read(tiny).unwrap_err();
            assert!(e.contains("at most 200"), "{tiny}: {e}");
        }
    }

    /// A count below nought is refused with its range, whatever the field, not played as
    /// nought under a column headed with the negative value (outside tester).
    #[test]
    fn a_negative_count_is_refused_not_played_as_nought() {
        let scene = crate::scene::library::load_arg(std::path::Path::new("bigby_vs_giant"))
            .expect("the library's scene");
        for (text, field) in [
            ("Bigby.segments=-5..-5", "segments"),
            ("Hill giant.movement=-60..-60", "movement"),
            ("Bigby.dexterity=-3..-3", "dexterity"),
        ] {
            let vary = read(text).unwrap();
            let e = with_value(&scene, &vary, vary.values[0]).unwrap_err();
            assert!(e.contains(field) && e.contains("allowed"), "{text}: {e}");
        }
        let fine = read("Hill giant.movement=6..6").unwrap();
        assert!(with_value(&scene, &fine, 6.0).is_ok());
    }
}
