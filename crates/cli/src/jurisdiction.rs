//! The buyer's jurisdiction as a command-line value, taken by `catalog list`
//! (`--obtainable-in`) and by `recommend` (`--jurisdiction`).

use clap::ValueEnum;
use suanli_api::catalog::Jurisdiction;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum JurisdictionArg {
    Cn,
}

impl From<JurisdictionArg> for Jurisdiction {
    fn from(j: JurisdictionArg) -> Self {
        match j {
            JurisdictionArg::Cn => Jurisdiction::Cn,
        }
    }
}
