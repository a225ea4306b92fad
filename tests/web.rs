//! The HTTP API against a real server on an ephemeral port: the commands' JSON, the bounds
//! and refusals, cancellation when a client goes away, and the game protocol.

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use wuerfelglueck::web::ServeOptions;

/// A server on 127.0.0.1 with an ephemeral port, running until the test process ends.
fn server(max_jobs: usize, job_seconds: u64) -> SocketAddr {
    server_keeping(max_jobs, job_seconds, 250_000)
}

/// [`server`] whose games may hold `max_rolls_kept` rolls together.
fn server_keeping(max_jobs: usize, job_seconds: u64, max_rolls_kept: u64) -> SocketAddr {
    let options = ServeOptions {
        bind: "127.0.0.1:0".parse().unwrap(),
        max_jobs: Some(max_jobs),
        job_seconds,
        max_games: 1_000_000,
        max_memory: "512MiB".into(),
        max_games_kept: 3,
        max_rolls_kept,
        values: None,
    };
    wuerfelglueck::web::spawn(options).expect("the server starts")
}

fn agent(timeout: Option<Duration>) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(timeout)
        .build()
        .into()
}

/// POSTs `body` (raw text) and returns the status and the body read as JSON.
fn post_text(address: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    let mut response = agent(None)
        .post(&format!("http://{address}{path}"))
        .header("content-type", "application/json")
        .send(body)
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn post(address: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    post_text(address, path, &body.to_string())
}

fn get(address: SocketAddr, path: &str) -> (u16, Value) {
    let mut response = agent(None)
        .get(&format!("http://{address}{path}"))
        .call()
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// The CLI's `--format json` for `args`.
fn cli_json(args: &[&str]) -> Value {
    let argv = std::iter::once("wuerfelglueck")
        .chain(args.iter().copied())
        .chain(["--format", "json"]);
    let cli = wuerfelglueck::cli::Cli::try_parse_args(argv).unwrap();
    let mut out = Vec::new();
    wuerfelglueck::cli::run(cli, &mut out).unwrap();
    serde_json::from_slice(&out).unwrap()
}

fn without_seconds(mut v: Value) -> Value {
    if let Value::Object(map) = &mut v {
        map.remove("seconds");
    }
    v
}

const SMALL: [&str; 6] = ["--track", "16", "--pieces", "2", "--goal-fields", "2"];

#[test]
fn a_command_answers_with_the_command_line_json() {
    let address = server(2, 60);
    let (status, body) = post(
        address,
        "/api/duel",
        json!({"a": "1..6", "b": "0..9", "games": 2000, "seed": 4, "track": 16, "pieces": 2, "goal-fields": 2}),
    );
    assert_eq!(status, 200, "{body}");
    let mut args = vec![
        "duel", "--a", "1..6", "--b", "0..9", "--games", "2000", "--seed", "4",
    ];
    args.extend(SMALL);
    assert_eq!(body, cli_json(&args));
    // A ranking of an embedded example file, exactly as `rank data/wuerfel0.txt`.
    let (status, body) = post(
        address,
        "/api/rank",
        json!({"file": "wuerfel0.txt", "games": 1000, "track": 16, "pieces": 2, "goal_fields": 2}),
    );
    assert_eq!(status, 200, "{body}");
    let mut args = vec!["rank", "data/wuerfel0.txt", "--games", "1000"];
    args.extend(SMALL);
    assert_eq!(without_seconds(body), without_seconds(cli_json(&args)));
}

#[test]
fn bad_requests_are_refused_with_a_message_and_the_right_status() {
    let address = server(2, 60);
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("/api/duel", "{not json".into(), 400, "not JSON"),
        ("/api/duel", "[1, 2]".into(), 400, "JSON object"),
        (
            "/api/duel",
            json!({"a": "1..6", "b": "1..x"}).to_string(),
            400,
            "--b",
        ),
        (
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "gamez": 10}).to_string(),
            400,
            "gamez",
        ),
        (
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "games": 10_000_000}).to_string(),
            400,
            "at most",
        ),
        (
            "/api/rank",
            json!({"file": "/etc/passwd"}).to_string(),
            400,
            "reads no files",
        ),
        (
            "/api/rank",
            json!({"file": "wuerfel0.txt", "exact": true, "store": "/tmp/x"}).to_string(),
            400,
            "store",
        ),
        (
            "/api/play",
            json!({"a": "1..6", "b": "1..6", "die": ["1..6"], "players": 3, "profile": "choice",
                   "strategy-c": "strong:/etc/passwd"})
            .to_string(),
            400,
            "strategy-c strong:/etc/passwd: refused here",
        ),
        (
            "/api/solve",
            json!({"a": "1..6", "b": "1..6", "track": 16, "offset": 8, "pieces": 2,
                   "goal-fields": 2, "profile": "choice", "layered": true, "part": "both-home",
                   "values-out": "/tmp/wg-written-over-http"})
            .to_string(),
            400,
            "values-out",
        ),
        (
            "/api/advise",
            json!({"a": "1..6", "b": "1..6", "position": "A:3 B:A", "face": 3,
                   "values": "/etc"})
            .to_string(),
            400,
            "values",
        ),
        (
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "profile": "choice", "strategy": "exact:/etc"})
                .to_string(),
            400,
            "exact:",
        ),
        (
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "profile": "choice", "strategy": "table:/etc/passwd"})
                .to_string(),
            400,
            "table:",
        ),
        (
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "profile": "choice", "strategy-b": "strong-search-2:/etc/passwd"})
                .to_string(),
            400,
            "strong-search-2:",
        ),
        (
            "/api/solve",
            json!({"a": "1..6", "b": "1..6", "max-memory": "100GiB"}).to_string(),
            400,
            "max-memory",
        ),
        (
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "threads": 64}).to_string(),
            400,
            "threads",
        ),
        (
            "/api/play",
            json!({"a": "6", "b": "6", "max-rolls": 1_000_000_000_000u64}).to_string(),
            400,
            "max-rolls",
        ),
        (
            "/api/games",
            json!({"a": "6", "b": "6", "max_rolls": 1_000_000_000_000u64}).to_string(),
            400,
            "max-rolls",
        ),
        (
            "/api/search",
            json!({"faces": 6}).to_string(),
            404,
            "no command",
        ),
        ("/api/nothing", "{}".into(), 404, "no command"),
    ];
    for (path, body, status, word) in cases {
        let (got, answer) = post_text(address, path, &body);
        assert_eq!(got, status, "{path} {body}: {answer}");
        let message = answer["error"].as_str().unwrap_or_default();
        assert!(message.contains(word), "{path} {body}: {message}");
    }
    // A body beyond the limit (64 KiB) is not read. Just beyond it, so that the client has
    // written its whole body into the socket before the server answers and closes (a far
    // larger body can meet a closed connection while it is still being sent).
    let huge = json!({"a": "1..6", "b": "x".repeat(66_000)}).to_string();
    let mut response = agent(None)
        .post(&format!("http://{address}/api/duel"))
        .header("content-type", "application/json")
        .send(&huge);
    if response.is_err() {
        // The connection was closed under the client while it wrote: once more.
        response = agent(None)
            .post(&format!("http://{address}/api/duel"))
            .header("content-type", "application/json")
            .send(&huge);
    }
    assert_eq!(response.expect("the server answers").status().as_u16(), 413);
}

#[test]
fn jobs_beyond_the_cap_are_busy_and_a_job_beyond_its_time_is_stopped() {
    let address = server(1, 5);
    // One job that would run for minutes (the full board to a fine precision).
    let long = std::thread::spawn(move || {
        post(
            address,
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "precision": 0.00002}),
        )
    });
    std::thread::sleep(Duration::from_millis(500));
    let (status, body) = post(
        address,
        "/api/duel",
        json!({"a": "1..6", "b": "1..6", "games": 100}),
    );
    assert_eq!(status, 503, "{body}");
    assert!(body["error"].as_str().unwrap().contains("busy"), "{body}");
    let (status, body) = long.join().unwrap();
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("stopped after 5 s"),
        "{body}"
    );
}

#[test]
fn a_client_that_goes_away_cancels_its_job() {
    let address = server(1, 600);
    let started = Instant::now();
    // The client gives up after half a second; the job would run for minutes.
    let gone = agent(Some(Duration::from_millis(500)))
        .post(&format!("http://{address}/api/duel"))
        .send_json(json!({"a": "1..6", "b": "1..6", "precision": 0.00002}));
    assert!(gone.is_err(), "the client timed out");
    // The one job slot is free again once the job has stopped at its next checkpoint.
    loop {
        let (status, body) = post(
            address,
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "games": 100}),
        );
        if status == 200 {
            break;
        }
        assert_eq!(status, 503, "{body}");
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the job was not cancelled"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn progress_streams_as_server_sent_events_and_ends_with_the_result() {
    let address = server(1, 60);
    let options = json!({"a": "1..6", "b": "2..7", "games": 2000, "track": 16, "pieces": 2, "goal-fields": 2}).to_string();
    let url = format!(
        "http://{address}/api/duel/events?options={}",
        url_encode(&options)
    );
    let mut response = agent(None).get(&url).call().unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let text = response.body_mut().read_to_string().unwrap();
    let result = text
        .split("\n\n")
        .find(|e| e.starts_with("event: result"))
        .expect("a result event");
    let data: String = result
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect::<Vec<_>>()
        .join("\n");
    let mut args = vec!["duel", "--a", "1..6", "--b", "2..7", "--games", "2000"];
    args.extend(SMALL);
    assert_eq!(
        serde_json::from_str::<Value>(&data).unwrap(),
        cli_json(&args)
    );
}

/// The events of `GET /api/COMMAND/events?options=OPTIONS`: the HTTP status and each
/// event's name and data.
fn events(address: SocketAddr, command: &str, options: &Value) -> (u16, Vec<(String, Value)>) {
    let url = format!(
        "http://{address}/api/{command}/events?options={}",
        url_encode(&options.to_string())
    );
    let mut response = agent(None).get(&url).call().unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    let events = text
        .split("\n\n")
        .filter_map(|event| {
            let name = event.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .collect();
            Some((
                name.to_string(),
                serde_json::from_str(&data.join("\n")).unwrap(),
            ))
        })
        .collect();
    (response.status().as_u16(), events)
}

/// A job that cannot start is one `error` event with the status the plain request gets
/// and its message, not an HTTP error an `EventSource` cannot read: refused options, an
/// unknown command, a server whose one slot stays taken past the wait.
#[test]
fn an_event_stream_that_cannot_start_is_one_error_event_with_the_message() {
    let address = server(1, 5);
    let odd = json!({"a": "1..6", "b": "1..6", "games": 3});
    let (status, got) = events(address, "duel", &odd);
    assert_eq!(status, 200);
    let (plain_status, plain) = post(address, "/api/duel", odd);
    assert_eq!(plain_status, 400, "{plain}");
    assert_eq!(
        got,
        [(
            "error".to_string(),
            json!({"status": 400, "error": plain["error"]})
        )]
    );
    let (_, got) = events(address, "nonsense", &json!({}));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].0.as_str(), &got[0].1["status"]),
        ("error", &json!(404))
    );
    // The one slot taken by a job that runs until its 5 s are up.
    let long = std::thread::spawn(move || {
        post(
            address,
            "/api/duel",
            json!({"a": "1..6", "b": "1..6", "precision": 0.00002}),
        )
    });
    std::thread::sleep(Duration::from_millis(500));
    let (_, got) = events(
        address,
        "duel",
        &json!({"a": "1..6", "b": "1..6", "games": 100}),
    );
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "error");
    assert_eq!(got[0].1["status"], 503);
    assert!(
        got[0].1["error"].as_str().unwrap().contains("busy"),
        "{got:?}"
    );
    assert_eq!(long.join().unwrap().0, 503);
}

fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn a_bot_plays_a_game_to_its_end_and_cannot_cheat() {
    let address = server(1, 60);
    let (status, game) = post(
        address,
        "/api/games",
        json!({"a": "1..6", "b": "1..6", "track": 16, "pieces": 2, "goal-fields": 2, "opponent": "safe"}),
    );
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32);
    assert_eq!(game["you"], "A");
    assert_eq!(game["profile"], "bwinf+choice");
    // Another id finds nothing; nor does a guess.
    assert_eq!(
        get(address, &format!("/api/games/{}", "0".repeat(32))).0,
        404
    );
    let mut state = game;
    let mut moves = 0;
    while state["end"].is_null() {
        assert_eq!(
            state["turn"], "A",
            "the server plays B and waits only for A: {state}"
        );
        let legal = state["legal"].as_array().unwrap().clone();
        assert!(
            legal.len() >= 2,
            "only decisions wait for the client: {state}"
        );
        // An illegal move changes nothing.
        let (status, body) = post(
            address,
            &format!("/api/games/{id}/move"),
            json!({"from": "nowhere"}),
        );
        assert_eq!(status, 400, "{body}");
        let (_, unchanged) = get(address, &format!("/api/games/{id}"));
        assert_eq!(unchanged, state);
        let (status, next) = post(
            address,
            &format!("/api/games/{id}/move"),
            json!({"from": legal[0]["from"]}),
        );
        assert_eq!(status, 200, "{next}");
        let turns = next["turns"].as_array().unwrap();
        let mine = turns
            .iter()
            .filter(|t| t["player"] == "A" && !t["choices"].as_array().unwrap().is_empty())
            .count();
        moves += 1;
        assert_eq!(mine, moves, "every decision of A is the client's");
        state = next;
    }
    assert_eq!(state["end"], "won");
    assert!(state["winner"] == "A" || state["winner"] == "B");
    // Over: no move is taken.
    let (status, body) = post(
        address,
        &format!("/api/games/{id}/move"),
        json!({"from": "B"}),
    );
    assert_eq!(status, 409, "{body}");
}

#[test]
fn the_pages_and_the_example_files_are_served_from_the_binary() {
    let address = server(1, 60);
    let mut page = agent(None)
        .get(&format!("http://{address}/"))
        .call()
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    assert!(
        page.body_mut()
            .read_to_string()
            .unwrap()
            .contains("wuerfelglueck")
    );
    let (status, examples) = get(address, "/api/examples");
    assert_eq!(status, 200);
    assert_eq!(examples.as_array().unwrap().len(), 4);
    assert_eq!(examples[0]["name"], "wuerfel0.txt");
}

/// Plays the game `state` was started with to its end, the first legal move every turn;
/// every move must be accepted. Returns the final state.
fn play_first_legal_moves_to_the_end(address: SocketAddr, mut state: Value) -> Value {
    let id = state["id"].as_str().unwrap().to_string();
    while state["end"].is_null() {
        let from = state["legal"][0]["from"].clone();
        let (status, next) = post(
            address,
            &format!("/api/games/{id}/move"),
            json!({"from": from}),
        );
        assert_eq!(status, 200, "{next}");
        state = next;
    }
    state
}

#[test]
fn the_optimal_opponent_is_solved_where_it_fits_and_refused_where_not() {
    let address = server(1, 60);
    let small = json!({"a": "1..6", "b": "1..6", "track": 16, "pieces": 2, "goal-fields": 2, "opponent": "optimal"});
    let (status, state) = post(address, "/api/games", small);
    assert_eq!(status, 201, "{state}");
    assert_eq!(state["opponent"], "optimal");
    let state = play_first_legal_moves_to_the_end(address, state);
    assert_eq!(state["end"], "won");
    // The rules fix every move under bwinf: nothing to optimise.
    let (status, body) = post(
        address,
        "/api/games",
        json!({"a": "1..6", "b": "1..6", "profile": "bwinf", "opponent": "optimal"}),
    );
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("choice"), "{body}");
    // The full board with choices does not fit the server's memory bound: refused at once.
    let started = Instant::now();
    let (status, body) = post(
        address,
        "/api/games",
        json!({"a": "1..6", "b": "1..6", "opponent": "optimal"}),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "refused before any work"
    );
}

#[test]
fn the_learned_player_plays_the_full_board_and_is_refused_where_it_was_not_trained() {
    let address = server(1, 60);
    // The plain player and the one with two rolls of look-ahead (the app's opponents).
    for opponent in ["strong", "strong-search-2"] {
        let full = json!({"a": "1..6", "b": "1..6", "opponent": opponent, "seat": "b"});
        let (status, state) = post(address, "/api/games", full);
        assert_eq!(status, 201, "{state}");
        assert_eq!(state["opponent"], opponent);
        let state = play_first_legal_moves_to_the_end(address, state);
        assert_eq!(state["end"], "won", "{opponent}");
    }
    // No player was trained for this board: refused with the reason, before any game.
    let (status, body) = post(
        address,
        "/api/games",
        json!({"a": "1..6", "b": "1..6", "track": 18, "pieces": 2, "goal-fields": 2, "opponent": "strong"}),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("no strong player was trained"),
        "{body}"
    );
    // A player file would be read from the server's disk: refused, in every form.
    for opponent in ["strong:/etc/passwd", " strong-search-3:/etc/passwd"] {
        let (status, body) = post(
            address,
            "/api/games",
            json!({"a": "1..6", "b": "1..6", "opponent": opponent}),
        );
        assert_eq!(status, 400, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("reads a file"),
            "{body}"
        );
    }
}

#[test]
fn a_game_at_a_table_of_four_is_played_to_its_end_through_the_protocol() {
    let address = server(1, 60);
    for (players, opponent, board) in [
        (4, "strong", json!({})),
        (3, "strong", json!({})),
        (
            4,
            "capture",
            json!({"track": 16, "pieces": 2, "goal-fields": 2}),
        ),
    ] {
        let mut request = board.clone();
        let dice = ["1..6", "1..6", "1,1,1,6,6,6", "1..6"];
        request["players"] = json!(players);
        request["die"] = json!(dice[..players]);
        request["opponent"] = json!(opponent);
        let (status, state) = post(address, "/api/games", request);
        assert_eq!(status, 201, "{state}");
        assert_eq!(state["players"], players);
        assert_eq!(state["you"], "A");
        assert_eq!(state["dice"], json!(dice[..players]));
        assert!(state["advise_position"].is_null());
        let starts = state["starts"].as_array().unwrap();
        assert_eq!(starts.len(), players);
        let track = state["track"].as_u64().unwrap();
        for (s, start) in starts.iter().enumerate() {
            assert_eq!(start.as_u64().unwrap(), s as u64 * track / 4, "{state}");
        }
        let id = state["id"].as_str().unwrap().to_string();
        let mut state = state;
        let mut decisions = 0;
        while state["end"].is_null() {
            assert_eq!(state["turn"], "A", "only A's decisions wait: {state}");
            let legal = state["legal"].as_array().unwrap().clone();
            assert!(legal.len() >= 2, "{state}");
            // An illegal move changes nothing.
            let (status, _) = post(
                address,
                &format!("/api/games/{id}/move"),
                json!({"from": "nowhere"}),
            );
            assert_eq!(status, 400);
            // The last legal move, so that a game of frontmost choices is not all this plays.
            let from = legal[legal.len() - 1]["from"].clone();
            let (status, next) = post(
                address,
                &format!("/api/games/{id}/move"),
                json!({"from": from}),
            );
            assert_eq!(status, 200, "{next}");
            decisions += 1;
            state = next;
        }
        assert_eq!(state["end"], "won", "{state}");
        let winner = state["winner"].as_str().unwrap();
        assert!(["A", "B", "C", "D"][..players].contains(&winner));
        let turns = state["turns"].as_array().unwrap();
        // Every seat rolled, each roll names its player; the last roll won.
        for seat in &["A", "B", "C", "D"][..players] {
            assert!(
                turns.iter().any(|t| t["player"] == *seat),
                "{seat} never rolled"
            );
        }
        let last = turns.last().unwrap();
        assert_eq!(last["winner"], winner);
        // A's choices in the record are exactly the client's decisions.
        let offered = turns
            .iter()
            .filter(|t| t["player"] == "A" && !t["choices"].as_array().unwrap().is_empty())
            .count();
        assert_eq!(offered, decisions);
        // The winner has every piece in its goal.
        let pieces = state["position"][winner].as_str().unwrap();
        assert!(!pieces.contains("B:") || pieces.contains("B:0"), "{pieces}");
    }
}

#[test]
fn a_table_that_cannot_be_played_is_refused_with_a_sentence() {
    let address = server(1, 60);
    let four = |extra: Value| {
        let mut request = json!({"players": 4, "die": ["1..6", "1..6", "1..6", "1..6"]});
        for (k, v) in extra.as_object().unwrap() {
            request[k] = v.clone();
        }
        request
    };
    for (request, expected) in [
        (
            four(json!({"opponent": "optimal"})),
            "optimal play is solved for games of two",
        ),
        (
            four(json!({"opponent": "strong-search"})),
            "plays only games of two",
        ),
        (
            four(json!({"opponent": "strong", "track": 16, "pieces": 2, "goal-fields": 2})),
            "no learned player was trained for a table of 4",
        ),
        (
            four(json!({"seat": "b"})),
            "you play seat A, which moves first",
        ),
        (
            four(json!({"first": "b"})),
            "you play seat A, which moves first",
        ),
        (
            json!({"players": 3, "die": ["1..6", "1..6"]}),
            "3 players need 3 dice, one per seat with yours first; got 2",
        ),
        (
            json!({"players": 3, "a": "1..6", "b": "1..6", "die": ["1..6"]}),
            "for --players 3 give one --die per seat",
        ),
        (json!({"players": 5, "die": ["1..6"]}), "expected 2, 3 or 4"),
        (json!({"a": "1..6"}), "a game of two needs both dice"),
        (
            four(json!({"opponent": "capture", "profile": "bwinf"})),
            "nobody chooses a move",
        ),
    ] {
        let (status, body) = post(address, "/api/games", request.clone());
        assert_eq!(status, 400, "{request}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(message.contains(expected), "{request}: {message}");
    }
    // Two dice given as --die are a game of two, as with --a and --b.
    let (status, state) = post(
        address,
        "/api/games",
        json!({"die": ["1..6", "2..7"], "track": 16, "pieces": 2, "goal-fields": 2}),
    );
    assert_eq!(status, 201, "{state}");
    assert_eq!(state["dice"], json!(["1..6", "2..7"]));
    assert!(state["advise_position"].is_string());
}

/// Sends `request` (a raw HTTP/1.1 request, headers as given) and returns the status.
fn raw_status(address: SocketAddr, request: &str) -> u16 {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    // The server closes the connection (`Connection: close`) after its answer.
    stream.read_to_string(&mut answer).unwrap();
    let status_line = answer.lines().next().unwrap_or("");
    status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"))
}

/// A request to `path` with the given extra headers and body.
fn request(method: &str, host: &str, path: &str, headers: &[&str], body: &str) -> String {
    let mut text = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for h in headers {
        text.push_str(h);
        text.push_str("\r\n");
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    text
}

/// Other sites' pages cannot use a server on this machine: a POST whose body a page may
/// send without asking (`text/plain`, a form) is refused, as is any request to the API from
/// another origin, and any request addressed to a name that is not this machine's (DNS
/// rebinding); the server's own pages, curl with a JSON body and programs are answered.
#[test]
fn pages_of_other_sites_cannot_start_jobs() {
    let address = server(2, 30);
    let own = format!("127.0.0.1:{}", address.port());
    let duel = r#"{"a": "1..6", "b": "0..9", "games": 200, "seed": 1}"#;
    let json = "Content-Type: application/json";
    // Accepted: JSON from a program, from the server's own page, under every loopback name.
    assert_eq!(
        raw_status(address, &request("POST", &own, "/api/duel", &[json], duel)),
        200
    );
    let own_origin = format!("Origin: http://{own}");
    assert_eq!(
        raw_status(
            address,
            &request("POST", &own, "/api/duel", &[json, &own_origin], duel)
        ),
        200
    );
    let localhost = format!("localhost:{}", address.port());
    assert_eq!(
        raw_status(
            address,
            &request("POST", &localhost, "/api/duel", &[json], duel)
        ),
        200
    );
    assert_eq!(
        raw_status(address, &request("GET", &own, "/", &[], "")),
        200
    );
    // Refused: bodies a page of another site may send without the browser asking first.
    for kind in [
        "Content-Type: text/plain",
        "Content-Type: application/x-www-form-urlencoded",
        "Content-Type: multipart/form-data; boundary=x",
    ] {
        assert_eq!(
            raw_status(address, &request("POST", &own, "/api/duel", &[kind], duel)),
            415,
            "{kind}"
        );
    }
    assert_eq!(
        raw_status(address, &request("POST", &own, "/api/duel", &[], duel)),
        415
    );
    assert_eq!(
        raw_status(
            address,
            &request(
                "POST",
                &own,
                "/api/games",
                &["Content-Type: text/plain"],
                r#"{"a": "1..6", "b": "1..6"}"#
            )
        ),
        415
    );
    // Refused: the API asked from another origin, by POST or by an event stream.
    let foreign = "Origin: http://evil.example";
    assert_eq!(
        raw_status(
            address,
            &request("POST", &own, "/api/duel", &[json, foreign], duel)
        ),
        403
    );
    let events = format!(
        "/api/duel/events?options={}",
        "%7B%22a%22%3A%221..6%22%2C%22b%22%3A%220..9%22%7D"
    );
    assert_eq!(
        raw_status(address, &request("GET", &own, &events, &[foreign], "")),
        403
    );
    assert_eq!(
        raw_status(
            address,
            &request("GET", &own, "/api/examples", &["Origin: null"], "")
        ),
        403
    );
    // Refused: a name that resolves here but is not this machine's (DNS rebinding), and
    // another port.
    let rebound = format!("evil.example:{}", address.port());
    assert_eq!(
        raw_status(
            address,
            &request("POST", &rebound, "/api/duel", &[json], duel)
        ),
        403
    );
    assert_eq!(
        raw_status(address, &request("GET", &rebound, "/", &[], "")),
        403
    );
    assert_eq!(
        raw_status(address, &request("GET", "localhost:1", "/", &[], "")),
        403
    );
}

/// The games kept are bounded by the rolls they hold together, not only by their number: a
/// die of 5,002 faces plays long games, each roll kept; beyond the bound the game idle
/// longest is dropped (the one just played never), and a game that would hold more rolls
/// than the server keeps is refused before it is played.
#[test]
fn the_games_kept_are_bounded_by_the_rolls_they_hold() {
    let address = server_keeping(2, 30, 2_500);
    // Under `bwinf` the rules fix every move, so no game stops for the client's choice (the
    // server picks the seed: a 6 in the first 1,000 rolls, about 18 % of games, would give one).
    let long =
        json!({"a": "1..5002", "b": "1..5002", "pieces": 4, "max-rolls": 1000, "profile": "bwinf"});
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (status, game) = post(address, "/api/games", long.clone());
        assert_eq!(status, 201, "{game}");
        // A 6 is 1 in 5,002: the game runs to its roll cap, every roll kept.
        assert_eq!(game["end"], "max_rolls", "{}", game["end"]);
        assert_eq!(game["turns"].as_array().unwrap().len(), 1000);
        ids.push(game["id"].as_str().unwrap().to_string());
    }
    // 3,000 rolls would be kept: the first game, idle longest, was dropped for the third.
    assert_eq!(get(address, &format!("/api/games/{}", ids[0])).0, 404);
    assert_eq!(get(address, &format!("/api/games/{}", ids[1])).0, 200);
    assert_eq!(get(address, &format!("/api/games/{}", ids[2])).0, 200);
    // Reading the second again makes the third the one idle longest.
    assert_eq!(get(address, &format!("/api/games/{}", ids[1])).0, 200);
    let (status, _) = post(address, "/api/games", long.clone());
    assert_eq!(status, 201);
    assert_eq!(get(address, &format!("/api/games/{}", ids[1])).0, 200);
    assert_eq!(get(address, &format!("/api/games/{}", ids[2])).0, 404);
    // More rolls than the server keeps: refused at once, also by the default of 10,000.
    for body in [
        json!({"a": "1..5002", "b": "1..5002", "max-rolls": 2501}),
        json!({"a": "1..6", "b": "1..6"}),
    ] {
        let (status, answer) = post(address, "/api/games", body);
        assert_eq!(status, 400, "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .contains("at most 2500 rolls here"),
            "{answer}"
        );
    }
}

/// `serve --values DIR`: the advice on the folder's game reads every move's value from it
/// where it holds them (and says so); in the core, and for another game, the advice goes on
/// as without it. The opponent `optimal` of the folder's game plays from it, with no solve:
/// with a memory limit no solve fits in, it is created there and refused elsewhere.
#[test]
fn the_servers_values_answer_the_advice_and_play_the_opponent_on_their_game() {
    use wuerfelglueck::exact::SolveOptions;
    use wuerfelglueck::exact::game::layered::{LayeredRun, Part, solve_layers};
    use wuerfelglueck::rules::Rules;
    let dir = std::env::temp_dir().join(format!("wg-serve-values-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = Rules::new("16/8/2/2".parse().unwrap(), "choice".parse().unwrap());
    let dice: [wuerfelglueck::dice::Die; 2] =
        ["1..6".parse().unwrap(), "1,2,2,4,5,6".parse().unwrap()];
    let run = LayeredRun {
        part: Part::OutsideCore,
        keep_values: false,
        values_out: Some(&dir),
        observer: &|_| {},
        cluster: &wuerfelglueck::exact::game::cluster::OneProcess,
        fixed: [None, None],
        checkpoint_every: None,
        max_disk: None,
    };
    let options = SolveOptions {
        tolerance: 1e-9,
        ..SolveOptions::default()
    };
    solve_layers(&rules, [&dice[0], &dice[1]], &options, &run).unwrap();
    let address = wuerfelglueck::web::spawn(ServeOptions {
        bind: "127.0.0.1:0".parse().unwrap(),
        max_jobs: Some(2),
        job_seconds: 60,
        max_games: 1_000_000,
        max_memory: "64KiB".into(),
        max_games_kept: 3,
        max_rolls_kept: 250_000,
        values: Some(dir.clone()),
    })
    .expect("the server starts");
    let board = json!({"track": 16, "offset": 8, "pieces": 2, "goal-fields": 2});
    let with = |extra: Value| {
        let mut options = board.as_object().unwrap().clone();
        options.extend(extra.as_object().unwrap().clone());
        Value::Object(options).to_string()
    };
    let advise = |b: &str, position: &str| {
        let body = with(json!({"a": "1..6", "b": b, "position": position, "face": 1,
                               "rollouts": 200}));
        let (status, answer) = post_text(address, "/api/advise", &body);
        assert_eq!(status, 200, "{answer}");
        (
            answer["method"].as_str().unwrap().to_string(),
            answer["note"].as_str().unwrap().to_string(),
        )
    };
    let (method, note) = advise("1,2,2,4,5,6", "A:5,a B:3 turn:A");
    assert_eq!(method, "exact");
    assert!(
        note.contains("Values read from the server's values"),
        "{note}"
    );
    let (_, note) = advise("1,2,2,4,5,6", "A:5,1 B:3 turn:A");
    assert!(
        note.contains("no values for a group a move leads into"),
        "{note}"
    );
    let (_, note) = advise("1..6", "A:5,a B:3 turn:A");
    assert!(!note.contains("server's values"), "{note}");

    let game = |b: &str| {
        let body = with(json!({"a": "1..6", "b": b, "opponent": "optimal"}));
        post_text(address, "/api/games", &body)
    };
    let (status, answer) = game("1,2,2,4,5,6");
    assert_eq!(status, 201, "{answer}");
    let opponent = answer["opponent"].as_str().unwrap();
    assert!(
        opponent.starts_with("optimal (the server's exact values")
            && opponent.ends_with("strong elsewhere)"),
        "{opponent}"
    );
    let (status, answer) = game("1..6");
    assert_eq!(status, 400, "no solve fits in 64 KiB: {answer}");
    let _ = std::fs::remove_dir_all(&dir);
}
