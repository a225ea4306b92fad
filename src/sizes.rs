//! Sizes of memory: as people write them (`2GiB`, `500MB`, `123456`) and read them, and
//! what this machine has, for every limit the program checks before it allocates.

/// The machine's RAM from `/proc/meminfo` (`MemTotal`), `None` where that is not readable.
/// In WebAssembly: the 4 GiB that a 32-bit module can address at most.
pub fn machine_memory() -> Option<u64> {
    if cfg!(target_family = "wasm") {
        return Some(4 << 30);
    }
    let bytes = crate::files::read_regular(std::path::Path::new("/proc/meminfo"), None).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The default limit: 80 % of the machine's RAM; `None` (no limit) where it is unknown.
pub fn default_limit() -> Option<u64> {
    machine_memory().map(|b| b / 5 * 4)
}

/// Parses a size: plain bytes (`123456`) or a number with a unit, decimal `kB, MB, GB, TB`
/// or binary `KiB, MiB, GiB, TiB` (case-insensitive, `B` optional: `2G` = `2GB`); fractions
/// are allowed (`1.5GiB`).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number.parse().map_err(|_| {
        format!("'{text}' is not a size: expected e.g. 2GiB, 500MB or a number of bytes")
    })?;
    let unit = unit.trim().to_ascii_lowercase();
    let factor: f64 = match unit.as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        "t" | "tb" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => {
            return Err(format!(
                "unknown unit '{unit}' in '{text}': use B, kB, MB, GB, TB, KiB, MiB, GiB or TiB"
            ));
        }
    };
    let bytes = (value * factor).round();
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("size '{text}' is too large"));
    }
    Ok(bytes as u64)
}

/// A size for people: `1.50 GiB`, `12.0 MiB`, `512 B`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else if value < 10.0 {
        format!("{value:.2} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes_people_write() {
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("500MB"), Ok(500_000_000));
        assert_eq!(parse_bytes("123456"), Ok(123_456));
        assert_eq!(parse_bytes(" 1.5 gib "), Ok(3 << 29));
        assert_eq!(parse_bytes("4k"), Ok(4000));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("3 parsecs").is_err());
        assert!(parse_bytes("1e30TB").is_err());
    }

    #[test]
    fn formats_sizes() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
    }

    #[test]
    fn machine_memory_is_plausible_where_readable() {
        if let Some(b) = machine_memory() {
            assert!(b > 1 << 26);
            assert!(default_limit().unwrap() < b);
        }
    }
}
