//! The choices the desktop offers, taken from the crates that own them; the
//! shell exports them to TypeScript as constants, so the UI repeats none.

use suanli_catalog::{BillingMode, SECURITY_FLAGS};
use suanli_model::{Billing, Category, Maturity, OptionKind};

/// The most search candidates a user can turn into a scenario's options at once.
pub const MAX_PICKS: usize = suanli_plan::MAX_PICKS;

/// The security needs a search can require (the provider facts the catalogue keeps).
pub const SECURITY_NEEDS: [&str; 3] = SECURITY_FLAGS;

/// Every way an offer is billed, as the search's billing filter offers them.
pub const BILLING_MODES: [BillingMode; 7] = BillingMode::ALL;

/// The cost categories a breakdown names.
pub const CATEGORIES: [Category; 17] = Category::ALL;

/// How ready a framework adapter can be.
pub const MATURITIES: [Maturity; 3] = [Maturity::Mature, Maturity::Beta, Maturity::Early];

/// What an option can be.
pub const OPTION_KINDS: [OptionKind; 3] = [OptionKind::Buy, OptionKind::Rent, OptionKind::Mix];

/// The pools a rent option can be.
pub const RENT_BILLINGS: [Billing; 3] = [Billing::OnDemand, Billing::Reserved, Billing::Spot];

// A new kind of option or rent pool must be offered above: these matches
// stop compiling until it is.
const _: fn(Maturity) = |m| match m {
    Maturity::Mature | Maturity::Beta | Maturity::Early => {}
};
const _: fn(OptionKind) = |k| match k {
    OptionKind::Buy | OptionKind::Rent | OptionKind::Mix => {}
};
const _: fn(Billing) = |b| match b {
    Billing::OnDemand | Billing::Reserved | Billing::Spot => {}
};
