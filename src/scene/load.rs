//! Reading a scene: RON parsing with located errors, then validation.

use super::error::{SceneError, SceneErrors};
use super::{Scene, limits, validate};
use std::path::Path;

/// Reads, parses and validates a scene file.
pub fn load(path: impl AsRef<Path>) -> Result<Scene, SceneErrors> {
    let path = path.as_ref();
    let src = read(path)?;
    parse(&path.display().to_string(), &src)
}

/// Reads a scene file's text once, through a bounded reader: at most
/// [`limits::FILE_BYTES`] (a device such as `/dev/zero`, or a pipe, says nothing of its
/// size, so the bound is counted, not asked), and only UTF-8 text.
pub fn read(path: &Path) -> Result<String, SceneErrors> {
    use std::io::Read;
    let file = path.display().to_string();
    let cannot = |m: String| SceneErrors(vec![SceneError::file(&file, m)]);
    let f = open(path).map_err(|e| cannot(format!("cannot read: {e}")))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(cannot("is a folder, not a scene file".into()));
    }
    let mut bytes = Vec::new();
    f.take(limits::FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(format!("cannot read: {e}")))?;
    if bytes.len() > limits::FILE_BYTES {
        let mb = limits::FILE_BYTES >> 20;
        return Err(cannot(format!(
            "more than {mb} MB: a scene file is at most {mb} MB"
        )));
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let at = text.char_indices().nth(
                String::from_utf8_lossy(&e.as_bytes()[..good])
                    .chars()
                    .count(),
            );
            let offset = at.map_or(text.len(), |(b, _)| b);
            let msg = format!("byte {good} is not UTF-8 text: a scene is a RON text file");
            Err(SceneErrors(vec![SceneError::at(
                &file, &text, offset, "file", msg, None,
            )]))
        }
    }
}

/// How long a named pipe is waited on for a program to write into it.
const PIPE_WAIT_MS: i32 = 5_000;

/// Opens a file to read. A named pipe is opened without waiting for a writer (opening one
/// that no program writes to would wait for ever), then waited on for at most
/// [`PIPE_WAIT_MS`] for something to read — a writer that comes a moment later is read
/// whole — and read as usual; none in that time is said.
#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    if !std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
        return std::fs::File::open(path);
    }
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    // SAFETY: fcntl on a descriptor this function owns, with flags read from it.
    let cleared = unsafe {
        let flags = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
        flags >= 0 && libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK) >= 0
    };
    if !cleared {
        return Err(std::io::Error::last_os_error());
    }
    let mut ready = libc::pollfd {
        fd: f.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd of a descriptor this function owns, its length given.
    match unsafe { libc::poll(&mut ready, 1, PIPE_WAIT_MS) } {
        0 => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "a named pipe no program wrote into within {} s",
                PIPE_WAIT_MS / 1000
            ),
        )),
        n if n < 0 => Err(std::io::Error::last_os_error()),
        _ => Ok(f),
    }
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Parses and validates scene text; `file` names it in errors.
pub fn parse(file: &str, src: &str) -> Result<Scene, SceneErrors> {
    let scene = parse_unchecked(file, src)?;
    located(file, src, |src| validate::validate(&scene, src))?;
    Ok(scene)
}

/// Refuses a scene of the book's played under "Take Initiative!" from the command line
/// (`run --system take-initiative`) when it switches on a house rule that changes the
/// book's timing: each switch located in `src`, the scene's text, as `check` does it.
pub fn refuse_book_timing(file: &str, src: &str, scene: &Scene) -> Result<(), SceneErrors> {
    located(file, src, |src| {
        validate::timing_switches_on_the_command_line(scene, src)
    })
}

/// Refuses, each located in the scene's text, the variant's own declarations of a scene
/// written for "Take Initiative!" that `run --system book` would play under the book,
/// which has no such actions (they were dropped without a word).
pub fn refuse_variant_declarations(
    file: &str,
    src: &str,
    scene: &Scene,
) -> Result<(), SceneErrors> {
    located(file, src, |src| {
        validate::variant_declarations_on_the_command_line(scene, src)
    })
}

/// The problems `find` finds in the scene's text, each located in it: none, or the errors.
fn located(
    file: &str,
    src: &str,
    find: impl FnOnce(&str) -> Vec<validate::Problem>,
) -> Result<(), SceneErrors> {
    let bom = src.starts_with('\u{feff}');
    let src = without_bom(src);
    let problems = find(&src);
    if problems.is_empty() {
        return Ok(());
    }
    Err(SceneErrors(
        problems
            .into_iter()
            .map(|p| {
                let e = SceneError::at(file, &src, p.offset, p.field, p.message, p.help);
                as_an_editor_counts(e, bom)
            })
            .collect(),
    ))
}

/// An error in a file that starts with a byte-order mark, at the column an editor shows
/// (it shows no column for the mark, blanked here to 3 spaces) and without the blanks.
fn as_an_editor_counts(e: SceneError, bom: bool) -> SceneError {
    if bom { e.without_bom() } else { e }
}

/// Reads scene text without the checks: a scene as the editor may hold it, not yet valid
/// (a room with no figure yet, a name still too long) — the edits a recovery file kept.
/// Only RON that does not make a scene at all is an error.
pub fn parse_unchecked(file: &str, src: &str) -> Result<Scene, SceneErrors> {
    let bom = src.starts_with('\u{feff}');
    let src = without_bom(src);
    if src.trim().is_empty() {
        return Err(SceneErrors(vec![SceneError::at(
            file,
            &src,
            0,
            "file",
            "the file holds no scene: it is empty",
            Some(
                "a scene is RON text such as `(name: \"Duel\", setting: Indoors, combatants: \
                 [(name: \"A\", side: \"A\", at: (0.0, 0.0)), (name: \"B\", side: \"B\", at: \
                 (5.0, 0.0))])`: start from a library scene (`firststrike scenes` lists them), or \
                 build one with `firststrike view --edit`"
                    .into(),
            ),
        )]));
    }
    // Optional fields may be written bare (`weapon: "dagger"`) as well as `Some("dagger")`.
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&src)
        .map_err(|e| SceneErrors(vec![as_an_editor_counts(ron_error(file, &src, e), bom)]))
}

/// A scene file as written, without the checks (see [`parse_unchecked`]), through the
/// same bounded reader as [`load`]: what an editor opens to mend a file that fails them.
/// None for a file that cannot be read or does not make a scene at all.
pub fn load_unchecked(path: &Path) -> Option<Scene> {
    let src = read(path).ok()?;
    parse_unchecked(&path.display().to_string(), &src).ok()
}

/// A byte-order mark (Notepad writes one) is no part of the scene; blanked to spaces of
/// the same length, so every error still points at its byte, line and column. A lone
/// carriage return (the line end of old Mac editors) ends a line as a newline does: read
/// as none, a `//` comment on the first line ran to the end of the file.
fn without_bom(src: &str) -> std::borrow::Cow<'_, str> {
    let b = src.as_bytes();
    let lone_cr = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    let has_lone_cr = (0..b.len()).any(lone_cr);
    let rest = src.strip_prefix('\u{feff}');
    if rest.is_none() && !has_lone_cr {
        return src.into();
    }
    let text = rest.map_or_else(|| src.to_string(), |rest| format!("   {rest}"));
    if !has_lone_cr {
        return text.into();
    }
    // Byte for byte, so every offset stays where it was.
    let mut bytes = text.into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    String::from_utf8(bytes)
        .expect("a carriage return is one byte of its own in UTF-8")
        .into()
}

/// Checks a scene value as the loader checks a file — every limit and every name it
/// refers to — without writing it out and reading it back (the editor's scene, a sweep's
/// value). The problems in words: `field: message (help)`, joined by "; ".
pub fn check(scene: &Scene) -> Result<(), String> {
    words(validate::validate(scene, ""))
}

/// Checks a scene as [`check`] does, except that it may have no figures yet: the editor
/// shows a new, empty room's map (and says a figure is wanted) before one is added.
pub fn check_but_figures(scene: &Scene) -> Result<(), String> {
    let mut problems = validate::validate(scene, "");
    problems.retain(|p| !(scene.combatants.is_empty() && p.field == "combatants"));
    words(problems)
}

/// Problems in words, or none.
fn words(problems: Vec<validate::Problem>) -> Result<(), String> {
    if problems.is_empty() {
        return Ok(());
    }
    Err(problems
        .iter()
        .map(|p| match &p.help {
            Some(h) => format!("{}: {} ({h})", p.field, p.message),
            None => format!("{}: {}", p.field, p.message),
        })
        .collect::<Vec<_>>()
        .join("; "))
}

/// The warnings of a valid scene: figures running on defaults the DM probably did not mean.
pub fn warnings(file: &str, src: &str, scene: &Scene) -> Vec<SceneError> {
    // As the errors read it: a byte-order mark blanked, lone carriage returns as newlines.
    let bom = src.starts_with('\u{feff}');
    let src = without_bom(src);
    validate::warnings(scene, &src)
        .into_iter()
        .map(|p| SceneError::at(file, &src, p.offset, p.field, p.message, p.help))
        .map(|e| as_an_editor_counts(e, bom))
        .collect()
}

/// Reads and parses a scene file, with its warnings.
pub fn load_with_warnings(path: impl AsRef<Path>) -> Result<(Scene, Vec<SceneError>), SceneErrors> {
    // Read once: a pipe gives its text only once.
    let path = path.as_ref();
    let src = read(path)?;
    let file = path.display().to_string();
    let scene = parse(&file, &src)?;
    let w = warnings(&file, &src, &scene);
    Ok((scene, w))
}

/// Turns a RON error into a located scene error, naming the field and suggesting the
/// closest known field or variant.
fn ron_error(file: &str, src: &str, e: ron::error::SpannedError) -> SceneError {
    use ron::Error as E;
    // The field is read from where RON stopped; the error is located at the value.
    let offset = offset_of(src, e.span.start.line, e.span.start.col);
    let at = value_at(src, offset);
    // A fraction where a whole number goes reads as a number cut short: a comma or, inside
    // `Some(...)`, a closing bracket expected before the `.5` (a point takes fractions).
    let fraction = fraction_at(src, offset) && !point_field(&field_before(src, offset));
    let (field, help) = match &e.code {
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => (
            format!("{}.{found}", outer.as_deref().unwrap_or("?")),
            crate::tables::suggest(found, expected.iter().copied())
                .map(|s| format!("did you mean '{s}'?"))
                .or_else(|| Some(format!("expected one of: {}", expected.join(", ")))),
        ),
        E::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => (
            outer.clone().unwrap_or_else(|| "value".into()),
            crate::tables::suggest(found, expected.iter().copied())
                .map(|s| format!("did you mean '{s}'?"))
                .or_else(|| Some(format!("expected one of: {}", expected.join(", ")))),
        ),
        E::MissingStructField { field, outer } => (
            format!("{}.{field}", outer.as_deref().unwrap_or("?")),
            Some(format!("add `{field}: {}`", required_example(field))),
        ),
        E::DuplicateStructField { field, outer } => (
            format!("{}.{field}", outer.as_deref().unwrap_or("?")),
            Some(format!("give `{field}` once")),
        ),
        // A number its field cannot hold (a negative count, a fraction or an exponent
        // where a whole number goes): the range it can.
        E::IntegerOutOfBounds
        | E::InvalidIntegerDigit { .. }
        | E::ExpectedInteger
        | E::ExpectedFloat
        | E::FloatUnderscore => {
            let field = field_before(src, offset);
            let help = crate::scene::limits::allowed_for(&field);
            (field, Some(help))
        }
        // A fraction where a whole number goes reads as a number cut short: a comma or,
        // inside `Some(...)`, a closing bracket expected before the `.5`.
        _ if fraction => {
            let field = field_before(src, offset);
            let help = format!(
                "a whole number goes here, not a fraction; {}",
                crate::scene::limits::allowed_for(&field)
            );
            (field, Some(help))
        }
        // A key given twice is the map's fault: named by the map's own field (`declare`),
        // not by the last field written inside its entries (`targets`).
        E::Message(m) if m.contains("is given twice") => (map_field_before(src, offset), None),
        _ => (field_before(src, offset), None),
    };
    // The range in the message itself too, not only in the help below the source.
    let message = match (&e.code, &help) {
        (E::IntegerOutOfBounds, Some(h)) => format!("the number does not fit ({h})"),
        _ if fraction => "a fraction where a whole number goes".to_string(),
        // A point given three numbers (or one): RON expected its `)` after the second.
        (E::ExpectedStructLikeEnd | E::ExpectedComma, _)
            if point_field(&field) && in_a_point(src, offset) =>
        {
            format!("{}: a point is two numbers, (x, y) in feet", e.code)
        }
        _ => e.code.to_string(),
    };
    let (field, message) = (user_words(&field), user_words(&message));
    let message = with_entry_number(src, offset, &message);
    let help = help.map(|h| user_words(&h));
    let mut err = SceneError::at(file, src, at, field, message, help);
    // RON reports 1-based positions: kept where it pointed at the value itself.
    if at == offset {
        err.line = e.span.start.line;
        err.column = e.span.start.col;
    }
    err
}

/// Where the value RON could not read starts: RON stops before the blanks, line breaks
/// and comments ahead of it (`hp: NaN`, `hp:⏎ "x"`), and past a number's sign (`-1`).
fn value_at(src: &str, offset: usize) -> usize {
    let b = src.as_bytes();
    let mut i = offset.min(b.len());
    if i > 0 && matches!(b[i - 1], b'-' | b'+') && b.get(i).is_some_and(u8::is_ascii_digit) {
        return i - 1;
    }
    loop {
        let rest = &src[i..];
        let blank = rest.len() - rest.trim_start().len();
        i += blank;
        let rest = &src[i..];
        let comment = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(0, |e| e + 2)
        } else {
            0
        };
        i += comment;
        if blank == 0 && comment == 0 {
            return i;
        }
    }
}

/// The field whose map holds `offset`: the name before the `{` that opens the map the
/// offset is in (brackets, strings and comments counted), or [`field_before`]'s answer.
fn map_field_before(src: &str, offset: usize) -> String {
    let comments = super::validate::comment_spans(src);
    let in_comment = |i: usize| comments.iter().any(|&(a, b)| a <= i && i < b);
    let b = src.as_bytes();
    let offset = offset.min(b.len());
    // An offset inside a string (RON points at the key given twice) starts before it.
    let mut open = None;
    let mut j = 0;
    while j < offset {
        if !in_comment(j) && b[j] == b'"' {
            open = if open.is_some() { None } else { Some(j) };
        } else if open.is_some() && b[j] == b'\\' {
            j += 1;
        }
        j += 1;
    }
    let (mut depth, mut in_str) = (0i32, false);
    let mut i = open.unwrap_or(offset);
    while i > 0 {
        i -= 1;
        let c = b[i];
        if in_comment(i) {
            continue;
        }
        match c {
            b'"' if i == 0 || b[i - 1] != b'\\' => in_str = !in_str,
            _ if in_str => {}
            b'}' | b')' | b']' => depth += 1,
            // An enclosing list or tuple (the offset inside an entry's value): go outward.
            b'(' | b'[' if depth == 0 => {}
            b'(' | b'[' => depth -= 1,
            b'{' if depth == 0 => {
                let name = name_ending(src[..i].trim_end().trim_end_matches(':').trim_end());
                if !name.is_empty() {
                    return name;
                }
                break;
            }
            b'{' => depth -= 1,
            _ => {}
        }
    }
    field_before(src, offset)
}

/// `message` with a list's entry numbered where it names the list (`combatants[]` becomes
/// `combatants[5]`, its sixth figure, counted from 0): the entry of the innermost list
/// that holds `offset`, when the message names that list.
fn with_entry_number(src: &str, offset: usize, message: &str) -> String {
    let Some((name, index)) = innermost_entry(src, offset) else {
        return message.to_string();
    };
    let Some(at) = USER_NAMES
        .iter()
        .map(|(_, user)| *user)
        .filter(|user| user.ends_with("[]"))
        .filter(|user| user.trim_end_matches("[]").rsplit('.').next() == Some(name.as_str()))
        .find_map(|user| message.find(user).map(|at| (at, user.len())))
    else {
        return message.to_string();
    };
    let (start, len) = at;
    format!(
        "{}[{index}]{}",
        &message[..start + len - 2],
        &message[start + len..]
    )
}

/// The innermost list (`[...]`) that holds `offset`: the field it is the value of, and how
/// many of its entries come before the offset.
fn innermost_entry(src: &str, offset: usize) -> Option<(String, usize)> {
    let open = open_brackets(src, offset);
    let &(_, at, commas) = open.iter().rev().find(|o| o.0 == b'[')?;
    let name = name_ending(src[..at].trim_end().trim_end_matches(':').trim_end());
    (!name.is_empty()).then_some((name, commas))
}

/// The brackets open at `offset`, outermost first: each bracket, where it opens, and the
/// commas met at its own level (strings and comments skipped).
fn open_brackets(src: &str, offset: usize) -> Vec<(u8, usize, usize)> {
    let b = src.as_bytes();
    let mut open: Vec<(u8, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < offset.min(b.len()) {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            c @ (b'[' | b'(' | b'{') => open.push((c, i, 0)),
            b']' | b')' | b'}' => {
                open.pop();
            }
            b',' => {
                if let Some(top) = open.last_mut() {
                    top.2 += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    open
}

/// The name (letters, digits, `_`) `text` ends with; empty if none.
fn name_ending(text: &str) -> String {
    let start = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
        .last()
        .map_or(text.len(), |(i, _)| i);
    text[start..].to_string()
}

/// A value to show for a required field a scene left out: its allowed values where they
/// are few, else what kind of value goes there.
fn required_example(field: &str) -> &'static str {
    match field {
        "setting" => "Indoors` or `setting: Outdoors",
        "name" | "side" => "\"...\"` (words in quotes)",
        "at" => "(x, y)` (feet from the map's corner)",
        "combatants" => "[(name: ..., side: ..., at: (x, y)), ...]",
        _ => "...",
    }
}

/// Whether `offset` lies inside a point's own brackets: the innermost open bracket there
/// is a `(` that a point's field (`at:`, `to:`) opens — not a figure's `(` after its point.
fn in_a_point(src: &str, offset: usize) -> bool {
    open_brackets(src, offset)
        .last()
        .is_some_and(|&(c, at, _)| {
            c == b'('
                && point_field(&name_ending(
                    src[..at].trim_end().trim_end_matches(':').trim_end(),
                ))
        })
}

/// Whether a field holds a point, `(x, y)`.
fn point_field(field: &str) -> bool {
    matches!(field, "at" | "to")
}

/// Whether the text at `offset` is the fraction of a number (`.5` after `hp: 1`).
fn fraction_at(src: &str, offset: usize) -> bool {
    let rest = src.get(offset..).unwrap_or("");
    let before = src.get(..offset).unwrap_or("");
    rest.starts_with('.')
        && rest[1..].starts_with(|c: char| c.is_ascii_digit())
        && before.ends_with(|c: char| c.is_ascii_digit())
}

/// The scene's parts as a scene file names them, for the engine's type names that RON's
/// messages carry ("CombatantSpec.hitpoints" is the field `hitpoints` of a figure in
/// `combatants`).
const USER_NAMES: &[(&str, &str)] = &[
    ("CombatantSpec", "combatants[]"),
    ("RoundSpec", "rounds[]"),
    ("MapSpec", "map"),
    ("FixedLight", "map.lights[]"),
    ("RulesOptions", "rules"),
    ("HouseRules", "rules.house"),
    ("EncounterCheck", "encounter[]"),
    ("SurpriseSpec", "surprise"),
    ("TourStop", "tour[]"),
    ("PsiChoice", "psionics"),
    ("PsionicStrength", "psionic"),
    ("DieKind", "dice (kind of die)"),
    ("Immunity", "immune"),
    ("AlternatingRate", "rules.alternating_rate"),
    ("FirstRoundTiebreak", "rules.first_round_tiebreak"),
    ("SpellStart", "rules.spell_start"),
    ("HesitationRounding", "rules.hesitation"),
    ("TiedSpeedFactor", "rules.tied_speed_factor"),
    ("LaterRoutines", "rules.later_routines"),
    ("ExtraBlows", "rules.extra_blows"),
    ("MissileVolley", "rules.missile_volley"),
    ("MissileVsCharge", "rules.missile_vs_charge"),
    ("InstantActions", "rules.instant_actions"),
    ("ChargeWithinInch", "rules.charge_within_inch"),
    ("RulesSystem", "rules.system"),
    ("SpellCards", "rules.spell_cards"),
    ("Setting", "setting"),
    ("Act", "a declaration"),
];

/// `text` with the engine's type names put as the scene file names them ([`USER_NAMES`]),
/// whole words only.
fn user_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let named = USER_NAMES.iter().find(|(t, _)| *t == word.as_str());
        out.push_str(named.map_or(word.as_str(), |(_, u)| u));
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Byte offset of a 1-based line and column.
fn offset_of(src: &str, line: usize, col: usize) -> usize {
    let mut off = 0;
    for (i, l) in src.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return off
                + l.char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
        }
        off += l.len();
    }
    src.len()
}

/// The name of the field whose value starts before `offset` (the last `name:` on its line).
fn field_before(src: &str, offset: usize) -> String {
    let line_start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
    let text = &src[line_start..offset];
    // A word in a comment is no field (`/* thac0: 5 */` named a syntax error "thac0").
    let comments = super::validate::comment_spans(src);
    let in_comment = |i: usize| comments.iter().any(|&(a, b)| a <= i && i < b);
    let mut best = None;
    for (i, _) in text
        .match_indices(':')
        .filter(|&(i, _)| !in_comment(line_start + i))
    {
        let name = name_ending(&text[..i]);
        if !name.is_empty() {
            best = Some(name);
        }
    }
    best.unwrap_or_else(|| "syntax".into())
}

#[cfg(test)]
mod dup_tests {
    /// A key given twice is named by its map's field (outside tester: "targets").
    #[test]
    fn a_key_given_twice_is_named_by_its_map() {
        let src = std::fs::read_to_string("scenes/otis_vs_robilar.ron")
            .unwrap()
            .replace(
                r#""Robilar": Melee(targets: ["Otis"]) }"#,
                r#""Robilar": Melee(targets: ["Otis"]), "Robilar": Melee(targets: ["Otis"]) }"#,
            );
        let e = super::parse("dup.ron", &src).unwrap_err();
        assert_eq!(e.0[0].field, "declare", "{e}");
    }

    /// A word in a comment before a syntax error is not its field (outside tester: "thac0"
    /// from `/* thac0: 5 */`).
    #[test]
    fn a_comment_names_no_field() {
        let src = "Scene(name: \"c\", setting: Indoors, /* thac0: 5 */ seed: 1 2)";
        let e = super::parse("c.ron", src).unwrap_err();
        assert_eq!(e.0[0].field, "seed", "{e}");
    }
}

#[cfg(test)]
mod line_end_tests {
    use super::parse;

    /// A scene saved with old Mac line ends (a lone carriage return each) reads as the
    /// same scene, and an error in it is on its own line (outside tester: the whole file
    /// read as the first line's comment).
    #[test]
    fn lone_carriage_returns_end_lines() {
        let src = std::fs::read_to_string("scenes/example_of_melee.ron").unwrap();
        let unix = parse("melee.ron", &src).unwrap();
        let mac = parse("melee.ron", &src.replace('\n', "\r")).unwrap();
        assert_eq!(format!("{unix:?}"), format!("{mac:?}"));
        let bad = src.replacen("dexterity: 16", "dexterity: 16.5", 1);
        let line = bad.lines().position(|l| l.contains("16.5")).unwrap() + 1;
        let e = parse("melee.ron", &bad.replace('\n', "\r")).unwrap_err();
        assert_eq!(e.0[0].line, line, "{e}");
        assert_eq!(e.0[0].field, "dexterity", "{e}");
    }

    /// A fraction where a whole number goes says so in the message itself, not "Expected
    /// comma".
    #[test]
    fn a_fraction_for_a_whole_number_says_so() {
        let src = std::fs::read_to_string("scenes/example_of_melee.ron")
            .unwrap()
            .replacen("dexterity: 16", "dexterity: 16.5", 1);
        let e = parse("melee.ron", &src).unwrap_err();
        assert_eq!(
            e.0[0].message, "a fraction where a whole number goes",
            "{e}"
        );
    }

    /// A wrong entry of a list is numbered: the sixth figure is `combatants[5]`, however
    /// many commas its own fields hold.
    #[test]
    fn a_wrong_entry_is_numbered() {
        let src = std::fs::read_to_string("scenes/example_of_melee.ron").unwrap();
        let sixth = src.match_indices("(name: ").nth(5).unwrap().0;
        let mut bad = src.clone();
        bad.replace_range(sixth..sixth + 1, "[");
        let e = parse("melee.ron", &bad).unwrap_err();
        assert!(e.0[0].message.contains("combatants[5]"), "{e}");
        let first = src.replacen("combatants: [", "combatants: [ 5,", 1);
        let e = parse("melee.ron", &first).unwrap_err();
        assert!(e.0[0].message.contains("combatants[0]"), "{e}");
    }

    /// A fraction inside `Some(...)`, a point of three numbers, a required field left out
    /// and a hidden character in a declaration's key each say what goes there, where it
    /// is (outside hostile-input tester: "Expected closing `)`" alone, and 1:1).
    #[test]
    fn each_mistake_says_what_goes_there() {
        let src = std::fs::read_to_string("scenes/example_of_melee.ron").unwrap();
        let one = |text: &str| parse("m.ron", text).unwrap_err().0.remove(0);
        let e = one(&src.replacen("hp: 50", "hp: Some(50.5)", 1));
        assert_eq!(e.message, "a fraction where a whole number goes", "{e:?}");
        let e = one(&src.replacen("at: (15.0, 10.0)", "at: (15.0, 10.0, 0.0)", 1));
        assert!(e.message.contains("a point is two numbers"), "{e:?}");
        let e = one(&src.replacen("setting: Indoors,", "", 1));
        assert!(
            e.help.as_deref().unwrap_or("").contains("Outdoors"),
            "{e:?}"
        );
        let hidden = src.replacen("\"Cavalier\": ", "\"Cav\\u{202e}\": ", 1);
        let line = hidden
            .lines()
            .position(|l| l.contains("Cav\\u{202e}"))
            .unwrap()
            + 1;
        let e = parse("m.ron", &hidden).unwrap_err();
        assert!(
            e.0.iter()
                .any(|p| p.line == line && p.message.contains("U+202E")),
            "{e}"
        );
    }

    /// A point a declaration or a light names off the map is refused where it is written,
    /// as a figure off the map is (outside hostile-input tester: a move to (500, 500) on a
    /// 25-ft map was played as a walk into a wall); a torch in a wall's cell is not, for it
    /// lights the room beside it.
    #[test]
    fn a_point_off_the_map_is_refused_where_it_is_written() {
        let scene = |light: &str, act: &str| {
            format!(
                r#"Scene(name: "m", setting: Indoors, seed: 1,
  map: Some((cell_ft: 5.0, rows: ["{wall}", "{room}", "{wall}"], lights: [(source: "torch", at: {light})])),
  combatants: [
    (name: "A", side: "X", at: (7.5, 7.5), hp: 10, ac: 5, thac0: 15, weapon: "long sword"),
    (name: "B", side: "Y", at: (12.5, 7.5), hp: 10, ac: 5, thac0: 15, weapon: "long sword"),
  ],
  surprise_segments: [{{ "B": Move(to: (12.5, 7.5)) }}],
  rounds: [(declare: {{ "A": {act} }})],
)"#,
                wall = "#####",
                room = "#...#",
            )
        };
        assert!(parse("m.ron", &scene("(2.5, 2.5)", "Move(to: (17.5, 7.5))")).is_ok());
        for (light, act, field) in [
            (
                "(2.5, 2.5)",
                "Move(to: (500.0, 500.0))",
                "rounds[0].declare.A.to",
            ),
            (
                "(2.5, 2.5)",
                "Charge(to: (-50.0, 7.5))",
                "rounds[0].declare.A.to",
            ),
            ("(-90.0, 2.5)", "Move(to: (7.5, 7.5))", "map.lights[0].at"),
        ] {
            let text = scene(light, act);
            let e = parse("m.ron", &text).unwrap_err();
            let p =
                e.0.iter()
                    .find(|p| p.field == field)
                    .unwrap_or_else(|| panic!("{e}"));
            assert!(p.message.contains("outside the map"), "{e}");
            let at = if field.starts_with("map") {
                "-90.0"
            } else {
                act.split_once('(').unwrap().1
            };
            let line = text.lines().position(|l| l.contains(at)).unwrap() + 1;
            assert_eq!(p.line, line, "{e}");
        }
        let text =
            scene("(2.5, 2.5)", "Move(to: (7.5, 7.5))").replace("(12.5, 7.5)) }", "(99.0, 7.5)) }");
        let e = parse("m.ron", &text).unwrap_err();
        assert!(
            e.0.iter().any(|p| p.field == "surprise_segments[0].B.to"),
            "{e}"
        );
        // A round's `then` too (a move after a potion), found under its own field.
        let text = scene("(2.5, 2.5)", "Move(to: (7.5, 7.5))").replace(
            "(7.5, 7.5)) })",
            "(7.5, 7.5)) }, then: { \"B\": Move(to: (12.5, 99.0)) })",
        );
        let e = parse("m.ron", &text).unwrap_err();
        let line = text.lines().position(|l| l.contains("99.0")).unwrap() + 1;
        let p = e.0.iter().find(|p| p.field == "rounds[0].then.B.to");
        assert!(p.is_some_and(|p| p.line == line), "{e}\n{text}");
    }
}
