//! Which versions of the RegelRecht format this engine reads, and which regulatory layers a law
//! may name: the checks every law file passes before it is used, as the reference engine makes
//! them (schema v0.2.0 through v0.5.6; the thirteen layers of the schema's `regulatory_layer`).

/// The oldest schema version read.
pub const OLDEST: (u32, u32, u32) = (0, 2, 0);
/// The newest schema version read (the schema this engine implements).
pub const NEWEST: (u32, u32, u32) = (0, 5, 6);

/// The regulatory layers of the schema (`regulatory_layer`).
pub const REGULATORY_LAYERS: [&str; 13] = [
    "GRONDWET",
    "WET",
    "AMVB",
    "KONINKLIJK_BESLUIT",
    "MINISTERIELE_REGELING",
    "BELEIDSREGEL",
    "EU_VERORDENING",
    "EU_RICHTLIJN",
    "VERDRAG",
    "UITVOERINGSBELEID",
    "GEMEENTELIJKE_VERORDENING",
    "PROVINCIALE_VERORDENING",
    "WATERSCHAPS_VERORDENING",
];

/// The version a `$schema` URL names: its last path segment of the form `vX.Y.Z` (or
/// `schema-vX.Y.Z`, a release tag).
pub fn schema_version(url: &str) -> Option<(u32, u32, u32)> {
    url.split(['/', '#', '?']).rev().find_map(|segment| {
        let version = segment.strip_prefix("schema-").unwrap_or(segment);
        let mut parts = version.strip_prefix('v')?.split('.');
        let mut next = || parts.next()?.parse::<u32>().ok();
        let version = (next()?, next()?, next()?);
        parts.next().is_none().then_some(version)
    })
}

/// Why a file declaring `$schema: url` is refused, or `None` when this engine reads it. A file
/// without `$schema` is read as the newest version.
pub fn schema_refusal(url: &str) -> Option<String> {
    let show = |(a, b, c): (u32, u32, u32)| format!("v{a}.{b}.{c}");
    match schema_version(url) {
        Some(version) if (OLDEST..=NEWEST).contains(&version) => None,
        Some(version) => Some(format!(
            "schemaversie {} wordt niet ondersteund (deze engine leest {} t/m {})",
            show(version),
            show(OLDEST),
            show(NEWEST)
        )),
        None => Some(format!(
            "$schema noemt geen schemaversie (vX.Y.Z); deze engine leest {} t/m {}",
            show(OLDEST),
            show(NEWEST)
        )),
    }
}

/// Why a law naming `layer` is refused, or `None` for a layer of the schema.
pub fn layer_refusal(layer: &str) -> Option<String> {
    (!REGULATORY_LAYERS.contains(&layer)).then(|| {
        format!(
            "regulatory_layer '{layer}' is onbekend; bekend zijn {}",
            REGULATORY_LAYERS.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_branch_and_tag_urls() {
        for (url, version) in [
            (
                "https://raw.githubusercontent.com/MinBZK/regelrecht/refs/heads/main/schema/v0.5.3/schema.json",
                Some((0, 5, 3)),
            ),
            (
                "https://raw.githubusercontent.com/MinBZK/regelrecht/refs/tags/schema-v0.5.6/schema/v0.5.6/schema.json",
                Some((0, 5, 6)),
            ),
            (
                "https://example.org/schema/v0.7.1/schema.json",
                Some((0, 7, 1)),
            ),
            ("https://example.org/schema/latest/schema.json", None),
            ("v1.2", None),
        ] {
            assert_eq!(schema_version(url), version, "{url}");
        }
    }

    #[test]
    fn the_reference_range_is_read_and_others_refused_by_name() {
        assert!(schema_refusal("x/schema/v0.2.0/schema.json").is_none());
        assert!(schema_refusal("x/schema/v0.5.6/schema.json").is_none());
        for (url, named) in [
            ("x/schema/v0.5.7/schema.json", "v0.5.7"),
            ("x/schema/v0.6.0/schema.json", "v0.6.0"),
            ("x/schema/v0.7.1/schema.json", "v0.7.1"),
            ("x/schema/v0.1.9/schema.json", "v0.1.9"),
        ] {
            let refusal = schema_refusal(url).expect(url);
            assert!(refusal.contains(named), "{refusal}");
        }
        assert!(schema_refusal("x/schema/latest/schema.json").is_some());
    }

    #[test]
    fn only_the_schema_layers_are_known() {
        assert!(layer_refusal("UITVOERINGSBELEID").is_none());
        assert!(layer_refusal("WET").is_none());
        let refusal = layer_refusal("WETJE").expect("refused");
        assert!(refusal.contains("'WETJE'"), "{refusal}");
        assert!(layer_refusal("wet").is_some());
    }
}
