//! The order graph of one fight: "before" edges between groups of simultaneous events
//! (petgraph), with groups merged by "together". A constraint that would contradict those
//! already given is refused, so constraints added first take priority.
//!
//! Whether one group already comes before another is read from a transitive closure kept
//! beside the graph (a bit per pair of events), so each constraint is checked in constant
//! time: searching the graph for a path at each of the tens of thousands of constraints a
//! crowd of many-routine figures gives took minutes.

use petgraph::algo::toposort;
use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use petgraph::visit::{EdgeRef, IntoEdgeReferences};

/// Groups of simultaneous events and the order between them.
pub(super) struct Dag {
    /// Each group's events.
    pub events: Vec<Vec<usize>>,
    /// Direct successors of each group.
    pub succ: Vec<Vec<usize>>,
    /// Direct predecessors of each group.
    pub pred: Vec<Vec<usize>>,
    /// The groups in a topological order.
    pub topo: Vec<usize>,
}

/// Ordering constraints over `n` events.
pub(super) struct OrderGraph {
    /// Each event's group representative (union-find parent).
    group: Vec<usize>,
    /// Edges between representatives: node `i` is event `i` (a stable graph keeps the
    /// numbers when a merged group's node goes).
    graph: StableDiGraph<(), ()>,
    /// What each representative comes before, directly or not: `words` bits a row, read
    /// only for representatives.
    later: Vec<u64>,
    /// Words in a row of `later`.
    words: usize,
    /// The graph's edges, so that one is added once without searching a crowded node's.
    edges: std::collections::HashSet<(usize, usize)>,
}

fn node(i: usize) -> NodeIndex {
    NodeIndex::new(i)
}

impl OrderGraph {
    /// No constraints yet: every event in a group of its own.
    pub(super) fn new(n: usize) -> OrderGraph {
        let mut graph = StableDiGraph::with_capacity(n, n);
        for _ in 0..n {
            graph.add_node(());
        }
        let words = n.div_ceil(64);
        OrderGraph {
            group: (0..n).collect(),
            graph,
            later: vec![0; n * words],
            words,
            edges: std::collections::HashSet::new(),
        }
    }

    /// The edge `a` → `b`, unless the graph has it.
    fn link(&mut self, a: usize, b: usize) {
        if self.edges.insert((a, b)) {
            self.graph.add_edge(node(a), node(b), ());
        }
    }

    fn row(&self, x: usize) -> &[u64] {
        &self.later[x * self.words..(x + 1) * self.words]
    }

    fn has(&self, x: usize, y: usize) -> bool {
        self.row(x)[y / 64] >> (y % 64) & 1 == 1
    }

    /// Every representative that is `to` or comes before it now also comes before what
    /// `add` holds (a row of events).
    fn extend_before(&mut self, to: &[usize], add: &[u64]) {
        let w = self.words;
        for x in 0..self.group.len() {
            if self.group[x] != x || !(to.contains(&x) || to.iter().any(|&t| self.has(x, t))) {
                continue;
            }
            for (d, a) in self.later[x * w..(x + 1) * w].iter_mut().zip(add) {
                *d |= a;
            }
        }
    }

    fn find(&self, mut x: usize) -> usize {
        while self.group[x] != x {
            x = self.group[x];
        }
        x
    }

    fn reaches(&self, from: usize, to: usize) -> bool {
        self.has(from, to)
    }

    /// Whether `a` is already known to come before `b`.
    #[cfg(test)]
    fn is_before(&mut self, a: usize, b: usize) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        a != b && self.reaches(a, b)
    }

    /// `a` before `b`, unless that contradicts what is known. Returns whether it holds now.
    pub(super) fn before(&mut self, a: usize, b: usize) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b || self.reaches(b, a) {
            return false;
        }
        self.link(a, b);
        if !self.reaches(a, b) {
            let mut add = self.row(b).to_vec();
            add[b / 64] |= 1 << (b % 64);
            self.extend_before(&[a], &add);
        }
        true
    }

    /// `a` with `b`, unless one is already known to come before the other.
    pub(super) fn together(&mut self, a: usize, b: usize) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return true;
        }
        if self.reaches(a, b) || self.reaches(b, a) {
            return false;
        }
        let (keep, gone) = (a.min(b), a.max(b));
        // The merged group comes before all either came before, and after all that came
        // before either: its representative's bit stands for both.
        let mut add: Vec<u64> = self
            .row(keep)
            .iter()
            .zip(self.row(gone))
            .map(|(x, y)| x | y)
            .collect();
        add[keep / 64] |= 1 << (keep % 64);
        self.extend_before(&[keep, gone], &add);
        // Its own bit is not "before itself".
        self.later[keep * self.words + keep / 64] &= !(1 << (keep % 64));
        self.group[gone] = keep;
        let outs: Vec<NodeIndex> = self
            .graph
            .neighbors_directed(node(gone), petgraph::Outgoing)
            .collect();
        let ins: Vec<NodeIndex> = self
            .graph
            .neighbors_directed(node(gone), petgraph::Incoming)
            .collect();
        self.graph.remove_node(node(gone));
        for o in &outs {
            self.edges.remove(&(gone, o.index()));
        }
        for i in &ins {
            self.edges.remove(&(i.index(), gone));
        }
        for o in outs {
            self.link(keep, o.index());
        }
        for i in ins {
            self.link(i.index(), keep);
        }
        true
    }

    /// The groups of simultaneous events as a DAG: each group's events (in event order),
    /// its direct successors and predecessors (group indices), and a topological order.
    /// Groups are numbered by their first event.
    pub(super) fn dag(&self) -> Dag {
        let n = self.group.len();
        let mut index = vec![usize::MAX; n];
        let mut events: Vec<Vec<usize>> = Vec::new();
        for e in 0..n {
            let r = self.find(e);
            if index[r] == usize::MAX {
                index[r] = events.len();
                events.push(Vec::new());
            }
            events[index[r]].push(e);
        }
        let m = events.len();
        let (mut succ, mut pred) = (vec![Vec::new(); m], vec![Vec::new(); m]);
        for e in (&self.graph).edge_references() {
            let (a, b) = (e.source().index(), e.target().index());
            succ[index[a]].push(index[b]);
            pred[index[b]].push(index[a]);
        }
        let topo = toposort(&self.graph, None)
            .expect("constraints never form a cycle")
            .into_iter()
            .map(|r| index[r.index()])
            .collect();
        Dag {
            events,
            succ,
            pred,
            topo,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether `a`'s group comes before `b`'s, by searching the graph's edges (the oracle
    /// the closure must agree with).
    fn searched(g: &OrderGraph, a: usize, b: usize) -> bool {
        let (a, b) = (g.find(a), g.find(b));
        a != b && petgraph::algo::has_path_connecting(&g.graph, node(a), node(b), None)
    }

    proptest! {
        /// The closure agrees with a search of the graph after any run of constraints,
        /// refused or not, and refuses exactly the contradictions.
        #[test]
        fn the_closure_is_the_graphs_paths(
            n in 2usize..40,
            steps in prop::collection::vec((any::<bool>(), 0usize..40, 0usize..40), 0..120),
        ) {
            let mut g = OrderGraph::new(n);
            for (together, a, b) in steps {
                let (a, b) = (a % n, b % n);
                let (ra, rb) = (g.find(a), g.find(b));
                let contradicts = ra != rb && (searched(&g, b, a) || (together && searched(&g, a, b)));
                let held = if together { g.together(a, b) } else { g.before(a, b) };
                prop_assert_eq!(held, !contradicts && (together || ra != rb));
                for x in 0..n {
                    for y in 0..n {
                        prop_assert_eq!(g.is_before(x, y), searched(&g, x, y), "{} {}", x, y);
                    }
                }
            }
        }
    }

    #[test]
    fn contradictions_are_refused_and_groups_share_a_level() {
        let mut g = OrderGraph::new(4);
        assert!(g.before(0, 1));
        assert!(g.before(1, 2));
        assert!(!g.before(2, 0), "a cycle is refused");
        assert!(!g.together(0, 2), "0 is already before 2");
        assert!(g.together(2, 3));
        assert!(g.is_before(0, 3));
        let dag = g.dag();
        assert_eq!(dag.events, vec![vec![0], vec![1], vec![2, 3]]);
        assert_eq!(dag.topo, vec![0, 1, 2]);
        assert_eq!(dag.pred[2], vec![1]);
    }
}
