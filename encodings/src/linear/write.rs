//! The OPB (pseudo-Boolean competition) and LP (CPLEX) forms of a linear model.

use std::io::{self, Write};

use super::{LinearModel, Relation, Sense};

/// Writes `model` in OPB: variables `x1, x2, …` in model order, one comment line per variable
/// with its name, `>=` and `=` constraints only (an at-most constraint is negated), the
/// objective as `min:` (a maximised objective is negated, and the comment says so).
pub fn write_opb(model: &LinearModel, out: &mut dyn Write) -> io::Result<()> {
    // Written into a buffer a few lines at a time: a model can have millions of terms, and
    // formatting each through `write!` costs more than the rest of a certificate.
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 16);
    let flush = |buf: &mut Vec<u8>, out: &mut dyn Write| -> io::Result<()> {
        if buf.len() >= 1 << 16 {
            out.write_all(buf)?;
            buf.clear();
        }
        Ok(())
    };
    writeln!(buf, "* #variable= {} #constraint= {}", model.variables.len(), model.constraints.len())?;
    writeln!(buf, "* {}", model.title)?;
    for (i, name) in model.variables.iter().enumerate() {
        buf.extend_from_slice(b"* x");
        push_integer(&mut buf, i as i64 + 1);
        buf.extend_from_slice(b" = ");
        buf.extend_from_slice(name.as_bytes());
        buf.push(b'\n');
        flush(&mut buf, out)?;
    }
    let terms = |buf: &mut Vec<u8>, terms: &[(i64, usize)], sign: i64| {
        for &(c, v) in terms {
            let c = sign * c;
            if c >= 0 {
                buf.push(b'+');
            }
            push_integer(buf, c);
            buf.extend_from_slice(b" x");
            push_integer(buf, v as i64 + 1);
            buf.push(b' ');
        }
    };
    if let Some((sense, objective)) = &model.objective {
        let sign = match sense {
            Sense::Minimise => 1,
            Sense::Maximise => {
                writeln!(buf, "* the objective is maximised: OPB minimises its negation")?;
                -1
            }
        };
        buf.extend_from_slice(b"min: ");
        terms(&mut buf, objective, sign);
        buf.extend_from_slice(b";\n");
    }
    for constraint in &model.constraints {
        buf.extend_from_slice(b"* ");
        buf.extend_from_slice(constraint.name.as_bytes());
        buf.push(b'\n');
        let (sign, relation): (i64, &[u8]) = match constraint.relation {
            Relation::AtLeast => (1, b">= "),
            Relation::AtMost => (-1, b">= "),
            Relation::Equal => (1, b"= "),
        };
        terms(&mut buf, &constraint.terms, sign);
        buf.extend_from_slice(relation);
        push_integer(&mut buf, sign * constraint.rhs);
        buf.extend_from_slice(b";\n");
        flush(&mut buf, out)?;
    }
    out.write_all(&buf)
}

/// Appends the decimal digits of `n` (with a `-` if negative) to `buf`.
fn push_integer(buf: &mut Vec<u8>, n: i64) {
    if n < 0 {
        buf.push(b'-');
    }
    push_decimal(buf, n.unsigned_abs());
}

/// Appends the decimal digits of `n` to `buf`: what `write!` does, without its machinery, for
/// files of millions of numbers (models and proofs).
pub fn push_decimal(buf: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[at..]);
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
