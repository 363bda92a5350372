//! What a recorded change was: its label, stored in English as the record
//! of it, and read in either language. Every label a change is written
//! with is made here, so each one has its Chinese.

use suanli_model::Lang;

/// The changes a catalogue records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeLabel {
    /// The bundled catalogue, installed into a new database.
    Bundled,
    /// A newer bundled catalogue, installed by an upgrade.
    BundledUpgrade,
    /// Offers from a CSV in the catalogue's own format.
    OffersCsv,
    /// A SkyPilot catalogue file.
    Skypilot {
        /// The provider (or SkyPilot cloud) given for it.
        provider: String,
    },
    /// Pages of the Azure Retail Prices API.
    AzureRetail,
    /// A catalogue pack.
    Pack {
        /// The pack's own label.
        label: String,
        /// The trusted key that signed it; `None` when unsigned.
        signed_by: Option<String>,
    },
}

impl ChangeLabel {
    /// The label as stored: English, the words older builds wrote too.
    pub fn stored(&self) -> String {
        self.text(Lang::En)
    }

    /// The label in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Self::Bundled, Lang::En) => "bundled catalogue".into(),
            (Self::Bundled, Lang::Zh) => "内置目录".into(),
            (Self::BundledUpgrade, Lang::En) => "bundled catalogue upgrade".into(),
            (Self::BundledUpgrade, Lang::Zh) => "内置目录升级".into(),
            (Self::OffersCsv, Lang::En) => "import: offers CSV".into(),
            (Self::OffersCsv, Lang::Zh) => "导入：报价 CSV".into(),
            (Self::Skypilot { provider }, Lang::En) => format!("import: SkyPilot catalogue ({provider})"),
            (Self::Skypilot { provider }, Lang::Zh) => format!("导入：SkyPilot 目录（{provider}）"),
            (Self::AzureRetail, Lang::En) => "import: Azure Retail Prices".into(),
            (Self::AzureRetail, Lang::Zh) => "导入：Azure 零售价格".into(),
            (Self::Pack { label, signed_by: Some(key) }, Lang::En) => format!("pack: {label} (signed by {key})"),
            (Self::Pack { label, signed_by: Some(key) }, Lang::Zh) => format!("数据包：{label}（签名密钥 {key}）"),
            (Self::Pack { label, signed_by: None }, Lang::En) => format!("pack: {label} (unsigned)"),
            (Self::Pack { label, signed_by: None }, Lang::Zh) => format!("数据包：{label}（未签名）"),
        }
    }

    /// Reads a stored label back; `None` for one this build does not write.
    pub fn parse(stored: &str) -> Option<Self> {
        let within = |s: &str, open: &str| s.strip_prefix(open).and_then(|s| s.strip_suffix(')')).map(str::to_owned);
        match stored {
            "bundled catalogue" => Some(Self::Bundled),
            "bundled catalogue upgrade" => Some(Self::BundledUpgrade),
            "import: offers CSV" => Some(Self::OffersCsv),
            "import: Azure Retail Prices" => Some(Self::AzureRetail),
            _ => {
                if let Some(provider) = within(stored, "import: SkyPilot catalogue (") {
                    return Some(Self::Skypilot { provider });
                }
                let pack = stored.strip_prefix("pack: ")?;
                if let Some(label) = pack.strip_suffix(" (unsigned)") {
                    return Some(Self::Pack { label: label.to_owned(), signed_by: None });
                }
                let (label, key) = pack.rsplit_once(" (signed by ")?;
                Some(Self::Pack { label: label.to_owned(), signed_by: Some(key.strip_suffix(')')?.to_owned()) })
            }
        }
    }
}

/// A stored label in Chinese; one this build does not know stays as stored.
pub fn label_zh(stored: &str) -> String {
    ChangeLabel::parse(stored).map_or_else(|| stored.to_owned(), |l| l.text(Lang::Zh))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> Vec<ChangeLabel> {
        vec![
            ChangeLabel::Bundled,
            ChangeLabel::BundledUpgrade,
            ChangeLabel::OffersCsv,
            ChangeLabel::Skypilot { provider: "aws".into() },
            ChangeLabel::AzureRetail,
            ChangeLabel::Pack { label: "2026-11 (prices)".into(), signed_by: Some("ops key".into()) },
            ChangeLabel::Pack { label: "2026-11".into(), signed_by: None },
        ]
    }

    #[test]
    fn every_stored_label_reads_back_as_itself() {
        for l in every_kind() {
            assert_eq!(ChangeLabel::parse(&l.stored()), Some(l.clone()), "{}", l.stored());
        }
    }

    #[test]
    fn every_label_has_chinese_without_the_english_words() {
        for l in every_kind() {
            let zh = label_zh(&l.stored());
            assert_ne!(zh, l.stored());
            for word in ["import", "bundled", "catalogue", "pack", "signed", "Prices"] {
                assert!(!zh.contains(word), "{zh} has {word}");
            }
        }
    }

    #[test]
    fn a_label_this_build_does_not_write_stays_as_stored() {
        assert_eq!(label_zh("restored by hand"), "restored by hand");
        assert_eq!(label_zh("pack: no closing"), "pack: no closing");
    }
}
