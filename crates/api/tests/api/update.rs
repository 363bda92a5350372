//! Catalogue updates over HTTP against a server on loopback: good,
//! tampered, older, truncated and unsigned packs. After every refusal the
//! database is exactly as before.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;

use suanli_api::catalog;
use suanli_api::catalog::Subset;
// Signed packs are made here with the catalogue crate itself: a fixture, not a use case.
use suanli_catalog::pack;

/// path → (status, body, bytes actually sent)
type Routes = BTreeMap<String, (u16, Vec<u8>, usize)>;

/// Serves fixed responses on 127.0.0.1 until the test process ends.
fn serve(routes: Routes) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let routes = Arc::new(routes);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let routes = Arc::clone(&routes);
            std::thread::spawn(move || {
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&request);
                let path = text.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let (status, body, sent) = routes.get(&path).cloned().unwrap_or((404, b"not found".to_vec(), 9));
                // A 302's body is where it points: the same server under another name.
                let port = stream.local_addr().map(|a| a.port()).unwrap_or(0);
                let location = if status == 302 {
                    format!("Location: http://localhost:{port}{}\r\n", String::from_utf8_lossy(&body))
                } else {
                    String::new()
                };
                let head = format!(
                    "HTTP/1.1 {status} X\r\n{location}Content-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body[..sent.min(body.len())]);
            });
        }
    });
    format!("http://{addr}")
}

struct Fixture {
    _dir: tempfile::TempDir,
    db: std::path::PathBuf,
    base: String,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let (mut c, _) = catalog::open_catalog(Some(&db)).unwrap();
    let installed = c.version().unwrap().unwrap();
    let (pk, sk) = pack::keygen().unwrap();
    c.trust_key(&pk, "team").unwrap();

    let make = |version: i64| {
        let mut p = c.export_pack(version, "team", "2026-11-30T00:00:00Z", &Subset::default()).unwrap();
        // A visible change: one offer repriced.
        p.tables.offers[0].price += 1.0;
        let bytes = pack::to_bytes(&p).unwrap();
        let sig = pack::sign(&bytes, &sk, version).unwrap().into_bytes();
        (bytes, sig)
    };
    let (good, good_sig) = make(installed + 10);
    // Signed by the trusted key, so only the version can refuse it.
    let (future, future_sig) = {
        let mut p = c.export_pack(installed + 10, "team", "2026-11-30T00:00:00Z", &Subset::default()).unwrap();
        p.version = i64::MAX;
        let bytes = pack::to_bytes(&p).unwrap();
        let sig = pack::sign(&bytes, &sk, i64::MAX).unwrap().into_bytes();
        (bytes, sig)
    };
    let (old, old_sig) = make(installed - 1);
    let mut tampered = good.clone();
    let at = tampered.len() / 2;
    tampered[at] = if tampered[at] == b'1' { b'2' } else { b'1' };

    let mut routes = Routes::new();
    let ok = |b: &Vec<u8>| (200, b.clone(), b.len());
    routes.insert("/good.json".into(), ok(&good));
    routes.insert("/good.json.minisig".into(), ok(&good_sig));
    routes.insert("/tampered.json".into(), ok(&tampered));
    routes.insert("/tampered.json.minisig".into(), ok(&good_sig));
    routes.insert("/old.json".into(), ok(&old));
    routes.insert("/old.json.minisig".into(), ok(&old_sig));
    routes.insert("/truncated.json".into(), (200, good.clone(), good.len() / 2));
    routes.insert("/truncated.json.minisig".into(), ok(&good_sig));
    routes.insert("/unsigned.json".into(), ok(&good));
    routes.insert("/broken.json".into(), (500, b"oops".to_vec(), 4));
    routes.insert("/future.json".into(), ok(&future));
    routes.insert("/future.json.minisig".into(), ok(&future_sig));
    routes.insert("/elsewhere.json".into(), (302, b"/good.json".to_vec(), 10));
    Fixture { _dir: dir, db, base: serve(routes) }
}

fn snapshot(db: &std::path::Path) -> (Option<i64>, suanli_api::catalog::Tables) {
    let (c, _) = catalog::open_catalog(Some(db)).unwrap();
    (c.version().unwrap(), c.tables().unwrap())
}

#[test]
fn refused_packs_leave_the_database_exactly_as_before() {
    let f = fixture();
    let before = snapshot(&f.db);
    for (path, expect) in [
        ("/tampered.json", "changed after signing"),
        ("/old.json", "not newer"),
        ("/truncated.json", "truncated"),
        ("/unsigned.json", "no signature"),
        ("/broken.json", "500"),
        ("/missing.json", "404"),
        // A version no later pack could ever follow.
        ("/future.json", "outside 1 to"),
        // The same pack, behind a redirect to another origin.
        ("/elsewhere.json", "another origin"),
    ] {
        let (mut c, _) = catalog::open_catalog(Some(&f.db)).unwrap();
        let err = catalog::update(
            &mut c,
            &format!("{}{path}", f.base),
            false,
            catalog::Removals::WithinShare,
            &mut |_, _| {},
        )
        .unwrap_err();
        let text = err.message(suanli_api::Lang::En);
        assert!(text.contains(expect), "{path}: {text}");
        drop(c);
        assert!(snapshot(&f.db) == before, "{path} changed the database");
    }
}

#[test]
fn a_good_pack_downloads_with_progress_and_applies() {
    let f = fixture();
    let (before_version, _) = snapshot(&f.db);
    let (mut c, _) = catalog::open_catalog(Some(&f.db)).unwrap();
    let mut seen = Vec::new();
    let (summary, change) = catalog::update(
        &mut c,
        &format!("{}/good.json", f.base),
        false,
        catalog::Removals::WithinShare,
        &mut |got, total| seen.push((got, total)),
    )
    .unwrap();
    assert_eq!(Some(summary.version), before_version.map(|v| v + 10));
    assert!(summary.signed_by.is_some());
    assert_eq!(change.repriced, 1);
    let last = seen.last().copied().unwrap();
    assert_eq!(Some(last.0), last.1, "progress reaches the total");
    assert!(c.integrity_ok().unwrap());
}

#[test]
fn an_unsigned_pack_applies_only_when_explicitly_allowed() {
    let f = fixture();
    let (mut c, _) = catalog::open_catalog(Some(&f.db)).unwrap();
    let url = format!("{}/unsigned.json", f.base);
    assert!(catalog::update(&mut c, &url, false, catalog::Removals::WithinShare, &mut |_, _| {}).is_err());
    let (summary, _) = catalog::update(&mut c, &url, true, catalog::Removals::WithinShare, &mut |_, _| {}).unwrap();
    assert_eq!(summary.signed_by, None);
}

#[test]
fn a_key_filed_under_another_keys_id_does_not_sign_for_it() {
    let f = fixture();
    let before = snapshot(&f.db);
    let (mut c, _) = catalog::open_catalog(Some(&f.db)).unwrap();
    // The trusted key's row now holds a stranger's key: packs it signs must not apply.
    let (stranger_pk, stranger_sk) = pack::keygen().unwrap();
    let id = c.trusted_keys().unwrap()[0].key_id.clone();
    let line = pack::public_key_line(&stranger_pk);
    c.connection().execute("UPDATE trusted_keys SET public_key = ?1 WHERE key_id = ?2", [&line, &id]).unwrap();
    let version = before.0.unwrap() + 5;
    let p = c.export_pack(version, "stranger", "2026-11-30T00:00:00Z", &Subset::default()).unwrap();
    let bytes = pack::to_bytes(&p).unwrap();
    let sig = pack::sign(&bytes, &stranger_sk, version).unwrap().into_bytes();
    let mut routes = Routes::new();
    routes.insert("/p.json".into(), (200, bytes.clone(), bytes.len()));
    routes.insert("/p.json.minisig".into(), (200, sig.clone(), sig.len()));
    let base = serve(routes);
    let err = catalog::update(&mut c, &format!("{base}/p.json"), false, catalog::Removals::WithinShare, &mut |_, _| {})
        .unwrap_err();
    assert!(err.message(suanli_api::Lang::En).contains(&id), "{}", err.message(suanli_api::Lang::En));
    drop(c);
    assert!(snapshot(&f.db) == before, "the stranger's pack changed the database");
}
