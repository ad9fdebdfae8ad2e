//! Saving a scene: RON laid out for a person to read and edit — one line per figure, the
//! map's rows as rows, fields at their defaults left out — that [`super::load`] reads back
//! to the same scene. Writing is atomic (a temporary file beside the target, then a
//! rename) and never replaces a file the caller did not say it may replace.

use super::Scene;
use ron::extensions::Extensions;
use ron::ser::PrettyConfig;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A value on one line: `(name: "Knight", side: "Blue", at: (10.0, 10.0))`.
fn line<T: Serialize + ?Sized>(v: &T) -> String {
    let config = PrettyConfig::new()
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true)
        .escape_strings(true)
        .new_line(" ")
        .indentor("");
    let options = ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME);
    let s = options
        .to_string_pretty(v, config)
        .expect("scene values serialize");
    tidy(&plain_identifiers(&s))
}

/// A value over several lines, indented by `indent` levels of four spaces after the first.
fn block<T: Serialize + ?Sized>(v: &T, indent: usize, depth: usize) -> String {
    let config = PrettyConfig::new()
        .depth_limit(depth)
        .escape_strings(true)
        .indentor("    ")
        .new_line("\n");
    let options = ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME);
    let s = options
        .to_string_pretty(v, config)
        .expect("scene values serialize");
    let s = plain_identifiers(&s);
    let pad = "    ".repeat(indent);
    s.lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.to_string()
            } else {
                format!("{pad}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The serializer's raw identifiers (`r#None`, a variant named as RON's own `None`) as a
/// person writes them (`None`), which read back the same where a variant is expected;
/// strings are left as they are.
fn plain_identifiers(s: &str) -> String {
    let (mut out, mut in_str, mut escaped) = (String::with_capacity(s.len()), false, false);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if !in_str && rest.starts_with("r#") && rest[2..].starts_with(|c: char| c.is_alphabetic()) {
            rest = &rest[2..];
            continue;
        }
        match (in_str, escaped, c) {
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_str = false,
            (true, true, _) => escaped = false,
            (false, _, '"') => in_str = true,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Compact output with its separators made single spaces.
fn tidy(s: &str) -> String {
    let mut out = String::new();
    let mut prev = ' ';
    for c in s.chars() {
        if c == ' ' && prev == ' ' {
            continue;
        }
        out.push(c);
        prev = c;
    }
    out.replace("( ", "(")
        .replace(" )", ")")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace(", )", ")")
        .replace(", ]", "]")
}

/// The scene as RON text.
pub fn to_ron(scene: &Scene) -> String {
    let mut out = String::from("Scene(\n");
    let mut field = |name: &str, value: String| {
        let _ = writeln!(out, "    {name}: {value},");
    };
    field("name", line(&scene.name));
    if !scene.about.is_empty() {
        field("about", line(&scene.about));
    }
    field("setting", line(&scene.setting));
    field("seed", scene.seed.to_string());
    if scene.rules != Default::default() {
        field("rules", line(&scene.rules));
    }
    if let Some(map) = &scene.map {
        let mut m = String::from("(\n");
        if map.cell_ft != 5.0 {
            let _ = writeln!(m, "        cell_ft: {},", line(&map.cell_ft));
        }
        m.push_str("        rows: [\n");
        for r in &map.rows {
            let _ = writeln!(m, "            {},", line(r));
        }
        m.push_str("        ],\n");
        if !map.legend.is_empty() {
            let _ = writeln!(m, "        legend: {},", line(&map.legend));
        }
        if !map.lights.is_empty() {
            m.push_str("        lights: [\n");
            for l in &map.lights {
                let _ = writeln!(m, "            {},", line(l));
            }
            m.push_str("        ],\n");
        }
        if map.daylight {
            m.push_str("        daylight: true,\n");
        }
        m.push_str("    )");
        field("map", m);
    }
    let mut figures = String::from("[\n");
    for c in &scene.combatants {
        let _ = writeln!(figures, "        {},", line(c));
    }
    figures.push_str("    ]");
    field("combatants", figures);
    if !scene.encounter.is_empty() {
        field("encounter", block(&scene.encounter, 1, 2));
    }
    if !scene.surprise.is_empty() {
        field("surprise", block(&scene.surprise, 1, 2));
    }
    if !scene.surprise_segments.is_empty() {
        field("surprise_segments", block(&scene.surprise_segments, 1, 3));
    }
    if !scene.rounds.is_empty() {
        field("rounds", block(&scene.rounds, 1, 3));
    }
    if !crate::scene::is_default(&scene.psionics) {
        field("psionics", block(&scene.psionics, 1, 3));
    }
    if !scene.dice.is_empty() {
        field("dice", block(&scene.dice, 1, 2));
    }
    if !scene.tour.is_empty() {
        field("tour", block(&scene.tour, 1, 2));
    }
    out.push_str(")\n");
    out
}

/// Why a save did not happen.
#[derive(Debug)]
pub enum SaveError {
    /// The file exists and the caller did not say it may be replaced.
    Exists(std::path::PathBuf),
    /// Writing failed.
    Io(std::io::Error),
    /// The folder it would go in does not exist.
    NoFolder(std::path::PathBuf),
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::Exists(p) => write!(f, "{} exists: confirm to replace it", p.display()),
            SaveError::Io(e) => write!(f, "could not write the scene: {e}"),
            // A file where the folder should be is said as such: "does not exist" of a
            // file that does alarmed a DM who had just saved it.
            SaveError::NoFolder(p) if p.exists() => write!(
                f,
                "could not write the scene: {} is a file, not a folder",
                p.display()
            ),
            SaveError::NoFolder(p) => write!(
                f,
                "could not write the scene: the folder {} does not exist",
                p.display()
            ),
        }
    }
}

/// The file a name typed for a scene means: `room` is `room.ron`, as the scenes folder and
/// `run room` expect; a name with an extension of its own, or an existing folder (which
/// the save refuses with its own words), is left as typed.
pub fn scene_file(path: PathBuf) -> PathBuf {
    let bare = path.extension().is_none() && path.file_name().is_some() && !path.is_dir();
    if bare {
        path.with_extension("ron")
    } else {
        path
    }
}

/// Writes the scene to `path` atomically: the text goes to a temporary file beside it,
/// then takes its place. An existing file is replaced only with `replace`.
pub fn save(scene: &Scene, path: &Path, replace: bool) -> Result<(), SaveError> {
    if path.exists() && !replace {
        return Err(SaveError::Exists(path.to_path_buf()));
    }
    // The comments of the file replaced (a DM's notes, a scene's explanations) are kept.
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let text = format!("{}{}", kept_comments(&old), to_ron(scene));
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
        && !folder.is_dir()
    {
        return Err(SaveError::NoFolder(folder.to_path_buf()));
    }
    write_atomic(path, &text).map_err(SaveError::Io)
}

/// The comments of `old`, the text a save replaces, to head the new one: the comments
/// before the scene as they stand (blank lines and all), then those from within it, one
/// a line under a note that says where they came from — the scene itself is written anew,
/// so a comment has no place left beside its field, but none is lost. Empty if `old` has
/// none.
pub fn kept_comments(old: &str) -> String {
    let old = old.strip_prefix('\u{feff}').unwrap_or(old);
    let spans = super::validate::comment_spans(old);
    let in_comment = |i: usize| spans.iter().any(|&(a, b)| a <= i && i < b);
    let code = old
        .char_indices()
        .find(|&(i, c)| !c.is_whitespace() && !in_comment(i))
        .map_or(old.len(), |(i, _)| i);
    let mut out = String::new();
    let head = old[..code].trim_end();
    if !head.is_empty() {
        out.push_str(head);
        out.push('\n');
    }
    let body: Vec<&str> = spans
        .iter()
        .filter(|&&(a, _)| a >= code)
        .map(|&(a, b)| old[a..b].trim_end())
        .filter(|c| !c.is_empty())
        .collect();
    if !body.is_empty() {
        out.push_str(
            "// Comments kept from within the scene this file held before the editor saved it:\n",
        );
        for c in body {
            out.push_str(c);
            out.push('\n');
        }
    }
    out
}

/// Writes `text` to `path` atomically: to a temporary file beside it, then renamed over
/// it, so a reader never sees half a file and a failed write leaves the old one.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    write_bytes_atomic(path, text.as_bytes())
}

/// [`write_atomic`] for bytes (an image). A symbolic link is followed: the file it names
/// is replaced and the link stays. A path that is no regular file (a pipe, a device such as
/// `/dev/stdout`) is written through, never replaced by a file. A replaced file keeps its
/// permissions.
pub fn write_bytes_atomic(path: &Path, text: &[u8]) -> std::io::Result<()> {
    let path = &followed(path);
    let existing = std::fs::metadata(path).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        if existing.as_ref().is_some_and(std::fs::Metadata::is_dir) {
            return Err(std::io::Error::other(format!(
                "{} is a folder",
                path.display()
            )));
        }
        return std::fs::write(path, text);
    }
    let (tmp, mut file) = temporary_beside(path)?;
    let written = {
        use std::io::Write;
        file.write_all(text)
            .and_then(|()| match &existing {
                Some(m) => file.set_permissions(m.permissions()),
                None => Ok(()),
            })
            // On the disk before it takes the name: a crash leaves the old file or the new.
            .and_then(|()| file.sync_all())
    };
    drop(file);
    written
        .and_then(|()| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

/// A new temporary file beside `path`, made by this call alone: a name of this process's
/// own (`.NAME.PID.N.saving`), created only if nothing is there — never a file or link
/// someone left under that name, which is neither followed nor truncated, and never the
/// temporary file of another save running at once.
fn temporary_beside(path: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy().to_string());
    let mut last = None;
    for _ in 0..100 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = path.with_file_name(format!(".{name}.{}.{n}.saving", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary name free")))
}

/// The file a path names, its symbolic links followed (at most 40, as the kernel does; a
/// link to nowhere gives the path it points at, to be made).
fn followed(path: &Path) -> std::path::PathBuf {
    let mut now = path.to_path_buf();
    for _ in 0..40 {
        let Ok(to) = std::fs::read_link(&now) else {
            return now;
        };
        now = match now.parent() {
            Some(dir) if to.is_relative() => dir.join(to),
            _ => to,
        };
    }
    now
}
