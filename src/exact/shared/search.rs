//! The boolean fixed points every exact solver needs, written once over a successor
//! function ([`Successors`]):
//!
//! * [`reach`]: which states a game can reach from its openings (the least fixed point of
//!   "is an opening, or is the successor of a reached state"), by passes that spread each
//!   reached state to its successors once.
//! * [`can_reach`]: which states can reach a win, or the never-ending set (the least fixed
//!   point of "wins in one step, or has a successor that can"), by in-place passes that OR
//!   each state's successors' flags into it until nothing changes: the reverse graph search
//!   from the winning states without building the reverse graph. Sweeping in the order that
//!   follows the game backwards, two or three passes suffice; captures, which run
//!   backwards, need one more each.
//!
//! Both are monotone (flags are only ever set), so any order and any interleaving of
//! threads reaches the same fixed point; the passes end when one changes nothing.
//!
//! A state space keeps the flags where it can afford them: the sparse chain one byte per
//! row, the matrix-free game one byte per pair of configurations shared by its two sides,
//! the joint index before there is a chain two bits per index. [`Successors::flags`] and
//! [`Successors::add_flags`] read and set a state's own bits, whatever the packing.

use crate::rules::Player;
use std::ops::Range;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

/// What one roll of the mover leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step<S> {
    /// The mover (this player) won.
    Win(Player),
    /// The game goes on in this state (possibly the state itself).
    Next(S),
}

/// A state space with a successor function and a few flag bits per state.
pub(crate) trait Successors: Sync {
    /// A state as the space addresses it.
    type State: Copy + Send + Sync;
    /// What a pass computes once for a run of states and their successors share (the
    /// matrix-free game: player B's moves from the row's configuration).
    type Batch: Sync;

    /// One pass over every state of the space, in the space's order (the order that follows
    /// the game backwards, or forwards if `forwards`), on as many threads as pay: calls
    /// `visit` on each state and returns whether any call returned true.
    fn pass(
        &self,
        forwards: bool,
        visit: impl Fn(&Self::Batch, Self::State) -> bool + Sync,
    ) -> bool;

    /// [`Successors::pass`] that may skip the batches none of whose states gained a bit of
    /// `gained` since the batch was last visited: enough for a search whose visit acts on
    /// the state's own flags only ([`reach`]), and cheaper where later passes touch few
    /// batches. By default every batch is visited.
    fn pass_gained(
        &self,
        forwards: bool,
        gained: u8,
        visit: impl Fn(&Self::Batch, Self::State) -> bool + Sync,
    ) -> bool {
        let _ = gained;
        self.pass(forwards, visit)
    }

    /// Calls `f` with where each distinct face of the mover's die leads from `state` (of
    /// `batch`); faces leading to the same place may be reported once or repeatedly.
    fn for_each_successor(
        &self,
        batch: &Self::Batch,
        state: Self::State,
        f: impl FnMut(Step<Self::State>),
    );

    /// The state's flag bits.
    fn flags(&self, state: Self::State) -> u8;

    /// Sets `bits` in the state's flags (others keep theirs).
    fn add_flags(&self, state: Self::State, bits: u8);
}

/// Marks the states reachable from `starts` with `reached`, using `spread` to remember the
/// states whose successors are marked. Each pass runs forwards (least advanced first), so
/// moves spread within a pass and each capture takes a pass; each state spreads once, so a
/// pass costs little more than a scan of the flags, or of the batches where a state was
/// newly reached ([`Successors::pass_gained`]). Returns the passes.
pub(crate) fn reach<S: Successors>(
    space: &S,
    starts: &[S::State],
    reached: u8,
    spread: u8,
) -> usize {
    for &s in starts {
        space.add_flags(s, reached);
    }
    let mut passes = 1;
    while space.pass_gained(true, reached, |batch, s| {
        let f = space.flags(s);
        if f & reached == 0 || f & spread != 0 {
            return false;
        }
        space.add_flags(s, spread);
        space.for_each_successor(batch, s, |step| {
            if let Step::Next(t) = step {
                space.add_flags(t, reached);
            }
        });
        true
    }) {
        // Between passes: a caller that gave up stops the search here.
        crate::fixpoint::checkpoint();
        passes += 1;
    }
    passes
}

/// The least fixed point of "a win of player `p` sets `wins[p]`; a state has the bits of
/// `mask` that a successor has": sets, on every state with all bits of `only`, the bits of
/// `mask` it can reach. Bits set beforehand seed the search (the never-ending set, for
/// "can reach it"). Returns the passes.
pub(crate) fn can_reach<S: Successors>(space: &S, mask: u8, wins: [u8; 2], only: u8) -> usize {
    let mut passes = 1;
    while space.pass(false, |batch, s| {
        let own = space.flags(s);
        if own & only != only || own & mask == mask {
            return false;
        }
        let mut acc = own & mask;
        space.for_each_successor(batch, s, |step| match step {
            Step::Win(p) => acc |= wins[p] & mask,
            Step::Next(t) => acc |= space.flags(t) & mask,
        });
        let new = acc & !own;
        if new != 0 {
            space.add_flags(s, new);
        }
        new != 0
    }) {
        // Between passes: a caller that gave up stops the search here.
        crate::fixpoint::checkpoint();
        passes += 1;
    }
    passes
}

/// After [`can_reach`] has set `win` on the states (with all bits of `only`) that can reach
/// a win: sets `never` on the states that cannot (the never-ending set) and on every state
/// that can reach one of them, the same least fixed point seeded with the never-ending
/// set. Returns the passes (0 without a never-ending state).
pub(crate) fn can_reach_never<S: Successors>(space: &S, win: u8, never: u8, only: u8) -> usize {
    let seeded = space.pass(false, |_, s| {
        let own = space.flags(s);
        let stuck = own & only == only && own & win == 0;
        if stuck {
            space.add_flags(s, never);
        }
        stuck
    });
    if seeded {
        can_reach(space, never, [0, 0], only)
    } else {
        0
    }
}

/// Runs `work` on the ranges of `chunk` consecutive items of `0..n`, in increasing order
/// (decreasing if `reverse`), handed out one by one to all rayon threads if `parallel`:
/// at any moment the ranges being worked on are neighbours, so nearly every flag an item
/// reads from one visited earlier is already from the current pass. Returns whether any
/// call returned true.
pub(crate) fn in_order(
    n: usize,
    chunk: usize,
    reverse: bool,
    parallel: bool,
    work: impl Fn(Box<dyn Iterator<Item = usize>>) -> bool + Sync,
) -> bool {
    in_order_fold(n, chunk, reverse, parallel, work, |x, y| x | y)
}

/// [`in_order`] with what the calls return merged by `merge` (starting from
/// `T::default()`; the order of merging is not fixed, so `merge` should not depend on it).
pub(crate) fn in_order_fold<T: Default + Send>(
    n: usize,
    chunk: usize,
    reverse: bool,
    parallel: bool,
    work: impl Fn(Box<dyn Iterator<Item = usize>>) -> T + Sync,
    merge: impl Fn(T, T) -> T + Sync,
) -> T {
    let chunks = n.div_ceil(chunk);
    let next = AtomicUsize::new(0);
    let range = |k: usize| -> Range<usize> {
        let k = if reverse { chunks - 1 - k } else { k };
        k * chunk..((k + 1) * chunk).min(n)
    };
    let run = || {
        let mut done = T::default();
        loop {
            let k = next.fetch_add(1, Relaxed);
            if k >= chunks {
                return done;
            }
            let items: Box<dyn Iterator<Item = usize>> = if reverse {
                Box::new(range(k).rev())
            } else {
                Box::new(range(k))
            };
            done = merge(done, work(items));
        }
    };
    let threads = if parallel {
        rayon::current_num_threads().clamp(1, chunks.max(1))
    } else {
        1
    };
    if threads == 1 {
        return run();
    }
    let results = std::sync::Mutex::new(Vec::with_capacity(threads));
    rayon::scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| {
                let done = run();
                results.lock().expect("no thread panicked").push(done);
            });
        }
    });
    let results = results.into_inner().expect("no thread panicked");
    results.into_iter().fold(T::default(), &merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

    /// States 0..n on a line, from state i to i + 1 (the last one wins for player 0), and
    /// state 0 also back to itself; plus a state n that only loops.
    struct Line {
        flags: Vec<AtomicU8>,
    }

    impl Successors for Line {
        type State = usize;
        type Batch = ();
        fn pass(&self, forwards: bool, visit: impl Fn(&(), usize) -> bool + Sync) -> bool {
            let n = self.flags.len();
            let mut any = false;
            for k in 0..n {
                any |= visit(&(), if forwards { k } else { n - 1 - k });
            }
            any
        }
        fn for_each_successor(&self, _: &(), s: usize, mut f: impl FnMut(Step<usize>)) {
            let n = self.flags.len() - 1;
            match s {
                _ if s == n => f(Step::Next(s)),
                _ if s + 1 == n => f(Step::Win(0)),
                0 => {
                    f(Step::Next(0));
                    f(Step::Next(1));
                }
                _ => f(Step::Next(s + 1)),
            }
        }
        fn flags(&self, s: usize) -> u8 {
            self.flags[s].load(Relaxed)
        }
        fn add_flags(&self, s: usize, bits: u8) {
            self.flags[s].fetch_or(bits, Relaxed);
        }
    }

    #[test]
    fn reach_and_can_reach_find_the_least_fixed_points() {
        let line = Line {
            flags: (0..6).map(|_| AtomicU8::new(0)).collect(),
        };
        reach(&line, &[1], 4, 8);
        let reached: Vec<bool> = (0..6).map(|s| line.flags(s) & 4 != 0).collect();
        assert_eq!(reached, [false, true, true, true, true, false]);
        // Only reached states are classified; the looping state 5 never is.
        let passes = can_reach(&line, 1, [1, 2], 4);
        let wins: Vec<bool> = (0..6).map(|s| line.flags(s) & 1 != 0).collect();
        assert_eq!(wins, [false, true, true, true, true, false]);
        // The backward order finds it all in one pass, and one more to see no change.
        assert_eq!(passes, 2);
        can_reach(&line, 1, [1, 2], 0);
        assert!(line.flags(0) & 1 != 0 && line.flags(5) & 1 == 0);
        // Among the reached states nothing is stuck; over all of them only state 5 is, and
        // nothing else leads to it.
        assert_eq!(can_reach_never(&line, 1, 32, 4), 0);
        assert!(can_reach_never(&line, 1, 32, 0) > 0);
        let never: Vec<bool> = (0..6).map(|s| line.flags(s) & 32 != 0).collect();
        assert_eq!(never, [false, false, false, false, false, true]);
    }
}
