//! Tour puzzles: knights touring the squares that static attackers leave safe.
//!
//! Static pieces (queens by default, any kind allowed) stand still for the whole puzzle. A
//! square is *safe* when no static piece stands on it and none attacks it; static pieces block
//! each other's lines as on a real board, and knights block nothing that matters, because a
//! knight never stands on an attacked square. Knights move as in chess, land only on safe
//! squares and never share a square. A target square is *touched* when a knight stands on it at
//! some time, the start included.
//!
//! Objectives:
//! * [`TourObjective::Moves`] — fewest moves, knights moving one at a time;
//! * [`TourObjective::Steps`] — fewest time steps when any subset of knights moves at each
//!   step, then fewest moves among the routes with that many steps;
//! * [`TourObjective::Feasible`] — any route, no claim of optimality.
//!
//! A knight that has nothing left to do simply stays where it stands (it keeps its square).

use std::collections::VecDeque;

use crate::geometry::{attack_steps, move_steps, Board, PawnDirection, PieceKind, Square};

/// What a tour minimises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TourObjective {
    /// Fewest moves; one knight moves at each step.
    #[default]
    Moves,
    /// Fewest time steps with any subset of knights moving at each step; then fewest moves.
    Steps,
    /// Any route that touches the targets; nothing is proved about its length.
    Feasible,
}

crate::named_values!(TourObjective { Moves => "moves", Steps => "steps", Feasible => "feasible" });

impl TourObjective {
    /// Whether knights may move together in one time step.
    pub fn parallel(self) -> bool {
        self == TourObjective::Steps
    }
}

/// Whether the targets may be touched in any order or must be touched in the order listed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VisitOrder {
    /// Any order.
    #[default]
    Any,
    /// The order of the list: target `i` counts only once targets `0..i` have been touched in
    /// that order (two knights may touch consecutive targets at the same time step).
    Listed,
}

crate::named_values!(VisitOrder { Any => "any", Listed => "listed" });

/// Where a knight starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnightStart {
    /// On this square.
    At(Square),
    /// On one of these safe squares, chosen by the solver to finish fastest. An empty list given
    /// to [`TourPuzzle::new`] stands for every safe square.
    OneOf(Vec<Square>),
}

impl KnightStart {
    /// Parses a start: a square (`h8`, or `Nh8`), `any` (any safe square), or alternatives
    /// separated by `|` (`a1|c3|e5`).
    pub fn parse(board: &Board, token: &str) -> Result<KnightStart, String> {
        let token = token.trim();
        if token == "any" {
            return Ok(KnightStart::OneOf(Vec::new()));
        }
        let mut squares: Vec<Square> = Vec::new();
        for part in token.split('|') {
            let part = part.trim();
            let name = part.strip_prefix('N').unwrap_or(part);
            if name.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
                return Err(format!("`{part}`: knights are the only moving pieces; write a square such as h8"));
            }
            let square = board.parse_square(name).map_err(|e| e.to_string())?;
            if !squares.contains(&square) {
                squares.push(square);
            }
        }
        Ok(match squares.as_slice() {
            [one] => KnightStart::At(*one),
            _ => KnightStart::OneOf(squares),
        })
    }

    /// The squares the knight may start from.
    pub fn candidates(&self) -> &[Square] {
        match self {
            KnightStart::At(square) => std::slice::from_ref(square),
            KnightStart::OneOf(squares) => squares,
        }
    }
}

/// Why a tour puzzle makes no sense.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TourError {
    /// A knight's start (or candidate start) is not a safe square.
    #[error("knight {knight} cannot start on {square}: {why}")]
    UnsafeStart {
        /// Knight number from 1.
        knight: usize,
        /// The square's name.
        square: String,
        /// Occupied or attacked by which piece.
        why: String,
    },
    /// Two knights are fixed on one square.
    #[error("knights {first} and {second} both start on {square}")]
    SharedStart {
        /// Knight number from 1.
        first: usize,
        /// Knight number from 1.
        second: usize,
        /// The square's name.
        square: String,
    },
    /// A target square is not safe, so no knight can ever touch it.
    #[error("target {square} can never be touched: {why}")]
    UnsafeTarget {
        /// The square's name.
        square: String,
        /// Occupied or attacked by which piece.
        why: String,
    },
    /// A target is listed twice.
    #[error("target {0} is listed twice")]
    RepeatedTarget(String),
    /// Two static pieces on one square.
    #[error("two static pieces on {0}")]
    SharedAttacker(String),
    /// No knights.
    #[error("a tour needs at least one knight")]
    NoKnights,
    /// A knight may start from more squares than there are knights free squares for.
    #[error("{knights} knights cannot start on {squares} different safe squares")]
    TooManyKnights {
        /// Number of knights.
        knights: usize,
        /// Safe squares available to start on.
        squares: usize,
    },
}

/// A tour puzzle: the board, the static attackers, the knights and the squares to touch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourPuzzle {
    /// An optional name for reports.
    pub name: Option<String>,
    /// The board.
    pub board: Board,
    /// The static pieces and their squares; white pawns attack up the board.
    pub attackers: Vec<(PieceKind, Square)>,
    /// Each knight's start.
    pub knights: Vec<KnightStart>,
    /// The squares to touch.
    pub targets: Vec<Square>,
    /// In which order the targets must be touched.
    pub order: VisitOrder,
    /// What is minimised.
    pub objective: TourObjective,
    /// Why each square is unsafe (`None` when safe), by square index.
    danger: Vec<Option<String>>,
}

impl TourPuzzle {
    /// Checks and builds a tour. `targets = None` means every safe square.
    pub fn new(
        name: Option<String>,
        board: Board,
        attackers: Vec<(PieceKind, Square)>,
        mut knights: Vec<KnightStart>,
        targets: Option<Vec<Square>>,
        order: VisitOrder,
        objective: TourObjective,
    ) -> Result<TourPuzzle, TourError> {
        let danger = danger_map(&board, &attackers)?;
        let safe: Vec<Square> = board.squares().filter(|s| danger[s.index()].is_none()).collect();
        for start in &mut knights {
            if matches!(start, KnightStart::OneOf(list) if list.is_empty()) {
                *start = KnightStart::OneOf(safe.clone());
            }
        }
        if knights.is_empty() {
            return Err(TourError::NoKnights);
        }
        let mut fixed: Vec<(usize, Square)> = Vec::new();
        for (k, start) in knights.iter().enumerate() {
            for &square in start.candidates() {
                if let Some(why) = &danger[square.index()] {
                    return Err(TourError::UnsafeStart { knight: k + 1, square: board.name(square), why: why.clone() });
                }
            }
            if let KnightStart::At(square) = start {
                if let Some(&(first, _)) = fixed.iter().find(|f| f.1 == *square) {
                    return Err(TourError::SharedStart {
                        first: first + 1,
                        second: k + 1,
                        square: board.name(*square),
                    });
                }
                fixed.push((k, *square));
            }
        }
        let mut starts: Vec<Square> = knights.iter().flat_map(|k| k.candidates().iter().copied()).collect();
        starts.sort();
        starts.dedup();
        if starts.len() < knights.len() {
            return Err(TourError::TooManyKnights { knights: knights.len(), squares: starts.len() });
        }
        let targets = targets.unwrap_or(safe);
        for (i, &square) in targets.iter().enumerate() {
            if let Some(why) = &danger[square.index()] {
                return Err(TourError::UnsafeTarget { square: board.name(square), why: why.clone() });
            }
            if targets[..i].contains(&square) {
                return Err(TourError::RepeatedTarget(board.name(square)));
            }
        }
        Ok(TourPuzzle { name, board, attackers, knights, targets, order, objective, danger })
    }

    /// Whether a knight may stand on `square`.
    pub fn is_safe(&self, square: Square) -> bool {
        !self.board.is_removed(square) && self.danger[square.index()].is_none()
    }

    /// Why `square` is unsafe, e.g. `attacked by the queen on d5`; `None` when safe.
    pub fn danger(&self, square: Square) -> Option<&str> {
        self.danger.get(square.index()).and_then(|d| d.as_deref())
    }

    /// Every safe square, in board order.
    pub fn safe_squares(&self) -> Vec<Square> {
        self.board.squares().filter(|&s| self.is_safe(s)).collect()
    }

    /// The safe squares a knight on `from` may jump to.
    pub fn knight_moves(&self, from: Square) -> Vec<Square> {
        move_steps(&self.board, PieceKind::Knight, from, PawnDirection::Up)
            .into_iter()
            .map(|step| step.to)
            .filter(|&to| self.is_safe(to))
            .collect()
    }

    /// Knight moves over safe squares from the nearest of `sources` to every square
    /// (`None`: unreachable), by square index.
    pub fn distances_from(&self, sources: &[Square]) -> Vec<Option<usize>> {
        let mut distance = vec![None; self.board.area()];
        let mut queue = VecDeque::new();
        for &s in sources {
            if self.is_safe(s) && distance[s.index()].is_none() {
                distance[s.index()] = Some(0);
                queue.push_back(s);
            }
        }
        while let Some(square) = queue.pop_front() {
            let d = distance[square.index()].expect("queued squares have a distance");
            for next in self.knight_moves(square) {
                if distance[next.index()].is_none() {
                    distance[next.index()] = Some(d + 1);
                    queue.push_back(next);
                }
            }
        }
        distance
    }

    /// A reason why no route exists that needs no search: a target that no knight can reach
    /// even alone on the board, or more separate regions with targets (sets of safe squares a
    /// knight cannot leave) than knights that can get into them.
    pub fn obstruction(&self) -> Option<String> {
        let starts: Vec<Square> = self.knights.iter().flat_map(|k| k.candidates().iter().copied()).collect();
        let distance = self.distances_from(&starts);
        let unreachable: Vec<String> =
            self.targets.iter().filter(|t| distance[t.index()].is_none()).map(|&t| self.board.name(t)).collect();
        match unreachable.len() {
            0 => {}
            1 => return Some(format!("no knight can ever reach the target {} over safe squares", unreachable[0])),
            _ => {
                let names = unreachable.join(", ");
                return Some(format!("no knight can ever reach the targets {names} over safe squares"));
            }
        }
        // Each region holding a target needs a knight of its own that can start inside it.
        let region = self.regions();
        let mut needed: Vec<usize> = self.targets.iter().map(|t| region[t.index()]).collect();
        needed.sort();
        needed.dedup();
        let can_enter: Vec<Vec<usize>> = self
            .knights
            .iter()
            .map(|k| {
                (0..needed.len()).filter(|&r| k.candidates().iter().any(|s| region[s.index()] == needed[r])).collect()
            })
            .collect();
        let served = max_matching(&can_enter, needed.len());
        (served < needed.len()).then(|| {
            format!(
                "the targets lie in {} regions that a knight cannot leave, but at most {served} of them can get a \
                 knight of their own",
                needed.len()
            )
        })
    }

    /// Numbers the regions of safe squares connected by knight moves; unsafe squares get
    /// `usize::MAX`.
    fn regions(&self) -> Vec<usize> {
        let mut region = vec![usize::MAX; self.board.area()];
        let mut count = 0;
        for square in self.safe_squares() {
            if region[square.index()] != usize::MAX {
                continue;
            }
            for (i, d) in self.distances_from(&[square]).iter().enumerate() {
                if d.is_some() {
                    region[i] = count;
                }
            }
            count += 1;
        }
        region
    }
}

/// The size of a largest matching of knights to regions (`options[k]`: the regions knight `k`
/// can start in), by augmenting paths.
fn max_matching(options: &[Vec<usize>], regions: usize) -> usize {
    fn augment(k: usize, options: &[Vec<usize>], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for &r in &options[k] {
            if !std::mem::replace(&mut seen[r], true)
                && owner[r].is_none_or(|other| augment(other, options, owner, seen))
            {
                owner[r] = Some(k);
                return true;
            }
        }
        false
    }
    let mut owner = vec![None; regions];
    (0..options.len()).filter(|&k| augment(k, options, &mut owner, &mut vec![false; regions])).count()
}

/// One knight's jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The knight, numbered from 0 in the puzzle's order.
    pub knight: usize,
    /// Where it jumps from.
    pub from: Square,
    /// Where it lands.
    pub to: Square,
}

/// A route: the knights' starting squares and, for each time step, the jumps made in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// Knight `k` starts on `starts[k]`.
    pub starts: Vec<Square>,
    /// The jumps of each time step (one per step when knights move one at a time).
    pub steps: Vec<Vec<Jump>>,
}

impl Route {
    /// The number of jumps.
    pub fn moves(&self) -> usize {
        self.steps.iter().map(Vec::len).sum()
    }

    /// The number of time steps.
    pub fn time_steps(&self) -> usize {
        self.steps.len()
    }

    /// The value the objective measures: time steps for [`TourObjective::Steps`], else moves.
    pub fn value(&self, objective: TourObjective) -> usize {
        match objective {
            TourObjective::Steps => self.time_steps(),
            TourObjective::Moves | TourObjective::Feasible => self.moves(),
        }
    }

    /// Every jump in order.
    pub fn jumps(&self) -> impl Iterator<Item = &Jump> + '_ {
        self.steps.iter().flatten()
    }
}

/// For every square, why a knight may not stand on it (occupied or attacked by a static piece).
fn danger_map(board: &Board, attackers: &[(PieceKind, Square)]) -> Result<Vec<Option<String>>, TourError> {
    let mut danger: Vec<Option<String>> = vec![None; board.area()];
    let mut occupied = vec![false; board.area()];
    for &(kind, square) in attackers {
        if occupied[square.index()] {
            return Err(TourError::SharedAttacker(board.name(square)));
        }
        occupied[square.index()] = true;
        danger[square.index()] = Some(format!("the {} on {} stands there", kind.name(), board.name(square)));
    }
    for &(kind, from) in attackers {
        for step in attack_steps(board, kind, from, PawnDirection::Up) {
            let blocked = step.between.iter().any(|b| occupied[b.index()]);
            if !blocked && danger[step.to.index()].is_none() {
                danger[step.to.index()] = Some(format!("attacked by the {} on {}", kind.name(), board.name(from)));
            }
        }
    }
    Ok(danger)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queen_d5() -> TourPuzzle {
        let board = Board::new(8, 8).unwrap();
        let d5 = board.parse_square("d5").unwrap();
        let h8 = board.parse_square("h8").unwrap();
        let attackers = vec![(PieceKind::Queen, d5)];
        TourPuzzle::new(None, board, attackers, vec![KnightStart::At(h8)], None, VisitOrder::Any, Default::default())
            .unwrap()
    }

    #[test]
    fn a_queen_on_d5_leaves_thirty_six_safe_squares() {
        let puzzle = queen_d5();
        assert_eq!(puzzle.safe_squares().len(), 36);
        assert_eq!(puzzle.targets.len(), 36);
        let g8 = puzzle.board.parse_square("g8").unwrap();
        assert_eq!(puzzle.danger(g8), Some("attacked by the queen on d5"));
        assert!(puzzle.obstruction().is_none());
    }

    #[test]
    fn static_pieces_block_each_other() {
        let board = Board::new(4, 1).unwrap();
        let attackers = vec![(PieceKind::Rook, Square(0)), (PieceKind::Knight, Square(1))];
        let danger = danger_map(&board, &attackers).unwrap();
        assert!(danger[2].is_none(), "the knight on b1 blocks the rook");
        assert!(danger[3].is_none());
    }

    #[test]
    fn unsafe_starts_and_targets_are_rejected() {
        let board = Board::new(8, 8).unwrap();
        let d5 = board.parse_square("d5").unwrap();
        let d8 = board.parse_square("d8").unwrap();
        let h8 = board.parse_square("h8").unwrap();
        let attackers = vec![(PieceKind::Queen, d5)];
        let start = vec![KnightStart::At(d8)];
        let err =
            TourPuzzle::new(None, board.clone(), attackers.clone(), start, None, VisitOrder::Any, Default::default());
        assert!(matches!(err, Err(TourError::UnsafeStart { .. })));
        let start = vec![KnightStart::At(h8)];
        let err = TourPuzzle::new(None, board, attackers, start, Some(vec![d8]), VisitOrder::Any, Default::default());
        assert!(matches!(err, Err(TourError::UnsafeTarget { .. })));
    }
}
