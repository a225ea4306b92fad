//! What sparse `Z` storage saves: for each pair given, the states that keep `Z` and the
//! memory of the matrix-free solver before and after, from its searches alone (no values
//! stored), and whether `f64` fits the default limit.
//!
//! `cargo run --release --example z_storage -- BOARD PROFILE A:B [A:B ...]`, e.g.
//! `-- 20/10/4/4 bwinf 4..9:5..10 3..8:6..11`.

use wuerfelglueck::dice::Die;
use wuerfelglueck::exact::matrix_free::survey;
use wuerfelglueck::exact::memory::{default_limit, format_bytes};
use wuerfelglueck::rules::{Board, Profile, Rules};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [board, profile, pairs @ ..] = args.as_slice() else {
        return Err("usage: z_storage BOARD PROFILE A:B [A:B ...]".into());
    };
    let board: Board = board.parse().map_err(|e| format!("board: {e}"))?;
    let profile: Profile = profile.parse().map_err(|e| format!("profile: {e}"))?;
    let rules = Rules::new(board, profile);
    let limit = default_limit();
    println!("limit {}", limit.map_or("none".into(), format_bytes));
    println!(
        "| pair | configurations | states | never | keep Z | share | f64 dense Z | f64 sparse Z | f32 dense Z | f32 sparse Z | f64 fits |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for pair in pairs {
        let (a, b) = pair
            .split_once(':')
            .ok_or_else(|| format!("'{pair}': expected A:B"))?;
        let a: Die = a.parse().map_err(|e| format!("{a}: {e}"))?;
        let b: Die = b.parse().map_err(|e| format!("{b}: {e}"))?;
        let s = survey(&rules, &a, &b).map_err(|e| e.to_string())?;
        println!(
            "| {a} vs {b} | {} × {} | {:.3e} | {:.3e} | {:.3e} | {:.1} % | {} | {} | {} | {} | {} |",
            s.configs[0],
            s.configs[1],
            s.states as f64,
            s.never_states as f64,
            s.z_states as f64,
            100.0 * s.z_states as f64 / s.states.max(1) as f64,
            format_bytes(s.dense_f64_bytes),
            format_bytes(s.sparse_f64_bytes),
            format_bytes(s.dense_f32_bytes),
            format_bytes(s.sparse_f32_bytes),
            limit.is_none_or(|l| s.sparse_f64_bytes <= l),
        );
    }
    Ok(())
}
