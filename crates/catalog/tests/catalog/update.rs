//! The update client against crafted servers on loopback: redirects to
//! another origin, a server that trickles or stalls, bodies larger than the
//! cap with and without Content-Length.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use suanli_catalog::Error;
use suanli_catalog::update::{Limits, UpdateError, download_with};
use suanli_model::Lang;

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

fn not_found(stream: &mut TcpStream) {
    let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
}

fn update_error(r: Result<suanli_catalog::update::Download, Error>) -> UpdateError {
    match r {
        Err(Error::Update(e)) => e,
        other => panic!("expected an update error, got {other:?}"),
    }
}

fn quick() -> Limits {
    Limits { deadline: Duration::from_secs(20), read_timeout: Duration::from_secs(5), ..Limits::default() }
}

#[test]
fn a_redirect_to_another_origin_is_not_followed() {
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&hits);
    let other = serve(move |_, s| {
        counted.fetch_add(1, Ordering::SeqCst);
        ok(s, b"{}");
    });
    let port = serve(move |path, s| match path {
        // Same host, another port: another origin. And another host name.
        "/elsewhere.json" => {
            let head = format!(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{other}/pack.json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let _ = s.write_all(head.as_bytes());
        }
        "/host.json" => {
            let head = format!(
                "HTTP/1.1 302 Found\r\nLocation: http://localhost:{other}/pack.json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let _ = s.write_all(head.as_bytes());
        }
        "/moved.json" => {
            let _ = s.write_all(
                b"HTTP/1.1 301 Moved\r\nLocation: /pack.json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
        "/pack.json" => ok(s, b"the pack"),
        _ => not_found(s),
    });
    for path in ["elsewhere.json", "host.json"] {
        let url = format!("http://127.0.0.1:{port}/{path}");
        let e = update_error(download_with(&url, &quick(), &mut |_, _| {}));
        assert!(matches!(e, UpdateError::CrossOriginRedirect { .. }), "{e:?}");
        assert!(e.message(Lang::En).contains("another origin"), "{}", e.message(Lang::En));
        assert!(e.message(Lang::Zh).contains("重定向"), "{}", e.message(Lang::Zh));
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0, "the other origin was contacted");
    // Within the same origin a redirect is followed.
    let d = download_with(&format!("http://127.0.0.1:{port}/moved.json"), &quick(), &mut |_, _| {}).unwrap();
    assert_eq!(d.pack, b"the pack");
}

#[test]
fn a_server_that_trickles_is_cut_off_at_the_deadline() {
    let port = serve(|path, s| {
        if path.ends_with(".minisig") {
            return not_found(s);
        }
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n");
        // One byte every 50 ms: never silent long enough for the read timeout.
        for _ in 0..100_000 {
            if s.write_all(b"x").and_then(|()| s.flush()).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let limits = Limits { deadline: Duration::from_secs(2), read_timeout: Duration::from_secs(5), ..Limits::default() };
    let start = Instant::now();
    let e = update_error(download_with(&format!("http://127.0.0.1:{port}/pack.json"), &limits, &mut |_, _| {}));
    assert!(matches!(e, UpdateError::Deadline { .. }), "{e:?}");
    assert!(start.elapsed() < Duration::from_secs(8), "took {:?}", start.elapsed());
    assert!(e.message(Lang::Zh).contains("秒"));
}

#[test]
fn a_server_that_stalls_is_cut_off_by_the_read_timeout() {
    let port = serve(|_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\nabc");
        let _ = s.flush();
        std::thread::sleep(Duration::from_secs(30));
    });
    let limits =
        Limits { deadline: Duration::from_secs(60), read_timeout: Duration::from_millis(700), ..Limits::default() };
    let start = Instant::now();
    let e = update_error(download_with(&format!("http://127.0.0.1:{port}/pack.json"), &limits, &mut |_, _| {}));
    assert!(matches!(e, UpdateError::Stalled { .. }), "{e:?}");
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
}

#[test]
fn a_body_larger_than_the_cap_is_refused_while_it_streams() {
    const TOTAL: usize = 256 * 1024 * 1024;
    let sent = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&sent);
    let port = serve(move |path, s| {
        if path == "/declared.json" {
            let _ = s.write_all(format!("HTTP/1.1 200 OK\r\nContent-Length: {TOTAL}\r\n\r\n").as_bytes());
        } else {
            // No Content-Length: the body ends when the connection closes.
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
        }
        let chunk = vec![b'x'; 64 * 1024];
        let mut n = 0;
        while n < TOTAL {
            if s.write_all(&chunk).is_err() {
                break;
            }
            n += chunk.len();
            counter.store(n, Ordering::SeqCst);
        }
    });
    let limits = Limits { max_pack_bytes: 1024 * 1024, ..quick() };
    let e = update_error(download_with(&format!("http://127.0.0.1:{port}/streamed.json"), &limits, &mut |_, _| {}));
    assert!(matches!(e, UpdateError::TooLarge { .. }), "{e:?}");
    std::thread::sleep(Duration::from_millis(200));
    // The client stopped reading at the cap: the server could not push the rest.
    assert!(sent.load(Ordering::SeqCst) < 64 * 1024 * 1024, "{} bytes were taken", sent.load(Ordering::SeqCst));
    let e = update_error(download_with(&format!("http://127.0.0.1:{port}/declared.json"), &limits, &mut |_, _| {}));
    assert!(matches!(e, UpdateError::TooLarge { .. }), "{e:?}");
    assert!(e.message(Lang::En).contains("larger than a pack may be"), "{}", e.message(Lang::En));
}

#[test]
fn a_signature_larger_than_a_signature_is_refused() {
    let port = serve(|path, s| {
        if path.ends_with(".minisig") {
            ok(s, &vec![b'a'; 1024 * 1024]);
        } else {
            ok(s, b"the pack");
        }
    });
    let e = update_error(download_with(&format!("http://127.0.0.1:{port}/pack.json"), &quick(), &mut |_, _| {}));
    assert!(matches!(e, UpdateError::TooLarge { .. }), "{e:?}");
}

#[test]
fn the_signature_is_looked_for_beside_the_pack_not_after_its_fragment() {
    use suanli_catalog::update::signature_url;
    assert_eq!(signature_url("http://127.0.0.1:1/p.json"), "http://127.0.0.1:1/p.json.minisig");
    assert_eq!(signature_url("http://127.0.0.1:1/p.json#latest"), "http://127.0.0.1:1/p.json.minisig");
    assert_eq!(signature_url("http://127.0.0.1:1/p.json?v=2#x"), "http://127.0.0.1:1/p.json.minisig?v=2");
}

#[test]
fn only_http_and_https_addresses_are_fetched() {
    for url in ["file:///etc/passwd", "ftp://127.0.0.1/pack.json", "127.0.0.1/pack.json"] {
        let err = suanli_catalog::update::download(url, &mut |_, _| {}).unwrap_err();
        let en = err.to_string();
        assert!(en.contains("http://") && en.contains("https://") && en.contains(url), "{en}");
        assert!(!en.contains("builder error"), "{en}");
        let suanli_catalog::Error::Update(e) = err else { panic!("not an update error") };
        assert!(e.message(suanli_model::Lang::Zh).contains("只支持"), "{}", e.message(suanli_model::Lang::Zh));
    }
}

#[test]
fn a_feed_over_the_cap_is_called_a_feed_not_a_pack() {
    let port = serve(|_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 4194304\r\n\r\n");
        let _ = s.write_all(&vec![b'x'; 64 * 1024]);
    });
    let url = format!("http://127.0.0.1:{port}/vms.csv");
    let limits = Limits { max_pack_bytes: 1024 * 1024, ..quick() };
    let session = suanli_catalog::update::Session::new(&url, &limits).unwrap();
    let e = match session.fetch(&url, &mut |_, _| {}) {
        Err(Error::Update(e)) => e,
        other => panic!("expected an update error, got {other:?}"),
    };
    assert!(e.message(Lang::En).contains("larger than a price feed may be"), "{}", e.message(Lang::En));
    assert!(!e.message(Lang::En).contains("pack"), "{}", e.message(Lang::En));
    assert!(e.message(Lang::Zh).contains("价格源文件"), "{}", e.message(Lang::Zh));
}
