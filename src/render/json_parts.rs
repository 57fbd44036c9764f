//! The parts of the JSON answer that each family fills in: its solution and the facts of its
//! puzzle. Field order is the order written.

use serde::Serialize;

/// A solution in JSON: the moves of an exchange, the pieces of a placement, a tour's route.
#[derive(Serialize)]
#[serde(untagged)]
pub enum JsonSolution {
    /// An exchange's moves in order.
    Moves {
        /// The moves.
        moves: Vec<JsonMove>,
    },
    /// A placement's pieces.
    Placement {
        /// The pieces.
        pieces: Vec<JsonPlaced>,
    },
    /// A tour: the starts and the jumps per time step.
    Route {
        /// Each knight's start square.
        starts: Vec<String>,
        /// Jumps in all.
        moves: usize,
        /// Time steps in all.
        time_steps: usize,
        /// The jumps of each time step.
        steps: Vec<Vec<JsonJump>>,
    },
}

/// One jump of a tour.
#[derive(Serialize)]
pub struct JsonJump {
    /// Knight number from 1, in the puzzle's order.
    pub knight: usize,
    /// Where it jumps from.
    pub from: String,
    /// Where it lands.
    pub to: String,
}

/// One piece of a placement.
#[derive(Serialize)]
pub struct JsonPlaced {
    /// The kind's name.
    pub piece: &'static str,
    /// Its square.
    pub square: String,
}

/// One move of an exchange.
#[derive(Serialize)]
pub struct JsonMove {
    /// The side's name.
    pub side: String,
    /// The kind's name.
    pub piece: &'static str,
    /// Where it moves from.
    pub from: String,
    /// Where it moves to.
    pub to: String,
    /// Long algebraic notation.
    pub notation: String,
}

/// A family's fields of the JSON `puzzle` object.
pub struct JsonPuzzleFacts {
    /// Exchanges: the number of pieces. Placements: the kinds that may be placed (`"NB"`).
    /// Tours: the number of knights.
    pub pieces: serde_json::Value,
    /// Placements: `minimise` or `maximise`. Tours: `moves`, `steps` or `feasible`.
    pub objective: Option<&'static str>,
    /// Placements: `empty-board` or `blocked`.
    pub attacks: Option<&'static str>,
}
