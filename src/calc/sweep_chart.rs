//! A sweep drawn as an SVG chart: the chance of each outcome that changes across the
//! sweep against the varied value, a line through the points with its 95% band, a legend
//! below. Written with `svg_fmt`; the labels are escaped for XML.

use super::odds::Odds;
use std::collections::BTreeMap;
use std::fmt::Write;
use svg_fmt::{Align, BeginSvg, EndSvg, Fill, Stroke, rgb};

/// The most outcomes drawn (those that change most across the sweep).
pub const MOST: usize = 8;

/// The chart's width, in SVG units.
const W: f32 = 820.0;
/// Margin left of the plot (the percentages).
const LEFT: f32 = 64.0;
/// Margin right of the plot.
const RIGHT: f32 = 24.0;
/// Margin above the plot (the title).
const TOP: f32 = 56.0;
/// The plot's height.
const PLOT_H: f32 = 320.0;

/// One colour per line, told apart in print and by most colour-blind readers.
pub const COLOURS: [(u8, u8, u8); MOST] = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (120, 120, 120),
    (0, 0, 0),
];

/// One outcome's points: (value, p, low, high) at each value of the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The outcome in words.
    pub label: String,
    /// (value, p, low, high) at each value.
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// The outcomes to draw: those whose chance changes across the sweep, most change first,
/// at most [`MOST`]; an outcome missing at a value counts 0 there.
pub fn series(values: &[f64], runs: &[Odds]) -> Vec<Series> {
    let mut labels: BTreeMap<&str, &str> = BTreeMap::new();
    for r in runs {
        for o in &r.outcomes {
            labels.insert(&o.key, &o.label);
        }
    }
    let mut all: Vec<(f64, Series)> = labels
        .iter()
        .map(|(&key, &label)| {
            let points: Vec<_> = values
                .iter()
                .zip(runs)
                .map(|(&v, r)| match r.outcomes.iter().find(|o| o.key == key) {
                    Some(o) => (v, o.p, o.low, o.high),
                    None => {
                        let (low, high) = super::odds::wilson(0, r.trials);
                        (v, 0.0, low, high)
                    }
                })
                .collect();
            let (lo, hi) = points
                .iter()
                .fold((1.0f64, 0.0f64), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
            let label = label.to_string();
            (hi - lo, Series { label, points })
        })
        .filter(|(change, _)| *change > 0.0)
        .collect();
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.label.cmp(&b.1.label)));
    // Outcomes with the very same points are one line (a spell ruined, and ruined by the
    // one figure that could): the later ones join the first one's label.
    let mut drawn: Vec<Series> = Vec::new();
    for (_, s) in all {
        match drawn.iter_mut().find(|d| d.points == s.points) {
            Some(d) => d.label = format!("{} (the same: {})", d.label, s.label),
            None => drawn.push(s),
        }
    }
    drawn.truncate(MOST);
    drawn
}

/// A path through these points in order.
fn through(points: impl Iterator<Item = (f32, f32)>) -> svg_fmt::Path {
    points
        .enumerate()
        .fold(svg_fmt::path(), |path, (k, (px, py))| {
            if k == 0 {
                path.move_to(px, py)
            } else {
                path.line_to(px, py)
            }
        })
}

/// Text made safe inside an SVG element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A value as a tick label: whole numbers without decimals.
fn tick(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The chart of a sweep of `field` over `values` (one run of trials at each).
pub fn svg(title: &str, field: &str, values: &[f64], runs: &[Odds]) -> String {
    let lines = series(values, runs);
    let plot_w = W - LEFT - RIGHT;
    let legend_top = TOP + PLOT_H + 56.0;
    let height = legend_top + 20.0 * lines.len().max(1) as f32 + 12.0;
    let (x0, x1) = (
        values.iter().copied().fold(f64::INFINITY, f64::min),
        values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    let span = if x1 > x0 { x1 - x0 } else { 1.0 };
    let x = |v: f64| LEFT + ((v - x0) / span) as f32 * plot_w;
    let y = |p: f64| TOP + (1.0 - p as f32) * PLOT_H;
    let mut out = String::new();
    let _ = writeln!(out, "{}", BeginSvg { w: W, h: height });
    let _ = writeln!(
        out,
        "{}",
        svg_fmt::rectangle(0.0, 0.0, W, height).fill(Fill::Color(rgb(255, 255, 255)))
    );
    let _ = writeln!(
        out,
        "{}",
        svg_fmt::text(LEFT, 24.0, escape(title)).size(16.0)
    );
    let trials = runs.first().map_or(0, |r| r.trials);
    let sub = format!(
        "{trials} trials at each value; lines: the share of trials, bands: 95% intervals (Wilson)"
    );
    let _ = writeln!(
        out,
        "{}",
        svg_fmt::text(LEFT, 42.0, escape(&sub))
            .size(11.0)
            .color(rgb(90, 90, 90))
    );
    // Axes and grid: every 25% up, every value across (at most 12 labels).
    for k in 0..=4 {
        let p = f64::from(k) / 4.0;
        let grid = svg_fmt::line_segment(LEFT, y(p), LEFT + plot_w, y(p))
            .color(rgb(215, 215, 215))
            .width(1.0);
        let label = svg_fmt::text(LEFT - 8.0, y(p) + 4.0, format!("{}%", k * 25))
            .size(11.0)
            .align(Align::Right);
        let _ = writeln!(out, "{grid}\n{label}");
    }
    let every = values.len().div_ceil(12).max(1);
    for (i, &v) in values.iter().enumerate() {
        let mark = svg_fmt::line_segment(x(v), TOP + PLOT_H, x(v), TOP + PLOT_H + 5.0)
            .color(rgb(90, 90, 90))
            .width(1.0);
        let _ = writeln!(out, "{mark}");
        if i % every == 0 {
            let label = svg_fmt::text(x(v), TOP + PLOT_H + 18.0, tick(v))
                .size(11.0)
                .align(Align::Center);
            let _ = writeln!(out, "{label}");
        }
    }
    let axis = svg_fmt::line_segment(LEFT, TOP + PLOT_H, LEFT + plot_w, TOP + PLOT_H)
        .color(rgb(60, 60, 60))
        .width(1.0);
    let _ = writeln!(out, "{axis}");
    let _ = writeln!(
        out,
        "{}",
        svg_fmt::text(LEFT + plot_w / 2.0, TOP + PLOT_H + 38.0, escape(field))
            .size(12.0)
            .align(Align::Center)
    );
    for (i, s) in lines.iter().enumerate() {
        let (r, g, b) = COLOURS[i % MOST];
        let colour = rgb(r, g, b);
        // The band: along the highs, back along the lows (a closed path: svg_fmt's
        // polygon leaves its attributes unquoted).
        let highs = s.points.iter().map(|p| (x(p.0), y(p.3)));
        let lows = s.points.iter().rev().map(|p| (x(p.0), y(p.2)));
        let band = through(highs.chain(lows)).close();
        let band = band.fill(Fill::Color(colour)).opacity(0.15);
        let _ = writeln!(out, "{band}");
        let line = through(s.points.iter().map(|p| (x(p.0), y(p.1))));
        let line = line.fill(Fill::None).stroke(Stroke::Color(colour, 2.0));
        let _ = writeln!(out, "{line}");
        for p in &s.points {
            let dot = svg_fmt::Circle {
                x: x(p.0),
                y: y(p.1),
                radius: 3.0,
                style: svg_fmt::Style::default(),
                comment: None,
            }
            .fill(Fill::Color(colour));
            let _ = writeln!(out, "{dot}");
        }
        let ly = legend_top + 20.0 * i as f32;
        let key = svg_fmt::line_segment(LEFT, ly - 4.0, LEFT + 24.0, ly - 4.0)
            .color(colour)
            .width(3.0);
        let label = svg_fmt::text(LEFT + 32.0, ly, escape(&s.label)).size(12.0);
        let _ = writeln!(out, "{key}\n{label}");
    }
    if lines.is_empty() {
        let none = "no outcome changes across the sweep";
        let _ = writeln!(out, "{}", svg_fmt::text(LEFT, legend_top, none).size(12.0));
    }
    let _ = writeln!(out, "{EndSvg}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calc::odds::Outcome;

    fn run(trials: u64, outcomes: &[(&str, u64)]) -> Odds {
        Odds {
            trials,
            seed: 1,
            interrupted: false,
            outcomes: outcomes
                .iter()
                .map(|&(key, count)| {
                    let (low, high) = crate::calc::odds::wilson(count, trials);
                    Outcome {
                        key: key.into(),
                        label: format!("{key} <&>"),
                        count,
                        trials,
                        p: count as f64 / trials as f64,
                        low,
                        high,
                    }
                })
                .collect(),
        }
    }

    /// Only outcomes that change are drawn, the one that changes most first; one missing
    /// at a value counts 0 there; labels are escaped.
    #[test]
    fn draws_what_changes() {
        let runs = [
            run(100, &[("a", 100), ("b", 90), ("c", 50), ("d", 50)]),
            run(100, &[("a", 100), ("b", 10)]),
        ];
        let s = series(&[1.0, 2.0], &runs);
        let labels: Vec<&str> = s.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["b <&>", "c <&> (the same: d <&>)"]);
        assert_eq!(s[1].points[1].1, 0.0);
        let text = svg("T & t", "x", &[1.0, 2.0], &runs);
        assert!(text.contains("b &lt;&amp;&gt;"));
        assert!(text.contains("T &amp; t"));
        assert!(!text.contains("a <&>"));
        // Each line and each band is a path, every attribute quoted.
        assert_eq!(text.matches("Z \" style").count(), 2);
        assert!(!text.contains("d=M"));
    }
}
