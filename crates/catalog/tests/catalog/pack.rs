//! Signed packs: good, tampered, unsigned, untrusted, older, truncated.

use suanli_catalog::pack::{self, MAX_PACK_VERSION, MAX_VERSION_STEP, PackError, Subset, TrustedKey, VerifyOptions};

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
    let change = c.apply_pack(&v, NOW).unwrap();
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
    let err = c.apply_pack(&v, NOW).unwrap_err();
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
