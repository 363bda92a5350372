//! Signed packs: good, tampered, unsigned, untrusted, older, truncated.

use suanli_catalog::pack::{self, PackError, Subset, VerifyOptions};

use crate::{NOW, fresh};

struct Signed {
    bytes: Vec<u8>,
    sig: String,
    public_key: String,
}

fn signed_pack(version: i64) -> Signed {
    let c = fresh();
    let (pk, sk) = pack::keygen().unwrap();
    let p = c.export_pack(version, "team catalogue", NOW, &Subset::default()).unwrap();
    let bytes = pack::to_bytes(&p).unwrap();
    let sig = pack::sign(&bytes, &sk, version).unwrap();
    Signed { bytes, sig, public_key: pack::public_key_line(&pk) }
}

#[test]
fn a_signed_newer_pack_verifies_and_applies() {
    let s = signed_pack(2_100_000_000);
    let mut c = fresh();
    let id = c.trust_key(&s.public_key, "team").unwrap();
    let keys: Vec<String> = c.trusted_keys().unwrap().into_iter().map(|k| k.public_key).collect();
    let v = pack::verify(
        &s.bytes,
        Some(&s.sig),
        &VerifyOptions { trusted_keys: &keys, installed: c.version().unwrap(), ..Default::default() },
    )
    .unwrap();
    assert_eq!(v.signed_by.as_deref(), Some(id.as_str()));
    let change = c.apply_pack(&v, NOW).unwrap();
    assert_eq!(c.version().unwrap(), Some(2_100_000_000));
    assert!(change.label.contains("signed by"));
}

#[test]
fn tampered_unsigned_untrusted_older_and_truncated_packs_are_refused() {
    let s = signed_pack(2_100_000_000);
    let keys = vec![s.public_key.clone()];
    let opts = VerifyOptions { trusted_keys: &keys, installed: Some(2_000_000_000), ..Default::default() };

    let tampered = String::from_utf8(s.bytes.clone()).unwrap().replacen("55.04", "5.04", 1).into_bytes();
    assert_ne!(tampered, s.bytes);
    assert_eq!(pack::verify(&tampered, Some(&s.sig), &opts), Err(PackError::Tampered));

    assert_eq!(pack::verify(&s.bytes, None, &opts), Err(PackError::Unsigned));
    let allowed = VerifyOptions { allow_unsigned: true, ..opts.clone() };
    assert!(pack::verify(&s.bytes, None, &allowed).unwrap().signed_by.is_none());

    let (other, _) = pack::keygen().unwrap();
    let strangers = vec![pack::public_key_line(&other)];
    let untrusting = VerifyOptions { trusted_keys: &strangers, ..opts.clone() };
    assert!(matches!(pack::verify(&s.bytes, Some(&s.sig), &untrusting), Err(PackError::UntrustedKey(_))));

    let newer_installed = VerifyOptions { installed: Some(2_100_000_000), ..opts.clone() };
    assert_eq!(
        pack::verify(&s.bytes, Some(&s.sig), &newer_installed),
        Err(PackError::NotNewer { pack: 2_100_000_000, installed: 2_100_000_000 })
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
    let mut p = c.export_pack(2_100_000_000, "bad", NOW, &Subset::default()).unwrap();
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
