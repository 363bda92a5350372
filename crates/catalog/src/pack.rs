//! Signed catalogue packs: how a team shares one catalogue.
//!
//! A pack is a JSON document (format, version, label, the tables) with a
//! detached minisign signature (`FILE.minisig`) whose trusted comment
//! names the pack version. Verification rejects a tampered pack, one signed
//! by a key the catalogue does not trust, an unsigned pack (unless the user
//! explicitly allows it), a truncated one, and one not newer than the
//! installed catalogue. A pack says what it covers ([`Scope`]): the whole
//! catalogue, or named providers. Applying a verified pack changes only that
//! scope, in one transaction: a provider pack replaces those providers and
//! their offers and adds or updates the shared rows it carries (sources,
//! accelerators, ratios), never removing a row outside its scope. What it
//! will change is worked out first ([`Plan`]); a removal of more than
//! [`MAX_REMOVAL_SHARE`] of a table's rows needs [`Removals::Allowed`]. The
//! price book and imported offers stay.

use rusqlite::params;
use serde::{Deserialize, Serialize};

use suanli_model::Lang;

use crate::change_label::ChangeLabel;
use crate::rows::Tables;
use crate::{Catalog, ChangeSummary, Error, store};

/// The `format` every pack carries.
pub const PACK_FORMAT: &str = "suanli-catalog-pack";

/// Catalogue versions are dates with a serial, `YYYYMMDDNN` (the bundled
/// catalogue is 2026120101); none may be above the last of the year 9999.
pub const MAX_PACK_VERSION: i64 = 9_999_123_199;

/// How far one pack may move the catalogue's version: ten years of dated
/// versions. A pack further ahead would lock out every later pack (and
/// bundled upgrade) until its version came round; make it in steps, or
/// number packs from the installed version (`pack export` does: installed + 1).
pub const MAX_VERSION_STEP: i64 = 10_000_000;

/// A catalogue pack: the catalogue's tables (or a subset) with a version
/// and a label, written as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    /// Always [`PACK_FORMAT`]; any other is refused as unreadable.
    pub format: String,
    /// Catalogue version; a pack applies only over an older one.
    pub version: i64,
    /// What the pack is, for a reader; the change record shows it.
    pub label: String,
    /// When the pack was made (given by whoever exports it).
    pub created: String,
    /// What it covers; a pack without the field (made before scopes) covers
    /// the whole catalogue.
    #[serde(default)]
    pub scope: Scope,
    /// The catalogue rows it installs.
    pub tables: Tables,
}

/// What a pack covers, and so what applying it may change or remove.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Scope {
    /// The whole catalogue: every catalogue row not in the pack is removed.
    #[default]
    Catalogue,
    /// These providers: their rows and offers are replaced; every other
    /// provider and offer stays; shared rows are added or updated, never removed.
    Providers(Vec<String>),
}

/// The largest share of a table's rows a pack may remove without
/// [`Removals::Allowed`].
pub const MAX_REMOVAL_SHARE: f64 = 0.10;

/// Whether applying a pack may remove more than [`MAX_REMOVAL_SHARE`] of a
/// table's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removals {
    /// No more than the share (the default).
    WithinShare,
    /// Any number: the user said so explicitly (`--allow-removals`).
    Allowed,
}

/// A table of the catalogue, as packs carry them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum CatalogTable {
    /// Sources rows cite.
    Sources,
    /// Accelerators.
    Accelerators,
    /// Providers.
    Providers,
    /// Offers.
    Offers,
    /// Published efficiency ratios.
    Efficiency,
    /// Benchmark measurements.
    Measurements,
    /// Multi-node scaling points.
    Scaling,
    /// Export-control rules.
    ExportControls,
    /// Node and fabric facts.
    Nodes,
    /// Reference exchange rates.
    ReferenceRates,
}

impl CatalogTable {
    /// The table's name in packs and messages (`export_controls`).
    pub fn key(self) -> &'static str {
        match self {
            CatalogTable::Sources => "sources",
            CatalogTable::Accelerators => "accelerators",
            CatalogTable::Providers => "providers",
            CatalogTable::Offers => "offers",
            CatalogTable::Efficiency => "efficiency",
            CatalogTable::Measurements => "measurements",
            CatalogTable::Scaling => "scaling",
            CatalogTable::ExportControls => "export_controls",
            CatalogTable::Nodes => "nodes",
            CatalogTable::ReferenceRates => "reference_rates",
        }
    }
}

impl std::fmt::Display for CatalogTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// What applying a pack does to one table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TableChange {
    /// The table.
    pub table: CatalogTable,
    /// Rows it held before.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub before: usize,
    /// Rows the pack adds.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub added: usize,
    /// Rows the pack removes.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub removed: usize,
    /// Rows kept with at least one field changed.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub changed: usize,
    /// Each changed field with the number of rows it changes in, by field name.
    pub fields: Vec<FieldCount>,
}

/// A field and the number of rows a pack changes it in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FieldCount {
    /// The field (`region`, `notes`, `price` …).
    pub field: String,
    /// Rows whose value changes.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub rows: usize,
}

/// What applying a pack will change (or did change), table by table.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Plan {
    /// Every catalogue table, in the pack's order.
    pub tables: Vec<TableChange>,
}

impl Plan {
    /// One table's change, by name.
    pub fn table(&self, name: CatalogTable) -> Option<&TableChange> {
        self.tables.iter().find(|t| t.table == name)
    }

    /// Refuses a removal of more than [`MAX_REMOVAL_SHARE`] of any table's
    /// rows unless the user allowed it.
    pub fn check_removals(&self, removals: Removals) -> Result<(), PackError> {
        if removals == Removals::Allowed {
            return Ok(());
        }
        for t in &self.tables {
            if t.removed > 0 && t.removed as f64 > MAX_REMOVAL_SHARE * t.before as f64 {
                return Err(PackError::TooManyRemovals {
                    table: t.table,
                    removed: t.removed,
                    before: t.before,
                    share: MAX_REMOVAL_SHARE,
                });
            }
        }
        Ok(())
    }
}

/// Which part of the catalogue to export.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Subset {
    /// Only these providers' offers (and the providers themselves).
    pub providers: Option<Vec<String>>,
}

/// Why a pack was refused. Each says what to do.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum PackError {
    /// Not a pack's JSON, or not of [`PACK_FORMAT`]; the text says why.
    #[error("not a readable catalogue pack (truncated or damaged?): {0}")]
    Unreadable(String),
    /// No signature, and unsigned packs were not allowed.
    #[error("the pack has no signature; ask its publisher for FILE.minisig, or allow unsigned packs explicitly")]
    Unsigned,
    /// The signature file is not a minisign signature; the text says why.
    #[error("the signature is not a minisign signature: {0}")]
    BadSignatureFile(String),
    /// Signed by a key the trust store does not hold: its key id, or
    /// `(unknown)` when the signature does not say.
    #[error("the pack was signed by key {0}, which this catalogue does not trust (add it with `suanli catalog trust`)")]
    UntrustedKey(String),
    /// The signature names a trusted key but does not match the bytes.
    #[error("the signature does not match the pack: it was changed after signing")]
    Tampered,
    /// The signature's trusted comment (given) does not name the pack's
    /// version.
    #[error("the signature's trusted comment {0:?} does not name this pack's version")]
    VersionMismatch(String),
    /// Not newer than the installed catalogue.
    #[error("the pack is version {pack}, not newer than the installed catalogue ({installed})")]
    NotNewer {
        /// The pack's version.
        pack: i64,
        /// The installed catalogue's version.
        installed: i64,
    },
    /// A version outside 1 to [`MAX_PACK_VERSION`].
    #[error("the pack's version {version} is outside 1 to {max} (versions are YYYYMMDDNN)")]
    VersionOutOfRange {
        /// The version checked.
        version: i64,
        /// The highest allowed ([`MAX_PACK_VERSION`]).
        max: i64,
    },
    /// More than [`MAX_VERSION_STEP`] ahead of the installed catalogue.
    #[error(
        "the pack is version {pack}, more than {max_step} ahead of the installed catalogue ({installed}); it would lock out later packs"
    )]
    VersionJump {
        /// The pack's version.
        pack: i64,
        /// The installed catalogue's version.
        installed: i64,
        /// The largest step allowed ([`MAX_VERSION_STEP`]).
        max_step: i64,
    },
    /// The pack would remove more than [`MAX_REMOVAL_SHARE`] of a table's
    /// rows, and the user did not allow it.
    #[error(
        "the pack would remove {removed} of the {before} {table} rows (more than {}%); nothing was changed. Check it is the pack you meant (a whole-catalogue pack replaces everything), then apply it with --allow-removals",
        (share * 100.0).round()
    )]
    TooManyRemovals {
        /// The table.
        table: CatalogTable,
        /// Rows it would remove.
        removed: usize,
        /// Rows the table holds.
        before: usize,
        /// The share allowed without the flag ([`MAX_REMOVAL_SHARE`]).
        share: f64,
    },
    /// A provider pack holds a row of a provider outside its scope.
    #[error("the pack covers providers {scope:?} but its {table} row {id} belongs to {provider}; nothing was changed")]
    OutOfScope {
        /// The pack's providers.
        scope: Vec<String>,
        /// Providers or offers.
        table: CatalogTable,
        /// The row's id.
        id: String,
        /// The row's provider.
        provider: String,
    },
    /// A key id the catalogue already trusts, with other key bytes.
    #[error(
        "key id {key_id} is already trusted with another key ({trusted}); it was not replaced. If the publisher really changed keys, remove the old one first with `suanli catalog untrust {key_id}`"
    )]
    KeyIdTaken {
        /// The key id.
        key_id: String,
        /// The trusted key's base64 line.
        trusted: String,
    },
    /// The trust store files a key under another key's id; it is not trusted.
    #[error(
        "the trust store holds a public key under id {stored} that is really key {actual}; it is not trusted (remove it and trust the key file again)"
    )]
    KeyIdMismatch {
        /// The id the key is stored under.
        stored: String,
        /// The key's own id.
        actual: String,
    },
}

impl PackError {
    /// The refusal for a reader, in English or Chinese.
    pub fn message(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            PackError::Unreadable(why) => format!("不是可读的目录包（被截断或损坏？）：{why}"),
            PackError::Unsigned => "该目录包没有签名；请向发布者索取 FILE.minisig，或明确允许未签名的目录包".into(),
            PackError::BadSignatureFile(why) => format!("签名不是 minisign 签名：{why}"),
            PackError::UntrustedKey(id) => {
                format!("该目录包由公钥 {id} 签名，而本目录不信任该公钥（用 `suanli catalog trust` 添加）")
            }
            PackError::Tampered => "签名与目录包不符：签名后内容被改动过".into(),
            PackError::VersionMismatch(comment) => format!("签名的可信注释 {comment:?} 与目录包版本不符"),
            PackError::NotNewer { pack, installed } => {
                format!("目录包版本 {pack} 不比已安装目录（{installed}）新")
            }
            PackError::VersionOutOfRange { version, max } => {
                format!("目录包版本 {version} 超出 1 到 {max} 的范围（版本格式为 YYYYMMDDNN）")
            }
            PackError::VersionJump { pack, installed, max_step } => format!(
                "目录包版本 {pack} 比已安装目录（{installed}）超前超过 {max_step}；应用它将使之后的目录包都无法应用"
            ),
            PackError::TooManyRemovals { table, removed, before, share } => format!(
                "该目录包将移除 {table} 表 {before} 行中的 {removed} 行（超过 {}%）；未作任何改动。请确认这是要应用的目录包（整库目录包会替换全部内容），再加 --allow-removals 应用",
                (share * 100.0).round()
            ),
            PackError::OutOfScope { scope, table, id, provider } => {
                format!("该目录包只涵盖供应商 {scope:?}，但其 {table} 行 {id} 属于 {provider}；未作任何改动")
            }
            PackError::KeyIdTaken { key_id, trusted } => format!(
                "公钥标识 {key_id} 已信任另一把公钥（{trusted}），未被替换。如果发布者确实更换了密钥，请先用 `suanli catalog untrust {key_id}` 删除旧公钥"
            ),
            PackError::KeyIdMismatch { stored, actual } => {
                format!("信任库中以标识 {stored} 存放的公钥实际是 {actual}；不予信任（请删除后重新信任该公钥文件）")
            }
        }
    }
}

/// Checks a version against the bounds and, when a catalogue is installed,
/// that it moves forward by at most [`MAX_VERSION_STEP`].
pub fn check_version(version: i64, installed: Option<i64>) -> Result<(), PackError> {
    if !(1..=MAX_PACK_VERSION).contains(&version) {
        return Err(PackError::VersionOutOfRange { version, max: MAX_PACK_VERSION });
    }
    if let Some(installed) = installed {
        if version <= installed {
            return Err(PackError::NotNewer { pack: version, installed });
        }
        if version - installed > MAX_VERSION_STEP {
            return Err(PackError::VersionJump { pack: version, installed, max_step: MAX_VERSION_STEP });
        }
    }
    Ok(())
}

/// A pack that passed verification.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    /// The pack, parsed.
    pub pack: Pack,
    /// Key id of the signer; `None` for an unsigned pack the user allowed.
    pub signed_by: Option<String>,
}

/// Options of [`verify`].
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions<'a> {
    /// The trust store: minisign public keys (base64 key lines) that may
    /// sign packs, each under its key id (checked against the key).
    pub trusted_keys: &'a [TrustedKey],
    /// Accept a pack without a signature (the user's explicit choice).
    pub allow_unsigned: bool,
    /// Installed catalogue version; the pack must be newer.
    pub installed: Option<i64>,
}

fn trusted_comment(version: i64) -> String {
    format!("{PACK_FORMAT} version={version}")
}

/// A key's id as minisign prints it (16 hex digits).
pub fn key_id(public_key_base64: &str) -> Result<String, Error> {
    let pk = minisign::PublicKey::from_base64(public_key_base64.trim())
        .map_err(|e| Error::Pack(format!("not a minisign public key: {e}")))?;
    Ok(pk.keynum().iter().rev().map(|b| format!("{b:02X}")).collect())
}

/// The base64 key line of a public key file (`minisign.pub`), or the line itself.
pub fn public_key_line(text: &str) -> String {
    text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("untrusted comment:")).unwrap_or("").to_owned()
}

/// A new key pair, unencrypted: (public key file text, secret key file text).
/// The secret key file must be kept private.
pub fn keygen() -> Result<(String, String), Error> {
    let kp = minisign::KeyPair::generate_unencrypted_keypair().map_err(|e| Error::Pack(e.to_string()))?;
    let pk = kp.pk.to_box().map_err(|e| Error::Pack(e.to_string()))?.into_string();
    let sk = kp.sk.to_box(None).map_err(|e| Error::Pack(e.to_string()))?.into_string();
    Ok((pk, sk))
}

/// The pack's bytes as written to a file.
pub fn to_bytes(pack: &Pack) -> Result<Vec<u8>, Error> {
    let mut bytes = serde_json::to_vec_pretty(pack)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Signs pack bytes with a minisign secret key file's text; returns the
/// `.minisig` text.
pub fn sign(bytes: &[u8], secret_key: &str, version: i64) -> Result<String, Error> {
    let sk_box = minisign::SecretKeyBox::from_string(secret_key)
        .map_err(|e| Error::Pack(format!("not a minisign secret key: {e}")))?;
    let sk = sk_box.into_unencrypted_secret_key().map_err(|e| {
        Error::Pack(format!("cannot use this secret key (a password-protected key must be decrypted first): {e}"))
    })?;
    let signature =
        minisign::sign(None, &sk, bytes, Some(&trusted_comment(version)), Some("signature of a Suanli catalogue pack"))
            .map_err(|e| Error::Pack(e.to_string()))?;
    Ok(signature.into_string())
}

/// Checks a pack's signature, readability and version. Nothing is written.
pub fn verify(bytes: &[u8], signature: Option<&str>, o: &VerifyOptions<'_>) -> Result<Verified, PackError> {
    let signed_by = match signature {
        None if o.allow_unsigned => None,
        None => return Err(PackError::Unsigned),
        Some(text) => {
            let sig =
                minisign_verify::Signature::decode(text).map_err(|e| PackError::BadSignatureFile(e.to_string()))?;
            let sig_key = signature_key_id(text);
            let mut matched = None;
            let mut mismatched = None;
            for key in o.trusted_keys {
                let Ok(pk) = minisign_verify::PublicKey::from_base64(key.public_key.trim()) else { continue };
                let id = key_id(&key.public_key).unwrap_or_default();
                // A key is trusted under its own id only: a row that files
                // one key under another's id is no trust at all.
                if !id.eq_ignore_ascii_case(&key.key_id) {
                    if sig_key.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(&key.key_id) || s == id) {
                        mismatched = Some(PackError::KeyIdMismatch { stored: key.key_id.clone(), actual: id });
                    }
                    continue;
                }
                // minisign-verify reports a key-id mismatch and a bad
                // signature alike, so try every trusted key.
                if pk.verify(bytes, &sig, false).is_ok() {
                    matched = Some(id);
                    break;
                }
            }
            match matched {
                Some(id) => {
                    let comment = sig.trusted_comment().to_owned();
                    let pack: Pack = parse(bytes)?;
                    if comment != trusted_comment(pack.version) {
                        return Err(PackError::VersionMismatch(comment));
                    }
                    Some(id)
                }
                None => {
                    if let Some(e) = mismatched {
                        return Err(e);
                    }
                    // Is it a key we do not know, or a pack that was changed?
                    let known = o
                        .trusted_keys
                        .iter()
                        .filter_map(|k| key_id(&k.public_key).ok())
                        .any(|k| Some(&k) == sig_key.as_ref());
                    return Err(if known {
                        PackError::Tampered
                    } else {
                        PackError::UntrustedKey(sig_key.unwrap_or_else(|| "(unknown)".into()))
                    });
                }
            }
        }
    };
    let pack = parse(bytes)?;
    check_version(pack.version, o.installed)?;
    Ok(Verified { pack, signed_by })
}

fn parse(bytes: &[u8]) -> Result<Pack, PackError> {
    let pack: Pack = serde_json::from_slice(bytes).map_err(|e| PackError::Unreadable(e.to_string()))?;
    if pack.format != PACK_FORMAT {
        return Err(PackError::Unreadable(format!("format {:?}, expected {PACK_FORMAT:?}", pack.format)));
    }
    Ok(pack)
}

/// The key id a `.minisig` names (bytes 2..10 of its signature line).
fn signature_key_id(text: &str) -> Option<String> {
    let line = text.lines().nth(1)?;
    let bytes = decode_base64(line.trim())?;
    let keynum = bytes.get(2..10)?;
    Some(keynum.iter().rev().map(|b| format!("{b:02X}")).collect())
}

fn decode_base64(s: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut buf, mut bits) = (0u32, 0u32);
    for c in s.bytes().filter(|c| *c != b'=') {
        let v = ALPHABET.iter().position(|a| *a == c)? as u32;
        buf = (buf << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
            buf &= (1 << bits) - 1;
        }
    }
    Some(out)
}

impl Catalog {
    /// The catalogue (or a subset) as a pack of the given version.
    /// The version must be within the bounds every receiver checks.
    pub fn export_pack(&self, version: i64, label: &str, created: &str, subset: &Subset) -> Result<Pack, Error> {
        check_version(version, None).map_err(|e| Error::Pack(e.to_string()))?;
        let mut tables = self.tables()?;
        let scope = subset.providers.clone().map_or(Scope::Catalogue, Scope::Providers);
        if let Some(keep) = &subset.providers {
            for p in keep {
                if !tables.providers.iter().any(|x| &x.id == p) {
                    return Err(Error::NotFound(format!("provider {p}")));
                }
            }
            tables.providers.retain(|p| keep.contains(&p.id));
            tables.offers.retain(|o| keep.contains(&o.provider_id));
            tables.nodes.retain(|n| keep.contains(&n.provider_id));
        }
        Ok(Pack {
            format: PACK_FORMAT.to_owned(),
            version,
            label: label.to_owned(),
            created: created.to_owned(),
            scope,
            tables,
        })
    }

    /// What applying `pack` would change, table by table; nothing is written.
    pub fn pack_plan(&self, pack: &Pack) -> Result<Plan, Error> {
        let before = self.tables()?;
        let after = scoped(&before, pack)?;
        Ok(plan(&before, &after))
    }

    /// Applies a verified pack within its scope, in one transaction, and
    /// says what it changed. A removal beyond [`MAX_REMOVAL_SHARE`] of a
    /// table needs [`Removals::Allowed`]; on any refusal nothing changes.
    pub fn apply_pack(
        &mut self,
        verified: &Verified,
        now: &str,
        removals: Removals,
    ) -> Result<(Plan, ChangeSummary), Error> {
        let p = &verified.pack;
        // Checked again: the catalogue may have moved since verification.
        check_version(p.version, self.version()?).map_err(|e| Error::Pack(e.to_string()))?;
        let before = self.tables()?;
        let after = scoped(&before, p)?;
        let plan = plan(&before, &after);
        plan.check_removals(removals)?;
        let label = ChangeLabel::Pack { label: p.label.clone(), signed_by: verified.signed_by.clone() };
        let change = self.replace(&after, crate::ChangeKind::Pack, &label.stored(), p.version, now)?;
        Ok((plan, change))
    }

    /// Public keys (base64 lines) whose packs this catalogue accepts.
    pub fn trusted_keys(&self) -> Result<Vec<TrustedKey>, Error> {
        store::select(self.connection(), "SELECT key_id, public_key, label FROM trusted_keys ORDER BY key_id", [])
    }

    /// Trusts a minisign public key (file text or key line) for packs. The
    /// same key again only takes the new label; another key under a key id
    /// already trusted is refused ([`PackError::KeyIdTaken`]): the old key
    /// must be removed first ([`Catalog::untrust_key`]).
    pub fn trust_key(&mut self, public_key: &str, label: &str) -> Result<String, Error> {
        let line = public_key_line(public_key);
        let id = key_id(&line)?;
        if let Some(trusted) = self.trusted_keys()?.into_iter().find(|k| k.key_id.eq_ignore_ascii_case(&id))
            && trusted.public_key.trim() != line
        {
            return Err(PackError::KeyIdTaken { key_id: id, trusted: trusted.public_key }.into());
        }
        self.connection().execute(
            "INSERT OR REPLACE INTO trusted_keys (key_id, public_key, label) VALUES (?1, ?2, ?3)",
            params![id, line, label],
        )?;
        Ok(id)
    }

    /// Stops trusting the key with this id; `false` when none was trusted.
    pub fn untrust_key(&mut self, key_id: &str) -> Result<bool, Error> {
        let n = self
            .connection()
            .execute("DELETE FROM trusted_keys WHERE key_id = ?1 COLLATE NOCASE", params![key_id.trim()])?;
        Ok(n > 0)
    }
}

/// A public key whose signed packs this catalogue accepts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrustedKey {
    /// Its id as minisign prints it (16 hex digits).
    pub key_id: String,
    /// The base64 key line.
    pub public_key: String,
    /// What the user named it.
    pub label: Option<String>,
}

/// The catalogue after `pack`, applied within its scope to `current`.
fn scoped(current: &Tables, pack: &Pack) -> Result<Tables, PackError> {
    let Scope::Providers(scope) = &pack.scope else { return Ok(pack.tables.clone()) };
    let inside = |p: &str| scope.iter().any(|s| s == p);
    let outside = |table: CatalogTable, id: &str, provider: &str| PackError::OutOfScope {
        scope: scope.clone(),
        table,
        id: id.to_owned(),
        provider: provider.to_owned(),
    };
    if let Some(p) = pack.tables.providers.iter().find(|p| !inside(&p.id)) {
        return Err(outside(CatalogTable::Providers, &p.id, &p.id));
    }
    if let Some(o) = pack.tables.offers.iter().find(|o| !inside(&o.provider_id)) {
        return Err(outside(CatalogTable::Offers, &o.id, &o.provider_id));
    }
    if let Some(n) = pack.tables.nodes.iter().find(|n| !inside(&n.provider_id)) {
        return Err(outside(CatalogTable::Nodes, &n.id, &n.provider_id));
    }
    let t = &pack.tables;
    let mut after = current.clone();
    after.providers.retain(|p| !inside(&p.id));
    after.providers.extend(t.providers.iter().cloned());
    after.offers.retain(|o| !inside(&o.provider_id));
    after.offers.extend(t.offers.iter().cloned());
    after.nodes.retain(|n| !inside(&n.provider_id));
    after.nodes.extend(t.nodes.iter().cloned());
    upsert(&mut after.sources, &t.sources, |r| r.id.as_str());
    upsert(&mut after.accelerators, &t.accelerators, |r| r.id.as_str());
    upsert(&mut after.efficiency, &t.efficiency, |r| r.id.as_str());
    upsert(&mut after.measurements, &t.measurements, |r| r.id.as_str());
    upsert(&mut after.scaling, &t.scaling, |r| r.id.as_str());
    upsert(&mut after.export_controls, &t.export_controls, |r| r.id.as_str());
    upsert(&mut after.reference_rates, &t.reference_rates, |r| r.currency.code());
    after.providers.sort_by(|a, b| a.id.cmp(&b.id));
    after.nodes.sort_by(|a, b| a.id.cmp(&b.id));
    after.offers.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(after)
}

/// Rows of `new` replace the rows of `rows` with the same id, or are added;
/// no row is removed.
fn upsert<T: Clone>(rows: &mut Vec<T>, new: &[T], id: fn(&T) -> &str) {
    let index: std::collections::HashMap<String, usize> =
        rows.iter().enumerate().map(|(i, r)| (id(r).to_owned(), i)).collect();
    for n in new {
        match index.get(id(n)) {
            Some(&i) => rows[i] = n.clone(),
            None => rows.push(n.clone()),
        }
    }
    rows.sort_by(|a, b| id(a).cmp(id(b)));
}

/// Table by table, what turns `before` into `after`.
fn plan(before: &Tables, after: &Tables) -> Plan {
    let tables = vec![
        table_change(CatalogTable::Sources, &before.sources, &after.sources),
        table_change(CatalogTable::Accelerators, &before.accelerators, &after.accelerators),
        table_change(CatalogTable::Providers, &before.providers, &after.providers),
        table_change(CatalogTable::Offers, &before.offers, &after.offers),
        table_change(CatalogTable::Efficiency, &before.efficiency, &after.efficiency),
        table_change(CatalogTable::Measurements, &before.measurements, &after.measurements),
        table_change(CatalogTable::Scaling, &before.scaling, &after.scaling),
        table_change(CatalogTable::ExportControls, &before.export_controls, &after.export_controls),
        table_change(CatalogTable::Nodes, &before.nodes, &after.nodes),
        table_change(CatalogTable::ReferenceRates, &before.reference_rates, &after.reference_rates),
    ];
    Plan { tables }
}

/// A row's fields by name, as its JSON object (every row type has an `id`).
fn fields<T: Serialize>(row: &T) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(row) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    }
}

fn table_change<T: Serialize>(table: CatalogTable, before: &[T], after: &[T]) -> TableChange {
    use std::collections::{BTreeMap, HashMap};
    // Rows are keyed by `id`; a reference rate by its currency.
    let id = |m: &serde_json::Map<String, serde_json::Value>| {
        m.get("id").or_else(|| m.get("currency")).and_then(|v| v.as_str()).unwrap_or("").to_owned()
    };
    let old: HashMap<String, serde_json::Map<String, serde_json::Value>> =
        before.iter().map(fields).map(|m| (id(&m), m)).collect();
    let mut change = TableChange { table, before: before.len(), added: 0, removed: 0, changed: 0, fields: Vec::new() };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for new in after.iter().map(fields) {
        let key = id(&new);
        seen.insert(key.clone());
        let Some(o) = old.get(&key) else {
            change.added += 1;
            continue;
        };
        let differing: Vec<&String> = new.iter().filter(|(k, v)| o.get(*k) != Some(*v)).map(|(k, _)| k).collect();
        if !differing.is_empty() {
            change.changed += 1;
        }
        for k in differing {
            *counts.entry(k.clone()).or_default() += 1;
        }
    }
    change.removed = old.keys().filter(|k| !seen.contains(*k)).count();
    change.fields = counts.into_iter().map(|(field, rows)| FieldCount { field, rows }).collect();
    change
}
