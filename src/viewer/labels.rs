//! Where tokens and their labels go on the map, so a crowd stays readable: tokens that
//! stand closer than their size are drawn pushed apart (a leader line marks the true
//! spot); each label takes the first free place around its token — above, below, right,
//! left, the corners, then farther above and below — clear of every token and of the
//! labels already placed; failing that its short form ("Orc 2" → "O2"); failing that it
//! is hidden and shown when the pointer is over the token. Pure geometry in world units
//! (feet, y up), so it can be tested without a window.

use bevy::math::{Rect, Vec2};

/// The advance of one character of the map's monospace font, in ems.
const CHAR_EM: f32 = 0.6;
/// Space kept between a label and what is near it, in ems.
const GAP_EM: f32 = 0.15;

/// A label placed: its offset from the token's drawn centre and the text shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// From the token's drawn centre to the label's centre.
    pub offset: Vec2,
    /// The text: the full label, or its short form in a crowd.
    pub text: String,
}

/// The rectangle of `text` centred at `c`, at `size` world units to the em.
pub fn rect(c: Vec2, text: &str, size: f32) -> Rect {
    let half = Vec2::new(
        text.chars().count() as f32 * CHAR_EM * size / 2.0,
        0.6 * size,
    );
    Rect::from_center_half_size(c, half)
}

/// The point of `r` nearest `p`.
pub fn nearest_edge(r: Rect, p: Vec2) -> Vec2 {
    p.clamp(r.min, r.max)
}

/// A name's short form: the initials of its words and its number ("Lizard man 2" → "Lm2",
/// "Orc chief" → "Oc").
pub fn short(name: &str) -> String {
    name.split_whitespace()
        .map(|w| {
            if w.chars().all(|c| c.is_ascii_digit()) {
                w.to_string()
            } else {
                w.chars().next().map(String::from).unwrap_or_default()
            }
        })
        .collect()
}

/// The drawn centres of tokens of these radii at these true centres: any two closer than
/// their sizes are pushed apart along the line between them (or sideways when they stand
/// on the same spot) until they no longer overlap.
pub fn spread(at: &[Vec2], radii: &[f32]) -> Vec<Vec2> {
    let mut p = at.to_vec();
    for _ in 0..24 {
        let mut moved = false;
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                let min = radii[i] + radii[j] + 0.2;
                let d = p[j] - p[i];
                let len = d.length();
                if len >= min - 1e-3 {
                    continue;
                }
                let dir = if len > 1e-4 { d / len } else { Vec2::X };
                let push = dir * (min - len) / 2.0;
                p[i] -= push;
                p[j] += push;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    p
}

/// Where each token's label goes, in order (earlier tokens choose first); `None` when it is
/// hidden. `tokens` are drawn centres with their full labels, short forms and radii.
/// `within`, the part of the world the fitted view shows (the map and the room around it),
/// is kept to when a place inside it is free — the full label, then the short form — so a
/// name by the wall is not cut by the view's edge; failing both, the first free place.
pub fn place(
    tokens: &[(Vec2, String, String, f32)],
    size: f32,
    within: Option<Rect>,
) -> Vec<Option<Placed>> {
    let token_rects: Vec<Rect> = tokens
        .iter()
        .map(|t| Rect::from_center_half_size(t.0, Vec2::splat(t.3)))
        .collect();
    let mut placed: Vec<Rect> = Vec::new();
    tokens
        .iter()
        .map(|(c, full, short, radius)| {
            let free = |r: &Rect| {
                let grown = r.inflate(GAP_EM * size / 2.0);
                token_rects
                    .iter()
                    .chain(placed.iter())
                    .all(|o| grown.intersect(*o).is_empty())
            };
            let inside = |r: &Rect| within.is_none_or(|w| w.contains(r.min) && w.contains(r.max));
            let first = |ok: &dyn Fn(&Rect) -> bool| {
                [full, short].into_iter().find_map(|text| {
                    candidates(text, size, *radius)
                        .into_iter()
                        .map(|o| (o, rect(*c + o, text, size)))
                        .find(|(_, r)| ok(r))
                        .map(|(o, r)| (o, r, text.clone()))
                })
            };
            let found = first(&|r| free(r) && inside(r)).or_else(|| first(&free));
            found.map(|(offset, r, text)| {
                placed.push(r);
                Placed { offset, text }
            })
        })
        .collect()
}

/// The places tried around a token, in order of preference.
fn candidates(text: &str, size: f32, radius: f32) -> Vec<Vec2> {
    let r = rect(Vec2::ZERO, text, size);
    let (hw, hh) = (r.half_size().x, r.half_size().y);
    let gap = GAP_EM * size + 0.1;
    let up = radius + hh + gap;
    let side = radius + hw + gap;
    let mut v = vec![
        Vec2::new(0.0, up),
        Vec2::new(0.0, -up),
        Vec2::new(side, 0.0),
        Vec2::new(-side, 0.0),
        Vec2::new(side, up),
        Vec2::new(-side, up),
        Vec2::new(side, -up),
        Vec2::new(-side, -up),
    ];
    for k in 1..=3 {
        let more = k as f32 * (2.0 * hh + gap);
        v.push(Vec2::new(0.0, up + more));
        v.push(Vec2::new(0.0, -up - more));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms() {
        assert_eq!(short("Lizard man 2"), "Lm2");
        assert_eq!(short("Orc"), "O");
        assert_eq!(short("Orc chief"), "Oc");
    }

    #[test]
    fn tokens_on_one_spot_are_pushed_apart() {
        let p = spread(&[Vec2::ZERO, Vec2::new(0.5, 0.0), Vec2::ZERO], &[2.0; 3]);
        for i in 0..3 {
            for j in i + 1..3 {
                assert!(p[i].distance(p[j]) >= 4.0, "{p:?}");
            }
        }
    }
}
