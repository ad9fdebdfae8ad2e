//! Scene errors that point at the file, line, column and field, rendered by miette with the
//! offending source line.

use miette::{Diagnostic, SourceSpan};
use std::fmt;

/// One problem in a scene file.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{file}:{line}:{column}: {field}: {message}")]
pub struct SceneError {
    /// The file as given.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The field at fault, as a path (`combatants[2].weapon`).
    pub field: String,
    /// What is wrong.
    pub message: String,
    /// A suggestion, when one exists.
    #[help]
    pub help: Option<String>,
    #[source_code]
    src: Snippet,
    #[label("{field}")]
    span: SourceSpan,
}

impl SceneError {
    /// An error at byte `offset` of `src`.
    pub fn at(
        file: &str,
        src: &str,
        offset: usize,
        field: impl Into<String>,
        message: impl Into<String>,
        help: Option<String>,
    ) -> SceneError {
        let offset = offset.min(src.len());
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let len = src[offset..]
            .find(['\n', ',', ')'])
            .unwrap_or(src.len() - offset)
            .max(1)
            .min(src.len().saturating_sub(offset));
        let (text, at, first_line, first_cut) = window(src, offset);
        let file = crate::text::terminal_safe(file).into_owned();
        SceneError {
            file: file.clone(),
            line,
            column,
            field: shown(&field.into(), FIELD_CHARS),
            message: shown(&message.into(), MESSAGE_CHARS),
            help: help.map(|h| shown(&h, MESSAGE_CHARS)),
            span: (at, len.min(text.len() - at)).into(),
            src: Snippet {
                name: file,
                text,
                first_line,
                first_cut,
                label: (at, line - 1, column - 1),
            },
        }
    }

    /// The error of a file that starts with a byte-order mark (blanked to three spaces
    /// while read), as an editor counts: no column for the mark on the first line, and
    /// the snippet without its blanks.
    pub(crate) fn without_bom(mut self) -> SceneError {
        if self.line == 1 {
            self.column = self.column.saturating_sub(3).max(1);
        }
        let s = &mut self.src;
        s.label.2 = self.column - 1;
        if s.first_line == 0 && s.first_cut == 0 && s.text.starts_with("   ") {
            s.text.drain(..3);
            let start = self.span.offset().saturating_sub(3);
            let end = (self.span.offset() + self.span.len()).saturating_sub(3);
            self.span = (start, (end - start).max(usize::from(s.text.len() > start))).into();
            s.label.0 = start;
        }
        self
    }

    /// An error that is not about a place in a file (it cannot be read).
    pub fn file(file: &str, message: impl Into<String>) -> SceneError {
        let file = crate::text::terminal_safe(file).into_owned();
        SceneError {
            file: file.clone(),
            line: 1,
            column: 1,
            field: "file".into(),
            message: shown(&message.into(), MESSAGE_CHARS),
            help: None,
            src: Snippet {
                name: file,
                text: String::new(),
                first_line: 0,
                first_cut: 0,
                label: (0, 0, 0),
            },
            span: (0, 0).into(),
        }
    }
}

/// The longest stretch of a line shown around an error.
const SNIPPET_LINE: usize = 160;

/// The most characters of a field's path, and of a message, shown: a name in a scene can
/// be megabytes long, and an error never echoes it whole. A message's room holds the
/// longest list of a figure's fields that an unknown field is answered with.
const FIELD_CHARS: usize = 200;
/// See [`FIELD_CHARS`].
const MESSAGE_CHARS: usize = 2000;

/// Words the user typed shown in an error (a scene's, a `first` declaration's): control
/// characters (a newline inside a name, an escape) escaped, and cut to `max` characters
/// in the middle, so what is said about them at the end still shows ("AAAA…AAAA: too
/// long (at most 64)"; cut at the end, a long name pushed the reason out).
pub(crate) fn shown(s: &str, max: usize) -> String {
    let piece = |c: char| -> String {
        if c.is_control() || crate::scene::validate::hidden(c) {
            c.escape_default().collect()
        } else {
            c.to_string()
        }
    };
    let n = s.chars().count();
    if n <= max {
        return s.chars().map(piece).collect();
    }
    let tail = max / 3;
    let head = max - tail;
    let mut out: String = s.chars().take(head).map(piece).collect();
    out.push('…');
    out.extend(s.chars().skip(n - tail).map(piece));
    out
}

/// A stretch of a scene file shown with an error, its lines numbered as in the file.
#[derive(Debug, Clone)]
struct Snippet {
    name: String,
    text: String,
    /// The file's line (from 0) that the stretch starts on.
    first_line: usize,
    /// The bytes cut from the start of the stretch's first line.
    first_cut: usize,
    /// Where the error is: its offset in the text, and the file's line and column (from 0,
    /// the column in characters as the message counts): the header above the snippet says
    /// the same place as the message, however the line was cut.
    label: (usize, usize, usize),
}

impl miette::SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        // The error's own place (asked for the header) is the file's, not the cut text's.
        let (line, column) = if span.offset() == self.label.0 && before == 0 && after == 0 {
            (self.label.1, self.label.2)
        } else {
            (inner.line() + self.first_line, inner.column())
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            line,
            column,
            inner.line_count(),
        )))
    }
}

/// The text shown with an error: the lines around `offset` (two each side), each cut to
/// [`SNIPPET_LINE`] characters around the error's column (with `…` where it is cut); the error's offset within it;
/// the file's line the text starts on, and the bytes cut from that line's start. Only the
/// lines shown are looked at, so a megabyte on one line, or thousands of lines before the
/// error, cost nothing here.
fn window(src: &str, offset: usize) -> (String, usize, usize, usize) {
    let line_of = src[..offset].matches('\n').count();
    let line_start = src[..offset].rfind('\n').map_or(0, |p| p + 1);
    let (mut first_start, mut first) = (line_start, line_of);
    for _ in 0..2 {
        if first_start == 0 {
            break;
        }
        first_start = src[..first_start - 1].rfind('\n').map_or(0, |p| p + 1);
        first -= 1;
    }
    let mut text = String::new();
    let (mut at, mut first_cut) = (0, 0);
    for (k, l) in src[first_start..]
        .split('\n')
        .take(line_of - first + 3)
        .enumerate()
    {
        let here = first + k == line_of;
        let col = if here { offset - line_start } else { 0 };
        // Cut on character boundaries around the column.
        let from = l.floor_char_boundary(col.saturating_sub(SNIPPET_LINE / 2));
        let to = l.floor_char_boundary((from + SNIPPET_LINE).min(l.len()));
        if k > 0 {
            text.push('\n');
        } else {
            first_cut = from;
        }
        // A line cut short says so at the cut.
        if from > 0 {
            text.push('…');
        }
        if here {
            at = text.len() + (col - from).min(to - from);
        }
        text.extend(l[from..to].chars().flat_map(shown_char));
        if to < l.trim_end_matches('\r').len() {
            text.push('…');
        }
    }
    (text, at, first, first_cut)
}

/// A character of the file as a snippet shows it: a control character (an escape that
/// would retitle or recolour the terminal) as `?`s of the same length in bytes, so the
/// error's column still points at the same place; a carriage return as a space.
fn shown_char(c: char) -> impl Iterator<Item = char> {
    let (shown, n) = match c {
        '\t' => ('\t', 1),
        '\r' => (' ', 1),
        c if c.is_control() || crate::scene::validate::hidden(c) => ('?', c.len_utf8()),
        c => (c, 1),
    };
    std::iter::repeat_n(shown, n)
}

/// Every problem found in one scene.
#[derive(Debug)]
pub struct SceneErrors(pub Vec<SceneError>);

impl fmt::Display for SceneErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
            if let Some(h) = &e.help {
                write!(f, " ({h})")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for SceneErrors {}

impl SceneErrors {
    /// The errors rendered by miette with source snippets, for a terminal.
    pub fn render(self) -> String {
        let mut out = String::new();
        for e in self.0 {
            out.push_str(&format!("{:?}\n", miette::Report::new(e)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    /// Words cut short keep their end, where the reason is (outside tester: a 1,000-letter
    /// name in `first` showed only its letters, never "too long"); short ones are whole.
    #[test]
    fn a_long_line_is_cut_in_the_middle_and_keeps_its_reason() {
        let name = "A".repeat(1000);
        let line = format!("{name}: too long (at most 64 characters)");
        let cut = super::shown(&line, 600);
        assert_eq!(cut.chars().count(), 601, "600 and the mark");
        assert!(cut.contains('…'));
        assert!(cut.ends_with(": too long (at most 64 characters)"), "{cut}");
        assert!(cut.starts_with("AAAA"));
        assert_eq!(super::shown("short\tone", 600), "short\\tone");
    }
}
