//! The catalogue shipped inside the binary: the CSV files of
//! `data/catalog`, so a first start works offline with nothing else.

use crate::rows::Tables;
use crate::{Error, csv_rows};

/// The bundled catalogue's version (`data/catalog/VERSION`). A database
/// holding an older version is upgraded from the bundle on open.
pub fn version() -> i64 {
    include_str!("../../../data/catalog/VERSION").trim().parse().unwrap_or(0)
}

/// Parses the bundled CSV files.
pub fn tables() -> Result<Tables, Error> {
    Ok(Tables {
        // The feed files the importers read are sources too: a provider row can cite its feed.
        sources: [
            csv_rows("sources.csv", include_str!("../../../data/catalog/sources.csv"))?,
            csv_rows("feeds/sources.csv", crate::aliases::FEED_SOURCES)?,
        ]
        .concat(),
        accelerators: csv_rows("accelerators.csv", include_str!("../../../data/catalog/accelerators.csv"))?,
        providers: csv_rows("providers.csv", include_str!("../../../data/catalog/providers.csv"))?,
        offers: csv_rows("offers.csv", include_str!("../../../data/catalog/offers.csv"))?,
        efficiency: csv_rows("efficiency.csv", include_str!("../../../data/catalog/efficiency.csv"))?,
        measurements: csv_rows("measurements.csv", include_str!("../../../data/catalog/measurements.csv"))?,
        scaling: csv_rows("scaling.csv", include_str!("../../../data/catalog/scaling.csv"))?,
        export_controls: csv_rows("export_controls.csv", include_str!("../../../data/catalog/export_controls.csv"))?,
        nodes: csv_rows("nodes.csv", include_str!("../../../data/catalog/nodes.csv"))?,
        reference_rates: csv_rows("fx.csv", include_str!("../../../data/catalog/fx.csv"))?,
    })
}

/// Each bundled accelerator's name as a reader writes it, by id: `(id,
/// English, Chinese)`, the vendor first ("NVIDIA A100 SXM4 80GB", "华为 昇腾910B1").
pub fn accelerator_names() -> Result<Vec<(String, String, String)>, Error> {
    let rows: Vec<crate::rows::Accelerator> =
        csv_rows("accelerators.csv", include_str!("../../../data/catalog/accelerators.csv"))?;
    Ok(rows
        .into_iter()
        .map(|a| {
            let en = format!("{} {}", a.vendor, a.name);
            let zh =
                format!("{} {}", a.vendor_zh.as_deref().unwrap_or(&a.vendor), a.name_zh.as_deref().unwrap_or(&a.name));
            (a.id, en, zh)
        })
        .collect())
}

/// The bundled accelerators, export-control rules and sources: what a
/// report says of an accelerator's export status and where it comes from.
pub fn export_facts() -> Result<ExportFacts, Error> {
    Ok(ExportFacts {
        accelerators: csv_rows("accelerators.csv", include_str!("../../../data/catalog/accelerators.csv"))?,
        controls: csv_rows("export_controls.csv", include_str!("../../../data/catalog/export_controls.csv"))?,
        sources: csv_rows("sources.csv", include_str!("../../../data/catalog/sources.csv"))?,
    })
}

/// See [`export_facts`].
#[derive(Debug, Clone)]
pub struct ExportFacts {
    /// Every accelerator row.
    pub accelerators: Vec<crate::rows::Accelerator>,
    /// Every export-control rule.
    pub controls: Vec<crate::rows::ExportControl>,
    /// The sources rows cite.
    pub sources: Vec<crate::rows::Source>,
}

/// The bundled offers and reference exchange rates: the market a stated
/// price is checked against.
pub fn offers_and_rates() -> Result<(Vec<crate::rows::Offer>, Vec<crate::rows::ReferenceRate>), Error> {
    Ok((
        csv_rows("offers.csv", include_str!("../../../data/catalog/offers.csv"))?,
        csv_rows("fx.csv", include_str!("../../../data/catalog/fx.csv"))?,
    ))
}
