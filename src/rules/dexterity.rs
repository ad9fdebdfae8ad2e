//! Dexterity's reaction/attacking adjustment (PHB p.11) and the light-gear condition on its
//! bonuses (PHB p.101).

/// The reaction/attacking adjustment for a Dexterity score (PHB p.11): -3 at 3, -2 at 4,
/// -1 at 5, none from 6 to 15, +1 at 16, +2 at 17, +3 at 18. Above 18 (gods, monsters,
/// magic) the table of scores to 25 that Deities & Demigods and Unearthed Arcana give: +3 at
/// 19 and 20, +4 from 21 to 23, +5 at 24 and 25.
pub fn reaction_adjustment(dexterity: u32) -> i32 {
    match dexterity {
        0..=3 => -3,
        4 => -2,
        5 => -1,
        6..=15 => 0,
        16 => 1,
        17 => 2,
        18..=20 => 3,
        21..=23 => 4,
        _ => 5,
    }
}

/// The defensive adjustment to armor class for a Dexterity score (PHB p.11), in classes:
/// +4 at 3 down to +1 at 6, none from 7 to 14, -1 at 15 down to -4 at 18; above 18 the same
/// table to 25 as [`reaction_adjustment`]: -4 at 19 and 20, -5 from 21 to 23, -6 at 24 and 25.
pub fn defensive_adjustment(dexterity: u32) -> i32 {
    match dexterity {
        0..=3 => 4,
        4 => 3,
        5 => 2,
        6 => 1,
        7..=14 => 0,
        15 => -1,
        16 => -2,
        17 => -3,
        18..=20 => -4,
        21..=23 => -5,
        _ => -6,
    }
}

/// An armor class without the Dexterity bonus counted in it (`bonus`, in classes): never
/// past AC 10, the AC of no armour (a charger's, DMG p.66; "Take Initiative!"'s
/// charge-adjusted AC).
pub fn without_bonus(ac: i32, bonus: i32) -> i32 {
    (ac + bonus.max(0)).min(ac.max(10))
}

/// The adjustment that applies given the figure's gear: bonuses only in light gear
/// (12" base movement), penalties always (PHB p.101).
pub fn effective_adjustment(dexterity: u32, light_gear: bool) -> i32 {
    let adj = reaction_adjustment(dexterity);
    if adj > 0 && !light_gear { 0 } else { adj }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_phb() {
        let want = [
            (3, -3),
            (4, -2),
            (5, -1),
            (6, 0),
            (15, 0),
            (16, 1),
            (17, 2),
            (18, 3),
        ];
        for (d, a) in want {
            assert_eq!(reaction_adjustment(d), a, "Dex {d}");
        }
        // Above 18: the table to 25 (Deities & Demigods, Unearthed Arcana).
        for (d, r, ac) in [
            (19, 3, -4),
            (20, 3, -4),
            (21, 4, -5),
            (23, 4, -5),
            (24, 5, -6),
            (25, 5, -6),
        ] {
            assert_eq!(
                (reaction_adjustment(d), defensive_adjustment(d)),
                (r, ac),
                "Dex {d}"
            );
        }
        assert_eq!(effective_adjustment(17, false), 0);
        assert_eq!(effective_adjustment(4, false), -2);
    }
}
