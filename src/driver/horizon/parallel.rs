//! Several horizons at once: `threads` oracles, each on a thread of its own, take the next
//! horizon nobody has asked yet, so the hard horizons just below the optimum are refuted side
//! by side (as SAT planners evaluate horizons in parallel).
//!
//! The answer stays the sequential search's: the first reachable horizon counts only once every
//! horizon before it is refuted, and the answers are reported in horizon order (a row of the
//! work table names the thread that answered it), so what the search has proved at any moment
//! is what its report says. A thread whose horizon lies past a reachable one is stopped
//! mid-call, since its answer can no longer matter. A stage that goes on from the optimum's
//! solver (a tour's fewer moves) runs on the thread that reached it, with its learnt clauses.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use super::{HorizonOracle, Reached};
use crate::driver::{Event, Query};
use crate::Error;

/// What a thread tells the coordinating one.
enum Report<S> {
    /// An event to pass on at once: a call that starts (for progress), or anything the stage
    /// after the optimum reports.
    Now(Event),
    /// The answer at `horizons[index]`, by `thread`, with the events of its calls held back
    /// until every horizon before it has been reported.
    Answered { thread: usize, index: usize, events: Vec<Event>, answer: Result<Option<S>, Error> },
    /// The stage after the optimum ended, with its solution.
    Finished(Result<S, Error>),
}

/// A stage that goes on from the solver that reached the optimum, with its horizon and
/// solution, and ends with the solution to report.
pub(in crate::driver) type Then<'f, O, S> =
    &'f (dyn Fn(&mut O, usize, S, &mut dyn FnMut(Event)) -> Result<S, Error> + Sync);

/// The stage after the optimum, and where a thread that reached a horizon hears whether it
/// was the optimum.
type ThenOnVerdict<'f, O> = (Then<'f, O, <O as HorizonOracle>::Solution>, mpsc::Receiver<()>);

/// An answer waiting for the horizons before it: the thread, its calls' events, the answer.
type Waiting<S> = (usize, Vec<Event>, Result<Option<S>, Error>);

/// What the threads share.
struct Shared<'h> {
    horizons: &'h [usize],
    /// The index of the next horizon to take.
    next: AtomicUsize,
    /// The index of the first reachable horizon found so far (`usize::MAX`: none).
    first_reached: AtomicUsize,
    /// The index each thread last took (0 before its first).
    working_on: Vec<AtomicUsize>,
    /// Set to stop a thread's call.
    stops: Vec<Arc<AtomicBool>>,
}

impl Shared<'_> {
    /// Stops every thread working past `index`.
    fn stop_past(&self, index: usize) {
        for (working, stop) in self.working_on.iter().zip(&self.stops) {
            if working.load(Ordering::SeqCst) > index {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Stops every thread but `kept`.
    fn stop_all_but(&self, kept: Option<usize>) {
        for (thread, stop) in self.stops.iter().enumerate() {
            if Some(thread) != kept {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// [`super::first_reachable`] on `threads` oracles that `make` builds, one per thread, each
/// given the flag that stops its calls. `between` runs on the calling thread after each
/// unreachable horizon, in order, as in the sequential search; `then`, if given, on the thread
/// that reached the optimum, and its solution is the one returned.
pub(in crate::driver) fn first_reachable_parallel<O: HorizonOracle>(
    threads: usize,
    make: &(dyn Fn(Arc<AtomicBool>) -> Result<O, Error> + Sync),
    horizons: &[usize],
    query: Query,
    emit: &mut dyn FnMut(Event),
    mut between: impl FnMut(usize, &mut dyn FnMut(Event)) -> Result<ControlFlow<()>, Error>,
    then: Option<Then<O, O::Solution>>,
) -> Result<Reached<O::Solution>, Error>
where
    O::Solution: Send + Clone,
{
    let threads = threads.clamp(1, horizons.len().max(1));
    let shared = Shared {
        horizons,
        next: AtomicUsize::new(0),
        first_reached: AtomicUsize::new(usize::MAX),
        working_on: (0..threads).map(|_| AtomicUsize::new(0)).collect(),
        stops: (0..threads).map(|_| Arc::default()).collect(),
    };
    let (sender, receiver) = mpsc::channel();
    let (go, verdicts): (Vec<_>, Vec<_>) = (0..threads).map(|_| mpsc::channel::<()>()).unzip();
    std::thread::scope(|scope| {
        for (thread, verdict) in verdicts.into_iter().enumerate() {
            let (shared, sender) = (&shared, sender.clone());
            let then = then.map(|then| (then, verdict));
            scope.spawn(move || work(thread, shared, make, query, &sender, then));
        }
        drop(sender);
        let ended = coordinate(&shared, &receiver, emit, &mut between);
        let ended = match (ended, then) {
            (Ok((Reached::At(horizon, _), Some(thread))), Some(_)) => {
                // The others' work no longer matters; the thread that reached the optimum goes
                // on, and dropping the other verdicts dismisses the rest.
                shared.stop_all_but(Some(thread));
                let _ = go[thread].send(());
                drop(go);
                finish(&receiver, emit).map(|solution| Reached::At(horizon, solution))
            }
            (ended, _) => {
                // Threads that wait for a verdict are dismissed.
                drop(go);
                ended.map(|(reached, _)| reached)
            }
        };
        // Whatever ended the search, no thread's work matters any more.
        shared.stop_all_but(None);
        ended
    })
}

/// Passes on the events of the stage after the optimum until it ends.
fn finish<S>(receiver: &mpsc::Receiver<Report<S>>, emit: &mut dyn FnMut(Event)) -> Result<S, Error> {
    loop {
        match receiver.recv() {
            Ok(Report::Now(event)) => emit(event),
            Ok(Report::Answered { .. }) => {}
            Ok(Report::Finished(solution)) => return solution,
            Err(_) => return Err(Error::Internal("the stage after the optimum ended without an answer".into())),
        }
    }
}

/// One thread: takes horizons in turn until they run out or lie past a reachable one. With
/// `then`, a thread that reaches a horizon waits for the verdict: if it reached the optimum,
/// it goes on with `then`.
fn work<O: HorizonOracle<Solution: Clone>>(
    thread: usize,
    shared: &Shared,
    make: &(dyn Fn(Arc<AtomicBool>) -> Result<O, Error> + Sync),
    query: Query,
    sender: &mpsc::Sender<Report<O::Solution>>,
    then: Option<ThenOnVerdict<O>>,
) {
    let stop = &shared.stops[thread];
    let mut oracle = None;
    loop {
        let index = shared.next.fetch_add(1, Ordering::SeqCst);
        // Say what this thread works on before reading whether it still matters, so that a
        // thread that finds a reachable horizon either sees this one or is seen by it.
        shared.working_on[thread].store(index, Ordering::SeqCst);
        if stop.load(Ordering::SeqCst)
            || index >= shared.horizons.len()
            || index > shared.first_reached.load(Ordering::SeqCst)
        {
            return;
        }
        let oracle = match &mut oracle {
            Some(oracle) => oracle,
            None => match make(Arc::clone(stop)) {
                Ok(made) => oracle.insert(made),
                Err(error) => {
                    let _ = sender.send(Report::Answered { thread, index, events: Vec::new(), answer: Err(error) });
                    return;
                }
            },
        };
        let mut events = Vec::new();
        let mut held = |event: Event| match event {
            Event::Trying { .. } => {
                let _ = sender.send(Report::Now(event));
            }
            other => events.push(tagged(other, thread)),
        };
        let answer = oracle.reach(shared.horizons[index], query, &mut held);
        if answer.is_err() && stop.load(Ordering::SeqCst) {
            // Stopped mid-call: the answer is not needed.
            return;
        }
        let Ok(Some(solution)) = answer else {
            let failed = answer.is_err();
            let _ = sender.send(Report::Answered { thread, index, events, answer });
            if failed {
                return;
            }
            continue;
        };
        shared.first_reached.fetch_min(index, Ordering::SeqCst);
        shared.stop_past(index);
        let Some((then, verdict)) = then else {
            let _ = sender.send(Report::Answered { thread, index, events, answer: Ok(Some(solution)) });
            return;
        };
        // The solution goes on with `then`: the coordinator only needs to know it exists.
        let kept = solution.clone();
        let _ = sender.send(Report::Answered { thread, index, events, answer: Ok(Some(solution)) });
        if verdict.recv().is_ok() {
            let mut now = |event: Event| {
                let _ = sender.send(Report::Now(tagged(event, thread)));
            };
            let _ = sender.send(Report::Finished(then(oracle, shared.horizons[index], kept, &mut now)));
        }
        return;
    }
}

/// A solver call's row, with the thread (from 1) that made it.
fn tagged(event: Event, thread: usize) -> Event {
    match event {
        Event::Step(mut step) => {
            step.thread = Some(thread + 1);
            Event::Step(step)
        }
        other => other,
    }
}

/// Reports the answers in horizon order and decides: the first reachable horizon (and the
/// thread that reached it) once all before it are refuted, a proof of `between`, the first
/// error in order, or no horizon left.
fn coordinate<S>(
    shared: &Shared,
    receiver: &mpsc::Receiver<Report<S>>,
    emit: &mut dyn FnMut(Event),
    between: &mut impl FnMut(usize, &mut dyn FnMut(Event)) -> Result<ControlFlow<()>, Error>,
) -> Result<(Reached<S>, Option<usize>), Error> {
    let mut waiting: BTreeMap<usize, Waiting<S>> = BTreeMap::new();
    let mut reported = 0;
    while reported < shared.horizons.len() {
        // Every thread ended without the next answer: nothing more will come.
        let Ok(report) = receiver.recv() else {
            return Err(Error::Internal(format!("no answer came for horizon {}", shared.horizons[reported])));
        };
        match report {
            Report::Now(event) => emit(event),
            Report::Answered { thread, index, events, answer } => {
                waiting.insert(index, (thread, events, answer));
            }
            Report::Finished(_) => return Err(Error::Internal("a stage finished before it was asked".into())),
        }
        while let Some((thread, events, answer)) = waiting.remove(&reported) {
            let horizon = shared.horizons[reported];
            for event in events {
                emit(event);
            }
            if let Some(solution) = answer? {
                return Ok((Reached::At(horizon, solution), Some(thread)));
            }
            if between(horizon, emit)?.is_break() {
                return Ok((Reached::Stopped, None));
            }
            reported += 1;
        }
    }
    Ok((Reached::Exhausted, None))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::driver::StepStats;
    use crate::solver::Answer;

    /// The goal is reachable from horizon `from` on; later horizons answer sooner.
    struct Staggered {
        from: usize,
    }

    impl HorizonOracle for Staggered {
        type Solution = usize;

        fn reach(&mut self, horizon: usize, query: Query, emit: &mut dyn FnMut(Event)) -> Result<Option<usize>, Error> {
            emit(Event::Trying { horizon, query });
            std::thread::sleep(Duration::from_millis(2 * (12 - horizon.min(12)) as u64));
            let result = if horizon >= self.from { Answer::Sat } else { Answer::Unsat };
            let step = StepStats { result, ..StepStats::proved_unsat(horizon, query) };
            emit(Event::Step(step));
            Ok((result == Answer::Sat).then_some(horizon))
        }
    }

    fn rows(events: &[Event]) -> Vec<(usize, Answer)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Step(step) => Some((step.horizon, step.result)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_first_reachable_horizon_wins_and_answers_come_in_order() {
        let horizons: Vec<usize> = (0..=12).collect();
        for threads in [1, 2, 3, 5] {
            let make = |_stop| Ok(Staggered { from: 7 });
            let mut events = Vec::new();
            let reached = first_reachable_parallel(
                threads,
                &make,
                &horizons,
                Query::Goal,
                &mut |e| events.push(e),
                |_, _| Ok(ControlFlow::Continue(())),
                None,
            )
            .unwrap();
            assert!(matches!(reached, Reached::At(7, 7)), "{threads} threads");
            let expected: Vec<(usize, Answer)> =
                (0..=7).map(|h| (h, if h < 7 { Answer::Unsat } else { Answer::Sat })).collect();
            assert_eq!(rows(&events), expected, "{threads} threads");
        }
    }

    #[test]
    fn a_proof_between_horizons_stops_every_thread_and_a_stage_runs_after_the_optimum() {
        let horizons: Vec<usize> = (0..=12).collect();
        let make = |_stop| Ok(Staggered { from: 99 });
        let mut asked = Vec::new();
        let between = |h: usize, _: &mut dyn FnMut(Event)| {
            asked.push(h);
            Ok(if h == 4 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
        };
        let reached = first_reachable_parallel(3, &make, &horizons, Query::Goal, &mut |_| {}, between, None).unwrap();
        assert!(matches!(reached, Reached::Stopped));
        assert_eq!(asked, vec![0, 1, 2, 3, 4], "between runs in horizon order");

        let make = |_stop| Ok(Staggered { from: 5 });
        let then =
            |_: &mut Staggered, horizon: usize, found: usize, _: &mut dyn FnMut(Event)| Ok(found * 100 + horizon);
        let reached = first_reachable_parallel(
            2,
            &make,
            &horizons,
            Query::Goal,
            &mut |_| {},
            |_, _| Ok(ControlFlow::Continue(())),
            Some(&then),
        )
        .unwrap();
        assert!(matches!(reached, Reached::At(5, 505)));
    }
}
