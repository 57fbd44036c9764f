//! The lines of a tree proof, written straight into the proof's writer.
//!
//! A tree proof is mostly long `pol` lines (a hundred or more rows times their multipliers) and
//! `rup` clauses, hundreds of megabytes for the largest searches; formatting them through
//! `std::fmt` took most of the time of writing the proof. Each line is built here in a reused
//! byte buffer with a digit loop of its own, and the constraint numbers are counted as VeriPB
//! counts them: one per `soli`, `pol` and `rup` line, from one past the model's rows.

use std::io::{self, Write};

use crate::encodings::linear::push_decimal;

/// A VeriPB proof written line by line.
pub struct Lines<W: Write> {
    writer: W,
    line: Vec<u8>,
    next_id: u64,
    /// Terms of a `pol` sum added as a balanced tree before the groups are added in turn.
    group: usize,
    /// Lines are numbered but not written ([`Lines::counting`]).
    dry: bool,
}

/// A term of a `pol` line: a constraint times a multiplier, or a literal axiom.
#[derive(Clone, Copy, Debug)]
pub enum Term {
    /// Constraint number and multiplier.
    Scaled(u64, u64),
    /// A literal axiom `x >= 0` (`false`) or `~x >= 0` (`true`) of model variable `x`.
    Axiom(usize, bool),
}

impl Lines<io::Sink> {
    /// Numbers the lines of a proof of a model of `rows` constraints as [`Lines::new`] would,
    /// writing nothing: to walk a proof once before writing it.
    pub fn counting(rows: usize) -> Self {
        Lines { writer: io::sink(), line: Vec::new(), next_id: rows as u64 + 1, group: 1, dry: true }
    }
}

impl<W: Write> Lines<W> {
    /// Starts the proof of a model of `rows` constraints.
    pub fn new(mut writer: W, rows: usize) -> io::Result<Self> {
        writeln!(writer, "pseudo-Boolean proof version 2.0")?;
        writeln!(writer, "f {rows}")?;
        Ok(Lines { writer, line: Vec::with_capacity(1 << 12), next_id: rows as u64 + 1, group: 1, dry: false })
    }

    /// Sums of `pol` lines from now on: each run of `group` terms is added as a balanced tree
    /// (`a b + c d + +`), and the runs' sums one after the other (1, the start: term after
    /// term).
    ///
    /// VeriPB merges the two constraints of each `+` into a new one. Term after term, a
    /// growing sum is copied at every `+`: a hundred rows of a few terms each, the sum of
    /// every variable copied a hundred times. Balanced, each term is copied about log₂(group)
    /// times, which pays while the sums stay shorter than the model: measured on knight
    /// domination 15x15 (rows of up to 9 of 225 variables), 2.78 s to verify in groups of
    /// 32, 2.94 s balanced throughout, 3.48 s term after term; on queen domination 13x13
    /// (rows of about 40 of 169), term after term was fastest.
    pub fn group_sums(&mut self, group: usize) {
        self.group = group.max(1);
    }

    /// A comment line.
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.writer, "* {text}")
    }

    fn number(&mut self, n: u64) {
        push_decimal(&mut self.line, n);
    }

    fn literal(&mut self, var: usize, negated: bool) {
        if negated {
            self.line.push(b'~');
        }
        self.line.push(b'x');
        self.number(var as u64 + 1);
    }

    fn end_line(&mut self) -> io::Result<()> {
        self.line.push(b'\n');
        self.writer.write_all(&self.line)?;
        self.line.clear();
        Ok(())
    }

    fn new_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// `soli`: the solution (a value per model variable); the number of the
    /// objective-improving constraint it adds.
    pub fn solution(&mut self, values: &[bool]) -> io::Result<u64> {
        self.line.extend_from_slice(b"soli");
        for (var, &value) in values.iter().enumerate() {
            self.line.push(b' ');
            self.literal(var, !value);
        }
        self.end_line()?;
        Ok(self.new_id())
    }

    /// `pol`: the sum of `terms` (grouped as [`Lines::group_sums`] says), then divided by
    /// `divisor` and multiplied by `multiplier` when these are above 1; its number.
    pub fn pol(&mut self, terms: &[Term], divisor: u64, multiplier: u64) -> io::Result<u64> {
        if self.dry {
            return Ok(self.new_id());
        }
        self.line.extend_from_slice(b"pol");
        for (i, group) in terms.chunks(self.group).enumerate() {
            self.sum(group);
            if i > 0 {
                self.line.extend_from_slice(b" +");
            }
        }
        for (operand, operator) in [(divisor, b" d"), (multiplier, b" *")] {
            if operand > 1 {
                self.line.push(b' ');
                self.number(operand);
                self.line.extend_from_slice(operator);
            }
        }
        self.end_line()?;
        Ok(self.new_id())
    }

    /// The sum of `terms` in reverse Polish notation, halves first.
    fn sum(&mut self, terms: &[Term]) {
        if terms.is_empty() {
            return;
        }
        if let [term] = terms {
            self.line.push(b' ');
            match *term {
                Term::Scaled(id, 1) => self.number(id),
                Term::Scaled(id, m) => {
                    self.number(id);
                    self.line.push(b' ');
                    self.number(m);
                    self.line.extend_from_slice(b" *");
                }
                Term::Axiom(var, negated) => self.literal(var, negated),
            }
            return;
        }
        let (left, right) = terms.split_at(terms.len() / 2);
        self.sum(left);
        self.sum(right);
        self.line.extend_from_slice(b" +");
    }

    /// `rup`: the clause of `literals` (model variable, negated), by reverse unit propagation
    /// over the whole database, or, with `hints`, over those constraints alone (and the
    /// clause's negation); its number.
    pub fn rup(&mut self, literals: impl Iterator<Item = (usize, bool)>, hints: &[u64]) -> io::Result<u64> {
        if self.dry {
            return Ok(self.new_id());
        }
        // As pigeons writes it: the empty clause is `rup  >= 1 ;`, hints after the `;`.
        self.line.extend_from_slice(b"rup ");
        for (i, (var, negated)) in literals.enumerate() {
            if i > 0 {
                self.line.push(b' ');
            }
            self.line.extend_from_slice(b"1 ");
            self.literal(var, negated);
        }
        self.line.extend_from_slice(b" >= 1 ;");
        for &hint in hints {
            self.line.push(b' ');
            self.number(hint);
        }
        self.end_line()?;
        Ok(self.new_id())
    }

    /// `strengthening_to_core on` or `off`: whether `red` steps add to the core (and only the
    /// core's images are their proof goals).
    pub fn strengthening_to_core(&mut self, on: bool) -> io::Result<()> {
        writeln!(self.writer, "strengthening_to_core {}", if on { "on" } else { "off" })
    }

    /// `red`: the clause of `literals` (model variable, negated), redundant by the witness that
    /// substitutes each variable of `witness` by the other; its number.
    pub fn red(
        &mut self,
        literals: impl Iterator<Item = (usize, bool)>,
        witness: impl Iterator<Item = (usize, usize)>,
    ) -> io::Result<u64> {
        if self.dry {
            return Ok(self.new_id());
        }
        self.line.extend_from_slice(b"red");
        for (var, negated) in literals {
            self.line.extend_from_slice(b" 1 ");
            self.literal(var, negated);
        }
        self.line.extend_from_slice(b" >= 1 ;");
        for (var, image) in witness {
            self.line.push(b' ');
            self.literal(var, false);
            self.line.extend_from_slice(b" -> ");
            self.literal(image, false);
        }
        self.end_line()?;
        Ok(self.new_id())
    }

    /// `del id`: deletes the constraints `ids`.
    pub fn delete(&mut self, ids: impl Iterator<Item = u64>) -> io::Result<()> {
        if self.dry {
            return Ok(());
        }
        self.line.extend_from_slice(b"del id");
        for id in ids {
            self.line.push(b' ');
            self.number(id);
        }
        self.line.extend_from_slice(b" ;");
        self.end_line()
    }

    /// Ends the proof: `conclusion BOUNDS value value`, the lower bound by the contradiction
    /// `empty`; the writer.
    pub fn conclude(mut self, value: i64, empty: u64) -> io::Result<W> {
        writeln!(self.writer, "output NONE")?;
        writeln!(self.writer, "conclusion BOUNDS {value} : {empty} {value}")?;
        writeln!(self.writer, "end pseudo-Boolean proof")?;
        Ok(self.writer)
    }
}

#[cfg(test)]
mod tests {
    use super::{Lines, Term};

    /// The lines and numbers as VeriPB reads them.
    #[test]
    fn lines_are_written_and_numbered_as_veripb_reads_them() {
        let mut lines = Lines::new(Vec::new(), 3).unwrap();
        lines.comment("a comment").unwrap();
        assert_eq!(lines.solution(&[true, false]).unwrap(), 4);
        let terms = [Term::Scaled(1, 1), Term::Scaled(2, 1_048_576), Term::Axiom(0, true), Term::Axiom(9, false)];
        assert_eq!(lines.pol(&terms, 2, 1).unwrap(), 5);
        lines.group_sums(2);
        assert_eq!(lines.pol(&terms[..3], 1, 1).unwrap(), 6);
        lines.group_sums(1);
        assert_eq!(lines.pol(&[Term::Scaled(4, 1)], 3, 3).unwrap(), 7);
        assert_eq!(lines.rup([(0, true), (10, false)].into_iter(), &[]).unwrap(), 8);
        assert_eq!(lines.rup(std::iter::empty(), &[4, 7]).unwrap(), 9);
        lines.delete([5, 6].into_iter()).unwrap();
        lines.strengthening_to_core(true).unwrap();
        assert_eq!(lines.red([(2, true)].into_iter(), [(2, 4), (4, 2)].into_iter()).unwrap(), 10);
        let text = String::from_utf8(lines.conclude(-4, 9).unwrap()).unwrap();
        assert_eq!(
            text,
            "pseudo-Boolean proof version 2.0\nf 3\n* a comment\nsoli x1 ~x2\n\
             pol 1 2 1048576 * + ~x1 + x10 + 2 d\npol 1 2 1048576 * + ~x1 +\npol 4 3 d 3 *\n\
             rup 1 ~x1 1 x11 >= 1 ;\nrup  >= 1 ; 4 7\ndel id 5 6 ;\nstrengthening_to_core on\n\
             red 1 ~x3 >= 1 ; x3 -> x5 x5 -> x3\noutput NONE\nconclusion BOUNDS -4 : 9 -4\n\
             end pseudo-Boolean proof\n"
        );
    }
}
