//! The convergence and stopping-rule experiments, the plots and the `converge` command.
//!
//! Statistical checks use fixed seeds; every bound is derived from the sampling error of
//! the quantity checked (never from a value the code under test produced), wide enough
//! (4 standard errors or more) that a correct implementation fails with probability well
//! below 1e-3, narrow enough to catch a wrong variance, a biased estimate, or an interval
//! with the wrong level.

use approx::assert_abs_diff_eq;
use proptest::prelude::*;
use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::{SolveOptions, solve_matchup};
use wuerfelglueck::experiments::Reference;
use wuerfelglueck::experiments::convergence::{ConvergenceConfig, run_convergence};
use wuerfelglueck::experiments::stopping::{Rule, StoppingConfig, change_rule_stop, run_rule};
use wuerfelglueck::rank::Tournament;
use wuerfelglueck::report::plot::heatmap_svg;
use wuerfelglueck::report::{OutputFile, PlotError};
use wuerfelglueck::rules::{Board, Profile, Rules};
use wuerfelglueck::sim::{DuelCounts, Matchup, StartCounts};
use wuerfelglueck::stats::{Z95, wilson};

mod common;

use common::{SMALL_BOARD, binary, temp_dir};

fn small_rules() -> Rules {
    Rules::new(Board::new(20, 10, 2, 2).unwrap(), Profile::BWINF)
}

fn dice() -> (Die, Die) {
    ("1..6".parse().unwrap(), "2..7".parse().unwrap())
}

fn reference(rules: &Rules, a: &Die, b: &Die) -> Reference {
    let exact = solve_matchup(rules, a, b, &SolveOptions::default()).unwrap();
    Reference::from_exact(&exact, true)
}

/// Binomial probabilities P(K = k), k = 0..=n, by the recurrence (no factorials).
fn binomial_pmf(n: u64, p: f64) -> Vec<f64> {
    let mut pmf = vec![(1.0 - p).powi(n as i32)];
    for k in 0..n {
        let next = pmf[k as usize] * (n - k) as f64 / (k + 1) as f64 * p / (1.0 - p);
        pmf.push(next);
    }
    pmf
}

/// The exact coverage of the 95 % Wilson interval for the stratified estimate
/// (K1 + K2) / N, K1 ~ Bin(N/2, p1), K2 ~ Bin(N/2, p2), of p = (p1 + p2) / 2.
fn exact_wilson_coverage(games: u64, p1: f64, p2: f64) -> f64 {
    let half = games / 2;
    let (f1, f2) = (binomial_pmf(half, p1), binomial_pmf(half, p2));
    let p = (p1 + p2) / 2.0;
    let mut covered = 0.0;
    for (k1, q1) in f1.iter().enumerate() {
        for (k2, q2) in f2.iter().enumerate() {
            if wilson((k1 + k2) as u64, games, Z95).contains(p) {
                covered += q1 * q2;
            }
        }
    }
    covered
}

#[test]
fn rmse_matches_the_sampling_error_and_wilson_keeps_its_coverage() {
    let rules = small_rules();
    let (a, b) = dice();
    let r = reference(&rules, &a, &b);
    assert!(r.p_a > 0.2 && r.p_a < 0.8, "{r:?}");
    let m = Matchup::new(&rules, [&a, &b], 100_000).unwrap();
    let reps = 1000u32;
    let config = ConvergenceConfig {
        min_games: 100,
        max_games: 1000,
        points_per_decade: 1,
        reps,
        seed: 11,
    };
    let result = run_convergence(&m, &r, &config, &|_| {});
    let games: Vec<u64> = result.points.iter().map(|p| p.games).collect();
    assert_eq!(games, vec![100, 1000]);
    let rn = f64::from(reps);
    for point in &result.points {
        let n = point.games;
        // The true sd of the estimate from first principles: two binomials of N/2 games.
        let (p1, p2) = (r.p_a_if_a_starts, r.p_a_if_b_starts);
        let sd = ((p1 * (1.0 - p1) + p2 * (1.0 - p2)) / (2.0 * n as f64)).sqrt();
        // MSE / sd^2 averages `reps` squared standardised errors: mean 1, standard error
        // about sqrt(2 / reps) (chi-square), 0.045 here; allow 5 of them.
        let ratio = (point.rmse / sd).powi(2);
        let se = (2.0 / rn).sqrt();
        assert_abs_diff_eq!(ratio, 1.0, epsilon = 5.0 * se);
        // The bias is a mean of `reps` errors of sd `sd`.
        assert_abs_diff_eq!(point.bias, 0.0, epsilon = 5.0 * sd / rn.sqrt());
        // Mean |error| of a normal error is sqrt(2/pi) sd; its spread over replicates is
        // sd sqrt(1 - 2/pi) / sqrt(reps). Allow 5 standard errors plus the binomial's
        // departure from normality at 100 games (a few per cent).
        let mae = (2.0 / std::f64::consts::PI).sqrt() * sd;
        let mae_se = sd * (1.0 - 2.0 / std::f64::consts::PI).sqrt() / rn.sqrt();
        assert_abs_diff_eq!(point.mae, mae, epsilon = 5.0 * mae_se + 0.03 * mae);
        // Coverage: `reps` independent Bernoulli trials with success probability equal to
        // the interval's exact coverage, computed from the binomial distributions.
        let exact = exact_wilson_coverage(n, p1, p2);
        assert_abs_diff_eq!(exact, 0.95, epsilon = 0.02);
        let cov_se = (exact * (1.0 - exact) / rn).sqrt();
        assert_abs_diff_eq!(point.wilson_coverage, exact, epsilon = 4.5 * cov_se);
        // The replicates are independent: their estimates are not all the same.
        let k = result.points.iter().position(|q| q.games == n).unwrap();
        let first = result.estimates[k][0];
        assert!(result.estimates[k].iter().any(|&e| e != first));
    }
}

#[test]
fn wrong_truth_is_detected() {
    // The same experiment against a reference that is off by three standard errors of a
    // 10,000-game estimate: the coverage collapses. The check above can therefore fail.
    let rules = small_rules();
    let (a, b) = dice();
    let mut r = reference(&rules, &a, &b);
    let sd = r.sd_estimate(10_000);
    r.p_a += 3.0 * sd;
    let m = Matchup::new(&rules, [&a, &b], 100_000).unwrap();
    let config = ConvergenceConfig {
        min_games: 10_000,
        max_games: 10_000,
        points_per_decade: 1,
        reps: 200,
        seed: 5,
    };
    let result = run_convergence(&m, &r, &config, &|_| {});
    // Coverage of an interval of half-width 1.96 sd around a point 3 sd away: about
    // P(Z > 1.04) = 0.15; far below 0.95.
    assert!(
        result.points[0].wilson_coverage < 0.4,
        "{:?}",
        result.points[0]
    );
    assert!(result.points[0].rmse > 2.5 * sd);
}

#[test]
fn change_rule_stops_within_101_games_in_real_games() {
    let rules = small_rules();
    let (a, b) = dice();
    let m = Matchup::new(&rules, [&a, &b], 100_000).unwrap();
    let config = StoppingConfig::default();
    for rep in 0..300 {
        let o = run_rule(&m, Rule::Change, &config, rep);
        // The change after game n is at most 1/n, so the rule stops by game 200; the
        // exhaustive search in the unit tests sharpens that to 101.
        assert!(o.games >= 15 && o.games <= 101, "{o:?}");
    }
}

proptest! {
    /// Whatever the outcomes (any win probability, also 0 and 1), the rule stops by game
    /// 101, at least 15 games in, and reports the wins of the games it used.
    #[test]
    fn change_rule_stops_by_game_101(p in prop_oneof![Just(0.0), Just(1.0), 0.0f64..=1.0], seed in any::<u64>()) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let outcomes: Vec<bool> = (0..400).map(|_| (rng.next_u32() as f64) < p * 4294967296.0).collect();
        let (n, wins) = change_rule_stop(outcomes.iter().copied(), 0.005, 15).unwrap();
        prop_assert!((15..=101).contains(&n));
        prop_assert_eq!(wins, outcomes[..n as usize].iter().filter(|&&w| w).count() as u64);
    }
}

fn tournament() -> Tournament {
    let dice: Vec<Die> = ["1..6", "1,1,1,6,6,6", "0..9"]
        .iter()
        .map(|d| d.parse().unwrap())
        .collect();
    let mut t = Tournament::new(dice);
    // 10,000 games per pair, A winning `wins` of them (split evenly over the starts).
    let counts = |wins: u64| {
        let side = |w: u64| StartCounts {
            games: 5000,
            a_wins: w,
            b_wins: 5000 - w,
            ..StartCounts::default()
        };
        DuelCounts {
            a_started: side(wins / 2),
            b_started: side(wins - wins / 2),
        }
    };
    t.record_duel(0, 1, &counts(152));
    t.record_duel(0, 2, &counts(6512));
    // 0.4987 +- 0.0098: undecided.
    t.record_duel(1, 2, &counts(4987));
    t
}

#[test]
fn heat_map_is_an_svg_with_the_dice_and_the_figures() {
    let dir = temp_dir("test", "heat");
    let path = dir.join("matrix.svg");
    let t = tournament();
    let heatmap = |overwrite: bool| OutputFile::check(&path, overwrite)?.write(&heatmap_svg(&t)?);
    heatmap(false).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..50]);
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    for label in [
        "1..6",
        "1,1,1,6,6,6",
        "0..9",
        "0.6512",
        "0.3488",
        "0.0152",
        "mean",
    ] {
        assert!(svg.contains(label), "missing {label}");
    }
    // 3 x 3 matrix plus the mean column, each cell filled and outlined, plus the frame of
    // the one undecided pair (both directions).
    assert!(svg.matches("<rect").count() >= 2 * 12 + 2);
    // Not overwritten without permission.
    assert!(matches!(heatmap(false), Err(PlotError::Exists(_))));
    std::fs::write(&path, "mine").unwrap();
    assert!(heatmap(false).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    heatmap(true).unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn converge_csv_has_the_documented_header_and_one_line_per_grid_point() {
    let out = binary()
        .args(["converge", "--a", "1..6", "--b", "2..7"])
        .args(SMALL_BOARD)
        .args(["--reps", "4", "--max-games", "1000", "--format", "csv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "games,reps,mae,rmse,bias,sd_binomial,sd_estimate,wilson_coverage,normal_coverage,wilson_half_width"
    );
    // 100 .. 1000 at 4 points per decade: 100, 178, 316, 562, 1000.
    let games: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(games, ["100", "178", "316", "562", "1000"]);
    for line in &lines[1..] {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 10);
        assert_eq!(fields[1], "4");
        let coverage: f64 = fields[7].parse().unwrap();
        assert!((0.0..=1.0).contains(&coverage));
    }
}

#[test]
fn converge_stopping_csv_and_json() {
    let out = binary()
        .args(["converge", "--a", "1..6", "--b", "2..7"])
        .args(SMALL_BOARD)
        .args([
            "--stopping",
            "--reps",
            "3",
            "--rules",
            "fixed-100,change,worst-case",
        ])
        .args(["--precision", "0.05", "--format", "csv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "rule,claim,claimed_half_width,reps,games_mean,games_min,games_max,mean_abs_error,rmse,\
         median_abs_error,q95_abs_error,max_abs_error,misses,miss_rate,miss_rate_upper95,\
         implicit_half_width,wilson_miss_rate"
    );
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("fixed-100,none,,3,100,100,100,"));
    assert!(lines[2].starts_with("change,implied,0.005,3,"));
    // 1.96^2 / (4 * 0.05^2) = 384.1: 386 games (rounded up to even).
    assert!(
        lines[3].starts_with("worst-case,stated,0.05,3,386,386,386,"),
        "{}",
        lines[3]
    );

    let out = binary()
        .args(["converge", "--a", "1..6", "--b", "2..7"])
        .args(SMALL_BOARD)
        .args([
            "--stopping",
            "--reps",
            "2",
            "--rules",
            "fixed-200",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["board"], "20/10/2/2");
    let p = v["exact"]["p_a"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1.0);
    let outcomes = v["rules"][0]["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2);
    assert_eq!(outcomes[0]["games"], 200);
}

#[test]
fn converge_defaults_to_a_board_with_two_pieces() {
    let out = binary()
        .args(["converge", "--a", "1..6", "--b", "2..7", "--reps", "2"])
        .args(["--max-games", "200", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["board"], "40/20/2/4");
}

#[test]
fn plots_never_replace_an_existing_file_without_overwrite() {
    let dir = temp_dir("test", "cli");
    let path = dir.join("plot.svg");
    std::fs::write(&path, "keep me").unwrap();
    let converge = |extra: &[&str]| {
        binary()
            .args(["converge", "--a", "1..6", "--b", "2..7"])
            .args(SMALL_BOARD)
            .args(["--reps", "2", "--max-games", "200", "--plot"])
            .arg(&path)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = converge(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--overwrite"));
    assert!(out.stdout.is_empty(), "refused before computing anything");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
    let out = converge(&["--overwrite"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("games N"));

    let heat = dir.join("heat.svg");
    let rank = |extra: &[&str]| {
        binary()
            .args(["rank", "data/wuerfel1.txt", "--games", "200"])
            .args(SMALL_BOARD)
            .arg("--plot")
            .arg(&heat)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(rank(&[]).status.success());
    let svg = std::fs::read_to_string(&heat).unwrap();
    for die in ["1..6", "2..7", "6..11"] {
        assert!(svg.contains(die), "missing {die}");
    }
    let again = rank(&[]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&heat).unwrap(), svg);
    assert!(rank(&["--overwrite"]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The commands of this file that write a picture, with arguments that make the work
/// quick; `--plot FILE` is appended.
fn plotting_commands() -> Vec<Vec<&'static str>> {
    let converge = [
        &["converge", "--a", "1..6", "--b", "2..7"][..],
        &SMALL_BOARD,
        &["--reps", "2", "--max-games", "200"],
    ]
    .concat();
    let stopping = [&converge[..], &["--stopping", "--rules", "fixed-100"][..]].concat();
    let rank = [
        &["rank", "data/wuerfel1.txt", "--games", "200"][..],
        &SMALL_BOARD,
    ]
    .concat();
    vec![converge, stopping, rank]
}

fn run_with_plot(command: &[&str], plot: &std::path::Path, extra: &[&str]) -> std::process::Output {
    binary()
        .args(command)
        .arg("--plot")
        .arg(plot)
        .args(extra)
        .output()
        .unwrap()
}

/// A `--plot` whose folder is missing, or that is a folder, is refused before any work:
/// exit 2, the path and what is wrong named, nothing printed.
#[test]
fn plot_targets_are_checked_before_the_work() {
    let dir = temp_dir("test", "targets");
    let missing = dir.join("no-such-folder").join("plot.svg");
    for command in plotting_commands() {
        for (target, problem) in [(&missing, "folder does not exist"), (&dir, "is a folder")] {
            let out = run_with_plot(&command, target, &["--overwrite"]);
            assert_eq!(out.status.code(), Some(2), "{command:?} {target:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(target.to_str().unwrap()) && err.contains(problem),
                "{command:?}: {err}"
            );
            assert!(
                out.stdout.is_empty(),
                "{command:?}: refused before computing"
            );
        }
    }
    assert!(!missing.parent().unwrap().exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// When the picture cannot be written after the work (here: a file in `/proc`, a folder
/// that passes the check before the work but where no file can be created, even by root;
/// a device such as `/dev/full` is refused before the work), the results are printed all
/// the same and the exit code says that something failed.
#[cfg(target_os = "linux")]
#[test]
fn results_are_printed_when_the_plot_fails() {
    let unwritable = std::path::Path::new("/proc/wuerfelglueck-test-plot.svg");
    for command in plotting_commands() {
        let out = run_with_plot(&command, unwritable, &["--overwrite", "--format", "json"]);
        assert_eq!(out.status.code(), Some(1), "{command:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--plot: could not write /proc/wuerfelglueck-test-plot.svg"),
            "{err}"
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v.get("board").is_some(), "{command:?}: results printed");
    }
}

/// Every picture of this file is refused without --overwrite when its file exists (before
/// any work), and written with it.
#[test]
fn every_plot_is_refused_without_overwrite() {
    let dir = temp_dir("test", "overwrite");
    for (k, command) in plotting_commands().into_iter().enumerate() {
        let path = dir.join(format!("plot-{k}.svg"));
        std::fs::write(&path, "keep me").unwrap();
        let out = run_with_plot(&command, &path, &[]);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--overwrite"));
        assert!(
            out.stdout.is_empty(),
            "{command:?}: refused before computing"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
        let out = run_with_plot(&command, &path, &["--overwrite"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A matchup whose exact value is 0 (1..4 never brings a piece in): every estimate is 0,
/// its standard deviation is 0 and RMSE/sd is undefined. The table shows `-` there, the
/// CSV parses back with the `csv` crate, and nothing says `NaN`.
#[test]
fn an_undefined_ratio_is_a_dash_not_nan() {
    let converge = |extra: &[&str]| {
        let out = binary()
            .args(["converge", "--a", "1..4", "--b", "1..6"])
            .args(SMALL_BOARD)
            .args(["--reps", "3", "--max-games", "200"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let table = converge(&[]);
    assert!(!table.to_lowercase().contains("nan"), "{table}");
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("100 "))
        .unwrap();
    assert_eq!(row.split_whitespace().nth(4), Some("-"), "{row}");
    for extra in [&["--format", "csv"][..], &["--stopping", "--format", "csv"]] {
        let text = converge(extra);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let columns = reader.headers().unwrap().len();
        for record in reader.records() {
            let record = record.unwrap();
            assert_eq!(record.len(), columns);
            assert!(
                record.iter().all(|f| !f.to_lowercase().contains("nan")),
                "{text}"
            );
        }
    }
    let table = converge(&["--stopping"]);
    assert!(!table.to_lowercase().contains("nan"), "{table}");
}
