//! The BwInf dice file: first line `n`, then `n` lines `m f1 .. fm`.
//!
//! Accepted leniently: CRLF line ends, a UTF-8 byte order mark, any run of spaces or tabs,
//! blank lines after the last die. Everything else that does not fit is an error naming
//! the file, the line and what was expected.

use super::{Die, MAX_FACES};
use std::fmt;
use std::path::Path;

/// Characters of bad input an error message quotes at most.
const EXCERPT_CHARS: usize = 32;

/// Bad input as an error message quotes it: in single quotes, at most 32 characters,
/// control and other invisible characters escaped (`\n`, `\u{1b}`), and the length named
/// when it was cut. A 10 kB garbage line thus costs one short line of message, and no
/// terminal escape sequence in a file reaches the terminal.
pub fn excerpt(text: &str) -> String {
    let mut quoted = String::from("'");
    for c in text.chars().take(EXCERPT_CHARS) {
        // escape_debug also escapes quotes and backslashes; only the invisible ones need it.
        if c.is_control() || (c.escape_debug().len() > 1 && !matches!(c, '\'' | '"' | '\\')) {
            quoted.extend(c.escape_debug());
        } else {
            quoted.push(c);
        }
    }
    let total = text.chars().count();
    if total > EXCERPT_CHARS {
        quoted.push_str(&format!("...' ({total} characters)"));
    } else {
        quoted.push('\'');
    }
    quoted
}

/// A dice file that could not be read, with where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceError {
    /// The file name as the user gave it.
    pub source: String,
    /// 1-based line number, or 0 when the problem concerns the whole file.
    pub line: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for DiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.source, self.message)
        } else {
            write!(f, "{}, line {}: {}", self.source, self.line, self.message)
        }
    }
}

impl std::error::Error for DiceError {}

/// Parses one face: a non-negative integer that fits in `u32`.
pub(crate) fn parse_face(token: &str) -> Result<u32, String> {
    parse_count(token, "face")
}

fn parse_count(token: &str, what: &str) -> Result<u32, String> {
    let digits = token.strip_prefix('+').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected a non-negative integer {what}, found {}",
            excerpt(token)
        ));
    }
    digits.parse::<u32>().map_err(|_| {
        format!(
            "{what} {} is too large (at most {})",
            excerpt(token),
            u32::MAX
        )
    })
}

/// Reads and parses a dice file, which must be a regular file (a FIFO would make the
/// reading wait, a device such as `/dev/zero` would never end).
pub fn read_dice_file(path: &Path) -> Result<Vec<Die>, DiceError> {
    let source = path.display().to_string();
    let bytes = crate::files::read_regular(path, None).map_err(|e| DiceError {
        source: source.clone(),
        line: 0,
        message: format!("cannot read the file: {e}"),
    })?;
    parse_dice_file(&bytes, &source)
}

/// Parses the bytes of a dice file; `source` names it in error messages.
pub fn parse_dice_file(bytes: &[u8], source: &str) -> Result<Vec<Die>, DiceError> {
    let text = std::str::from_utf8(bytes).map_err(|e| DiceError {
        source: source.to_string(),
        line: 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        message: "the file is not UTF-8 text: expected numbers".to_string(),
    })?;
    parse_dice_text(text, source)
}

/// Parses the text of a dice file; `source` names it in error messages.
pub fn parse_dice_text(text: &str, source: &str) -> Result<Vec<Die>, DiceError> {
    let error = |line: usize, message: String| DiceError {
        source: source.to_string(),
        line,
        message,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    // Trailing blank lines are allowed; blank lines inside the list are not.
    let used = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    if used == 0 {
        return Err(error(
            0,
            "the file is empty: expected the number of dice n on line 1".into(),
        ));
    }
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    if header.len() != 1 {
        return Err(error(
            1,
            format!(
                "expected the number of dice n alone on the line, found {}",
                excerpt(lines[0].trim())
            ),
        ));
    }
    let n = parse_count(header[0], "number of dice n").map_err(|m| error(1, m))? as usize;
    if let Some(blank) = lines[1..used].iter().position(|l| l.trim().is_empty()) {
        return Err(error(
            blank + 2,
            "blank line: expected a die 'm f1 .. fm' (blank lines may only follow the last die)"
                .into(),
        ));
    }
    let found = used - 1;
    if found != n {
        return Err(error(
            if found < n { used + 1 } else { n + 2 },
            format!("line 1 announces n = {n} dice but {found} die line(s) follow"),
        ));
    }
    let mut dice = Vec::with_capacity(n);
    for (index, line) in lines[1..used].iter().enumerate() {
        let line_no = index + 2;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((m_token, face_tokens)) = tokens.split_first() else {
            // Unreachable: blank lines were rejected above. An error, not a panic, anyway.
            return Err(error(
                line_no,
                "blank line: expected a die 'm f1 .. fm'".into(),
            ));
        };
        let m = parse_count(m_token, "number of faces m").map_err(|e| error(line_no, e))?;
        if m == 0 {
            return Err(error(
                line_no,
                "m = 0: a die needs at least one face".into(),
            ));
        }
        if m as usize > MAX_FACES {
            return Err(error(
                line_no,
                format!("m = {m}: a die may have at most {MAX_FACES} (2^20) faces"),
            ));
        }
        if face_tokens.len() != m as usize {
            return Err(error(
                line_no,
                format!("m = {m} announces {m} faces, found {}", face_tokens.len()),
            ));
        }
        let faces = face_tokens
            .iter()
            .map(|t| parse_face(t))
            .collect::<Result<Vec<u32>, String>>()
            .map_err(|e| error(line_no, e))?;
        dice.push(Die::new(faces).map_err(|e| error(line_no, e.to_string()))?);
    }
    Ok(dice)
}
