//! The order graph of one fight: "before" edges between groups of simultaneous events
//! (petgraph), with groups merged by "together". A constraint that would contradict those
//! already given is refused, so constraints added first take priority.

use petgraph::algo::{DfsSpace, has_path_connecting, toposort};
use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use petgraph::visit::{EdgeRef, IntoEdgeReferences, Visitable};

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
    /// The search's visited set, kept between searches.
    space: DfsSpace<NodeIndex, <StableDiGraph<(), ()> as Visitable>::Map>,
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
        let space = DfsSpace::new(&graph);
        OrderGraph {
            group: (0..n).collect(),
            graph,
            space,
        }
    }

    fn find(&self, mut x: usize) -> usize {
        while self.group[x] != x {
            x = self.group[x];
        }
        x
    }

    fn reaches(&mut self, from: usize, to: usize) -> bool {
        has_path_connecting(&self.graph, node(from), node(to), Some(&mut self.space))
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
        self.graph.update_edge(node(a), node(b), ());
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
        for o in outs {
            self.graph.update_edge(node(keep), o, ());
        }
        for i in ins {
            self.graph.update_edge(i, node(keep), ());
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
