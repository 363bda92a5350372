//! Signed packs: good, tampered, unsigned, untrusted, older, truncated.

use suanli_catalog::pack::{
    self, CatalogTable, MAX_PACK_VERSION, MAX_VERSION_STEP, PackError, Removals, Scope, Subset, TrustedKey,
    VerifyOptions,
};

use suanli_model::Lang;

use crate::{NOW, fresh};

struct Signed {
    bytes: Vec<u8>,
    sig: String,
    public_key: String,
}

fn signed_pack(version: i64) -> Signed {
    let c = fresh();
    let (pk, sk) = pack::keygen().unwrap();
    // Made by hand: `export_pack` refuses a version out of range.
    let mut p = c.export_pack(1, "team catalogue", NOW, &Subset::default()).unwrap();
    p.version = version;
    let bytes = pack::to_bytes(&p).unwrap();
    let sig = pack::sign(&bytes, &sk, version).unwrap();
    Signed { bytes, sig, public_key: pack::public_key_line(&pk) }
}

#[test]
fn a_signed_newer_pack_verifies_and_applies() {
    let s = signed_pack(2_027_000_000);
    let mut c = fresh();
    let id = c.trust_key(&s.public_key, "team").unwrap();
    let keys = c.trusted_keys().unwrap();
    let v = pack::verify(
        &s.bytes,
        Some(&s.sig),
        &VerifyOptions { trusted_keys: &keys, installed: c.version().unwrap(), ..Default::default() },
    )
    .unwrap();
    assert_eq!(v.signed_by.as_deref(), Some(id.as_str()));
    let change = c.apply_pack(&v, NOW, Removals::WithinShare).unwrap().1;
    assert_eq!(c.version().unwrap(), Some(2_027_000_000));
    assert!(change.label.contains("signed by"));
}

fn trusted(public_key: &str) -> Vec<TrustedKey> {
    vec![TrustedKey { key_id: pack::key_id(public_key).unwrap(), public_key: public_key.to_owned(), label: None }]
}

#[test]
fn tampered_unsigned_untrusted_older_and_truncated_packs_are_refused() {
    let s = signed_pack(2_001_000_000);
    let keys = trusted(&s.public_key);
    let opts = VerifyOptions { trusted_keys: &keys, installed: Some(2_000_000_000), ..Default::default() };

    let tampered = String::from_utf8(s.bytes.clone()).unwrap().replacen("55.04", "5.04", 1).into_bytes();
    assert_ne!(tampered, s.bytes);
    assert_eq!(pack::verify(&tampered, Some(&s.sig), &opts), Err(PackError::Tampered));

    assert_eq!(pack::verify(&s.bytes, None, &opts), Err(PackError::Unsigned));
    let allowed = VerifyOptions { allow_unsigned: true, ..opts.clone() };
    assert!(pack::verify(&s.bytes, None, &allowed).unwrap().signed_by.is_none());

    let (other, _) = pack::keygen().unwrap();
    let strangers = trusted(&pack::public_key_line(&other));
    let untrusting = VerifyOptions { trusted_keys: &strangers, ..opts.clone() };
    assert!(matches!(pack::verify(&s.bytes, Some(&s.sig), &untrusting), Err(PackError::UntrustedKey(_))));

    let newer_installed = VerifyOptions { installed: Some(2_001_000_000), ..opts.clone() };
    assert_eq!(
        pack::verify(&s.bytes, Some(&s.sig), &newer_installed),
        Err(PackError::NotNewer { pack: 2_001_000_000, installed: 2_001_000_000 })
    );

    let truncated = &s.bytes[..s.bytes.len() / 2];
    let unsigned_ok = VerifyOptions { allow_unsigned: true, ..opts.clone() };
    assert!(matches!(pack::verify(truncated, None, &unsigned_ok), Err(PackError::Unreadable(_))));
    assert_eq!(pack::verify(truncated, Some(&s.sig), &opts), Err(PackError::Tampered));

    assert!(matches!(pack::verify(&s.bytes, Some("not a signature"), &opts), Err(PackError::BadSignatureFile(_))));
}

#[test]
fn a_pack_with_bad_rows_changes_nothing() {
    let mut c = fresh();
    let mut p = c.export_pack(2_027_000_000, "bad", NOW, &Subset::default()).unwrap();
    p.tables.offers[0].price = f64::NAN;
    p.tables.offers[1].provider_id = "nobody".into();
    let v = pack::Verified { pack: p, signed_by: None };
    let before = c.tables().unwrap();
    let err = c.apply_pack(&v, NOW, Removals::Allowed).unwrap_err();
    assert!(err.to_string().contains("price"), "{err}");
    assert!(err.to_string().contains("nobody"), "{err}");
    assert_eq!(c.tables().unwrap(), before);
}

#[test]
fn a_subset_pack_holds_only_the_named_providers_offers() {
    let c = fresh();
    let p = c
        .export_pack(1, "cn", NOW, &Subset { providers: Some(vec!["aliyun".into(), "tencent-cloud".into()]) })
        .unwrap();
    assert!(!p.tables.offers.is_empty());
    assert!(p.tables.offers.iter().all(|o| o.provider_id == "aliyun" || o.provider_id == "tencent-cloud"));
    assert!(c.export_pack(1, "x", NOW, &Subset { providers: Some(vec!["nobody".into()]) }).is_err());
}

#[test]
fn pack_versions_are_bounded_and_move_by_a_bounded_step() {
    let installed = 2_026_113_001;
    for (version, expect) in [
        // The pack: after it, no later pack could ever apply.
        (i64::MAX, PackError::VersionOutOfRange { version: i64::MAX, max: MAX_PACK_VERSION }),
        (0, PackError::VersionOutOfRange { version: 0, max: MAX_PACK_VERSION }),
        (-5, PackError::VersionOutOfRange { version: -5, max: MAX_PACK_VERSION }),
        (
            installed + MAX_VERSION_STEP + 1,
            PackError::VersionJump { pack: installed + MAX_VERSION_STEP + 1, installed, max_step: MAX_VERSION_STEP },
        ),
    ] {
        let s = signed_pack(version);
        let keys = trusted(&s.public_key);
        let opts = VerifyOptions { trusted_keys: &keys, installed: Some(installed), ..Default::default() };
        assert_eq!(pack::verify(&s.bytes, Some(&s.sig), &opts), Err(expect.clone()), "version {version}");
        // Unsigned and allowed: the same bounds.
        let unsigned = VerifyOptions { allow_unsigned: true, ..opts.clone() };
        assert_eq!(pack::verify(&s.bytes, None, &unsigned), Err(expect.clone()));
        assert!(!expect.message(Lang::Zh).is_empty() && expect.message(Lang::Zh) != expect.message(Lang::En));
    }
    // The largest step is allowed.
    let s = signed_pack(installed + MAX_VERSION_STEP);
    let keys = trusted(&s.public_key);
    let opts = VerifyOptions { trusted_keys: &keys, installed: Some(installed), ..Default::default() };
    assert!(pack::verify(&s.bytes, Some(&s.sig), &opts).is_ok());
    // A publisher cannot make a pack out of range either.
    assert!(fresh().export_pack(i64::MAX, "x", NOW, &Subset::default()).is_err());
}

#[test]
fn a_key_stored_under_another_keys_id_is_not_trusted() {
    let s = signed_pack(2_027_000_000);
    let mut c = fresh();
    // Trust another key, then put the signer's key under that key's id.
    let (other, _) = pack::keygen().unwrap();
    let other_id = c.trust_key(&other, "other").unwrap();
    c.connection()
        .execute("UPDATE trusted_keys SET public_key = ?1 WHERE key_id = ?2", [&s.public_key, &other_id])
        .unwrap();
    let keys = c.trusted_keys().unwrap();
    assert_eq!(keys.len(), 1);
    let opts = VerifyOptions { trusted_keys: &keys, installed: c.version().unwrap(), ..Default::default() };
    match pack::verify(&s.bytes, Some(&s.sig), &opts) {
        Err(e @ PackError::KeyIdMismatch { .. }) => {
            assert!(e.message(Lang::En).contains(&other_id), "{}", e.message(Lang::En));
            assert!(e.message(Lang::Zh).contains("公钥"), "{}", e.message(Lang::Zh));
        }
        other => panic!("a key under another key's id was trusted: {other:?}"),
    }
}

/// A pack of `p`'s tables signed with a fresh key, and that key trusted by `c`.
fn sign_for(c: &mut suanli_catalog::Catalog, p: &pack::Pack) -> pack::Verified {
    let (pk, sk) = pack::keygen().unwrap();
    let bytes = pack::to_bytes(p).unwrap();
    let sig = pack::sign(&bytes, &sk, p.version).unwrap();
    c.trust_key(&pk, "publisher").unwrap();
    let keys = c.trusted_keys().unwrap();
    pack::verify(
        &bytes,
        Some(&sig),
        &VerifyOptions { trusted_keys: &keys, installed: c.version().unwrap(), ..Default::default() },
    )
    .unwrap()
}

fn offers_of(c: &suanli_catalog::Catalog, provider: &str) -> Vec<suanli_catalog::Offer> {
    c.tables().unwrap().offers.into_iter().filter(|o| o.provider_id == provider).collect()
}

#[test]
fn a_provider_pack_changes_only_its_providers() {
    let publisher = fresh();
    let mut p =
        publisher.export_pack(2_027_000_000, "aws only", NOW, &Subset { providers: Some(vec!["aws".into()]) }).unwrap();
    assert_eq!(p.scope, Scope::Providers(vec!["aws".into()]));
    // The publisher dropped one AWS offer and moved another's region.
    let dropped = p.tables.offers.pop().unwrap().id;
    p.tables.offers[0].region = Some("eu-west-9".into());
    let moved = p.tables.offers[0].id.clone();

    let mut c = fresh();
    let before = c.tables().unwrap();
    let v = sign_for(&mut c, &p);
    let plan = c.pack_plan(&v.pack).unwrap();
    let offers = plan.table(CatalogTable::Offers).unwrap();
    assert_eq!((offers.added, offers.removed, offers.changed), (0, 1, 1), "{plan:?}");
    assert_eq!(offers.fields, vec![pack::FieldCount { field: "region".into(), rows: 1 }]);
    assert_eq!(plan.table(CatalogTable::Providers).unwrap().removed, 0);

    let (_, change) = c.apply_pack(&v, NOW, Removals::WithinShare).unwrap();
    assert_eq!((change.added, change.removed), (0, 1));
    let after = c.tables().unwrap();
    // Every other provider's offers and every provider are as they were.
    assert_eq!(after.providers, before.providers);
    let others =
        |t: &suanli_catalog::Tables| t.offers.iter().filter(|o| o.provider_id != "aws").cloned().collect::<Vec<_>>();
    assert_eq!(others(&after), others(&before));
    assert!(!after.offers.iter().any(|o| o.id == dropped));
    assert_eq!(after.offers.iter().find(|o| o.id == moved).unwrap().region.as_deref(), Some("eu-west-9"));
    assert_eq!(offers_of(&c, "aws").len(), offers_of(&publisher, "aws").len() - 1);
}

#[test]
fn a_provider_pack_with_rows_outside_its_scope_is_refused() {
    let publisher = fresh();
    let mut p =
        publisher.export_pack(2_027_000_000, "aws only", NOW, &Subset { providers: Some(vec!["aws".into()]) }).unwrap();
    let mut stray = offers_of(&publisher, "aliyun")[0].clone();
    stray.price = 1.0;
    p.tables.offers.push(stray.clone());
    let mut c = fresh();
    let before = c.tables().unwrap();
    let v = sign_for(&mut c, &p);
    let err = c.apply_pack(&v, NOW, Removals::Allowed).unwrap_err();
    assert!(err.to_string().contains(&stray.id) && err.to_string().contains("aliyun"), "{err}");
    assert_eq!(c.tables().unwrap(), before);
}

#[test]
fn an_empty_whole_catalogue_pack_removes_nothing_without_the_explicit_flag() {
    let mut c = fresh();
    let mut p = c.export_pack(2_027_000_000, "empty", NOW, &Subset::default()).unwrap();
    assert_eq!(p.scope, Scope::Catalogue);
    p.tables.offers.clear();
    let n = c.tables().unwrap().offers.len();
    let v = sign_for(&mut c, &p);
    let before = c.tables().unwrap();
    let plan = c.pack_plan(&v.pack).unwrap();
    assert_eq!(plan.table(CatalogTable::Offers).unwrap().removed, n);
    match c.apply_pack(&v, NOW, Removals::WithinShare) {
        Err(suanli_catalog::Error::Refused(e @ PackError::TooManyRemovals { .. })) => {
            assert!(e.message(Lang::En).contains(&n.to_string()), "{}", e.message(Lang::En));
            assert!(e.message(Lang::En).contains("--allow-removals"), "{}", e.message(Lang::En));
            assert!(e.message(Lang::Zh).contains("移除"), "{}", e.message(Lang::Zh));
        }
        other => panic!("an empty pack removed the catalogue: {other:?}"),
    }
    assert_eq!(c.tables().unwrap(), before);
    let (_, change) = c.apply_pack(&v, NOW, Removals::Allowed).unwrap();
    assert_eq!(change.removed as usize, n);
}

#[test]
fn a_pack_without_a_scope_field_is_a_whole_catalogue_pack() {
    let c = fresh();
    let p = c.export_pack(2_027_000_000, "old", NOW, &Subset::default()).unwrap();
    let mut json: serde_json::Value = serde_json::from_slice(&pack::to_bytes(&p).unwrap()).unwrap();
    json.as_object_mut().unwrap().remove("scope");
    let bytes = serde_json::to_vec(&json).unwrap();
    let v = pack::verify(&bytes, None, &VerifyOptions { allow_unsigned: true, ..Default::default() }).unwrap();
    assert_eq!(v.pack.scope, Scope::Catalogue);
}

#[test]
fn pack_rows_have_the_importers_field_limits() {
    let mut c = fresh();
    let mut p = c.export_pack(2_027_000_000, "long", NOW, &Subset::default()).unwrap();
    p.tables.offers[0].instance = Some("x".repeat(5 * 1024 * 1024));
    p.tables.providers[0].name = "y".repeat(1025);
    let v = pack::Verified { pack: p, signed_by: None };
    let before = c.tables().unwrap();
    let err = c.apply_pack(&v, NOW, Removals::Allowed).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("instance") && text.contains("1024"), "{}", &text[..text.len().min(2000)]);
    assert!(text.contains("name"), "{}", &text[..text.len().min(2000)]);
    assert!(text.len() < 4000, "the error repeats the 5 MB value");
    assert_eq!(c.tables().unwrap(), before);
}

#[test]
fn the_plan_counts_every_changed_field() {
    let mut c = fresh();
    let mut p = c.export_pack(2_027_000_000, "edits", NOW, &Subset::default()).unwrap();
    p.tables.offers[0].notes = Some("renamed".into());
    p.tables.offers[1].instance = Some("another name".into());
    p.tables.offers[1].region = Some("elsewhere".into());
    p.tables.providers[0].name = "New name".into();
    let v = sign_for(&mut c, &p);
    let plan = c.pack_plan(&v.pack).unwrap();
    let offers = plan.table(CatalogTable::Offers).unwrap();
    assert_eq!(offers.changed, 2);
    let fields: Vec<(&str, usize)> = offers.fields.iter().map(|f| (f.field.as_str(), f.rows)).collect();
    assert_eq!(fields, vec![("instance", 1), ("notes", 1), ("region", 1)]);
    assert_eq!(plan.table(CatalogTable::Providers).unwrap().changed, 1);
    let (after, _) = c.apply_pack(&v, NOW, Removals::WithinShare).unwrap();
    assert_eq!(after, plan);
}

/// `public_key`'s line with its key id replaced by `other`'s: another key under a trusted id.
fn same_id_other_bytes(trusted: &str) -> String {
    let (other, _) = pack::keygen().unwrap();
    let mut bytes = base64_decode(&pack::public_key_line(&other));
    let id = base64_decode(&pack::public_key_line(trusted));
    bytes[2..10].copy_from_slice(&id[2..10]);
    base64_encode(&bytes)
}

fn base64_decode(s: &str) -> Vec<u8> {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let (mut out, mut buf, mut bits) = (Vec::new(), 0u32, 0u32);
    for c in s.bytes().filter(|c| *c != b'=') {
        buf = (buf << 6) | A.iter().position(|a| *a == c).unwrap() as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
            buf &= (1 << bits) - 1;
        }
    }
    out
}

fn base64_encode(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn a_trusted_key_id_is_not_replaced_by_other_key_bytes() {
    let mut c = fresh();
    let (real, _) = pack::keygen().unwrap();
    let id = c.trust_key(&real, "publisher").unwrap();
    let impostor = same_id_other_bytes(&real);
    assert_eq!(pack::key_id(&impostor).unwrap(), id);
    match c.trust_key(&impostor, "impostor") {
        Err(suanli_catalog::Error::Refused(e @ PackError::KeyIdTaken { .. })) => {
            let en = e.message(Lang::En);
            assert!(en.contains(&id) && en.contains(&pack::public_key_line(&real)), "{en}");
            assert!(en.contains("catalog untrust"), "{en}");
            assert!(e.message(Lang::Zh).contains("公钥"), "{}", e.message(Lang::Zh));
        }
        other => panic!("another key replaced a trusted one: {other:?}"),
    }
    assert_eq!(c.trusted_keys().unwrap()[0].public_key, pack::public_key_line(&real));
    // The same key again is fine (a new label); after untrust the other key may come in.
    assert_eq!(c.trust_key(&real, "renamed").unwrap(), id);
    assert!(c.untrust_key(&id).unwrap());
    assert!(!c.untrust_key(&id).unwrap());
    assert_eq!(c.trust_key(&impostor, "new").unwrap(), id);
}
