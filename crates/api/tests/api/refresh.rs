//! `catalog refresh` against loopback servers replaying recorded responses:
//! the real SkyPilot v9 excerpts and the Azure pages of the catalogue's
//! fixtures (built from Microsoft's documented schema: no recorded GPU page
//! exists in public repositories). Every failure leaves the catalogue as it was.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use suanli_api::catalog::{Catalog, CatalogError};
use suanli_api::catalog::{FeedSource, FeedUrls, refresh};
use suanli_api::catalog::{Limits, UpdateError};
use suanli_api::{Error, Lang};

fn fixture(path: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalog/tests/fixtures").join(path);
    std::fs::read(p).unwrap()
}

/// Serves every connection on 127.0.0.1 with `answer(path, stream)`.
fn serve(answer: impl Fn(&str, &mut TcpStream) + Send + Sync + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let answer = Arc::clone(&answer);
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
                answer(&path, &mut stream);
            });
        }
    });
    port
}

fn ok(stream: &mut TcpStream, body: &[u8]) {
    let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

fn status(stream: &mut TcpStream, line: &str) {
    let _ = stream.write_all(format!("HTTP/1.1 {line}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").as_bytes());
}

/// The Azure fixture's pages, each page's `NextPageLink` pointing at `base?page=N` (page 1's at `first_next` if given).
fn azure_pages(base: &str, first_next: Option<&str>) -> Vec<Vec<u8>> {
    let mut pages: Vec<serde_json::Value> = serde_json::from_slice(&fixture("azure/retail-gpu-pages.json")).unwrap();
    let n = pages.len();
    for (i, page) in pages.iter_mut().enumerate() {
        page["NextPageLink"] =
            if i + 1 < n { format!("{base}?page={}", i + 2).into() } else { serde_json::Value::Null };
    }
    if let Some(next) = first_next {
        pages[0]["NextPageLink"] = next.into();
    }
    pages.iter().map(|p| serde_json::to_vec(p).unwrap()).collect()
}

fn catalog() -> Catalog {
    Catalog::open_in_memory("2026-11-30T00:00:00Z").unwrap().0
}

fn quick(port: u16) -> FeedUrls {
    FeedUrls {
        skypilot: format!("http://127.0.0.1:{port}/catalogs/v9/{{cloud}}/vms.csv"),
        azure: format!("http://127.0.0.1:{port}/azure"),
        limits: Limits { deadline: Duration::from_secs(20), read_timeout: Duration::from_secs(5), ..Limits::default() },
    }
}

fn offers(c: &Catalog) -> usize {
    c.all_offers(true).unwrap().len()
}

fn update_error(r: Result<Vec<(String, suanli_api::catalog::ImportReport)>, Error>) -> UpdateError {
    match r {
        Err(Error::Catalog(CatalogError::Update(e))) => e,
        other => panic!("expected an update error, got {other:?}"),
    }
}

#[test]
fn refresh_downloads_skypilot_files_and_every_azure_page_in_one_transaction() {
    let port = serve(move |path, s| match path {
        "/catalogs/v9/aws/vms.csv" => ok(s, &fixture("skypilot/v9/aws/vms.csv")),
        "/catalogs/v9/gcp/vms.csv" => ok(s, &fixture("skypilot/v9/gcp/vms.csv")),
        _ => status(s, "404 Not Found"),
    });
    // The Azure server needs its own address in its pages' links.
    let azure = {
        let listener_port = std::sync::Arc::new(std::sync::OnceLock::<u16>::new());
        let known = Arc::clone(&listener_port);
        let p = serve(move |path, s| {
            let base = format!("http://127.0.0.1:{}/azure", known.get().copied().unwrap_or(0));
            let pages = azure_pages(&base, None);
            match path {
                "/azure" => ok(s, &pages[0]),
                "/azure?page=2" => ok(s, &pages[1]),
                "/azure?page=3" => ok(s, &pages[2]),
                _ => status(s, "404 Not Found"),
            }
        });
        listener_port.set(p).unwrap();
        p
    };
    let mut c = catalog();
    let before = c.changes().unwrap().len();
    let mut urls = quick(port);
    urls.azure = format!("http://127.0.0.1:{azure}/azure");
    let feeds = FeedSource::parse_list("skypilot:aws,gcp,azure").unwrap();
    assert_eq!(feeds.len(), 3);
    let mut seen = Vec::new();
    let reports = refresh(&mut c, &feeds, &urls, &mut |feed, n| seen.push((feed.to_owned(), n))).unwrap();
    let names: Vec<&str> = reports.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["skypilot:aws", "skypilot:gcp", "azure"]);
    assert_eq!((reports[0].1.rows, reports[0].1.rows_landed), (39, 33));
    assert_eq!((reports[1].1.rows, reports[1].1.rows_landed), (59, 38));
    assert_eq!(reports[2].1.rows, 11, "all three Azure pages");
    assert!(seen.iter().any(|(f, _)| f == "azure") && seen.iter().any(|(f, _)| f == "aws"));
    assert_eq!(c.changes().unwrap().len(), before + 3);
    let h100 = c.offer("gcp-gpu-h100-x8-us-east5-a-on-demand", &Default::default()).unwrap().unwrap();
    assert!(
        h100.offer.source.starts_with("SkyPilot catalogue gcp/vms.csv (http://127.0.0.1:"),
        "{}",
        h100.offer.source
    );
    assert!(c.offer("azure-nd96isr-h100-v5-eastus-savings-plan-1y", &Default::default()).unwrap().is_some());
}

#[test]
fn a_redirect_or_next_page_to_another_host_is_refused_and_nothing_applies() {
    let other = serve(|_, s| ok(s, b"InstanceType\n"));
    let port = serve(move |path, s| match path {
        "/catalogs/v9/aws/vms.csv" => ok(s, &fixture("skypilot/v9/aws/vms.csv")),
        "/catalogs/v9/gcp/vms.csv" => {
            let head = format!(
                "HTTP/1.1 302 Found\r\nLocation: http://localhost:{other}/vms.csv\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let _ = s.write_all(head.as_bytes());
        }
        "/azure" => {
            ok(s, &azure_pages("http://127.0.0.1:1/azure", Some(&format!("http://localhost:{other}/azure")))[0])
        }
        _ => status(s, "404 Not Found"),
    });
    let mut c = catalog();
    let before = offers(&c);
    let e = update_error(refresh(
        &mut c,
        &FeedSource::parse_list("skypilot:aws,gcp").unwrap(),
        &quick(port),
        &mut |_, _| {},
    ));
    assert!(matches!(e, UpdateError::CrossOriginRedirect { .. }), "{e:?}");
    assert_eq!(offers(&c), before, "aws downloaded fine, but nothing applied");
    // Page 1 links to a next page on another host: refused before it is fetched.
    let e = update_error(refresh(&mut c, &[FeedSource::Azure], &quick(port), &mut |_, _| {}));
    assert!(matches!(&e, UpdateError::CrossOriginRedirect { to, .. } if to.contains("localhost")), "{e:?}");
    assert!(e.message(Lang::Zh).contains("重定向"), "{}", e.message(Lang::Zh));
    assert_eq!(offers(&c), before);
}

#[test]
fn slow_oversize_and_broken_feeds_leave_the_catalogue_alone() {
    let port = serve(|path, s| match path {
        "/catalogs/v9/aws/vms.csv" => ok(s, &fixture("skypilot/v9/aws/vms.csv")),
        // Trickles a byte every 300 ms: never stalls, but misses the deadline.
        "/catalogs/v9/slow/vms.csv" => {
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n");
            for _ in 0..100 {
                if s.write_all(b"x").is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(300));
            }
        }
        _ => status(s, "404 Not Found"),
    });
    let mut c = catalog();
    let before = offers(&c);
    let mut urls = quick(port);
    urls.limits.deadline = Duration::from_secs(2);
    urls.limits.read_timeout = Duration::from_secs(1);
    let e = update_error(refresh(&mut c, &FeedSource::parse_list("skypilot:aws,slow").unwrap(), &urls, &mut |_, _| {}));
    assert!(matches!(e, UpdateError::Deadline { .. }), "{e:?}");
    assert_eq!(offers(&c), before);

    let mut urls = quick(port);
    urls.limits.max_pack_bytes = 4096;
    let e = update_error(refresh(&mut c, &FeedSource::parse_list("skypilot:aws").unwrap(), &urls, &mut |_, _| {}));
    assert!(matches!(e, UpdateError::TooLarge { max: 4096, .. }), "{e:?}");
    assert_eq!(offers(&c), before);

    // Page 1 is whole; page 2 breaks off half-way.
    let own = Arc::new(std::sync::OnceLock::<u16>::new());
    let known = Arc::clone(&own);
    let broken = serve(move |path, s| match path {
        "/azure" => {
            let next = format!("http://127.0.0.1:{}/azure?page=2", known.get().copied().unwrap_or(0));
            ok(s, &azure_pages("http://127.0.0.1:0/azure", Some(&next))[0]);
        }
        _ => {
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n{\"Items\": [");
        }
    });
    own.set(broken).unwrap();
    let mut urls = quick(port);
    urls.azure = format!("http://127.0.0.1:{broken}/azure");
    let e =
        update_error(refresh(&mut c, &FeedSource::parse_list("skypilot:aws,azure").unwrap(), &urls, &mut |_, _| {}));
    assert!(matches!(e, UpdateError::Truncated { .. } | UpdateError::Transport { .. }), "{e:?}");
    assert_eq!(offers(&c), before, "aws and Azure page 1 arrived, but nothing applied");
}
