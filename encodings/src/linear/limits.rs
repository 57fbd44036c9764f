//! How large a linear model may grow: models are built in memory before they are written or
//! handed to a solver, so their size is checked before they are built.

/// The most terms (non-zero coefficients) a time-indexed linear model may have, written or
/// handed to HiGHS: it is built in memory first.
pub const MAX_EXPORT_TERMS: usize = 10_000_000;

/// Refuses a time-indexed linear model of `projected` terms at `horizon` past
/// [`MAX_EXPORT_TERMS`], before it is built; `who` says who would be given it.
pub fn check_model_size(projected: usize, horizon: usize, who: &str) -> Result<(), String> {
    if projected > MAX_EXPORT_TERMS {
        return Err(format!(
            "a horizon of {horizon} needs about {projected} terms in the linear model, more than the \
             {MAX_EXPORT_TERMS} {who}"
        ));
    }
    Ok(())
}

/// The most positions the network-flow model of an exchange may list.
pub const FLOW_POSITIONS: usize = 1_000_000;
