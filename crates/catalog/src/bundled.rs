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
        sources: sources()?,
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

/// The `feed:*` sources the alias rows and provider rows cite (part of the
/// bundled catalogue's sources).
pub const FEED_SOURCES: &str = include_str!("../../../data/catalog/feeds/sources.csv");

/// The bundled sources rows cite: the registers' (`sources.csv`) and the
/// feed files the importers read (a provider row can cite its feed).
pub fn sources() -> Result<Vec<crate::rows::Source>, Error> {
    Ok([
        csv_rows("sources.csv", include_str!("../../../data/catalog/sources.csv"))?,
        csv_rows("feeds/sources.csv", FEED_SOURCES)?,
    ]
    .concat())
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

/// The bundled accelerators and export-control rules: what a report says of
/// an accelerator's export status (the rules cite [`sources`] by id).
pub fn export_facts() -> Result<ExportFacts, Error> {
    Ok(ExportFacts {
        accelerators: csv_rows("accelerators.csv", include_str!("../../../data/catalog/accelerators.csv"))?,
        controls: csv_rows("export_controls.csv", include_str!("../../../data/catalog/export_controls.csv"))?,
    })
}

/// See [`export_facts`].
#[derive(Debug, Clone)]
pub struct ExportFacts {
    /// Every accelerator row.
    pub accelerators: Vec<crate::rows::Accelerator>,
    /// Every export-control rule.
    pub controls: Vec<crate::rows::ExportControl>,
}

/// The bundled offers and reference exchange rates: the market a stated
/// price is checked against.
pub fn offers_and_rates() -> Result<(Vec<crate::rows::Offer>, Vec<crate::rows::ReferenceRate>), Error> {
    Ok((
        csv_rows("offers.csv", include_str!("../../../data/catalog/offers.csv"))?,
        csv_rows("fx.csv", include_str!("../../../data/catalog/fx.csv"))?,
    ))
}
