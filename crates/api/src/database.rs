//! Opening the catalogue database: where it is unless the caller says, and
//! a second, read-only connection to it.

use std::path::Path;

use suanli_catalog::{Catalog, Opened};

use crate::Error;
use crate::files::now_utc;

/// Opens the catalogue database (creating it from the bundled catalogue
/// on first start). `path`: `None` means [`crate::default_db_path`].
pub fn open_catalog(path: Option<&Path>) -> Result<(Catalog, Opened), Error> {
    let path = path.map_or_else(crate::default_db_path, Path::to_path_buf);
    Ok(Catalog::open(&path, &now_utc())?)
}

/// A read-only second connection to the catalogue at `path`, which
/// [`open_catalog`] opened: it reads while the first writes.
pub fn open_reader(path: &Path) -> Result<Catalog, Error> {
    Ok(Catalog::open_reader(path)?)
}
