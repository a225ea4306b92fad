//! A load test of `serve`: many clients at once, each playing games against the server on a
//! small board (16/8/2/2, profile choice) and asking for advice on its rolls, for a while.
//! Prints the requests, the answers that were not 2xx, the latency percentiles of each kind
//! of request and the process's peak memory (server and clients share the process).
//!
//!     cargo run --release --example load -- [CLIENTS] [SECONDS]     (default 50 clients, 30 s)

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The latencies of one kind of request, and the answers that were not 2xx.
#[derive(Default)]
struct Tally {
    micros: Vec<u64>,
    failures: Vec<String>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let clients: usize = args
        .get(1)
        .map_or(50, |s| s.parse().expect("CLIENTS: a number"));
    let seconds: u64 = args
        .get(2)
        .map_or(30, |s| s.parse().expect("SECONDS: a number"));
    let options = wuerfelglueck::web::ServeOptions {
        bind: "127.0.0.1:0".parse().unwrap(),
        max_jobs: None,
        job_seconds: 60,
        max_games: 20_000_000,
        max_memory: "1GiB".into(),
        max_games_kept: 1000,
        max_rolls_kept: 250_000,
        values: None,
    };
    let address = wuerfelglueck::web::spawn(options).expect("the server starts");
    let kinds = ["create", "move", "advise"];
    let tallies: Arc<Vec<Mutex<Tally>>> =
        Arc::new(kinds.iter().map(|_| Mutex::new(Tally::default())).collect());
    let until = Instant::now() + Duration::from_secs(seconds);
    let games_done = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let threads: Vec<_> = (0..clients)
        .map(|client| {
            let tallies = Arc::clone(&tallies);
            let games_done = Arc::clone(&games_done);
            std::thread::spawn(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .build()
                    .into();
                let call = |kind: usize, path: &str, body: Value| -> Option<Value> {
                    let started = Instant::now();
                    let result = agent
                        .post(&format!("http://{address}{path}"))
                        .send_json(&body);
                    let micros = started.elapsed().as_micros() as u64;
                    let mut tally = tallies[kind].lock().unwrap();
                    tally.micros.push(micros);
                    match result {
                        Ok(mut response) if response.status().is_success() => {
                            response.body_mut().read_json().ok()
                        }
                        Ok(mut response) => {
                            let text = response.body_mut().read_to_string().unwrap_or_default();
                            tally
                                .failures
                                .push(format!("{}: {text}", response.status()));
                            None
                        }
                        Err(e) => {
                            tally.failures.push(e.to_string());
                            None
                        }
                    }
                };
                let board = json!({"track": 16, "pieces": 2, "goal-fields": 2});
                let mut k = client;
                while Instant::now() < until {
                    let mut body = json!({"a": "1..6", "b": "1..6", "opponent": "safe"});
                    body.as_object_mut()
                        .unwrap()
                        .extend(board.as_object().unwrap().clone());
                    let Some(mut state) = call(0, "/api/games", body) else {
                        continue;
                    };
                    let id = state["id"].as_str().unwrap().to_string();
                    while state["end"].is_null() && Instant::now() < until {
                        let legal = state["legal"].as_array().unwrap().clone();
                        k = k
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        if k % 3 == 0 {
                            let mut advise = json!({"a": "1..6", "b": "1..6",
                                "position": state["advise_position"], "face": state["roll"]});
                            advise
                                .as_object_mut()
                                .unwrap()
                                .extend(board.as_object().unwrap().clone());
                            call(2, "/api/advise", advise);
                        }
                        let pick = &legal[(k >> 33) % legal.len()];
                        match call(
                            1,
                            &format!("/api/games/{id}/move"),
                            json!({"from": pick["from"]}),
                        ) {
                            Some(next) => state = next,
                            None => break,
                        }
                    }
                    if !state["end"].is_null() {
                        games_done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    println!(
        "{clients} clients for {seconds} s against http://{address}/: {} games played to the end",
        games_done.load(std::sync::atomic::Ordering::Relaxed)
    );
    println!(
        "{:<8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "request", "count", "not 2xx", "p50 ms", "p90 ms", "p99 ms", "max ms"
    );
    for (kind, tally) in kinds.iter().zip(tallies.iter()) {
        let mut tally = tally.lock().unwrap();
        tally.micros.sort_unstable();
        let n = tally.micros.len();
        let at = |q: f64| {
            if n == 0 {
                0.0
            } else {
                tally.micros[((n as f64 * q) as usize).min(n - 1)] as f64 / 1000.0
            }
        };
        println!(
            "{kind:<8} {n:>9} {:>9} {:>9.1} {:>9.1} {:>9.1} {:>9.1}",
            tally.failures.len(),
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0)
        );
        for failure in tally.failures.iter().take(3) {
            println!("    e.g. {failure}");
        }
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for line in status
        .lines()
        .filter(|l| l.starts_with("VmHWM") || l.starts_with("VmRSS"))
    {
        println!("{line}");
    }
}
