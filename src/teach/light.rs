//! The chart cell that decided who goes first between two actions, as the rules panel
//! lights it, and the cell the other die result would have read, which it shows faded.

use crate::rules::chart::{self, Category, Cell, Chart};
use crate::rules::first::Decision;

/// One cell of one of the two who-goes-first charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LitCell {
    /// Tied dice, or high against low.
    pub chart: Chart,
    /// The row: the high roller's action (or the first's on a tie).
    pub row: Category,
    /// The column: the other action.
    pub col: Category,
    /// What the cell says.
    pub cell: Cell,
}

impl LitCell {
    /// The cell at `row`, `col` of `chart`.
    pub fn at(chart: Chart, row: Category, col: Category) -> LitCell {
        LitCell {
            chart,
            row,
            col,
            cell: chart::cell(chart, row, col),
        }
    }

    /// The cell a decision read, if a chart decided it (an item of speed or a weapon set
    /// against a charge decides outside the charts).
    pub fn of(d: &Decision) -> Option<LitCell> {
        d.read.map(|(row, col)| LitCell::at(d.chart, row, col))
    }

    /// The cell the other die result reads: on a tie, the first action's side winning;
    /// high against low, the other side winning (row and column change places).
    pub fn other(&self) -> LitCell {
        match self.chart {
            Chart::Tied => LitCell::at(Chart::HighLow, self.row, self.col),
            Chart::HighLow => LitCell::at(Chart::HighLow, self.col, self.row),
        }
    }

    /// "tied d6, row SPELL, column CHARGE: Move vs. Casting Time".
    pub fn describe(&self) -> String {
        format!(
            "{} chart, row {}, column {}: {}",
            match self.chart {
                Chart::Tied => "tied d6",
                Chart::HighLow => "high d6 vs. low d6",
            },
            self.row.heading(),
            self.col.heading(),
            self.cell.label()
        )
    }
}
