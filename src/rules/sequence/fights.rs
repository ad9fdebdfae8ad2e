//! Fights: the figures joined by who aims at whom (a blow, a volley, a charge, a spell at
//! an opponent). The rules order the actions of opponents who engage each other (DMG
//! p.61-67); between two fights they say nothing, so each fight is ordered on its own.

use super::super::action::Declared;
use petgraph::unionfind::UnionFind;

/// The fights among `actors`, given who aims at whom (`(i, j)`: `i` aims at `j`). Aims
/// at one's own side join nothing. Each fight lists its members in input order; fights
/// are ordered by their first member, so adding a fight never renumbers the order of the
/// others among themselves.
pub fn fights(actors: &[Declared], aims: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut uf = UnionFind::<usize>::new(actors.len());
    for &(i, j) in aims {
        if i < actors.len() && j < actors.len() && actors[i].side != actors[j].side {
            uf.union(i, j);
        }
    }
    let mut by_root: Vec<Option<usize>> = vec![None; actors.len()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for i in 0..actors.len() {
        let root = uf.find(i);
        match by_root[root] {
            Some(f) => out[f].push(i),
            None => {
                by_root[root] = Some(out.len());
                out.push(vec![i]);
            }
        }
    }
    out
}

/// Every opposing pair aims at each other: one fight for all (the calculator's case).
pub fn all_opposed(actors: &[Declared]) -> Vec<(usize, usize)> {
    let mut aims = Vec::new();
    for i in 0..actors.len() {
        for j in 0..actors.len() {
            if i != j && actors[i].side != actors[j].side {
                aims.push((i, j));
            }
        }
    }
    aims
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_by_aim_across_sides() {
        let a = |n: &str, s: &str| Declared::melee(n, 3).side(s);
        let actors = [
            a("Orc 1", "O"),
            a("Fighter", "P"),
            a("Orc 2", "O"),
            a("Elf", "P"),
            a("Orc 3", "O"),
            a("Cleric", "P"),
        ];
        // Two orcs on the fighter; the elf on the third orc; the cleric heals the fighter.
        let aims = [(0, 1), (2, 1), (1, 0), (3, 4), (5, 1)];
        assert_eq!(
            fights(&actors, &aims),
            vec![vec![0, 1, 2], vec![3, 4], vec![5]]
        );
    }
}
