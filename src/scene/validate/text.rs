//! Words a scene brings to the screen: every string of a scene (its name and about, a
//! non-combat act's words, a spell's or potion's name, a table's entries) is printed as it
//! is by the text reports. A control character there would reach a terminal as a command
//! (retitle it, recolour it, forge a line of the log), and a bidirectional override or an
//! invisible character would make two words look alike or read backwards. They are refused
//! where they stand, as they are in names.

use super::{Checker, field, q};
use crate::scene::Scene;

/// Why `text` cannot be shown as it is, if it cannot.
pub(crate) fn unshowable(text: &str) -> Option<String> {
    let bad = text.chars().find(|&c| c.is_control() || hidden(c))?;
    let what = if bad.is_control() {
        "a control character"
    } else {
        "an invisible or direction-changing character"
    };
    Some(format!(
        "'{}' holds {what} ({}), which a terminal would act on or hide",
        text.chars()
            .map(|c| c.escape_default().to_string())
            .collect::<String>(),
        format_args!("U+{:04X}", bad as u32)
    ))
}

pub(crate) use crate::text::hidden;

/// The longest name a scene may have, in characters.
pub const MAX_SCENE_NAME_CHARS: usize = 200;

/// The longest text a scene may hold elsewhere (its about, a caption, a non-combat act's
/// words), in characters.
pub const MAX_TEXT_CHARS: usize = 4000;

/// Every string of the scene that cannot be shown, located at the field that holds it.
pub(super) fn check(c: &mut Checker, scene: &Scene) {
    let Ok(value) = serde_json::to_value(scene) else {
        return;
    };
    let mut path = Vec::new();
    walk(c, &value, &mut path);
}

/// How a key of the path is found in the file: a field as `name:`, a variant as written,
/// a map's key in quotes.
fn anchor(k: &str) -> String {
    if k.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        field(k)
    } else if k.starts_with(|c: char| c.is_ascii_uppercase())
        && k.chars().all(|c| c.is_ascii_alphanumeric())
    {
        k.to_string()
    } else {
        q(k)
    }
}

fn walk(c: &mut Checker, v: &serde_json::Value, path: &mut Vec<String>) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            // A scene's name is shown in the picker, the window's title and `check`'s line;
            // every other text in a log line or a caption: neither may run to megabytes.
            let most = if path.as_slice() == ["name"] {
                MAX_SCENE_NAME_CHARS
            } else {
                MAX_TEXT_CHARS
            };
            let n = s.chars().count();
            let long =
                (n > most).then(|| format!("{n} characters: too long to show (at most {most})"));
            if let Some(why) = long.or_else(|| unshowable(s)) {
                // A figure's name and side are checked with the names (`fit_name`).
                if let [a, _, b] = path.as_slice()
                    && a == "combatants"
                    && (b == "name" || b == "side")
                {
                    return;
                }
                refuse(c, &anchors_of(path), path, why);
            }
        }
        Value::Array(items) => {
            for (k, item) in items.iter().enumerate() {
                path.push(format!("[{k}]"));
                walk(c, item, path);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                if let Some(why) = unshowable(k) {
                    // Found under its field (`declare:`), then as the key is written: as
                    // it is, or with its hidden characters as RON's escapes (`\u{202e}`).
                    let mut anchors = anchors_of(path);
                    anchors.push(written_key(c.src, k));
                    refuse(c, &anchors, path, why);
                    continue;
                }
                path.push(k.clone());
                walk(c, item, path);
                path.pop();
            }
        }
        _ => {}
    }
}

/// How the fields of `path` are found in the file, in order (a list's items by their
/// fields alone).
fn anchors_of(path: &[String]) -> Vec<String> {
    path.iter()
        .filter(|p| !p.starts_with('['))
        .map(|p| anchor(p))
        .collect()
}

/// A map's key as the file writes it: in quotes as it is, or, when the file does not hold
/// it so, its hidden and control characters as RON escapes them.
fn written_key(src: &str, k: &str) -> String {
    let plain = q(k);
    if src.contains(&plain) {
        return plain;
    }
    q(&k.chars()
        .map(|ch| match ch.is_control() || hidden(ch) {
            true => ch.escape_default().to_string(),
            false => ch.to_string(),
        })
        .collect::<String>())
}

/// A string refused where `anchors` find it, under its field's path (`rounds[0].declare.B`).
fn refuse(c: &mut Checker, anchors: &[String], path: &[String], why: String) {
    let name = path.join(".").replace(".[", "[");
    c.add(
        anchors,
        name,
        why,
        Some("plain printable characters only".into()),
    );
}
