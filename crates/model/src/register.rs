//! The registers a catalogue source is listed in: the fact sheets the
//! catalogue's figures were copied from, and the price feeds' own list.

use serde::{Deserialize, Serialize};

/// A register of sources (`data/catalog/sources.csv`'s `sheet` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Register {
    /// Accelerator facts.
    GpuFacts,
    /// Cloud and provider prices.
    ProviderPrices,
    /// Prices of domestic accelerators and Chinese clouds.
    ChinaPrices,
    /// Benchmark sources.
    Benchmarks,
    /// Specification sources.
    Specs,
    /// Node and fabric sources.
    Nodes,
    /// The source article.
    Article,
    /// The price feed files (`data/catalog/feeds/sources.csv`).
    Feeds,
}

impl Register {
    /// Every register.
    pub const ALL: [Register; 8] = [
        Register::GpuFacts,
        Register::ProviderPrices,
        Register::ChinaPrices,
        Register::Benchmarks,
        Register::Specs,
        Register::Nodes,
        Register::Article,
        Register::Feeds,
    ];

    /// The key the CSVs and packs write (`gpu-facts`).
    pub fn key(self) -> &'static str {
        match self {
            Register::GpuFacts => "gpu-facts",
            Register::ProviderPrices => "provider-prices",
            Register::ChinaPrices => "china-prices",
            Register::Benchmarks => "benchmarks",
            Register::Specs => "specs",
            Register::Nodes => "nodes",
            Register::Article => "article",
            Register::Feeds => "feeds",
        }
    }

    /// The register whose key is `text`.
    pub fn parse(text: &str) -> Option<Register> {
        Register::ALL.into_iter().find(|r| r.key() == text.trim())
    }
}

#[cfg(test)]
mod tests {
    use super::Register;

    #[test]
    fn a_register_serialises_as_its_key() {
        for r in Register::ALL {
            assert_eq!(serde_json::to_value(r).unwrap(), serde_json::json!(r.key()));
            assert_eq!(Register::parse(r.key()), Some(r));
        }
    }
}
