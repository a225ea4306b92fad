//! Which path plays the games: eight at once on the processor's widest vectors, or one at a
//! time; chosen when the program runs, or forced by [`LANES_VARIABLE`].
//!
//! Every path gives the same counts for the same seed (each chunk's games are drawn and
//! played as the one-game loop plays them), so the choice changes only the speed.

use super::vector::Vector;
use super::vector::portable::Portable;
use std::fmt;
use std::sync::OnceLock;

/// The environment variable that forces a path: `auto` (the default), `avx512`, `avx2`,
/// `neon`, `portable` or `scalar`.
pub const LANES_VARIABLE: &str = "WUERFELGLUECK_LANES";

/// A way to play the games of the rules' fast path (both players `frontmost`, plain rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LanesPath {
    /// Eight games at once in one AVX-512 register (x86-64 with AVX-512 F, CD and
    /// VPOPCNTDQ).
    Avx512,
    /// Eight games at once in two AVX2 registers (x86-64 with AVX2, BMI1/2, LZCNT, POPCNT).
    Avx2,
    /// Eight games at once in four NEON registers (64-bit ARM); only when asked for (see
    /// [`LanesPath::best_here`]).
    Neon,
    /// Eight games at once in plain Rust, vectorized by the compiler for the target's
    /// baseline (SSE2 on x86-64, NEON on 64-bit ARM); only when asked for (see
    /// [`LanesPath::best_here`]).
    Portable,
    /// One game at a time: the reference loop, which every other path equals.
    Scalar,
}

/// A value of [`LANES_VARIABLE`] that names no path, or a path this processor cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanesError {
    message: String,
}

impl fmt::Display for LanesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LanesError {}

impl LanesPath {
    /// Every path: the lanes, widest vectors first, then the one-game loop.
    pub const ALL: [LanesPath; 5] = [
        LanesPath::Avx512,
        LanesPath::Avx2,
        LanesPath::Neon,
        LanesPath::Portable,
        LanesPath::Scalar,
    ];

    /// The name [`LANES_VARIABLE`] takes.
    pub fn name(self) -> &'static str {
        match self {
            LanesPath::Avx512 => "avx512",
            LanesPath::Avx2 => "avx2",
            LanesPath::Neon => "neon",
            LanesPath::Portable => "portable",
            LanesPath::Scalar => "scalar",
        }
    }

    /// Whether this processor has what the path needs.
    pub fn runs_here(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            LanesPath::Avx512 => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512cd")
                    && std::is_x86_feature_detected!("avx512vpopcntdq")
                    && LanesPath::Avx2.runs_here()
            }
            #[cfg(target_arch = "x86_64")]
            LanesPath::Avx2 => {
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2")
                    && std::is_x86_feature_detected!("lzcnt")
                    && std::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            LanesPath::Avx512 | LanesPath::Avx2 => false,
            #[cfg(target_arch = "aarch64")]
            LanesPath::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            #[cfg(not(target_arch = "aarch64"))]
            LanesPath::Neon => false,
            LanesPath::Portable | LanesPath::Scalar => true,
        }
    }

    /// The path `auto` takes: the widest vectors this processor has, AVX-512 or AVX2, and
    /// else the one-game loop. The portable lanes are taken only when asked for: compiled
    /// for x86-64's baseline (no population or leading-zero count per lane) they are slower
    /// than the one-game loop, and on other processors they are not measured. The NEON lanes
    /// too: they are checked for correctness under emulation, but no ARM core has timed
    /// them, and there they execute more instructions a game than the one-game loop (many
    /// of them spills), so on 64-bit ARM `auto` plays one game at a time.
    pub fn best_here() -> LanesPath {
        [LanesPath::Avx512, LanesPath::Avx2]
            .into_iter()
            .find(|path| path.runs_here())
            .unwrap_or(LanesPath::Scalar)
    }

    /// The path a value of [`LANES_VARIABLE`] names (`auto` for the best here), refused
    /// where it names none or one this processor cannot run.
    pub fn parse_setting(value: &str) -> Result<LanesPath, LanesError> {
        let path = if value == "auto" {
            LanesPath::best_here()
        } else {
            LanesPath::ALL
                .into_iter()
                .find(|path| path.name() == value)
                .ok_or_else(|| LanesError {
                    message: format!(
                        "{LANES_VARIABLE}={value:?} names no path: expected auto, avx512, avx2, \
                         neon, portable or scalar"
                    ),
                })?
        };
        if !path.runs_here() {
            let here: Vec<&str> = LanesPath::ALL
                .into_iter()
                .filter(|p| p.runs_here())
                .map(LanesPath::name)
                .collect();
            return Err(LanesError {
                message: format!(
                    "{LANES_VARIABLE}={value}: this processor cannot run the {value} path; it \
                     runs {}",
                    here.join(", ")
                ),
            });
        }
        Ok(path)
    }

    /// The path [`LANES_VARIABLE`] asks for (the best here where it is not set).
    pub fn from_environment() -> Result<LanesPath, LanesError> {
        match std::env::var(LANES_VARIABLE) {
            Ok(value) => LanesPath::parse_setting(&value),
            Err(std::env::VarError::NotPresent) => Ok(LanesPath::best_here()),
            Err(std::env::VarError::NotUnicode(value)) => Err(LanesError {
                message: format!("{LANES_VARIABLE}={value:?} is not text"),
            }),
        }
    }

    /// The path of this process: [`LanesPath::from_environment`], read once. The command
    /// line and the Python package refuse a bad value before any work; a library user who
    /// set one gets the best path here, which gives the same counts.
    pub fn current() -> LanesPath {
        static CURRENT: OnceLock<LanesPath> = OnceLock::new();
        *CURRENT.get_or_init(|| {
            LanesPath::from_environment().unwrap_or_else(|_| LanesPath::best_here())
        })
    }

    /// Runs `kernel` on this path's vectors, compiled for its instruction set; `None` for
    /// [`LanesPath::Scalar`], which has no lanes.
    ///
    /// # Panics
    ///
    /// If the path does not [run here](LanesPath::runs_here): its instructions would be
    /// undefined.
    pub(crate) fn run<K: Kernel>(self, kernel: K) -> Option<K::Output> {
        assert!(
            self.runs_here(),
            "the {} path does not run here",
            self.name()
        );
        match self {
            // SAFETY: the processor has the path's features (asserted above).
            #[cfg(target_arch = "x86_64")]
            LanesPath::Avx512 => Some(unsafe { on_avx512(kernel) }),
            #[cfg(target_arch = "x86_64")]
            LanesPath::Avx2 => Some(unsafe { on_avx2(kernel) }),
            #[cfg(not(target_arch = "x86_64"))]
            LanesPath::Avx512 | LanesPath::Avx2 => unreachable!("asserted above"),
            // SAFETY: the processor has NEON (asserted above).
            #[cfg(target_arch = "aarch64")]
            LanesPath::Neon => Some(unsafe { on_neon(kernel) }),
            #[cfg(not(target_arch = "aarch64"))]
            LanesPath::Neon => unreachable!("asserted above"),
            LanesPath::Portable => Some(kernel.run::<Portable>()),
            LanesPath::Scalar => None,
        }
    }
}

/// Games played on some [`Vector`]: the work [`LanesPath::run`] compiles once per path.
pub(crate) trait Kernel {
    type Output;
    /// The games, on `V`. Implementations are `#[inline(always)]` (and so is what they
    /// call), so they are compiled inside the function that enables `V`'s instructions.
    fn run<V: Vector>(self) -> Self::Output;
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vpopcntdq,avx2,bmi1,bmi2,lzcnt,popcnt")]
fn on_avx512<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<super::vector::avx512::Avx512>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn on_avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<super::vector::avx2::Avx2>()
}

#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon")]
fn on_neon<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<super::vector::neon::Neon>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_a_path_this_processor_runs_or_are_refused() {
        assert_eq!(LanesPath::parse_setting("auto"), Ok(LanesPath::best_here()));
        assert_eq!(LanesPath::parse_setting("scalar"), Ok(LanesPath::Scalar));
        assert_eq!(
            LanesPath::parse_setting("portable"),
            Ok(LanesPath::Portable)
        );
        for path in LanesPath::ALL {
            match LanesPath::parse_setting(path.name()) {
                Ok(parsed) => assert!(parsed == path && path.runs_here()),
                Err(e) => {
                    assert!(!path.runs_here());
                    assert!(e.to_string().contains("cannot run"), "{e}");
                }
            }
        }
        for bad in ["", "AVX2", "sse", "auto "] {
            let e = LanesPath::parse_setting(bad).unwrap_err().to_string();
            assert!(
                e.contains("expected auto, avx512, avx2, neon, portable or scalar"),
                "{e}"
            );
        }
    }
}
