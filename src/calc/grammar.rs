//! The words `first` reads under both rules systems: `NAME: KIND [key=value ...]`. One
//! place splits an action into its name, its kind and its settings, and reads a setting's
//! number against the limits scenes have ([`limits`]), so the book's calculator
//! ([`super::parse_action`]) and the "Take Initiative!" one ([`super::take_initiative`])
//! take the same words the same way and say what is wrong the same way.

use crate::scene::limits;
use std::ops::RangeInclusive;

/// An action as written: the figure's name, the kind of action, and its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Written<'a> {
    /// The figure's name (trimmed, not empty).
    pub name: &'a str,
    /// The action's kind, as written.
    pub kind: &'a str,
    /// Its settings, in order.
    pub settings: Vec<Setting<'a>>,
}

/// One `key=value` setting (or a bare `key`) of an action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting<'a> {
    /// The figure it belongs to, for messages.
    who: &'a str,
    /// The word as written, e.g. `sf=4`.
    pub word: &'a str,
    /// The key, e.g. `sf`.
    pub key: &'a str,
    /// The value, empty for a bare key.
    pub value: &'a str,
}

/// Keys that may be given more than once: each `mod=ID` adds a row.
const REPEATABLE: [&str; 1] = ["mod"];

/// Splits `spec` into name, kind and settings. `kinds` lists the known kinds for the
/// message when none is given; `example` shows a whole action when the form is wrong.
pub fn split<'a>(spec: &'a str, kinds: &str, example: Option<&str>) -> Result<Written<'a>, String> {
    let (name, rest) = spec.split_once(':').ok_or_else(|| match example {
        Some(e) => format!("'{spec}': expected 'NAME: KIND [key=value ...]', e.g. '{e}'"),
        None => format!("'{spec}': expected 'NAME: KIND [key=value ...]'"),
    })?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("'{spec}': the name before ':' is empty"));
    }
    let mut words = rest.split_whitespace();
    let kind = words
        .next()
        .ok_or_else(|| format!("{name}: no action kind after ':' (one of {kinds})"))?;
    let settings: Vec<Setting> = words
        .map(|word| {
            let (key, value) = word.split_once('=').unwrap_or((word, ""));
            Setting {
                who: name,
                word,
                key,
                value,
            }
        })
        .collect();
    // A key given twice is a slip, not a choice (only `mod=` adds a row each time).
    for (k, s) in settings.iter().enumerate() {
        if let Some(first) = settings[..k]
            .iter()
            .find(|f| f.key == s.key && !REPEATABLE.contains(&s.key))
        {
            return Err(format!(
                "{name}: '{}' is given twice ('{}' and '{}'): give it once",
                s.key, first.word, s.word
            ));
        }
    }
    Ok(Written {
        name,
        kind,
        settings,
    })
}

impl Setting<'_> {
    /// Whether it is a bare key (`speed`, `far`), with no value.
    pub fn bare(&self) -> bool {
        self.value.is_empty()
    }

    /// A message about this setting: `Riggby: 'sf=x': …`.
    pub fn error(&self, message: impl std::fmt::Display) -> String {
        format!("{}: '{}': {message}", self.who, self.word)
    }

    /// A message about its figure: `Riggby: …`.
    pub fn figure_error(&self, message: impl std::fmt::Display) -> String {
        format!("{}: {message}", self.who)
    }

    /// The message for a key nobody knows, listing those that are known.
    pub fn unknown(&self, known: &str) -> String {
        self.figure_error(format!("unknown setting '{}' (known: {known})", self.word))
    }

    /// Its value as a whole number within `range` (one of [`limits`]).
    pub fn number(&self, range: &RangeInclusive<u32>) -> Result<u32, String> {
        self.number_of(self.value, range)
    }

    /// `text` (part of its value) as a whole number within `range`.
    pub fn number_of(&self, text: &str, range: &RangeInclusive<u32>) -> Result<u32, String> {
        // A whole number too large for its type is out of range, not "not whole": said
        // with the range, as 101 is.
        // A negative number is a whole number too, below the range: said so with it.
        let unsigned = text.strip_prefix('-').unwrap_or(text);
        let digits = !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit());
        let n = match text.parse::<u32>() {
            Ok(n) => n,
            Err(_) if digits => {
                let shown: String = text.chars().take(24).collect();
                let more = if text.len() > 24 { "…" } else { "" };
                return Err(self.error(format!(
                    "{} {shown}{more} is outside {}",
                    self.key,
                    limits::range_text(range)
                )));
            }
            Err(_) => return Err(self.error(format!("{} takes a whole number", self.key))),
        };
        limits::check(self.key, n, range).map_err(|m| self.error(m))?;
        Ok(n)
    }

    /// Its value as a distance in feet (`30` or `30ft`) within `range`.
    pub fn feet(&self, range: &RangeInclusive<f64>) -> Result<f64, String> {
        let f = self
            .value
            .trim_end_matches("ft")
            .parse::<f64>()
            .map_err(|_| self.error(format!("{} takes a distance in feet", self.key)))?;
        limits::check_ft(self.key, f, range).map_err(|m| self.error(m))?;
        Ok(f)
    }

    /// Its value as one of `choices` (value, meaning); the message names them.
    pub fn choice<T: Copy>(&self, choices: &[(&str, T)]) -> Result<T, String> {
        choices
            .iter()
            .find(|(word, _)| word.eq_ignore_ascii_case(self.value))
            .map(|&(_, t)| t)
            .ok_or_else(|| {
                let names: Vec<String> = choices.iter().map(|c| format!("'{}'", c.0)).collect();
                let names = match names.split_last() {
                    Some((last, [])) => last.clone(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => String::new(),
                };
                self.error(format!("{} is {names}", self.key))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_splits_into_name_kind_and_settings() {
        let w = split(" Hill giant : charge move=12 far", "melee", None).unwrap();
        assert_eq!((w.name, w.kind), ("Hill giant", "charge"));
        let keys: Vec<_> = w.settings.iter().map(|s| (s.key, s.value)).collect();
        assert_eq!(keys, [("move", "12"), ("far", "")]);
        assert!(w.settings[1].bare());
        assert_eq!(w.settings[0].number(&limits::MOVEMENT_IN), Ok(12));
    }

    #[test]
    fn what_is_wrong_is_said_at_its_place() {
        let e = split("no colon", "melee", Some("A: melee")).unwrap_err();
        assert!(e.contains("e.g. 'A: melee'"), "{e}");
        assert!(
            split(": melee", "melee", None)
                .unwrap_err()
                .contains("name")
        );
        assert!(
            split("A:", "melee, cast", None)
                .unwrap_err()
                .contains("melee, cast")
        );
        let w = split("A: melee sf=x dex=40 reach=-3 gear=medium", "", None).unwrap();
        let s = &w.settings;
        assert_eq!(
            s[0].number(&limits::SPEED_FACTOR).unwrap_err(),
            "A: 'sf=x': sf takes a whole number"
        );
        assert!(
            s[1].number(&limits::DEXTERITY)
                .unwrap_err()
                .starts_with("A: 'dex=40': dex 40")
        );
        assert!(s[2].feet(&limits::LENGTH_FT).is_err());
        let gear = s[3]
            .choice(&[("light", true), ("heavy", false)])
            .unwrap_err();
        assert_eq!(gear, "A: 'gear=medium': gear is 'light' or 'heavy'");
    }
}
