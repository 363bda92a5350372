//! Catalogue updates over HTTP: the only network traffic Suanli makes, and
//! only when the user asks for it. Any static HTTP server can host a pack
//! (`catalog.json`) beside its signature (`catalog.json.minisig`).
//!
//! The client is strict: it follows a redirect only within the origin it
//! was given (same scheme, host and port; at most five), gives up when the
//! whole download takes longer than a deadline or the server sends nothing
//! for a while, and holds at most the cap in memory (the size is checked
//! while the body streams, whatever Content-Length says or omits).

use std::io::Read;
use std::time::{Duration, Instant};

use suanli_model::Lang;

use crate::Error;

/// Packs larger than this are refused before they fill memory.
pub const MAX_PACK_BYTES: u64 = 64 * 1024 * 1024;

/// A minisign signature is a few hundred bytes.
pub const MAX_SIGNATURE_BYTES: u64 = 16 * 1024;

/// Redirects followed within the origin before giving up.
pub const MAX_REDIRECTS: usize = 5;

/// How long a download may take and how much it may hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Every file of one download together (a pack and its signature, or all
    /// of a refresh's feeds), from the first connection on.
    pub deadline: Duration,
    /// The longest the server may send nothing (also the connect timeout).
    pub read_timeout: Duration,
    /// The largest pack (or, in a [`Session`], any file) held, bytes.
    pub max_pack_bytes: u64,
    /// The largest signature held, bytes.
    pub max_signature_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            deadline: Duration::from_secs(300),
            read_timeout: Duration::from_secs(30),
            max_pack_bytes: MAX_PACK_BYTES,
            max_signature_bytes: MAX_SIGNATURE_BYTES,
        }
    }
}

/// Why a download failed. Each says what happened, in both languages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpdateError {
    /// The HTTP client could not be built; the text says why.
    #[error("{}", self.message(Lang::En))]
    Client(String),
    /// The request failed, or the download broke off.
    #[error("{}", self.message(Lang::En))]
    Transport {
        /// The address asked for.
        url: String,
        /// The transport's message.
        why: String,
    },
    /// The server redirected to another origin.
    #[error("{}", self.message(Lang::En))]
    CrossOriginRedirect {
        /// The address asked for.
        url: String,
        /// Where the redirect pointed.
        to: String,
    },
    /// More than [`MAX_REDIRECTS`] redirects.
    #[error("{}", self.message(Lang::En))]
    TooManyRedirects {
        /// The address asked for.
        url: String,
    },
    /// The server answered 404.
    #[error("{}", self.message(Lang::En))]
    NotFound {
        /// The address asked for.
        url: String,
    },
    /// The server answered a status other than success or 404.
    #[error("{}", self.message(Lang::En))]
    Status {
        /// The address asked for.
        url: String,
        /// The HTTP status code.
        status: u16,
    },
    /// The body was larger than the cap.
    #[error("{}", self.message(Lang::En))]
    TooLarge {
        /// The address asked for.
        url: String,
        /// What was being downloaded.
        what: Fetching,
        /// The cap, bytes.
        max: u64,
    },
    /// The whole download took longer than the deadline.
    #[error("{}", self.message(Lang::En))]
    Deadline {
        /// The address asked for.
        url: String,
        /// The deadline, seconds.
        seconds: u64,
    },
    /// The server sent nothing for as long as the read timeout.
    #[error("{}", self.message(Lang::En))]
    Stalled {
        /// The address asked for.
        url: String,
        /// The read timeout, seconds.
        seconds: u64,
    },
    /// The user stopped the download.
    #[error("{}", self.message(Lang::En))]
    Cancelled {
        /// The address being downloaded.
        url: String,
    },
    /// The body's length is not the one the server announced (it was cut off).
    #[error("{}", self.message(Lang::En))]
    Truncated {
        /// The address asked for.
        url: String,
        /// Bytes received.
        got: u64,
        /// Bytes announced (`Content-Length`).
        expected: u64,
    },
    /// An address that is not `http://` or `https://` (a file, FTP, no scheme).
    #[error("{}", self.message(Lang::En))]
    Scheme {
        /// The address as given.
        url: String,
    },
    /// The signature is not UTF-8 text.
    #[error("{}", self.message(Lang::En))]
    SignatureNotText {
        /// The signature's address.
        url: String,
    },
}

impl UpdateError {
    /// What happened, in English or Chinese.
    pub fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            UpdateError::Client(why) if zh => format!("无法启动 HTTP 客户端：{why}"),
            UpdateError::Client(why) => format!("cannot start the HTTP client: {why}"),
            UpdateError::Transport { url, why } if zh => format!("目录错误：{url}: {why}"),
            UpdateError::Transport { url, why } => format!("{url}: {why}"),
            UpdateError::CrossOriginRedirect { url, to } if zh => {
                format!("{url}：服务器重定向到另一来源 {to}；Suanli 只跟随同一协议、主机和端口内的重定向")
            }
            UpdateError::CrossOriginRedirect { url, to } => format!(
                "{url}: the server redirected to another origin ({to}); Suanli follows redirects only within the same scheme, host and port"
            ),
            UpdateError::TooManyRedirects { url } if zh => format!("{url}：重定向超过 {MAX_REDIRECTS} 次"),
            UpdateError::TooManyRedirects { url } => format!("{url}: more than {MAX_REDIRECTS} redirects"),
            UpdateError::NotFound { url } if zh => format!("{url}：不存在（404）"),
            UpdateError::NotFound { url } => format!("{url}: not found (404)"),
            UpdateError::Status { url, status } if zh => format!("{url}：服务器返回 {status}"),
            UpdateError::Status { url, status } => format!("{url}: the server answered {status}"),
            UpdateError::TooLarge { url, what, max } if zh => {
                let what = match what {
                    Fetching::Pack => "目录包",
                    Fetching::Signature => "签名",
                    Fetching::Feed => "价格源文件",
                };
                format!("{url}：超过{what}允许的 {max} 字节；未作任何更改")
            }
            UpdateError::TooLarge { url, what, max } => {
                let what = match what {
                    Fetching::Pack => "a pack",
                    Fetching::Signature => "a pack's signature",
                    Fetching::Feed => "a price feed",
                };
                format!("{url}: larger than {what} may be: at most {max} bytes; nothing was changed")
            }
            UpdateError::Deadline { url, seconds } if zh => format!("{url}：下载在 {seconds} 秒内未完成，已放弃"),
            UpdateError::Deadline { url, seconds } => {
                format!("{url}: the download did not finish within {seconds} s and was given up")
            }
            UpdateError::Stalled { url, seconds } if zh => format!("{url}：服务器 {seconds} 秒内没有发送数据，已放弃"),
            UpdateError::Stalled { url, seconds } => {
                format!("{url}: the server sent nothing for {seconds} s; the download was given up")
            }
            UpdateError::Cancelled { url } if zh => format!("{url}：下载已取消，未作任何更改"),
            UpdateError::Cancelled { url } => format!("{url}: the download was cancelled; nothing was changed"),
            UpdateError::Truncated { url, got, expected } if zh => {
                format!("{url}：下载不完整（truncated）：只收到 {got} / {expected} 字节")
            }
            UpdateError::Truncated { url, got, expected } => {
                format!("{url}: truncated: {got} of {expected} bytes arrived")
            }
            UpdateError::Scheme { url } if zh => {
                format!("{url}：只支持 http:// 或 https:// 地址；本地文件请用 `suanli catalog pack apply`")
            }
            UpdateError::Scheme { url } => format!(
                "{url}: only http:// and https:// addresses are downloaded; apply a local file with `suanli catalog pack apply`"
            ),
            UpdateError::SignatureNotText { url } if zh => format!("{url}：签名不是文本"),
            UpdateError::SignatureNotText { url } => format!("{url}: the signature is not text"),
        }
    }
}

/// What a download is, as its size cap's error says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetching {
    /// A catalogue pack.
    Pack,
    /// A pack's `.minisig`.
    Signature,
    /// A price feed (a SkyPilot CSV, an Azure page).
    Feed,
}

/// A downloaded pack and its signature, if the server has one.
#[derive(Debug, Clone, PartialEq)]
pub struct Download {
    /// The pack's bytes.
    pub pack: Vec<u8>,
    /// The `.minisig` text; `None` when the server has none (404).
    pub signature: Option<String>,
}

/// A loopback address never goes through a proxy (a team server on this
/// machine, or the tests'); anything else follows the system's proxy.
fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    ["127.", "localhost", "[::1]"].iter().any(|p| rest.starts_with(p))
}

fn same_origin(a: &reqwest::Url, b: &reqwest::Url) -> bool {
    a.scheme() == b.scheme() && a.host_str() == b.host_str() && a.port_or_known_default() == b.port_or_known_default()
}

/// Where a pack's signature is: the pack's address with `.minisig` added
/// to its path (before any query; a fragment is not sent to a server).
pub fn signature_url(url: &str) -> String {
    let url = url.split_once('#').map_or(url, |(u, _)| u);
    match url.split_once('?') {
        Some((path, query)) => format!("{path}.minisig?{query}"),
        None => format!("{url}.minisig"),
    }
}

/// Refuses an address that is not http or https before any client is built.
fn check_scheme(url: &str) -> Result<(), UpdateError> {
    let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("http" | "https") => Ok(()),
        _ => Err(UpdateError::Scheme { url: url.to_owned() }),
    }
}

fn client(url: &str, limits: &Limits) -> Result<reqwest::blocking::Client, UpdateError> {
    check_scheme(url)?;
    let builder = reqwest::blocking::Client::builder();
    let builder = if is_loopback(url) { builder.no_proxy() } else { builder };
    let redirects = reqwest::redirect::Policy::custom(|attempt| {
        let Some(first) = attempt.previous().first().cloned() else { return attempt.follow() };
        if !same_origin(&first, attempt.url()) {
            let to = attempt.url().to_string();
            attempt.error(CrossOrigin(to))
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(TooMany)
        } else {
            attempt.follow()
        }
    });
    builder
        .redirect(redirects)
        .connect_timeout(limits.read_timeout)
        // The blocking client waits at most this long for each step: the
        // response head, and every read of the body.
        .timeout(limits.read_timeout)
        .user_agent(concat!("suanli/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| UpdateError::Client(e.to_string()))
}

/// The redirect policy's reasons, found again in the error chain.
#[derive(Debug)]
struct CrossOrigin(String);
#[derive(Debug)]
struct TooMany;

impl std::fmt::Display for CrossOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "redirect to another origin: {}", self.0)
    }
}
impl std::error::Error for CrossOrigin {}
impl std::fmt::Display for TooMany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("too many redirects")
    }
}
impl std::error::Error for TooMany {}

/// Downloads `url` and `url.minisig` with the default [`Limits`].
/// `progress(received, total)` is called as bytes arrive. A missing
/// signature (404) is `None`; every other failure is an error, and nothing
/// is written anywhere.
pub fn download(url: &str, progress: &mut dyn FnMut(u64, Option<u64>)) -> Result<Download, Error> {
    download_with(url, &Limits::default(), progress)
}

/// As [`download`], within the given limits.
pub fn download_with(
    url: &str,
    limits: &Limits,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Download, Error> {
    let client = client(url, limits)?;
    let deadline = Instant::now() + limits.deadline;
    let get = |u: &str, what: Fetching, max: u64, progress: &mut dyn FnMut(u64, Option<u64>)| {
        get(&client, u, (what, max), deadline, limits, &mut |n, t| {
            progress(n, t);
            true
        })
    };
    let pack = get(url, Fetching::Pack, limits.max_pack_bytes, progress)?
        .ok_or_else(|| UpdateError::NotFound { url: url.into() })?;
    let sig_url = signature_url(url);
    let signature = match get(&sig_url, Fetching::Signature, limits.max_signature_bytes, &mut |_, _| {})? {
        Some(bytes) => Some(String::from_utf8(bytes).map_err(|_| UpdateError::SignatureNotText { url: sig_url })?),
        None => None,
    };
    Ok(Download { pack, signature })
}

/// Azure pages followed before a refresh gives up (a GPU-filtered answer is a few dozen).
pub const MAX_AZURE_PAGES: usize = 500;

/// Several downloads under one deadline and one strict client: what a feed
/// refresh fetches (SkyPilot files, Azure pages) before anything is applied.
#[derive(Debug)]
pub struct Session<'c> {
    client: reqwest::blocking::Client,
    deadline: Instant,
    limits: Limits,
    /// Set by the user to stop: checked before each request and each chunk.
    cancel: Option<&'c std::sync::atomic::AtomicBool>,
}

impl<'c> Session<'c> {
    /// A session whose deadline starts now. `first_url` only decides the
    /// proxy (loopback goes direct).
    pub fn new(first_url: &str, limits: &Limits) -> Result<Session<'static>, Error> {
        Ok(Session {
            client: client(first_url, limits)?,
            deadline: Instant::now() + limits.deadline,
            limits: *limits,
            cancel: None,
        })
    }

    /// The same session, stopped with [`UpdateError::Cancelled`] once `cancel`
    /// is set (at the next chunk, or when a silent server's read times out).
    pub fn cancelled_by(self, cancel: &std::sync::atomic::AtomicBool) -> Session<'_> {
        Session { client: self.client, deadline: self.deadline, limits: self.limits, cancel: Some(cancel) }
    }

    /// Downloads one URL whole (at most `limits.max_pack_bytes`); a 404 is an error.
    pub fn fetch(&self, url: &str, progress: &mut dyn FnMut(u64, Option<u64>)) -> Result<Vec<u8>, Error> {
        let cancelled = || self.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst));
        if cancelled() {
            return Err(UpdateError::Cancelled { url: url.into() }.into());
        }
        let mut watched = |n: u64, total: Option<u64>| {
            progress(n, total);
            !cancelled()
        };
        let cap = (Fetching::Feed, self.limits.max_pack_bytes);
        let body = get(&self.client, url, cap, self.deadline, &self.limits, &mut watched)?;
        Ok(body.ok_or_else(|| UpdateError::NotFound { url: url.into() })?)
    }

    /// Every page of an Azure Retail Prices answer, from `first_url` on
    /// through each `NextPageLink` (within its origin, at most
    /// [`MAX_AZURE_PAGES`]), as one JSON array of pages: what the Azure
    /// importer reads. A page that is not JSON fails the whole download.
    pub fn fetch_azure_pages(
        &self,
        first_url: &str,
        progress: &mut dyn FnMut(u64, Option<u64>),
    ) -> Result<Vec<u8>, Error> {
        let mut pages = Vec::new();
        let mut next = Some(first_url.to_owned());
        while let Some(url) = next.take() {
            if pages.len() >= MAX_AZURE_PAGES {
                return Err(Error::IncompleteFeed { pages: pages.len(), next: url });
            }
            if !same_origin_urls(first_url, &url) {
                let to = url.clone();
                return Err(UpdateError::CrossOriginRedirect { url: first_url.to_owned(), to }.into());
            }
            let bytes = self.fetch(&url, progress)?;
            let page: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
                Error::Pack(format!("{url}: not an Azure Retail Prices page: {e}; nothing was imported"))
            })?;
            next = page.get("NextPageLink").and_then(|l| l.as_str()).filter(|l| !l.is_empty()).map(str::to_owned);
            pages.push(page);
        }
        Ok(serde_json::to_vec(&pages)?)
    }
}

/// Whether `next` is on the same scheme, host and port as `first` (an
/// Azure `NextPageLink` must not send Suanli elsewhere).
pub fn same_origin_urls(first: &str, next: &str) -> bool {
    match (reqwest::Url::parse(first), reqwest::Url::parse(next)) {
        (Ok(a), Ok(b)) => same_origin(&a, &b),
        _ => false,
    }
}

/// What a failed request was, from reqwest's error and its sources.
fn transport(url: &str, e: &reqwest::Error, limits: &Limits) -> UpdateError {
    let mut source: Option<&dyn std::error::Error> = Some(e);
    while let Some(s) = source {
        if let Some(CrossOrigin(to)) = s.downcast_ref::<CrossOrigin>() {
            return UpdateError::CrossOriginRedirect { url: url.into(), to: to.clone() };
        }
        if s.downcast_ref::<TooMany>().is_some() {
            return UpdateError::TooManyRedirects { url: url.into() };
        }
        source = s.source();
    }
    if e.is_timeout() {
        return UpdateError::Stalled { url: url.into(), seconds: limits.read_timeout.as_secs().max(1) };
    }
    UpdateError::Transport { url: url.into(), why: e.to_string() }
}

fn get(
    client: &reqwest::blocking::Client,
    url: &str,
    (what, max): (Fetching, u64),
    deadline: Instant,
    limits: &Limits,
    progress: &mut dyn FnMut(u64, Option<u64>) -> bool,
) -> Result<Option<Vec<u8>>, UpdateError> {
    check_scheme(url)?;
    let past_deadline = || UpdateError::Deadline { url: url.into(), seconds: limits.deadline.as_secs().max(1) };
    let response = client.get(url).send().map_err(|e| transport(url, &e, limits))?;
    if Instant::now() > deadline {
        return Err(past_deadline());
    }
    let status = response.status();
    if status == reqwest::StatusCode::NOT_FOUND {
        return Ok(None);
    }
    if !status.is_success() {
        return Err(UpdateError::Status { url: url.into(), status: status.as_u16() });
    }
    let total = response.content_length();
    let too_large = || UpdateError::TooLarge { url: url.into(), what, max };
    if total.is_some_and(|t| t > max) {
        return Err(too_large());
    }
    // Whatever the server claims, memory grows only with what arrives.
    let mut body = Vec::with_capacity(total.unwrap_or(0).min(1024 * 1024) as usize);
    let mut reader = response.take(max + 1);
    let mut chunk = [0u8; 64 * 1024];
    loop {
        let before = Instant::now();
        let n = match reader.read(&mut chunk) {
            Ok(n) => n,
            Err(_) if Instant::now() > deadline => return Err(past_deadline()),
            Err(_) if before.elapsed() >= limits.read_timeout.mul_f64(0.9) => {
                return Err(UpdateError::Stalled { url: url.into(), seconds: limits.read_timeout.as_secs().max(1) });
            }
            Err(e) => {
                return Err(UpdateError::Transport { url: url.into(), why: format!("the download broke off: {e}") });
            }
        };
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
        if !progress(body.len() as u64, total) {
            return Err(UpdateError::Cancelled { url: url.into() });
        }
        if body.len() as u64 > max {
            return Err(too_large());
        }
        if Instant::now() > deadline {
            return Err(past_deadline());
        }
    }
    if let Some(t) = total
        && body.len() as u64 != t
    {
        return Err(UpdateError::Truncated { url: url.into(), got: body.len() as u64, expected: t });
    }
    Ok(Some(body))
}
