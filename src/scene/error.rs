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
        SceneError {
            file: file.into(),
            line,
            column,
            field: field.into(),
            message: message.into(),
            help,
            src: NamedSource::new(file, src.to_string()),
            span: (offset, len).into(),
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
