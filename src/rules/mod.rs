//! The AD&D 1st-edition timing rules as plain functions over plain values.
//!
//! No ECS here: the simulation, the command line and the viewer call these functions and
//! never re-derive a rule. Every public function names the book page it implements, and
//! functions that decide an outcome return the [`cite::Rule`] that decided it.
//!
//! Where to look:
//! - surprise: [`surprise`]; encounter distance: [`distance`]; movement rates: [`movement`]
//! - declarations and pre-initiative shots: [`declare`]; initiative: [`initiative`]
//! - who acts first between two actions (the two charts): [`chart`], [`first`]
//! - several routines in a round (the attack-sequence chart): [`sequence`], [`attack_rate`]
//! - speed factors: [`speed_factor`]; the charge: [`charge`]; spells and devices: [`spell`]
//! - who sees whom by light and infravision: [`sight`]
//! - to-hit, damage and hit points: [`combat`]
//! - interpretations the text leaves open: [`options`]

pub mod action;
pub mod attack_rate;
pub mod charge;
pub mod chart;
pub mod cite;
pub mod class;
pub mod combat;
pub mod declare;
pub mod dexterity;
pub mod distance;
pub mod effect;
pub mod first;
pub mod house;
pub mod initiative;
pub mod into_melee;
pub mod missile_range;
pub mod monster;
pub mod movement;
pub mod options;
pub mod psionics;
pub mod second_action;
pub mod sequence;
pub mod sight;
pub mod size;
pub mod specialist;
pub mod speed_factor;
pub mod spell;
pub mod surprise;
pub mod take_initiative;

pub use action::{ActionKind, Declared};
pub use cite::Rule;
pub use first::{Context, Decision, First, who_first};
pub use options::RulesOptions;
