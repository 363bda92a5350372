//! The user's price book: own offers and negotiated discounts, kept in the
//! same database as an overlay. No update, import or pack touches these
//! tables; only the functions here write them.

use rusqlite::params;
use serde::{Deserialize, Serialize};

use crate::check::{Checker, Problem};
use suanli_model::WorkloadClass;

use crate::ratios::PinnedRatio;
use crate::rows::Offer;
use crate::{Catalog, Error, rebuild_search, store};

/// A negotiated discount on one offer or on every offer of a provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Discount {
    /// Its id in the price book.
    pub id: String,
    /// The one offer it applies to; set this or `provider_id`, not both.
    #[serde(default)]
    pub offer_id: Option<String>,
    /// The provider on whose every offer it applies; an offer's own discount
    /// wins over it.
    #[serde(default)]
    pub provider_id: Option<String>,
    /// 0.15 = 15 % off the list price.
    pub discount_share: f64,
    /// The user's note.
    #[serde(default)]
    pub note: Option<String>,
    /// Its date, as the user gives it.
    #[serde(default)]
    pub as_of: Option<String>,
}

/// The share of a list price the buyer pays after a price-book discount
/// (`discount_share`, none: the whole price). Every discounted price is the
/// list price times this.
pub fn share_paid(discount_share: Option<f64>) -> f64 {
    1.0 - discount_share.unwrap_or(0.0)
}

/// Whether a discount's provider or offer must be in the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Targets {
    /// It must (the default: a typo would never apply).
    MustExist,
    /// It may be for a provider or offer the user will import later.
    ImportedLater,
}

/// The price book as a file (`suanli pricebook export`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PriceBookFile {
    /// Always [`PRICEBOOK_FORMAT`].
    pub format: String,
    /// The file format's version; 1.
    pub version: u32,
    /// The user's own offers.
    pub offers: Vec<Offer>,
    /// The negotiated discounts.
    pub discounts: Vec<Discount>,
}

/// The `format` of a price book file.
pub const PRICEBOOK_FORMAT: &str = "suanli-pricebook";

/// No accelerator does a thousand times the reference's work.
const MAX_RATIO: f64 = 1e3;

impl Catalog {
    /// The user's own offers, by id.
    pub fn pricebook_offers(&self) -> Result<Vec<Offer>, Error> {
        store::select(self.connection(), "SELECT * FROM pricebook_offers ORDER BY id", [])
    }

    /// The negotiated discounts, by id.
    pub fn discounts(&self) -> Result<Vec<Discount>, Error> {
        store::select(self.connection(), "SELECT * FROM pricebook_discounts ORDER BY id", [])
    }

    /// Adds or replaces one of the user's own offers.
    pub fn put_own_offer(&mut self, offer: &Offer) -> Result<(), Error> {
        self.put_pricebook(std::slice::from_ref(offer), &[])
    }

    /// Adds or replaces a negotiated discount; its provider or offer must be
    /// in the catalogue (a typo would otherwise never apply).
    pub fn put_discount(&mut self, discount: &Discount) -> Result<(), Error> {
        self.put_discount_with(discount, Targets::MustExist)
    }

    /// As [`Catalog::put_discount`], saying whether its provider or offer
    /// must exist already.
    pub fn put_discount_with(&mut self, discount: &Discount, targets: Targets) -> Result<(), Error> {
        self.put_pricebook_with(&[], std::slice::from_ref(discount), targets)
    }

    /// Removes an own offer or a discount by id; `false` when there was none.
    pub fn remove_from_pricebook(&mut self, id: &str) -> Result<bool, Error> {
        let tx = crate::write_transaction(&mut self.conn)?;
        let n = tx.execute("DELETE FROM pricebook_offers WHERE id = ?1", params![id])?
            + tx.execute("DELETE FROM pricebook_discounts WHERE id = ?1", params![id])?;
        rebuild_search(&tx)?;
        tx.commit()?;
        Ok(n > 0)
    }

    /// The ratios the user pinned.
    pub fn pinned_ratios(&self) -> Result<Vec<PinnedRatio>, Error> {
        store::select(self.connection(), "SELECT * FROM pricebook_ratios ORDER BY accelerator_id, workload_class", [])
    }

    /// Pins a ratio for an accelerator and workload class (replacing an
    /// earlier pin). It beats every measured or estimated ratio and no
    /// catalogue update, import or pack changes it.
    pub fn pin_ratio(&mut self, pin: &PinnedRatio) -> Result<(), Error> {
        let mut c = Checker::new();
        c.at("pricebook ratios", None, &pin.accelerator_id);
        if self.accelerator(&pin.accelerator_id)?.is_none() {
            c.fail("accelerator_id", &pin.accelerator_id, Problem::NoSuchRow { table: "accelerators" });
        }
        if !(pin.ratio.is_finite() && pin.ratio > 0.0) {
            c.fail("ratio", pin.ratio, Problem::PositiveRatio);
        } else if pin.ratio > MAX_RATIO {
            c.fail("ratio", pin.ratio, Problem::TooLarge);
        }
        if !pin.workload_class.is_priced() {
            c.fail("workload_class", pin.workload_class, Problem::Expected("a workload class offers are priced for"));
        }
        if !c.errors.is_empty() {
            return Err(Error::Rows(c.errors));
        }
        store::insert(self.connection(), "pricebook_ratios", pin)?;
        Ok(())
    }

    /// Removes a pin; `false` when there was none.
    pub fn unpin_ratio(&mut self, accelerator_id: &str, class: WorkloadClass) -> Result<bool, Error> {
        let n = self.conn.execute(
            "DELETE FROM pricebook_ratios WHERE accelerator_id = ?1 AND workload_class = ?2",
            params![accelerator_id, class.key()],
        )?;
        Ok(n > 0)
    }

    /// The price book as a file: own offers and discounts (pinned ratios are
    /// not in it).
    pub fn export_pricebook(&self) -> Result<PriceBookFile, Error> {
        Ok(PriceBookFile {
            format: PRICEBOOK_FORMAT.to_owned(),
            version: 1,
            offers: self.pricebook_offers()?,
            discounts: self.discounts()?,
        })
    }

    /// Imports a price book file: every entry is checked first; then all
    /// land in one transaction (replacing entries with the same id), or none.
    pub fn import_pricebook(&mut self, file: &PriceBookFile) -> Result<usize, Error> {
        if file.format != PRICEBOOK_FORMAT || file.version != 1 {
            return Err(Error::Pack(format!(
                "not a Suanli price book: format {:?} version {} (expected {PRICEBOOK_FORMAT:?} version 1)",
                file.format, file.version
            )));
        }
        self.put_pricebook(&file.offers, &file.discounts)?;
        Ok(file.offers.len() + file.discounts.len())
    }

    fn put_pricebook(&mut self, offers: &[Offer], discounts: &[Discount]) -> Result<(), Error> {
        self.put_pricebook_with(offers, discounts, Targets::MustExist)
    }

    /// Whether an offer id is known: the catalogue's, an import's, the
    /// price book's, or one of `offers` (saved with it).
    fn offer_known(&self, id: &str, offers: &[Offer]) -> Result<bool, Error> {
        if offers.iter().any(|o| o.id == id) {
            return Ok(true);
        }
        let n: i64 = self.connection().query_row(
            "SELECT (SELECT count(*) FROM offers WHERE id = ?1) + (SELECT count(*) FROM imported_offers WHERE id = ?1) \
             + (SELECT count(*) FROM pricebook_offers WHERE id = ?1)",
            params![id],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }

    fn put_pricebook_with(&mut self, offers: &[Offer], discounts: &[Discount], targets: Targets) -> Result<(), Error> {
        let providers: Vec<String> = self.providers()?.into_iter().map(|p| p.id).collect();
        let mut c = Checker::new();
        for (i, o) in offers.iter().enumerate() {
            c.at("pricebook offers", Some(i + 1), &o.id);
            c.required("id", &o.id);
            c.lengths(o);
            c.offer(o);
            // A catalogue row may price at 0 (a free tier); an offer the user types in may not.
            if o.price == 0.0 {
                c.fail("price", o.price, Problem::NotPositive);
            }
            // An empty provider is already "required"; one message per field.
            if !o.provider_id.is_empty() && !providers.contains(&o.provider_id) {
                c.fail("provider_id", &o.provider_id, Problem::NoSuchRow { table: "providers" });
            }
        }
        for (i, d) in discounts.iter().enumerate() {
            c.at("pricebook discounts", Some(i + 1), &d.id);
            c.required("id", &d.id);
            c.lengths(d);
            if !(d.discount_share.is_finite() && (0.0..1.0).contains(&d.discount_share)) {
                c.fail("discount_share", d.discount_share, Problem::DiscountShare);
            }
            if d.offer_id.is_some() == d.provider_id.is_some() {
                c.fail("offer_id", d.offer_id.clone().unwrap_or_default(), Problem::DiscountTarget);
            } else if targets == Targets::MustExist {
                if let Some(p) = d.provider_id.as_deref().filter(|p| !providers.iter().any(|x| x == p)) {
                    c.fail("provider_id", p, Problem::NoDiscountTarget { table: "providers" });
                }
                if let Some(o) = &d.offer_id
                    && !self.offer_known(o, offers)?
                {
                    c.fail("offer_id", o, Problem::NoDiscountTarget { table: "offers" });
                }
            }
        }
        if !c.errors.is_empty() {
            return Err(Error::Rows(c.errors));
        }
        let tx = crate::write_transaction(&mut self.conn)?;
        for o in offers {
            store::insert(&tx, "pricebook_offers", o)?;
        }
        for d in discounts {
            store::insert(&tx, "pricebook_discounts", d)?;
        }
        rebuild_search(&tx)?;
        tx.commit()?;
        Ok(())
    }
}
