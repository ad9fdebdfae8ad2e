//! Playback: the snapshots of every segment played so far, and the cursor the viewer shows.
//! The simulation lives in the viewer's own world ([`sim::SimPlugins::host`]): stepping
//! forward past the last snapshot plays one more segment there; stepping back only moves
//! the cursor, so the earlier state comes back exactly as it was. The simulation may be
//! ahead of the cursor (the preview plays the round on screen to its end); what is shown
//! — the log, the dice asked about — is cut at the snapshot shown.
//! Play/pause steps forward on a timer at a chosen speed.

use super::snapshot::Snapshot;
use crate::map::Grid;
use crate::scene::Scene;
use crate::sim::{self, Dice, EventLog, LogEvent, Rolled, SegmentClock};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// What the viewer asks of the playback.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum PlaybackCommand {
    /// One segment forward.
    Forward,
    /// One segment back.
    Back,
    /// To the first segment of the next round.
    NextRound,
    /// To the first segment of this round, or of the one before when already there.
    PrevRound,
    /// Start or stop playing.
    TogglePlay,
    /// Play faster.
    Faster,
    /// Play slower.
    Slower,
    /// Go to a snapshot by its position.
    Goto(usize),
}

/// The snapshots and the cursor.
#[derive(Resource)]
pub struct Playback {
    /// The scene file.
    pub path: PathBuf,
    /// The scene as loaded.
    pub scene: Arc<Scene>,
    /// Seed override.
    pub seed: Option<u64>,
    /// The map grid, if any.
    pub grid: Option<Grid>,
    /// One snapshot per segment played.
    pub frames: Vec<Snapshot>,
    /// The snapshot shown.
    pub cursor: usize,
    /// Playing on a timer.
    pub playing: bool,
    /// Segments per second when playing.
    pub speed: f32,
    /// Seconds since the last timed step.
    pub since_step: f32,
    /// Bumped when a new scene (or a reload) replaces the playback: the map is fitted anew.
    pub generation: u32,
    /// Bumped when an edit in the editor replays the same scene: the map and tokens are
    /// rebuilt, the view stays where it is.
    pub edits: u32,
    /// The live simulation has played to its end.
    pub over: bool,
    /// Predict-then-reveal: play does not go into this (round, segment) until the
    /// question asked before it is answered.
    pub hold: Option<(u32, u32)>,
}

/// Speeds offered, in segments per second.
pub const SPEEDS: [f32; 6] = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

impl Playback {
    /// Starts a scene: loads it into the world's simulation (in place of the last) and
    /// plays the encounter step.
    pub fn start(
        world: &mut World,
        path: PathBuf,
        scene: Scene,
        seed: Option<u64>,
        generation: u32,
    ) -> Playback {
        let grid = scene.map.as_ref().and_then(|m| m.grid().ok());
        let scene = Arc::new(scene);
        sim::load(world, scene.clone(), seed, None);
        sim::step(world);
        let first = Snapshot::capture(world);
        let over = world.resource::<SegmentClock>().is_over();
        Playback {
            path,
            scene,
            seed,
            grid,
            frames: vec![first],
            cursor: 0,
            playing: false,
            speed: 2.0,
            since_step: 0.0,
            generation,
            edits: 0,
            over,
            hold: None,
        }
    }

    /// The snapshot shown.
    pub fn current(&self) -> &Snapshot {
        &self.frames[self.cursor]
    }

    /// The snapshot before the one shown, if any.
    pub fn previous(&self) -> Option<&Snapshot> {
        self.cursor.checked_sub(1).map(|i| &self.frames[i])
    }

    /// The log up to the segment shown (snapshots only say how much of it they cover).
    pub fn log_now<'a>(&self, log: &'a EventLog) -> &'a [LogEvent] {
        &log.events[..self.current().log_len.min(log.events.len())]
    }

    /// The dice the seed rolled, not fixed by the scene, up to the segment shown.
    pub fn rolled_now<'a>(&self, dice: &'a Dice) -> &'a [Rolled] {
        let rolled = dice.rolled();
        &rolled[..self.current().rolled_len.min(rolled.len())]
    }

    /// The (round, segment) one step forward would show.
    fn next_when(&self, clock: &SegmentClock) -> (u32, u32) {
        match self.frames.get(self.cursor + 1) {
            Some(f) => f.when,
            None => {
                let mut clock = clock.clone();
                clock.phase = clock.next();
                clock.round_segment()
            }
        }
    }

    /// One segment forward; false at the end of the scene, or at a hold.
    pub fn forward(&mut self, world: &mut World) -> bool {
        if let Some(h) = self.hold
            && self.current().when < h
            && self.next_when(world.resource::<SegmentClock>()) >= h
        {
            return false;
        }
        if self.cursor + 1 == self.frames.len() && !self.play_one(world) {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// Plays one more segment in the simulation and keeps its snapshot (the cursor stays);
    /// false when the scene is over.
    fn play_one(&mut self, world: &mut World) -> bool {
        if self.over {
            return false;
        }
        if !sim::step(world) {
            // The step that ends the scene plays nothing to show.
            self.over = true;
            return false;
        }
        self.frames.push(Snapshot::capture(world));
        true
    }

    /// Plays ahead of the cursor to the end of `round` (as far as the scene goes); the
    /// cursor and what is shown stay.
    pub fn play_through(&mut self, world: &mut World, round: u32) {
        // A round has the clock's segments: 10 by the book, 20 under "Take Initiative!".
        while self
            .frames
            .last()
            .is_some_and(|f| f.when < (round, f.per_round))
            && self.play_one(world)
        {}
    }

    /// One segment back; false at the start.
    pub fn back(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    /// Plays forward to a snapshot position (as far as the scene goes).
    pub fn goto(&mut self, world: &mut World, target: usize) {
        while self.cursor < target && self.forward(world) {}
        while self.cursor > target && self.back() {}
    }

    /// Applies one command.
    pub fn apply(&mut self, world: &mut World, command: &PlaybackCommand) {
        match command {
            PlaybackCommand::Forward => {
                self.forward(world);
            }
            PlaybackCommand::Back => {
                self.back();
            }
            PlaybackCommand::NextRound => {
                let period = self.current().period();
                while self.forward(world) && self.current().period() == period {}
            }
            PlaybackCommand::PrevRound => {
                let start = self.round_start(self.cursor);
                self.cursor = if start == self.cursor && start > 0 {
                    self.round_start(start - 1)
                } else {
                    start
                };
            }
            PlaybackCommand::TogglePlay => {
                self.playing = !self.playing;
                self.since_step = 0.0;
            }
            PlaybackCommand::Faster => {
                self.speed = SPEEDS
                    .iter()
                    .copied()
                    .find(|&s| s > self.speed)
                    .unwrap_or(self.speed);
            }
            PlaybackCommand::Slower => {
                self.speed = SPEEDS
                    .iter()
                    .rev()
                    .copied()
                    .find(|&s| s < self.speed)
                    .unwrap_or(self.speed);
            }
            PlaybackCommand::Goto(i) => self.goto(world, *i),
        }
    }

    /// The first snapshot of the round (or of the surprise segments) holding `i`.
    fn round_start(&self, i: usize) -> usize {
        let period = self.frames[i].period();
        let mut j = i;
        while j > 0 && self.frames[j - 1].period() == period {
            j -= 1;
        }
        j
    }
}

/// Applies the commands of this frame, then the play timer. Exclusive: a step runs the
/// simulation's schedule in this world.
pub(super) fn run_playback(world: &mut World, mut cursor: Local<MessageCursor<PlaybackCommand>>) {
    let commands: Vec<PlaybackCommand> = cursor
        .read(world.resource::<Messages<PlaybackCommand>>())
        .cloned()
        .collect();
    if !world.contains_resource::<Playback>() {
        return;
    }
    let dt = world.resource::<Time>().delta_secs();
    world.resource_scope(|world, mut pb: Mut<Playback>| {
        for c in &commands {
            pb.apply(world, c);
        }
        if pb.playing {
            pb.since_step += dt;
            let period = 1.0 / pb.speed;
            while pb.since_step >= period {
                pb.since_step -= period;
                if !pb.forward(world) {
                    pb.playing = false;
                    break;
                }
            }
        }
    });
}

/// While a round plays, asks for the next frame at once (an idle viewer otherwise sleeps
/// until input or its next wake).
pub(super) fn keep_awake_while_playing(
    pb: Option<Res<Playback>>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if pb.is_some_and(|p| p.playing) {
        redraw.write(bevy::window::RequestRedraw);
    }
}
