//! The OPB (pseudo-Boolean competition) and LP (CPLEX) forms of a linear model.

use std::io::{self, Write};

use super::{LinearModel, Relation, Sense};

/// Writes `model` in OPB: variables `x1, x2, …` in model order, one comment line per variable
/// with its name, `>=` and `=` constraints only (an at-most constraint is negated), the
/// objective as `min:` (a maximised objective is negated, and the comment says so).
pub fn write_opb(model: &LinearModel, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "* #variable= {} #constraint= {}", model.variables.len(), model.constraints.len())?;
    writeln!(out, "* {}", model.title)?;
    for (i, name) in model.variables.iter().enumerate() {
        writeln!(out, "* x{} = {name}", i + 1)?;
    }
    let terms = |terms: &[(i64, usize)], sign: i64| -> String {
        terms.iter().map(|&(c, v)| format!("{:+} x{} ", sign * c, v + 1)).collect()
    };
    if let Some((sense, objective)) = &model.objective {
        let sign = match sense {
            Sense::Minimise => 1,
            Sense::Maximise => {
                writeln!(out, "* the objective is maximised: OPB minimises its negation")?;
                -1
            }
        };
        writeln!(out, "min: {};", terms(objective, sign))?;
    }
    for constraint in &model.constraints {
        writeln!(out, "* {}", constraint.name)?;
        let (sign, relation) = match constraint.relation {
            Relation::AtLeast => (1, ">="),
            Relation::AtMost => (-1, ">="),
            Relation::Equal => (1, "="),
        };
        writeln!(out, "{}{relation} {};", terms(&constraint.terms, sign), sign * constraint.rhs)?;
    }
    Ok(())
}

/// Writes `model` in the CPLEX LP format, every variable binary, with at most eight terms a line.
pub fn write_lp(model: &LinearModel, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "\\ {}", model.title)?;
    let expression = |terms: &[(i64, usize)]| -> String {
        let parts: Vec<String> = terms
            .iter()
            .enumerate()
            .map(|(i, &(c, v))| {
                let sign = if c < 0 {
                    "- "
                } else if i > 0 {
                    "+ "
                } else {
                    ""
                };
                format!("{sign}{} {}", c.abs(), model.variables[v])
            })
            .collect();
        if parts.is_empty() {
            return "0".to_string();
        }
        // The format limits lines (to 560 characters in CPLEX): eight terms a line.
        parts.chunks(8).map(|line| line.join(" ")).collect::<Vec<_>>().join("\n   ")
    };
    match &model.objective {
        Some((Sense::Minimise, terms)) => writeln!(out, "Minimize\n obj: {}", expression(terms))?,
        Some((Sense::Maximise, terms)) => writeln!(out, "Maximize\n obj: {}", expression(terms))?,
        None => writeln!(out, "Minimize\n obj: 0")?,
    }
    writeln!(out, "Subject To")?;
    for c in &model.constraints {
        if c.terms.is_empty() {
            // LP has no constant rows; a row without variables is written with a zero term.
            writeln!(
                out,
                " {}: 0 {} {} {}",
                c.name,
                model.variables.first().map_or("", String::as_str),
                c.relation,
                c.rhs
            )?;
            continue;
        }
        writeln!(out, " {}: {} {} {}", c.name, expression(&c.terms), c.relation, c.rhs)?;
    }
    writeln!(out, "Binary")?;
    for name in &model.variables {
        writeln!(out, " {name}")?;
    }
    writeln!(out, "End")
}
