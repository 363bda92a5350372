//! The one alias table every importer reads (`data/catalog/feeds/aliases.csv`):
//! the names price feeds give accelerators, mapped to catalogue ids, left
//! out with a reason, or named as parts the catalogue has no row for yet;
//! and SkyPilot's cloud names with the catalogue's provider ids
//! (`data/catalog/feeds/clouds.csv`). Both are compiled in, like the
//! bundled catalogue.

use std::sync::OnceLock;

use serde::Deserialize;

pub use crate::bundled::FEED_SOURCES;

/// What the table says to do with a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Import under `accelerator_id`.
    Map,
    /// Not imported (not a GPU the app compares, a CPU-only size …), for the reason given.
    Skip,
    /// A real GPU the catalogue has no row for yet.
    Missing,
}

/// One row of `aliases.csv`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Alias {
    /// The feed it is for: `skypilot`, `skypilot:<cloud>` (that cloud only),
    /// `skypilot:gcp-host` or `azure_retail`.
    pub feed: String,
    /// The feed's accelerator name: exact or a `*`-glob, `|` between
    /// alternatives, any case. Empty matches only an empty name. A
    /// `skypilot:gcp-host` row names the GPU the machine carries; an Azure
    /// row writes `armSkuName=<glob>`.
    pub name: Option<String>,
    /// Memory per GPU, GiB rounded, where the name needs it (A100 40/80).
    pub memory_gb: Option<f64>,
    /// The instance types it is limited to (glob, `|` between alternatives).
    pub instance_family: Option<String>,
    /// The catalogue accelerator a `map` row imports under; empty for `skip`
    /// and `missing`.
    pub accelerator_id: Option<String>,
    /// GPUs per instance, where the feed's own count is wrong or absent.
    pub count: Option<f64>,
    /// What to do with a name that matches.
    pub action: Action,
    /// Why, in words (shown when a name is left out).
    pub reason: String,
    /// `;`-separated source ids.
    pub source: String,
    /// Free-text notes.
    pub notes: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
struct Cloud {
    skypilot_cloud: String,
    provider_id: Option<String>,
}

const ALIASES: &str = include_str!("../../../data/catalog/feeds/aliases.csv");
const CLOUDS: &str = include_str!("../../../data/catalog/feeds/clouds.csv");

/// Every alias row, in file order.
pub fn table() -> &'static [Alias] {
    static TABLE: OnceLock<Vec<Alias>> = OnceLock::new();
    // The file is compiled in and checked by the crate's tests: a parse
    // failure is a build defect, so an empty table (every name unknown) is
    // the loud, safe fallback.
    TABLE.get_or_init(|| crate::csv_rows("feeds/aliases.csv", ALIASES).unwrap_or_default())
}

fn clouds() -> &'static [Cloud] {
    static CLOUDS_TABLE: OnceLock<Vec<Cloud>> = OnceLock::new();
    CLOUDS_TABLE.get_or_init(|| crate::csv_rows("feeds/clouds.csv", CLOUDS).unwrap_or_default())
}

/// `*`-globs with `|` alternatives, compared without case.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    fn one(p: &[u8], t: &[u8]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some((b'*', rest)) => (0..=t.len()).any(|i| one(rest, &t[i..])),
            Some((c, rest)) => t.first().is_some_and(|x| x.eq_ignore_ascii_case(c)) && one(rest, &t[1..]),
        }
    }
    pattern.split('|').any(|alt| one(alt.trim().as_bytes(), text.trim().as_bytes()))
}

/// The SkyPilot cloud and the catalogue provider id for what the user
/// typed: a SkyPilot cloud name (`vast`) or a provider id (`vast-ai`).
/// The provider is `None` when the catalogue has no such provider.
pub fn skypilot_cloud(given: &str) -> (String, Option<String>) {
    let given = given.trim();
    let clouds = clouds();
    if let Some(c) = clouds.iter().find(|c| c.skypilot_cloud.eq_ignore_ascii_case(given)) {
        return (c.skypilot_cloud.clone(), c.provider_id.clone());
    }
    if let Some(c) = clouds.iter().find(|c| c.provider_id.as_deref().is_some_and(|p| p.eq_ignore_ascii_case(given))) {
        return (c.skypilot_cloud.clone(), c.provider_id.clone());
    }
    (given.to_owned(), Some(given.to_owned()))
}

/// What a SkyPilot row's accelerator is, by the most specific alias row
/// (instance family 4, this cloud only 2, memory 1). `name` may be empty
/// (a host row); `memory_gib` is per GPU.
pub fn skypilot(cloud: &str, name: &str, memory_gib: Option<f64>, instance: &str) -> Option<&'static Alias> {
    let cloud_feed = format!("skypilot:{cloud}");
    let memory = memory_gib.filter(|m| *m > 0.0).map(f64::round);
    table()
        .iter()
        .filter_map(|a| {
            let cloud_specific = a.feed.eq_ignore_ascii_case(&cloud_feed);
            if !(cloud_specific || a.feed == "skypilot") {
                return None;
            }
            let name_ok = match a.name.as_deref() {
                None => name.trim().is_empty(),
                Some(p) => !name.trim().is_empty() && glob(p, name),
            };
            let family = a.instance_family.as_deref();
            let family_ok = family.is_none_or(|f| !instance.trim().is_empty() && glob(f, instance));
            let memory_ok = a.memory_gb.is_none_or(|m| memory == Some(m.round()));
            (name_ok && family_ok && memory_ok).then(|| {
                let score = 4 * family.is_some() as u8 + 2 * cloud_specific as u8 + a.memory_gb.is_some() as u8;
                (score, a)
            })
        })
        // The first of the best (max_by_key would take the last).
        .fold(None::<(u8, &Alias)>, |best, (s, a)| match best {
            Some((b, _)) if b >= s => best,
            _ => Some((s, a)),
        })
        .map(|(_, a)| a)
}

/// The GPUs a GCP machine type carries when SkyPilot leaves its accelerator
/// columns empty (a2, a3, a4, g2, g4): the alias row and GPUs per machine.
pub fn gcp_host(instance: &str) -> Option<(&'static Alias, Option<f64>)> {
    let alias = table()
        .iter()
        .find(|a| a.feed == "skypilot:gcp-host" && a.instance_family.as_deref().is_some_and(|f| glob(f, instance)))?;
    let count = alias.count.or_else(|| {
        // a2-highgpu-8g, a3-highgpu-1g: GPUs in the `-<n>g` suffix.
        let digits = instance.rsplit('-').next()?.strip_suffix('g')?;
        digits.parse::<f64>().ok()
    });
    Some((alias, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_alternatives_and_ignore_case() {
        assert!(glob("p5.*", "p5.48xlarge"));
        assert!(glob("gpu_*_h100_sxm5", "gpu_8x_h100_sxm5"));
        assert!(glob("a|b200", "B200"));
        assert!(!glob("p5.*", "p5e.48xlarge"));
        assert!(glob("tpu-v6e-*", "tpu-v6e-8"));
    }

    #[test]
    fn the_most_specific_row_wins() {
        let id = |cloud, name, mem, inst| skypilot(cloud, name, mem, inst).and_then(|a| a.accelerator_id.clone());
        assert_eq!(id("lambda", "A100", Some(40.0), "gpu_8x_a100").as_deref(), Some("nvidia-a100-sxm-40gb"));
        assert_eq!(id("lambda", "A100", Some(40.0), "gpu_1x_a100").as_deref(), Some("nvidia-a100-pcie-40gb"));
        assert_eq!(id("gcp", "A100", Some(40.0), "").as_deref(), Some("nvidia-a100-40gb"));
        assert_eq!(id("lambda", "H100", Some(80.0), "gpu_1x_h100_pcie").as_deref(), Some("nvidia-h100-pcie-80gb"));
        assert_eq!(id("aws", "H200", Some(141.0), "p5en.48xlarge").as_deref(), Some("nvidia-h200-sxm-141gb"));
        assert_eq!(id("gcp", "H200", Some(141.0), "").as_deref(), Some("nvidia-h200-sxm-141gb"));
        assert_eq!(skypilot("vast", "H200", Some(140.0), "1x-H200-32-65536").map(|a| a.action), Some(Action::Missing));
        assert_eq!(skypilot("gcp", "tpu-v6e-8", None, "").map(|a| a.action), Some(Action::Skip));
        assert_eq!(skypilot("aws", "", None, "m8g.large").map(|a| a.action), Some(Action::Skip));
        assert!(skypilot("aws", "Z9000", None, "z.large").is_none());
    }

    #[test]
    fn gcp_hosts_carry_their_gpus() {
        let (a, n) = gcp_host("a2-highgpu-8g").unwrap();
        assert_eq!((a.name.as_deref(), n), (Some("A100"), Some(8.0)));
        let (a, n) = gcp_host("g2-standard-96").unwrap();
        assert_eq!((a.name.as_deref(), n), (Some("L4"), Some(8.0)));
        assert!(gcp_host("n1-standard-8").is_none());
    }

    #[test]
    fn skypilot_cloud_names_are_provider_ids() {
        assert_eq!(skypilot_cloud("vast"), ("vast".to_owned(), Some("vast-ai".to_owned())));
        assert_eq!(skypilot_cloud("vast-ai"), ("vast".to_owned(), Some("vast-ai".to_owned())));
        assert_eq!(skypilot_cloud("fluidstack"), ("fluidstack".to_owned(), Some("fluidstack".to_owned())));
        assert_eq!(skypilot_cloud("yotta"), ("yotta".to_owned(), None));
        assert_eq!(skypilot_cloud("aws"), ("aws".to_owned(), Some("aws".to_owned())));
    }

    #[test]
    fn every_alias_names_real_rows_and_sources() {
        let tables = crate::bundled::tables().unwrap();
        assert!(table().len() > 100);
        for a in table() {
            if let Some(id) = &a.accelerator_id {
                assert!(tables.accelerators.iter().any(|x| &x.id == id), "{id} is not an accelerator");
            }
            if a.action != Action::Map {
                assert!(a.accelerator_id.is_none(), "{a:?}");
            } else if a.feed != "azure_retail" {
                assert!(a.accelerator_id.is_some(), "{a:?}");
            }
            for s in a.source.split(';').filter(|s| !s.is_empty()) {
                let known = tables.sources.iter().any(|x| x.id == s);
                assert!(known, "{s} is not a source");
            }
        }
    }
}
