//! Catalogue updates over HTTP: the only network traffic Suanli makes, and
//! only when the user asks for it. Any static HTTP server can host a pack
//! (`catalog.json`) beside its signature (`catalog.json.minisig`).

use std::io::Read;
use std::time::Duration;

use crate::Error;

/// Packs larger than this are refused before they fill memory.
pub const MAX_PACK_BYTES: u64 = 256 * 1024 * 1024;

/// A downloaded pack and its signature, if the server has one.
#[derive(Debug, Clone, PartialEq)]
pub struct Download {
    pub pack: Vec<u8>,
    pub signature: Option<String>,
}

/// A loopback address never goes through a proxy (a team server on this
/// machine, or the tests'); anything else follows the system's proxy.
fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    ["127.", "localhost", "[::1]"].iter().any(|p| rest.starts_with(p))
}

fn client(url: &str) -> Result<reqwest::blocking::Client, Error> {
    let builder = reqwest::blocking::Client::builder();
    let builder = if is_loopback(url) { builder.no_proxy() } else { builder };
    builder
        .connect_timeout(Duration::from_secs(15))
        .timeout(Duration::from_secs(600))
        .user_agent(concat!("suanli/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| Error::Pack(format!("cannot start the HTTP client: {e}")))
}

/// Downloads `url` and `url.minisig`. `progress(received, total)` is
/// called as bytes arrive. A missing signature (404) is `None`; every
/// other failure is an error, and nothing is written anywhere.
pub fn download(url: &str, progress: &mut dyn FnMut(u64, Option<u64>)) -> Result<Download, Error> {
    let client = client(url)?;
    let pack = get(&client, url, progress)?.ok_or_else(|| Error::Pack(format!("{url}: not found (404)")))?;
    let sig_url = format!("{url}.minisig");
    let signature = match get(&client, &sig_url, &mut |_, _| {})? {
        Some(bytes) => {
            Some(String::from_utf8(bytes).map_err(|_| Error::Pack(format!("{sig_url}: the signature is not text")))?)
        }
        None => None,
    };
    Ok(Download { pack, signature })
}

fn get(
    client: &reqwest::blocking::Client,
    url: &str,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Option<Vec<u8>>, Error> {
    let response = client.get(url).send().map_err(|e| Error::Pack(format!("{url}: {e}")))?;
    let status = response.status();
    if status == reqwest::StatusCode::NOT_FOUND {
        return Ok(None);
    }
    if !status.is_success() {
        return Err(Error::Pack(format!("{url}: the server answered {status}")));
    }
    let total = response.content_length();
    if total.is_some_and(|t| t > MAX_PACK_BYTES) {
        return Err(Error::Pack(format!("{url}: {} bytes is larger than a pack may be", total.unwrap_or(0))));
    }
    let mut body = Vec::with_capacity(total.unwrap_or(0).min(MAX_PACK_BYTES) as usize);
    let mut reader = response.take(MAX_PACK_BYTES + 1);
    let mut chunk = [0u8; 64 * 1024];
    loop {
        let n = reader.read(&mut chunk).map_err(|e| Error::Pack(format!("{url}: the download broke off: {e}")))?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
        progress(body.len() as u64, total);
        if body.len() as u64 > MAX_PACK_BYTES {
            return Err(Error::Pack(format!("{url}: larger than a pack may be")));
        }
    }
    if let Some(t) = total
        && body.len() as u64 != t
    {
        return Err(Error::Pack(format!("{url}: truncated: {} of {t} bytes arrived", body.len())));
    }
    Ok(Some(body))
}
