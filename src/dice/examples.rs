//! The organisers' example files (`data/`), compiled in: for front ends without files (the
//! web app's server and the static site).

/// Each example file's name and text, byte for byte.
pub const EXAMPLE_FILES: [(&str, &str); 4] = [
    ("wuerfel0.txt", include_str!("../../data/wuerfel0.txt")),
    ("wuerfel1.txt", include_str!("../../data/wuerfel1.txt")),
    ("wuerfel2.txt", include_str!("../../data/wuerfel2.txt")),
    ("wuerfel3.txt", include_str!("../../data/wuerfel3.txt")),
];

/// The dice of example file `name` (`wuerfel0.txt`, also as `data/wuerfel0.txt`) in the
/// command line's notation; `None` for any other name.
pub fn example_dice(name: &str) -> Option<Vec<String>> {
    let name = name.strip_prefix("data/").unwrap_or(name);
    let (_, text) = EXAMPLE_FILES.iter().find(|(n, _)| *n == name)?;
    let dice = super::parse_dice_text(text, name).expect("the example files are valid");
    Some(dice.iter().map(|d| d.to_string()).collect())
}

/// Every example file with its dice, as the pages list them: `[{"name", "dice"}]`.
pub fn examples_json() -> serde_json::Value {
    EXAMPLE_FILES
        .iter()
        .map(|(name, _)| serde_json::json!({"name": name, "dice": example_dice(name)}))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_file_reads_and_only_those_names_are_known() {
        assert_eq!(
            example_dice("data/wuerfel0.txt").unwrap(),
            ["1..6", "1,1,1,6,6,6", "1..4", "0..9", "1..12", "1..20"]
        );
        assert_eq!(examples_json().as_array().unwrap().len(), 4);
        assert!(example_dice("../Cargo.toml").is_none());
    }
}
