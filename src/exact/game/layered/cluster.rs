//! The processes one layered solve runs on ([`super`]), and the few collective
//! operations its value iteration needs: a maximum over every process, an exchange of
//! words between every pair, and a gather of every process's part.
//!
//! One process is [`OneProcess`]; with the cargo feature `mpi`, [`mpi_ranks::MpiRanks`]
//! runs the same solve on the ranks `mpirun` started. Each group's states are split among
//! the ranks by rows of A's configurations ([`Share`]); a rank sweeps its rows, reading the
//! states of other ranks' rows that its rows' moves lead to (its *ghosts*) from a copy
//! refreshed once per sweep, in one batch per pair of ranks.

use crate::exact::shared::ExactError;

/// The processes of one solve and their collective operations. Every process calls each
/// operation in the same order (as MPI's collectives are called), from one thread at a
/// time: the solve's sequential steps, never the sweeps' parallel work.
pub trait Cluster: Sync {
    /// This process's number, from 0.
    fn rank(&self) -> usize;
    /// How many processes there are.
    fn size(&self) -> usize;
    /// The largest of every process's `x`.
    fn max(&self, x: f64) -> Result<f64, ExactError>;
    /// Sends `to[r]` to process `r`; returns what each process sent here, by process.
    fn exchange(&self, to: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, ExactError>;
    /// Every process's `mine`, concatenated in the processes' order (bytes, 32-bit and
    /// 64-bit words: a finished group's flags and midpoints are gathered as they are kept).
    fn gather_u8(&self, mine: &[u8]) -> Result<Vec<u8>, ExactError>;
    /// [`Cluster::gather_u8`] of 32-bit words.
    fn gather_u32(&self, mine: &[u32]) -> Result<Vec<u32>, ExactError>;
    /// [`Cluster::gather_u8`] of 64-bit words.
    fn gather_u64(&self, mine: &[u64]) -> Result<Vec<u64>, ExactError>;
}

/// One process: the collective operations are the identity.
#[derive(Clone, Copy, Debug, Default)]
pub struct OneProcess;

impl Cluster for OneProcess {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn max(&self, x: f64) -> Result<f64, ExactError> {
        Ok(x)
    }
    fn exchange(&self, to: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, ExactError> {
        Ok(to.to_vec())
    }
    fn gather_u8(&self, mine: &[u8]) -> Result<Vec<u8>, ExactError> {
        Ok(mine.to_vec())
    }
    fn gather_u32(&self, mine: &[u32]) -> Result<Vec<u32>, ExactError> {
        Ok(mine.to_vec())
    }
    fn gather_u64(&self, mine: &[u64]) -> Result<Vec<u64>, ExactError> {
        Ok(mine.to_vec())
    }
}

/// Whether this process was started by `mpirun` (or another MPI launcher) among more than
/// one: the launchers of OpenMPI, MPICH and PMIx set these variables.
pub fn launched_ranks() -> Option<usize> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.parse::<usize>().ok())
        .filter(|&n| n > 1)
}

/// How one group's states are shared: each process owns the states of a contiguous range
/// of A's configurations (rows of `row_states` states each), the rows split as evenly as
/// they go.
#[derive(Clone, Debug)]
pub struct Share {
    /// `bounds[r]..bounds[r + 1]`: the local indices process `r` owns.
    bounds: Vec<usize>,
    rank: usize,
}

impl Share {
    /// `rows` rows of `row_states` states among `size` processes; this is process `rank`.
    pub fn new(rows: usize, row_states: usize, size: usize, rank: usize) -> Share {
        let bounds = (0..=size).map(|r| (r * rows / size) * row_states).collect();
        Share { bounds, rank }
    }

    /// The local indices this process owns.
    pub fn own(&self) -> std::ops::Range<usize> {
        self.owned_by(self.rank)
    }

    /// The local indices process `rank` owns.
    pub fn owned_by(&self, rank: usize) -> std::ops::Range<usize> {
        self.bounds[rank]..self.bounds[rank + 1]
    }

    /// Whether this process owns `local`.
    #[inline(always)]
    pub fn owns(&self, local: usize) -> bool {
        self.own().contains(&local)
    }

    /// The process that owns `local`.
    pub fn owner(&self, local: usize) -> usize {
        self.bounds.partition_point(|&b| b <= local) - 1
    }

    /// How many processes share the group.
    pub fn size(&self) -> usize {
        self.bounds.len() - 1
    }
}

/// Words sent to or received from one process, as MPI counts them.
#[cfg(feature = "mpi")]
fn count(n: usize) -> Result<mpi::Count, ExactError> {
    mpi::Count::try_from(n).map_err(|_| {
        ExactError::TooLarge(format!(
            "{n} words in one message between ranks, more than MPI counts (2^31 - 1): run on \
             more ranks"
        ))
    })
}

/// The same solve on the ranks `mpirun` started.
#[cfg(feature = "mpi")]
pub mod mpi_ranks {
    use super::{Cluster, count};
    use crate::exact::shared::ExactError;
    use mpi::collective::SystemOperation;
    use mpi::datatype::{Partition, PartitionMut};
    use mpi::environment::Universe;
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::*;

    /// MPI, started for this process, and its world of ranks. MPI ends when it is dropped.
    pub struct MpiRanks {
        world: SimpleCommunicator,
        _universe: Universe,
    }

    // SAFETY: MPI is started with `Threading::Serialized` (checked), and the solve calls
    // the collectives from one thread at a time (its sequential steps, on whichever thread
    // of the pool runs them); the communicator is a handle that MPI allows to be used from
    // any thread so.
    unsafe impl Sync for MpiRanks {}
    unsafe impl Send for MpiRanks {}

    impl MpiRanks {
        /// Starts MPI, for calls from one thread at a time (the thread running the solve
        /// need not be the one that started it).
        pub fn start() -> Result<MpiRanks, ExactError> {
            let (universe, threading) = mpi::initialize_with_threading(mpi::Threading::Serialized)
                .ok_or_else(|| {
                    ExactError::Ranks("MPI was already started in this process".into())
                })?;
            if threading < mpi::Threading::Serialized {
                return Err(ExactError::Ranks(format!(
                    "this MPI offers threading level {threading:?}; the solve needs \
                     Serialized (calls from one thread at a time)"
                )));
            }
            Ok(MpiRanks {
                world: universe.world(),
                _universe: universe,
            })
        }
    }

    /// Offsets of consecutive blocks of `counts`.
    fn offsets(counts: &[mpi::Count]) -> Result<Vec<mpi::Count>, ExactError> {
        let mut at: usize = 0;
        counts
            .iter()
            .map(|&c| {
                let here = count(at)?;
                at += c as usize;
                Ok(here)
            })
            .collect()
    }

    impl Cluster for MpiRanks {
        fn rank(&self) -> usize {
            self.world.rank() as usize
        }

        fn size(&self) -> usize {
            self.world.size() as usize
        }

        fn max(&self, x: f64) -> Result<f64, ExactError> {
            let mut out = 0.0f64;
            self.world
                .all_reduce_into(&x, &mut out, SystemOperation::max());
            Ok(out)
        }

        fn exchange(&self, to: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, ExactError> {
            let send_counts = to
                .iter()
                .map(|v| count(v.len()))
                .collect::<Result<Vec<_>, _>>()?;
            let mut receive_counts = vec![0 as mpi::Count; to.len()];
            self.world
                .all_to_all_into(&send_counts[..], &mut receive_counts[..]);
            let send: Vec<u64> = to.concat();
            let send_at = offsets(&send_counts)?;
            let receive_at = offsets(&receive_counts)?;
            let total: usize = receive_counts.iter().map(|&c| c as usize).sum();
            let mut received = vec![0u64; total];
            {
                let sent = Partition::new(&send[..], &send_counts[..], &send_at[..]);
                let mut into =
                    PartitionMut::new(&mut received[..], &receive_counts[..], &receive_at[..]);
                self.world.all_to_all_varcount_into(&sent, &mut into);
            }
            Ok(receive_at
                .iter()
                .zip(&receive_counts)
                .map(|(&at, &n)| received[at as usize..at as usize + n as usize].to_vec())
                .collect())
        }

        fn gather_u8(&self, mine: &[u8]) -> Result<Vec<u8>, ExactError> {
            self.gather(mine)
        }

        fn gather_u32(&self, mine: &[u32]) -> Result<Vec<u32>, ExactError> {
            self.gather(mine)
        }

        fn gather_u64(&self, mine: &[u64]) -> Result<Vec<u64>, ExactError> {
            self.gather(mine)
        }
    }

    impl MpiRanks {
        /// Every rank's `mine` into one vector on every rank (`MPI_Allgatherv`).
        fn gather<T: Equivalence + Copy + Default>(
            &self,
            mine: &[T],
        ) -> Result<Vec<T>, ExactError> {
            let n = count(mine.len())?;
            let mut counts = vec![0 as mpi::Count; self.size()];
            self.world.all_gather_into(&n, &mut counts[..]);
            let at = offsets(&counts)?;
            let total: usize = counts.iter().map(|&c| c as usize).sum();
            let mut all = vec![T::default(); total];
            {
                let mut into = PartitionMut::new(&mut all[..], &counts[..], &at[..]);
                self.world.all_gather_varcount_into(mine, &mut into);
            }
            Ok(all)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Share;

    #[test]
    fn a_share_splits_the_rows_and_finds_each_states_owner() {
        for size in 1..=5 {
            for rows in [0, 1, 3, 7, 10] {
                let row_states = 6;
                let shares: Vec<Share> = (0..size)
                    .map(|r| Share::new(rows, row_states, size, r))
                    .collect();
                let mut next = 0;
                for (r, share) in shares.iter().enumerate() {
                    let own = share.own();
                    assert_eq!(own.start, next);
                    assert_eq!(own.start % row_states, 0);
                    next = own.end;
                    for local in own {
                        assert_eq!(share.owner(local), r);
                        assert!(share.owns(local));
                    }
                }
                assert_eq!(next, rows * row_states);
            }
        }
    }
}
