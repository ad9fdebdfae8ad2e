//! Colours and sizes of the map, and the text egui's fonts can draw, in one place.

use bevy::prelude::*;

/// Behind the map.
pub const BACKGROUND: Color = Color::srgb(0.07, 0.07, 0.09);
/// Open floor in the dark.
pub const FLOOR: Color = Color::srgb(0.15, 0.15, 0.17);
/// Walls.
pub const WALL: Color = Color::srgb(0.33, 0.31, 0.36);
/// Closed doors.
pub const DOOR_CLOSED: Color = Color::srgb(0.55, 0.33, 0.12);
/// Open doors.
pub const DOOR_OPEN: Color = Color::srgb(0.36, 0.26, 0.16);
/// Pillars.
pub const PILLAR: Color = Color::srgb(0.50, 0.48, 0.45);
/// Water.
pub const WATER: Color = Color::srgb(0.10, 0.22, 0.40);
/// Scrub.
pub const SCRUB: Color = Color::srgb(0.28, 0.33, 0.18);
/// Forest.
pub const FOREST: Color = Color::srgb(0.10, 0.28, 0.12);
/// Marsh.
pub const MARSH: Color = Color::srgb(0.22, 0.28, 0.22);
/// Lit floor: warm torchlight.
pub const LIT: Color = Color::srgb(0.86, 0.70, 0.34);
/// How strongly light tints an open cell.
pub const LIT_MIX: f32 = 0.6;
/// How strongly light tints a wall's face.
pub const LIT_WALL_MIX: f32 = 0.25;
/// Minor grid lines (each cell).
pub const GRID_MINOR: Color = Color::srgba(1.0, 1.0, 1.0, 0.06);
/// Major grid lines (every 10 ft).
pub const GRID_MAJOR: Color = Color::srgba(1.0, 1.0, 1.0, 0.18);
/// Light radius outlines.
pub const LIGHT_RING: Color = Color::srgb(1.0, 0.85, 0.3);
/// The edge of a silence spell's area.
pub const SILENCE_RING: Color = Color::srgb(0.55, 0.6, 1.0);
/// The edge of a darkness spell's area.
pub const DARKNESS_RING: Color = Color::srgb(0.6, 0.3, 0.8);
/// The area a spell under way will fill (dashed).
pub const SPELL_AREA: Color = Color::srgb(0.95, 0.5, 0.75);
/// A ring round a figure a spell has changed (held, slain, hasted...).
pub const EFFECT_RING: Color = Color::srgb(0.85, 0.4, 1.0);
/// Encounter-distance rings (twice a light's radius).
pub const ENCOUNTER_RING: Color = Color::srgba(1.0, 0.6, 0.2, 0.6);
/// Infravision rings.
pub const INFRA_RING: Color = Color::srgba(0.9, 0.25, 0.25, 0.8);
/// Lines of sight.
pub const SIGHT: Color = Color::srgba(0.55, 0.85, 1.0, 0.55);
/// Paths walked.
pub const PATH: Color = Color::srgba(1.0, 1.0, 1.0, 0.45);
/// This segment's progress along a path.
pub const PATH_NOW: Color = Color::srgb(1.0, 1.0, 0.4);
/// The selected figure's ring.
pub const SELECTED: Color = Color::srgb(1.0, 1.0, 1.0);
/// The box dragged round a group in the editor, and the rings of the group it took in.
pub const GROUP: Color = Color::srgb(0.45, 0.95, 0.95);
/// The ruler.
pub const RULER: Color = Color::srgb(0.3, 1.0, 0.5);
/// Token radius in feet.
pub const TOKEN_FT: f32 = 2.0;

/// Side colours, in order of first appearance in the scene.
pub const SIDES: [Color; 6] = [
    Color::srgb(0.20, 0.45, 0.95),
    Color::srgb(0.15, 0.75, 0.25),
    Color::srgb(0.85, 0.20, 0.75),
    Color::srgb(0.95, 0.55, 0.10),
    Color::srgb(0.10, 0.80, 0.80),
    Color::srgb(0.90, 0.90, 0.20),
];

/// A side's colour by its order of appearance.
pub fn side_color(sides: &[String], side: &str) -> Color {
    let i = sides.iter().position(|s| s == side).unwrap_or(0);
    SIDES[i % SIDES.len()]
}

/// The sides of a scene in order of first appearance.
pub fn sides(figures: &[super::FigureView]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in figures {
        if !out.contains(&f.side) {
            out.push(f.side.clone());
        }
    }
    out
}

/// A charge declared in the editor, before the round is played.
pub const CHARGE_DECLARED: Color = Color::srgb(1.0, 0.45, 0.25);
/// A spell declared in the editor.
pub const SPELL_DECLARED: Color = Color::srgb(0.7, 0.5, 1.0);
/// Any other declaration in the editor.
pub const ACT_DECLARED: Color = Color::srgb(0.85, 0.85, 0.85);

/// The leader line from a token pushed out of a crowd to where it stands.
pub const LEADER: Color = Color::srgba(1.0, 1.0, 1.0, 0.55);

/// The selected figure's path this round, segment by segment (the preview).
pub const PREVIEW_PATH: Color = Color::srgb(1.0, 0.92, 0.47);
/// How far the selected figure could move this round.
pub const PREVIEW_MOVE: Color = Color::srgba(0.6, 0.9, 1.0, 0.5);
/// How far it could charge this round.
pub const PREVIEW_CHARGE: Color = Color::srgba(1.0, 0.5, 0.3, 0.6);
/// Its target's reach where they meet.
pub const PREVIEW_CONTACT: Color = Color::srgb(1.0, 0.3, 0.3);

/// A weapon thrown by a fumble, where it lies.
pub const DROPPED: Color = Color::srgb(1.0, 0.35, 0.2);

/// Text for egui's default fonts, which lack some arrows: the engine's words as the panels
/// and the teaching windows show them.
pub(super) fn plain(s: &str) -> String {
    s.replace('→', "->").replace('←', "<-")
}
