//! What the branch-and-bound search may use, and how often it reports.

use std::time::Duration;

/// How often the search reports its progress.
pub(super) const REPORT_EVERY: Duration = Duration::from_millis(500);

/// What the search may use; each ingredient can be switched off to measure it.
#[derive(Clone, Copy, Debug)]
pub struct Ingredients {
    /// Orbital fixing under the board symmetries.
    pub symmetry: bool,
    /// Fixing variables by their reduced costs.
    pub reduced_costs: bool,
    /// The local search for a first placement.
    pub local_search: bool,
    /// Branching on covering rows where they are long
    /// ([`branches_on_rows`](super::prepare::branches_on_rows); otherwise on a fractional variable).
    pub row_branching: bool,
    /// Zero-half cuts from the covering rows at the root ([`cuts`](super::cuts)).
    pub cuts: bool,
    /// The ring cut at the root: the integrality of the covering rows near the edge, carried
    /// into the relaxation by one row ([`ring`](super::ring)); never in a certified search,
    /// and off by default.
    pub ring_cut: bool,
    /// Reliability branching among the fractional variables ([`strong`](super::strong);
    /// otherwise the most fractional one).
    pub strong_branching: bool,
    /// In a tree known to be large (a cube of a split, or a search started again from its
    /// open nodes), strong branching on every candidate in the first levels below each cube,
    /// whatever the pseudocosts say ([`strong::TOP_LEVELS`](super::strong::TOP_LEVELS)).
    pub strong_at_top: bool,
    /// A search that branches on variables and runs long starts again from its tree's open
    /// nodes at a shallow depth ([`cubes::open_nodes`](super::cubes::open_nodes)), searched
    /// best bound first.
    pub cubes: bool,
    /// Each cube of such a tree separates zero-half cuts of its own at its top, with its
    /// fixed variables taken out: they hold only in the cube ([`cuts::for_subtree`](super::cuts::for_subtree)).
    pub subtree_cuts: bool,
    /// A search started again from its open nodes goes a level at a time: nodes whose bound
    /// rounds up above the proven bound wait until every node below them is searched
    /// ([`Pool::defers`](super::pool::Pool::defers)), so that the proven bound rises early;
    /// off by default, since the proof takes longer.
    pub levels: bool,
    /// Lexicographic reduction in the order of the branching decisions ([`lex`](super::lex))
    /// beside orbital fixing; never in a certified search.
    pub lex_reduction: bool,
    /// Record every bound the search uses, for a certificate of its tree
    /// ([`crate::certify::prove_tree`]); switches off the restart from open nodes.
    pub certify: bool,
}

impl Default for Ingredients {
    fn default() -> Self {
        Ingredients {
            symmetry: true,
            reduced_costs: true,
            local_search: true,
            row_branching: true,
            cuts: true,
            ring_cut: false,
            strong_branching: true,
            strong_at_top: true,
            cubes: true,
            subtree_cuts: true,
            levels: false,
            lex_reduction: true,
            certify: false,
        }
    }
}
