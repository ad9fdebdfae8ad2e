//! Book citations for every rule the engine applies.
//!
//! Each [`Rule`] names one ruling with a stable id (used in the JSON event log), the book and
//! page it comes from, and a one-line summary in our own words. Rules functions return the
//! `Rule` that decided an outcome so the log and the viewer can say *why*.

use serde::Serialize;
use std::fmt;

/// The books the rules come from (first edition, as compiled in the initiative and combat table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Book {
    /// Dungeon Masters Guide (1979).
    Dmg,
    /// Players Handbook (1978).
    Phb,
    /// Unearthed Arcana (1985).
    Ua,
    /// Monster Manual (1979 printing).
    Mm,
    /// Monster Manual II (1983).
    Mm2,
    /// DRAGON #133, "Surprise!" (1988).
    Dragon,
    /// "Take Initiative!", the d10 variant text in the project's rules texts.
    TakeInitiative,
    /// The Initiative and Combat Table itself: its charts and their key.
    Table,
    /// A house rule of the house-rules text, by its section.
    House,
    /// First Strike's own: a reading where the texts are silent or can be read two ways,
    /// or what the program leaves to the DM. Cited as "First Strike", never as a page of
    /// the house-rules text.
    FirstStrike,
}

impl Book {
    /// The short form used in the log, e.g. `DMG`.
    pub fn short(self) -> &'static str {
        match self {
            Book::Dmg => "DMG",
            Book::Phb => "PHB",
            Book::Ua => "UA",
            Book::Mm => "MM",
            Book::Mm2 => "MM2",
            Book::Dragon => "DRAGON",
            Book::TakeInitiative => "Take Initiative!",
            Book::Table => "Initiative and Combat Table",
            Book::House => "house",
            Book::FirstStrike => "First Strike",
        }
    }
}

/// One cited ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Stable identifier, e.g. `charge.arrival`.
    pub id: &'static str,
    /// The book.
    pub book: Book,
    /// The page or pages, e.g. `66` or `62-63`.
    pub page: &'static str,
    /// What the rule says, in one line of our own words.
    pub summary: &'static str,
}

impl Rule {
    /// `DMG p.66`.
    pub fn page_ref(&self) -> String {
        let mut out = String::with_capacity(16);
        self.write_page_ref(&mut out);
        out
    }

    /// Appends the page reference (`DMG p.66`) to `out`.
    pub fn write_page_ref(&self, out: &mut String) {
        out.push_str(self.book.short());
        // The program's own readings have no page.
        if self.page.is_empty() {
            return;
        }
        // The table's charts and key are named, not paged.
        if self.book == Book::Table {
            out.push_str(", ");
            out.push_str(self.page);
            return;
        }
        // A section, appendix or glossary of a text ("§9", "App. A") reads as itself.
        if ["§", "App.", "Glossary"]
            .iter()
            .any(|p| self.page.starts_with(p))
        {
            out.push(' ');
        } else {
            out.push_str(" p.");
        }
        out.push_str(self.page);
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.summary, self.page_ref())
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Rule", 3)?;
        st.serialize_field("id", self.id)?;
        st.serialize_field("page", &self.page_ref())?;
        st.serialize_field("summary", self.summary)?;
        st.end()
    }
}

macro_rules! rules {
    ($( $(#[$m:meta])* $name:ident = $id:literal, $book:ident, $page:literal, $summary:literal; )*) => {
        $( $(#[$m])* pub const $name: Rule = Rule { id: $id, book: Book::$book, page: $page, summary: $summary }; )*
        /// Every rule First Strike cites, for listings and for checking ids are unique.
        pub const ALL: &[Rule] = &[ $( $name ),* ];
    };
}

rules! {
    SURPRISE_D6 = "surprise.d6", Dmg, "61", "each side rolls d6 for surprise; 1-2 normally means surprised";
    SURPRISE_LESS_OFTEN = "surprise.less_often", Dmg, "61", "a member who is surprised less often lowers the whole party's chance";
    SURPRISE_MORE_OFTEN = "surprise.more_often", Phb, "24", "an edge to surprise others more often is a side's only when every member has it (alone, or a band of duergar), the least of theirs";
    SURPRISE_PERCENT = "surprise.percent", Dragon, "74", "when a side uses another die, chances convert to percentages";
    SURPRISE_SEGMENTS = "surprise.segments", Dmg, "61", "each pip of the surprise die is one segment lost";
    SURPRISE_PERCENT_SEGMENTS = "surprise.percent_segments", Dragon, "74", "a d% surprise roll divided by 16 2/3, rounded up, gives the segments lost";
    SURPRISE_NET = "surprise.net", Dmg, "61-62", "when both sides are surprised the smaller loss is taken from the larger";
    SURPRISE_DEX = "surprise.dexterity", Dmg, "62", "a surprised figure's Dexterity reaction adjustment shortens or lengthens its own surprise";
    LIGHT_GEAR = "gear.light", Phb, "101", "Dexterity bonuses need light gear (12\" base movement); penalties always count";
    CROSSBOW_OF_SPEED_SURPRISE = "surprise.crossbow_of_speed", Dmg, "168", "a crossbow of speed may shoot in the second surprise segment";
    SPELL_UNDER_WAY = "spell.under_way", Dmg, "61-62", "a spell begun in the surprise segments is still being cast when the round begins: its caster takes up no other act until it goes off";
    SURPRISE_ACTIONS = "surprise.actions", Dmg, "61-62", "each surprise segment lets the unsurprised make a round of blows, a round (or triple if ready) of missiles, a segment's move, a spell segment, or a 6-second act";
    SURPRISE_CLOSES = "surprise.closes", Dmg, "61-62", "a melee declared in a surprise segment at a foe out of reach spends the segment moving toward it; it strikes in a later segment, once in reach";
    SURPRISE_NEITHER = "surprise.neither", Dmg, "61-62", "reading: the free actions of the surprise segments are taken against the surprised; two figures neither of whose sides is surprised in a segment (three sides or more) trade no blows in it, their fight waiting for round 1";
    SURPRISE_PARTIAL = "surprise.partial", Dmg, "71", "a figure less surprised than its side may move, cast or act, and may not be struck, in its extra segments";
    DISTANCE_OUTDOORS = "distance.outdoors", Dmg, "49", "outdoor encounters start 6d4\" apart, less the larger surprise, less terrain";
    DISTANCE_INDOORS = "distance.indoors", Dmg, "62", "indoor encounters start d6+4\" apart";
    DISTANCE_NOISE = "distance.noise", Dmg, "62", "a noisy party is discovered at 1\"-4\" by those who hide";
    DISTANCE_AREA = "distance.area", Dmg, "62", "a small area caps the distance at its size, rolled in 10-foot steps";
    DISTANCE_SURPRISE = "distance.surprise", Dmg, "62", "with surprise the distance is 1\"-3\" or the area, whichever is less";
    DISTANCE_LIGHT = "distance.light", Dmg, "62", "relying on a light limits encounter distance to twice its radius";
    DISTANCE_INFRAVISION = "distance.infravision", Dmg, "62", "infravision or ultravision limits encounter distance to its range";
    SIGHT_LIGHT = "sight.light", Dmg, "62", "with a clear line of sight, a light or a lit figure can be made out at almost any distance";
    AREA_WALLS = "area.walls", Phb, "73", "a burst from a point (a fireball, a sleep) reaches only what a clear straight line of open ground joins to its centre: a wall, closed door or pillar between stops it";
    MISSILE_IN_SIGHT = "missile.in_sight", Dmg, "62", "reading: a missile is loosed only at a foe the shooter sees, along a clear line and by light or infravision (a figure that cannot be seen cannot be targeted, as the Example of Melee's invisible fighter)";
    SIGHT_OBSTRUCTED = "sight.obstructed", Dmg, "62", "walls and other obstructions cut off sight, light and encounters";
    OUTDOOR_SCALE = "scale.outdoors", Phb, "39", "outdoors one inch of scale is 10 yards";
    DECLARE_ACTIONS = "declare.actions", Dmg, "71", "before initiative each side says what its figures will do";
    DECLARE_SPELLS = "declare.spells", Dmg, "65", "casters name their spell at the start of the round";
    DECLARE_HESITATION = "declare.hesitation", Dmg, "71", "each 6 seconds of hesitation in declaring delays the action one segment";
    PRE_INITIATIVE_BOW = "pre_initiative.bow", Ua, "18", "a bow specialist with arrow nocked and target in sight shoots before initiative";
    PRE_INITIATIVE_CROSSBOW = "pre_initiative.crossbow", Ua, "18", "a crossbow specialist cocked and aimed shoots before initiative";
    INITIATIVE_D6 = "initiative.d6", Dmg, "62", "each side rolls d6; the higher acts first";
    INITIATIVE_SPECTATOR = "initiative.spectator", Dmg, "62", "the spectator rolls d8 for initiative";
    INITIATIVE_DEX = "initiative.dexterity", Dmg, "64", "a missile user adds its Dexterity attacking adjustment to its side's die";
    INITIATIVE_BEFORE_THE_MOVE = "initiative.before_the_move", Dmg, "61", "the side with initiative acts first, and a tie is simultaneous: a blow at a foe already within reach is struck before that foe moves off, and a first shot at a foe that moves is loosed before it moves, unless the foe's side won";
    INITIATIVE_TIE = "initiative.tie", Dmg, "63", "tied initiative usually means blows land together";
    MISSILE_RANGE = "missile.range", Phb, "38", "a missile at medium range is -2 to hit and at long range -5; beyond long range it cannot be loosed at the target";
    MISSILE_DEX_TO_HIT = "missile.dexterity_to_hit", Phb, "11", "a missile's thrower or shooter adds its Dexterity reaction/attacking adjustment to hit, bonus or penalty";
    MISSILE_INTO_MELEE = "missile.into_melee", Dmg, "63", "a missile loosed into a melee where the shooter's comrades fight may strike any of the combatants: one is picked at random, each alike (our reading of the Example of Melee's 50/50)";
    CROSSBOW_OF_SPEED_RATE = "initiative.crossbow_of_speed_rate", Dmg, "168", "a crossbow of speed shoots at twice the crossbow's rate of fire";
    STRIKES_FIRST = "initiative.strikes_first", Dmg, "168; UA p.104, 106", "items of speed strike first whatever the initiative: the crossbow of speed (DMG p.168), the short sword of quickness (UA p.104) and the scimitar of speed (UA p.106)";
    MULTIPLE_ROUTINES = "sequence.multiple_routines", Dmg, "62-63", "more attack routines strike first and last; single routines fall in the middle";
    MULTIPLE_ROUTINES_DICE = "sequence.multiple_routines_dice", Dmg, "63", "routines in the same place of the sequence are ordered by initiative";
    ATTACK_RATE = "sequence.attack_rate", Dmg, "63", "a 3/2 rate gives two routines in odd-numbered rounds and one in even";
    CHART_TIED = "chart.tied", Table, "tied d6 chart", "the tied-d6 chart of the initiative and combat table";
    CHART_HIGH_LOW = "chart.high_low", Table, "high d6 vs. low d6 chart", "the high-d6-versus-low-d6 chart of the initiative and combat table";
    CHARGE_NO_MELEE = "charge.no_melee", Dmg, "66", "no normal melee when the foes start the round more than 1\" apart";
    CHARGE_RATE = "charge.rate", Dmg, "66", "charging doubles movement indoors; outdoors bipeds add 1/3 and quadrupeds 1/2";
    TI_CHARGE_ENCUMBERED = "ti.charge_encumbered", TakeInitiative, "§9", "reading: no charge when severely encumbered, read as the book's encumbered (a load over the figure's allowance, or encumbered: true)";
    CHARGE_ENCUMBERED = "charge.encumbered", Dmg, "66", "an encumbered creature cannot charge";
    CHARGE_AC = "charge.ac", Dmg, "66", "a charger loses its Dexterity AC bonus, or is one class worse without one (not below AC 10)";
    CHARGE_ARRIVAL = "charge.arrival", Phb, "102", "a charge covers its doubled rate in feet each segment and arrives when the distance is covered";
    MELEE_REACH = "melee.reach", Dmg, "66", "a blow reaches a foe only within its striker's reach (5 ft, or its weapon's or the scene's reach_ft): one that stands or has moved beyond it is not struck";
    CHARGE_REACH = "charge.reach", Dmg, "66", "no initiative at the end of a charge: the longer weapon or reach strikes first";
    CHARGE_BONUS = "charge.to_hit", Dmg, "66", "a charger that survives the first blows gets +2 to hit";
    CHARGE_VS_SPELL = "charge.vs_spell", Dmg, "66", "a charge against a caster compares segments of movement with casting time";
    SPELL_VS_SPELL = "spell.vs_spell", Dmg, "65", "the shorter casting time completes first; initiative breaks ties";
    SPELL_MELEE_WIN = "spell.melee_attacker_wins", Dmg, "66-67", "a melee attacker who wins initiative strikes before the spell completes";
    SPELL_MELEE_TIE = "spell.melee_tie", Dmg, "66-67", "on tied initiative the weapon's speed factor is compared with the casting time";
    SPELL_MELEE_LOSE = "spell.melee_attacker_loses", Dmg, "66-67", "a losing melee attacker strikes at |speed factor - losing die| against the casting time";
    SPELL_MISSILE_WIN = "spell.missile_attacker_wins", Dmg, "65", "a missile or natural attack that wins initiative lands before the spell completes";
    SPELL_MISSILE_LOSE = "spell.missile_caster_die", Dmg, "65", "otherwise the missile or natural attack lands on the segment of the caster's die";
    SPELL_FIRST_ROUTINE = "spell.first_routine", Dmg, "65", "only the first of several routines can disrupt, unless the spell takes a full round";
    SPELL_DISRUPTED = "spell.disrupted", Dmg, "65", "any hit or unsaved attack on a caster ruins the spell";
    SPELL_NO_DEX = "spell.no_dex_ac", Dmg, "65", "a caster gets no Dexterity AC bonus while casting";
    CANTRIPS = "spell.cantrips", Ua, "45", "two cantrips a round, the second 1-4 segments after the first";
    DEVICE_NOT_DISRUPTED = "device.not_disrupted", Dmg, "65", "rods, staves and wands keep their activation time but are not ruined by a hit unless the wielder falls";
    DEVICE_WIELDER_FELL = "device.wielder_fell", Dmg, "65", "a device's use is lost when a blow before it goes off slays or incapacitates its wielder";
    SPEED_FACTOR = "speed_factor.tie", Dmg, "66", "on tied initiative the lower speed factor strikes first (melee weapons, same parity of attacks)";
    SPEED_FACTOR_CLOSING = "speed_factor.not_closing", Dmg, "66", "speed factors do not apply in a round of closing or charging";
    SPEED_FACTOR_LENGTH = "speed_factor.first_round_length", Dmg, "66", "in the first round after closing, weapon length decides";
    SPEED_FACTOR_DOUBLE = "speed_factor.double", Dmg, "66", "a speed factor lower by 5, or by twice its value, strikes twice before the slower weapon";
    SPEED_FACTOR_TRIPLE = "speed_factor.triple", Dmg, "66", "a speed factor lower by 10 adds a third blow at the same time as the slower weapon";
    TURN_UNDEAD = "turn.uninterrupted", Table, "chart key (Turn)", "turning undead follows initiative, beats a charge, and is not interrupted";
    MISSILE_BEATS_CHARGE = "missile.beats_charge", Table, "chart key (Missile)", "a missile's first volley comes before a charger's blow, whatever the dice";
    MISSILE_CHARGE_INITIATIVE = "missile.charge_by_initiative", Dmg, "66", "reading: a charger whose side wins initiative reaches the archer first; shots not yet loosed are lost at contact";
    MISSILE_VOLLEY_BLOCK = "missile.volley_block", Dmg, "63", "reading: a missile user's shots of a round fly together, where a single routine would";
    INSTANT_FIRST = "spell.instant_first", Dmg, "65", "reading: an action that takes no time goes off at the very start of the round, before any blow";
    MOVEMENT_ARMOR = "movement.armor", Phb, "101-102", "armor sets base movement: none or leather 12\", chain-class 9\", plate-class 6\"; magic armor one step better";
    MOVEMENT_ENCUMBRANCE = "movement.encumbrance", Phb, "101-102", "carried weight sets movement in steps, shifted by the Strength allowance";
    MOVEMENT_SEGMENT = "movement.segment", Phb, "102", "one segment of movement is 1 foot per inch of rate indoors";
    MOVEMENT_BLOCKED = "movement.blocked", Phb, "102", "a figure moves through open ground only: a wall in its way stops it where it stands, and a blow planned for its arrival is not struck";
    POTION_DELAY = "item.potion", Dmg, "119", "a potion takes effect d4+1 segments after it is drunk";
    TO_HIT = "combat.to_hit", Dmg, "74", "the d20 needed to hit falls by one for each step of armor class, but 20 stands for six classes before 21";
    WEAPON_VS_ARMOR = "combat.weapon_vs_armor", Phb, "38", "each weapon has a to-hit adjustment against each armor type";
    TI_TOTAL = "ti.total", TakeInitiative, "§Basics", "each figure acts on its d10 plus its action's modifiers: the lower total first, equal totals together";
    TI_CARRY_OVER = "ti.carry_over", TakeInitiative, "§Basics", "a total over 20 acts in the next round at total - 20, without a new roll";
    TI_CHANGE = "ti.change", TakeInitiative, "§1", "up to its base initiative a figure may change its action: base + 2 + a new d10 + the new action's modifier";
    TI_PURSUE_CHANGE = "ti.pursue_change", TakeInitiative, "§4b", "a figure whose foe flees may change its action to pursue only if its base initiative comes after the fleer's total";
    TI_CHANGE_PRECLUDED = "ti.change_precluded", TakeInitiative, "§Basics", "no change of action while casting, waiting for the next round, past the base initiative, or after acting";
    TI_EXPECT = "ti.expect", TakeInitiative, "§2", "an expected event is answered at the later of initiative and the current segment, - 3 + a new d10 + modifiers, at least 1";
    TI_PARRY_REAR = "ti.parry_rear", TakeInitiative, "§3", "a parry meets no missile (but a monk's) and no blow from behind (our reading: from the rear arc of a parrier facing the first attacker it names)";
    TI_PARRY = "ti.parry", TakeInitiative, "§3", "a parry works if its base initiative comes before the attacker's total: minus half the level (rounded up, +1 for a fighter) to hit";
    TI_FLEE = "ti.flee", TakeInitiative, "§4", "a figure turning to flee gives its opponent a free attack at +4 when it moves";
    TI_PURSUIT = "ti.pursuit", TakeInitiative, "§5", "a fleeing figure that wins initiative gains 1\" x its initiative once a turn";
    TI_WITHDRAW = "ti.withdraw", TakeInitiative, "§6", "a withdrawing figure backs off at half its move and is still in melee if followed";
    TI_WITHDRAW_BLOCK = "ti.withdraw_block", TakeInitiative, "§7", "a blocker in melee with a pursuer shuts the way if it acts first; otherwise it strikes the pursuer from behind (+2) as it follows";
    TI_RANGED = "ti.ranged", TakeInitiative, "§8", "missiles: note 1's speeds, Dexterity on initiative, -2 at medium and -5 at long range, half the rate when moving";
    TI_FARTHEST_FIRST = "ti.farthest_first", TakeInitiative, "§8c", "of two moving to fire at declared ranges, the one that chose the farther range fires first";
    TI_CHARGE_AC = "ti.charge_ac", TakeInitiative, "Glossary", "a charger's AC: without its Dexterity bonus, or one class worse without one, AC 10 included";
    TI_CHARGE = "ti.charge", TakeInitiative, "§9", "a charge: +4 initiative, half again the move up to 24\", +2 to hit, blows by weapon length, no Dexterity AC";
    TI_CHARGE_ONE_ATTACK = "ti.charge_one_attack", TakeInitiative, "§9; Glossary", "a charge gives a single melee attack at the end of its move: one claw, not claw/claw/bite; one hand's weapon, not both";
    TI_SET_TO_RECEIVE = "ti.set_to_receive", TakeInitiative, "§9a", "a spear or pole arm set to receive a charge (base - 2 before the charger's blow) does double damage";
    TI_CHARGE_VS_MISSILE = "ti.charge_vs_missile", TakeInitiative, "§9e", "a shot at a charger that wins initiative is foiled unless the weapon also serves in melee; one that comes first takes the range of its initiative against the charger's AC";
    TI_CHARGE_LEAVING = "ti.charge_leaving", TakeInitiative, "§9f", "a charge at a figure moving away: gone first, it is struck from behind (+2) where it stops, striking no blow; caught first, it may strike back and stay";
    TI_HURL = "ti.hurl", TakeInitiative, "§9, §9h", "a throwable weapon hurled on the charge: on the total, at the range of the half-way point, no charge bonus; the charger then comes on";
    TI_BLOCK = "ti.block", TakeInitiative, "§9b", "a figure charging past a blocker trades blows with it by weapon length; its shove (our reading: an unarmed attack roll against the blocker's AC) knocks it aside, else the charge stops there";
    TI_HIDDEN_TARGET = "ti.hidden_target", TakeInitiative, "§10", "a figure hidden in shadows cannot be perceived by normal means: no blow or shot is aimed at it until it gives itself away";
    TI_HIDE = "ti.hide", TakeInitiative, "§10; PHB p.27-28; DMG p.19", "hiding in shadows (+8) works only unobserved, on a roll under the thief's chance; a hidden attacker strikes a foe unaware of it, which may then change its action";
    TI_COME_TOGETHER = "ti.come_together", TakeInitiative, "§9g", "two figures moving at each other meet at (attacker's move / defender's move) x half the distance from the attacker, on the earlier initiative";
    TI_RACE = "ti.race", TakeInitiative, "§11a", "two figures racing to a point arrive in order of initiative, together on a tie";
    TI_AREA_WINDOW = "ti.area_window", TakeInitiative, "§11b", "a mover is caught by an area spell if its initiative is within the window the area's size makes against its move per segment";
    TI_SPELL = "ti.spell", TakeInitiative, "§Basics, App. B", "a spell is begun at the round's start and goes off on the caster's total: +6 + its level";
    TI_DEX_TO_HIT = "ti.dexterity_to_hit", TakeInitiative, "§8", "a missile's Dexterity attacking adjustment counts to hit as well as on initiative";
    TI_LONG_SPELL = "ti.long_spell", TakeInitiative, "App. B, Magic", "a spell taking more than a round keeps its own casting time, whatever the d10";
    TI_SURPRISE_SPELL = "ti.surprise_spell", TakeInitiative, "§2; App. B, Magic", "a spell begun in the surprise goes on at its own time: each book segment it has left is two ordering segments, the d10 not counted (our reading)";
    TI_ONE_ACTION = "ti.one_action", TakeInitiative, "App. A; App. B notes", "one normal action a round: a starred row is a primary action with no other beside it, and two minor actions count as one normal action";
    TI_MOVES_EXCLUSIVE = "ti.moves_exclusive", TakeInitiative, "Glossary", "move, charge, flee and withdraw exclude each other in one round";
    TI_CLOSE = "ti.close", TakeInitiative, "Glossary, Close; §2", "a foe closing (or moving) into melee range does so safely: no melee blow lands on it that round unless it charges; only an Expect answers it";
    TI_MOVE_PREVENTS = "ti.move_prevents", TakeInitiative, "App. B, Movement", "moving more than 10 ft in a round prevents casting a spell and a normal melee attack";
    TI_MINOR_ONE_ATTACK = "ti.minor_one_attack", TakeInitiative, "App. A; App. B note 4", "a minor action (drawing or changing a weapon...) takes away multiple attacks that round";
    TI_CHARGE_ENGAGED = "ti.charge_engaged", TakeInitiative, "§9", "no charge by a figure already engaged: a foe within 1\" (10 ft) at the round's start";
    TI_WHOLE_ROUND = "ti.whole_round", TakeInitiative, "App. B, Movement", "standing up takes the whole round: it is done at the round's end, and the next round is rolled afresh";
    TI_MULTIPLE_TARGETS = "ti.multiple_targets", TakeInitiative, "App. B, Weapon", "melee at several targets adds 1 for each and comes at the end of the round";
    TI_CASTING_AC = "ti.casting_ac", TakeInitiative, "§9d", "a figure casting a spell this round is struck without its Dexterity bonus to AC";
    TI_SPELL_SAVE = "ti.spell_save", TakeInitiative, "§Basics", "a caster damaged before the spell goes off keeps it only with d20 - spell level + caster level - damage at or above its save";
    CHARGE_SET = "charge.set", Dmg, "66", "reading: a spear or pole arm set against a charge (the weapons' notes) strikes the charger first, at contact, for double damage";
    CHARGE_CONTACT = "charge.contact", Dmg, "66", "a charge strikes when it makes contact: at a figure that moves off, later than planned, in the segment it reaches it";
    CHARGE_STRIKE_BACK = "charge.strike_back", Dmg, "66", "a charged figure strikes back at contact whatever it declared, by weapon length";
    HASTE = "spell.haste", Phb, "74", "haste doubles a figure's attacks and movement: a 3/2 fighter attacks three times a round";
    SLOW = "spell.slow", FirstStrike, "", "reading: slow halves attacks and movement, and the slowed figure acts as if it lost initiative";
    POTION_THEN_MOVE = "declare.potion_then_move", FirstStrike, "", "reading: a figure that drinks a potion may move for the rest of the round after the drink, as the fighter does in the table's Example of Melee";
    DEVICE_INSTANT = "device.instant", FirstStrike, "", "reading: a device with no activation time (a ring, a word of command) is timed like no spell: it is used when its side's initiative comes, as any other act (only devices with activation times are timed as spells, DMG p.65)";
    MELEE_THEN_DEVICE = "declare.melee_then_device", FirstStrike, "", "reading: a device with no activation time may be used in the round of a melee blow; it is used when its side's initiative comes, in the beat of the blow";
    SPEED_SHOT_THEN_ATTACK = "declare.speed_shot_then_attack", FirstStrike, "", "reading: an item of speed's one shot comes first (DMG p.168) and the figure's normal attack with another weapon follows in its usual place";
    SLOW_SPELL = "spell.slow_spell", Phb, "76", "the slow spell halves attacks and movement; like haste it allows no saving throw";
    SPELL_SLAY = "spell.slay", Phb, "83, 93", "power word kill slays one creature of up to 60 hp; a death spell slays creatures of fewer than 9 hit dice";
    SPELL_HOLD = "spell.hold", Phb, "45", "hold person holds its target rigid unless it saves: it can take no action";
    SPELL_PERSONS_ONLY = "spell.persons_only", Phb, "45", "hold person works on persons only: humans, demi-humans and humanoids of man size or smaller (reading: the kinds charm person names, PHB p.65); any other creature is not affected";
    SPELL_SLEEP = "spell.sleep", Phb, "68", "sleep puts creatures of up to 4 hit dice to sleep without a save: they can take no action";
    SLEEP_COUNT = "spell.sleep_count", Phb, "68", "how many sleep: 4d4 creatures of up to 1 hit die, 2d4 of 2, 1d4 of 3, one of 4, none stronger";
    SLEEP_WEAKEST_FIRST = "spell.sleep_weakest_first", FirstStrike, "", "reading: in a mixed crowd the weakest in the area sleep first (nearest the centre among equals), each using its share of the spell (one of the number rolled for its hit dice) until the spell is spent";
    HOUSE_CRITICAL_HIT = "house.critical_hit", House, "§Critical Hits", "house rule: a natural 20 to hit does double damage (the book gives it none, DMG p.74-75)";
    HOUSE_GANG_UP = "house.gang_up", House, "§Ganging Up", "house rule: each of several melee attackers on one foe gets +1 per attacker, at most +4; at most 4 attackers on a man-sized foe, 6 on a large one, 8 on a huge one";
    HOUSE_DISTANCE = "house.encounter_distance", House, "§Determine Distance", "house rule: indoor encounters start d6+4 squares of 5 ft apart (the book: d6+4 inches, DMG p.62)";
    HOUSE_CONFIRM_CRITICAL = "house.confirm_critical", TakeInitiative, "§3", "house rule: a natural 20 is a critical only if a second d20, with no to-hit bonuses and less any parry, also hits";
    HOUSE_SURPRISE_CARRIES = "house.surprise_carries_over", House, "§Determine Surprise", "house rule: the segments a surprised party lost come off its next round as well; a spell or a weapon that needs more segments (casting time, speed factor) than are left cannot be used that round";
    HOUSE_AWAIT = "house.await", House, "§Delay Action", "house rule: a figure waiting on another's action acts when that action is done; only a weapon whose speed factor fits the segments left strikes that round, and everyone may move";
    HOUSE_MOVE_OR_STRIKE = "house.move_or_strike", House, "§Combat Actions", "house rule: a round is a full move, or a half move and one blow, or a spell; a target within half a move is reached and struck once";
    HOUSE_STANDING_STILL = "house.multiple_attacks", House, "§Determine Actions", "house rule: a figure that moved this round or the last strikes only once; multiple attacks come from the second round of standing still";
    HOUSE_FUMBLE = "house.fumble", House, "§Critical Misses", "house rule: a natural 1 to hit is a fumble; a second d20 plus the weapon's magic: over 10 (our reading: 10 or more) a plain miss, under 10 the weapon flies d3 squares in a d8 direction, 3 or less it breaks";
    HOUSE_PARTING_SHOT = "house.parting_shot", House, "§Parting Shots", "house rule (after DMG p.70, breaking off from melee): a figure that leaves a melee draws one attack at +4 as it goes, as if stunned and struck from behind, unless it makes a fighting withdrawal";
    HOUSE_BRAWL = "house.weaponless", House, "§Weaponless Combat", "house rule: hands 1d4 and feet 1d6, scored as any weapon; half the damage is subdual and half real (a monk's all real, or all subdual by choice)";
    HOUSE_SUBDUED = "house.subdued", FirstStrike, "", "reading: a figure whose subdual damage reaches its hit points left is knocked out (unconscious, not dying)";
    PSI_SEGMENT = "psionics.segment", Dmg, "76-78", "psionic combat goes segment by segment: each psionic picks an attack and a defense mode, pays their cost in strength, and the matrix says what each attack does";
    PSI_SIMULTANEOUS = "psionics.simultaneous", Dmg, "76-78", "all psionic attacks and defenses of a segment are simultaneous: a psionic slain in a segment still attacks in it";
    PSI_MATRIX = "psionics.matrix", Dmg, "76", "the attack-defense matrix gives each pairing's outcome: points lost, or a chance of a dire result rolled on d%";
    PSI_SAVE = "psionics.save", Dmg, "78", "a non-psionic inside a psionic blast's area saves on d20 against the number the DM's table gives";
    PSI_END = "psionics.end", Phb, "39", "psionic combat ends when it is decided, when a psionic in it is affected by a mundane attack, or after ten segments";
    PSI_DM_TABLE = "psionics.dm_table", FirstStrike, "", "the texts do not give this entry of the psionic tables: it is the DM's to fill (assets/psionics.ron or the scene's psionics table)";
    HELPLESS_HIT = "combat.helpless", FirstStrike, "", "reading: a blow on a held or sleeping figure hits without a roll";
    HELPLESS_NO_ACTION = "combat.helpless_acts", FirstStrike, "", "a held or sleeping figure does nothing it declared, and a spell it was casting is lost";
    SPELL_INTERPOSE = "spell.hand", Phb, "86", "a Bigby's hand places itself between the caster and one opponent, which cannot strike the caster past it";
    SPELL_SILENCE = "spell.silence", Phb, "45", "silence 15' radius: nothing can be heard within it, so no spell with spoken words is cast there";
    SPELL_LIGHT = "spell.light", Phb, "44", "light (or continual light) lights a globe around its target; cast at the eyes it blinds unless saved against";
    SPELL_DARKNESS = "spell.darkness", Phb, "69", "darkness 15' radius: no light shines and infravision does not see within it";
    SPELL_BLAST = "spell.blast", Phb, "73", "a fireball bursts around its target: everyone within its radius is caught";
    SPELL_MISSILES = "spell.magic_missile", Phb, "67", "magic missiles strike unerringly, a d4+1 each: one missile at first level and one more for every two levels after";
    SPELL_BLAST_DAMAGE = "spell.blast_damage", Phb, "73", "a fireball does a six-sided die of damage per level of its caster to each figure caught, half to one that saves vs. spells";
    CASTER_LEVEL_LEAST = "spell.caster_level", Phb, "25", "a caster with no level given casts at the least level that can cast the spell (a magic-user's: 1, 3, 5, 7, 9 for spells of levels 1-5, then 12, 14, 16, 18; our reading)";
    CLASS_MATRIX = "class.matrix", Dmg, "74", "a character's number to hit comes from its class's attack matrix by level";
    MONSTER_MATRIX = "monster.matrix", Dmg, "74", "a monster's number to hit comes from the monsters' attack matrix by its hit dice";
    MONSTER_IMMUNE = "monster.immune", Mm, "43, 48, 87, 103", "the undead and golems are not put to sleep or held (each says so in its own entry)";
    SPECIALIST_POINT_BLANK = "specialist.point_blank", Ua, "18", "a bow or crossbow specialist shooting at point blank range (bow 6-30 ft, crossbow 6-60 ft: our reading for the crossbow, the Example of Melee's 39 ft bolt) is +2 to hit and +2 on damage, and its hit does double damage";
    SPECIALIST_RATE = "specialist.rate", Ua, "18", "a fighter or ranger specialized in a weapon attacks with it more often: a rate by level for melee, another for each weapon shot or thrown";
    CLASS_ATTACKS = "class.attacks", Dmg, "25", "fighters, paladins and rangers attack 3/2 from 7th level and 2/1 from 13th";
    SAVE_AS_FIGHTER = "spell.save_as_fighter", Dmg, "79", "a figure with no save given saves as a fighter of its hit dice or level (1st with neither), as monsters do (our reading)";
    SPELL_ARMOR = "spell.armor", Phb, "55", "barkskin improves its target's armor class by one";
    SAVING_THROW = "spell.save", Dmg, "79", "a saving throw of the needed number or better on a d20 negates the spell";
    NOT_MODELLED = "spell.not_modelled", FirstStrike, "", "the spell is timed and goes off; what it does is not modelled";
    CHARGE_COMPLETES = "surprise.charge_completes", Dmg, "66, 71", "a charge under way ends with its blow even on a foe that has just come off surprise";
    SURPRISE_ORDER = "surprise.order", Dmg, "62-63", "within a surprise segment items of speed go first, then routines by their place in the attack sequence";
    SEGMENTS_ROUND = "time.round", Dmg, "62", "a melee round is one minute of ten 6-second segments";
    TIMELINE_SEGMENT = "timeline.segment", FirstStrike, "", "a blow the rules order but do not fix to a segment is shown in the earliest segment its order allows";
    CONTINUE = "declare.continue", Dmg, "61", "a figure that declares nothing new carries on with what it was doing";
    HIT_POINTS = "health.hit_points", Dmg, "82", "at 0 hp a figure is unconscious, loses 1 hp a round, and dies at -10";
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rule_ids_are_unique_and_cited() {
        let mut seen = HashSet::new();
        for r in ALL {
            assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
            // First Strike's own readings have no page: they say so ("First Strike").
            assert!(
                (!r.page.is_empty() || r.book == Book::FirstStrike) && !r.summary.is_empty(),
                "{} lacks a page",
                r.id
            );
        }
        assert_eq!(CHARGE_ARRIVAL.page_ref(), "PHB p.102");
        assert_eq!(SLOW.page_ref(), "First Strike");
    }
}
