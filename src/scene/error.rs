//! Scene errors that point at the file, line, column and field, rendered by miette with the
//! offending source line.

use miette::{Diagnostic, NamedSource, SourceSpan};
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
    src: NamedSource<String>,
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
        let snippet = window(src, offset);
        SceneError {
            file: file.into(),
            line,
            column,
            field: field.into(),
            message: message.into(),
            help,
            span: (snippet.1, len.min(snippet.0.len() - snippet.1)).into(),
            src: NamedSource::new(file, snippet.0),
        }
    }

    /// An error that is not about a place in a file (it cannot be read).
    pub fn file(file: &str, message: impl Into<String>) -> SceneError {
        SceneError {
            file: file.into(),
            line: 0,
            column: 0,
            field: "file".into(),
            message: message.into(),
            help: None,
            src: NamedSource::new(file, String::new()),
            span: (0, 0).into(),
        }
    }
}

/// The longest stretch of a line shown around an error.
const SNIPPET_LINE: usize = 160;

/// The text shown with an error: the lines around `offset` (two each side), each cut to
/// [`SNIPPET_LINE`] characters around the error's column, after empty lines that keep the
/// line numbers right; and the error's offset within it. A megabyte of junk on one line is
/// never echoed back.
fn window(src: &str, offset: usize) -> (String, usize) {
    let line_of = src[..offset].matches('\n').count();
    let lines: Vec<&str> = src.split('\n').collect();
    let first = line_of.saturating_sub(2);
    let last = (line_of + 2).min(lines.len().saturating_sub(1));
    let mut text = "\n".repeat(first);
    let mut at = 0;
    for (i, l) in lines.iter().enumerate().take(last + 1).skip(first) {
        let start_of_line = if i == line_of {
            src[..offset].rfind('\n').map_or(0, |p| p + 1)
        } else {
            0
        };
        let col = if i == line_of {
            offset - start_of_line
        } else {
            0
        };
        // Cut on character boundaries around the column.
        let from = l.floor_char_boundary(col.saturating_sub(SNIPPET_LINE / 2));
        let to = l.floor_char_boundary((from + SNIPPET_LINE).min(l.len()));
        if i == line_of {
            at = text.len() + (col - from).min(to - from);
        }
        text.push_str(&l[from..to]);
        if i < last {
            text.push('\n');
        }
    }
    (text, at)
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
