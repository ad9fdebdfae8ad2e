//! A sweep drawn as a chart, SVG or PNG: the chance of each outcome that changes across
//! the sweep against the varied value, a line through the points with its 95% band, a
//! legend below. Drawn with plotters: its SVG backend (which escapes the labels for XML),
//! or its bitmap backend into a buffer that `image` encodes as PNG, the text in a font
//! built into the binary (no system libraries either way).

use super::odds::Odds;
use std::collections::BTreeMap;

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

/// A value as a tick label: whole numbers without decimals.
fn tick(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The chart's size in pixels (SVG units) for `lines` outcomes.
fn size(lines: &[Series]) -> (u32, u32) {
    (W as u32, 460 + 22 * lines.len().max(1) as u32)
}

/// Makes the built-in font plotters' "sans-serif" (once a process).
fn font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use plotters::style::{FontStyle, register_font};
        // The font is a constant the tests draw with: it cannot fail to read.
        let _ = register_font(
            "sans-serif",
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        );
    });
}

/// The chart of a sweep of `field` over `values` (one run of trials at each), drawn with
/// plotters' SVG backend: the axes, ticks and legend are plotters'.
pub fn svg(title: &str, field: &str, values: &[f64], runs: &[Odds]) -> String {
    let lines = series(values, runs);
    let mut out = String::new();
    font();
    let failed = {
        let root = plotters::prelude::SVGBackend::with_string(&mut out, size(&lines));
        draw(root, (title, field), values, runs, &lines)
            .err()
            .map(|e| e.to_string())
    };
    // Nothing from input can make plotters fail on a string; say so if it ever does.
    match failed {
        Some(e) => format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>{e}</text></svg>"),
        None => format!("{out}\n<!-- {MARK} -->\n"),
    }
}

/// The words every chart this program draws carries (a comment after an SVG's root, a
/// `tEXt` chunk of a PNG): an existing file is replaced by a new chart only if it is one
/// (`odds --chart` never writes over a file the user made).
pub const MARK: &str = "First Strike odds chart";

/// Whether `bytes` (a file's) are a chart this program drew.
pub fn is_ours(bytes: &[u8]) -> bool {
    bytes.windows(MARK.len()).any(|w| w == MARK.as_bytes())
}

/// A PNG's bytes with a `tEXt` chunk (`Comment`: [`MARK`]) after its header chunk.
fn marked_png(png: Vec<u8>) -> Vec<u8> {
    // The 8-byte signature, then IHDR: length (4), type (4), 13 bytes of data, CRC (4).
    let after_header = 8 + 4 + 4 + 13 + 4;
    if png.len() < after_header {
        return png;
    }
    let mut data = b"tEXtComment\0".to_vec();
    data.extend_from_slice(MARK.as_bytes());
    let mut chunk = ((data.len() - 4) as u32).to_be_bytes().to_vec();
    chunk.extend_from_slice(&data);
    chunk.extend_from_slice(&crc32(&data).to_be_bytes());
    let mut out = png[..after_header].to_vec();
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&png[after_header..]);
    out
}

/// The CRC-32 a PNG chunk ends with (over its type and data).
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// The same chart as a PNG image (its bytes), drawn by plotters' bitmap backend.
pub fn png(title: &str, field: &str, values: &[f64], runs: &[Odds]) -> Result<Vec<u8>, String> {
    let lines = series(values, runs);
    let (w, h) = size(&lines);
    let mut pixels = vec![255u8; w as usize * h as usize * 3];
    font();
    {
        let root = plotters::prelude::BitMapBackend::with_buffer(&mut pixels, (w, h));
        draw(root, (title, field), values, runs, &lines).map_err(|e| e.to_string())?;
    }
    let image = image::RgbImage::from_raw(w, h, pixels).ok_or("the chart's buffer is short")?;
    let mut out = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(marked_png(out.into_inner()))
}

/// Draws the chart on `backend`.
fn draw<'a, DB: plotters::prelude::DrawingBackend + 'a>(
    backend: DB,
    (title, field): (&str, &str),
    values: &[f64],
    runs: &[Odds],
    lines: &[Series],
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    use plotters::prelude::*;
    let (x0, x1) = (
        values.iter().copied().fold(f64::INFINITY, f64::min),
        values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    let (x0, x1) = if x1 > x0 {
        (x0, x1)
    } else {
        (x0 - 0.5, x0 + 0.5)
    };
    let root = backend.into_drawing_area();
    root.fill(&WHITE)?;
    let (head, body) = root.split_vertically(56);
    head.draw(&Text::new(
        title.to_string(),
        (LEFT as i32, 10),
        ("sans-serif", 17).into_font(),
    ))?;
    let trials = runs.first().map_or(0, |r| r.trials);
    let sub = format!(
        "{trials} trials at each value; lines: the share of trials, bands: 95% intervals (Wilson)"
    );
    head.draw(&Text::new(
        sub,
        (LEFT as i32, 32),
        ("sans-serif", 12).into_font().color(&RGBColor(90, 90, 90)),
    ))?;
    let (plot, legend) = body.split_vertically(TOP as u32 + PLOT_H as u32 - 8);
    let mut chart = ChartBuilder::on(&plot)
        .margin_right(RIGHT as u32)
        .x_label_area_size(44)
        .y_label_area_size(LEFT as u32)
        .build_cartesian_2d(x0..x1, 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_labels(values.len().clamp(2, 12))
        .x_label_formatter(&|v| tick(*v))
        .y_labels(6)
        .y_label_formatter(&|p| format!("{:.0}%", p * 100.0))
        .x_desc(field)
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    for (i, s) in lines.iter().enumerate() {
        let (r, g, b) = COLOURS[i % MOST];
        let colour = RGBColor(r, g, b);
        // The band: along the highs, back along the lows.
        let band: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|p| (p.0, p.3))
            .chain(s.points.iter().rev().map(|p| (p.0, p.2)))
            .collect();
        chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.15))))?;
        chart.draw_series(LineSeries::new(
            s.points.iter().map(|p| (p.0, p.1)),
            colour.stroke_width(2),
        ))?;
        chart.draw_series(
            s.points
                .iter()
                .map(|p| Circle::new((p.0, p.1), 3, colour.filled())),
        )?;
    }
    // The legend below the plot, one line each.
    for (i, s) in lines.iter().enumerate() {
        let (r, g, b) = COLOURS[i % MOST];
        let y = 12 + 22 * i as i32;
        let x = LEFT as i32;
        legend.draw(&PathElement::new(
            vec![(x, y), (x + 24, y)],
            RGBColor(r, g, b).stroke_width(3),
        ))?;
        legend.draw(&Text::new(
            s.label.clone(),
            (x + 32, y - 7),
            ("sans-serif", 13).into_font(),
        ))?;
    }
    if lines.is_empty() {
        legend.draw(&Text::new(
            "no outcome changes across the sweep",
            (LEFT as i32, 4),
            ("sans-serif", 13).into_font(),
        ))?;
    }
    root.present()?;
    Ok(())
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
        // A band, a line and two dots for each of the two outcomes drawn.
        assert_eq!(text.matches("<polygon").count(), 2, "{text}");
        assert!(text.contains("0%") && text.contains("100%"), "{text}");
    }

    /// The PNG is the same chart: its size, each line in its colour, and text drawn (the
    /// built-in font's dark pixels in the title's band above the plot).
    #[test]
    fn the_png_draws_the_lines_and_the_text() {
        let runs = [
            run(100, &[("a", 90), ("b", 10)]),
            run(100, &[("a", 10), ("b", 90)]),
        ];
        let bytes = png("Title", "x", &[1.0, 2.0], &runs).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let img = image::load_from_memory(&bytes).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), size(&series(&[1.0, 2.0], &runs)));
        for (r, g, b) in COLOURS.iter().take(2) {
            let n = img.pixels().filter(|p| p.0 == [*r, *g, *b]).count();
            assert!(n > 100, "the line in ({r}, {g}, {b}) has {n} pixels");
        }
        let title_ink = (0..40)
            .flat_map(|y| (0..W as u32).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0.iter().all(|&c| c < 128))
            .count();
        assert!(
            title_ink > 50,
            "the title is drawn ({title_ink} dark pixels)"
        );
    }
}
