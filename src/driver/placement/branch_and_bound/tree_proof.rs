//! What a certified branch-and-bound search hands to its certificate
//! ([`crate::certify::prove_tree`]): every bound it used, as integer multipliers of rows at a
//! node of the decision tree, how its cuts were derived, and its orbital fixings.

/// A decision on the path from the root: a variable and the value it was given.
pub type Decision = (usize, bool);

/// One bound the search used at a node: `Σ multiplier · row + objective · (cost <= best -
/// step)`, with the rows numbered as the search numbers them (the model's `>=` rows in the
/// order VeriPB numbers them, then the cuts).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Combination {
    /// The decisions of the node, in the order they were taken.
    pub path: Vec<Decision>,
    /// `(row, multiplier)`, every multiplier positive.
    pub multipliers: Vec<(usize, u64)>,
    /// The multiplier of the objective-improving constraint (0: the rows alone conflict).
    pub objective: u64,
}

/// A zero-half cut: the halved sum of three rows (numbered among the model's rows and the
/// cuts before it), with a bound added for each variable the three count an odd number of times.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct CutOrigin {
    /// The three rows.
    pub rows: [usize; 3],
    /// The bounds added: `(variable, upper)`, `-x >= -1` if `upper`, else `x >= 0`.
    pub bounds: Vec<(usize, bool)>,
}

/// Orbital fixing at a node: once the child placing `candidate` was searched, the other
/// members of its orbit, under the symmetries that map the node's decisions onto themselves,
/// were emptied.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct OrbitFixing {
    /// The decisions of the node (those of earlier children's orbits included).
    pub path: Vec<Decision>,
    /// The candidate whose child was searched.
    pub candidate: usize,
    /// The other members of its orbit that were emptied.
    pub images: Vec<usize>,
}

/// What a branch-and-bound search logged for its certificate.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct TreeProof {
    /// Rows of the model, as the search numbers them (an equality counts twice).
    pub model_rows: usize,
    /// Every cut separated, in order; later cuts may sum earlier ones.
    pub separated: Vec<CutOrigin>,
    /// The rows after the model's: indices into `separated`.
    pub kept: Vec<usize>,
    /// The greatest common divisor of the costs.
    pub step: i64,
    /// Every bound used, in any order.
    pub combinations: Vec<Combination>,
    /// The symmetries of the model the search used, each the image of every variable (the
    /// identity left out).
    pub symmetries: Vec<Vec<usize>>,
    /// Every orbital fixing, in any order.
    pub orbits: Vec<OrbitFixing>,
    /// Nodes closed by propagating the rows alone, with no bound: each a path.
    #[serde(default)]
    pub leaves: Vec<Vec<Decision>>,
}
