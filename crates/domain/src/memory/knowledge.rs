//! Knowledge ingestion (R3): text cut into chunks of at most 400 characters at sentence
//! boundaries, and web pages fetched without letting the server be turned against its own
//! network (SSRF): only http/https, every address the name resolves to — and every redirect's —
//! must be public unless the operator allows it, the connection goes straight (never through a
//! proxy) to the address that was checked, and size and time are bounded.

use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use miniclaw_core::Error;

pub use miniclaw_platform::addresses::{Allowlist, is_forbidden};
use miniclaw_platform::addresses::{refuse, vet};

pub const CHUNK_CHARS: usize = 400;
/// A page's text is cut here (R3).
pub const PAGE_CHARS: usize = 5000;
const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
const MAX_REDIRECTS: usize = 5;

/// Splits text into chunks of at most `max` characters, breaking after sentences where it can,
/// then at spaces, and only inside a word when a single word is longer than `max`.
pub fn chunk(text: &str, max: usize) -> Vec<String> {
    static SENTENCE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[^.!?\n]+(?:[.!?]+|\n|$)").expect("static pattern"));
    let mut chunks = Vec::new();
    let mut current = String::new();
    let push = |current: &mut String, chunks: &mut Vec<String>| {
        let t = current.trim();
        if !t.is_empty() {
            chunks.push(t.to_string());
        }
        current.clear();
    };
    for sentence in SENTENCE.find_iter(text).map(|m| m.as_str().trim()).filter(|s| !s.is_empty()) {
        let len = |s: &str| s.chars().count();
        if len(&current) + len(sentence) < max {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(sentence);
            continue;
        }
        push(&mut current, &mut chunks);
        if len(sentence) <= max {
            current.push_str(sentence);
            continue;
        }
        // A sentence longer than a chunk: break at spaces (or, for one huge word, anywhere).
        for word in sentence.split_whitespace() {
            let mut word = word.to_string();
            while len(&word) > max {
                push(&mut current, &mut chunks);
                let head: String = word.chars().take(max).collect();
                chunks.push(head);
                word = word.chars().skip(max).collect();
            }
            if len(&current) + len(&word) + 1 > max {
                push(&mut current, &mut chunks);
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(&word);
        }
    }
    push(&mut current, &mut chunks);
    chunks
}

/// Text of an HTML page: scripts, styles and tags removed, entities decoded, whitespace folded.
pub fn html_to_text(html: &str) -> String {
    static DROP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?is)<(script|style|noscript|template|svg|head)\b.*?</(script|style|noscript|template|svg|head)\s*>|<!--.*?-->")
            .expect("static pattern")
    });
    static BLOCK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)</?(p|div|br|li|h[1-6]|tr|section|article|header|footer|blockquote)\b[^>]*>")
            .expect("static pattern")
    });
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[^>]*>").expect("static pattern"));
    static SPACES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[ \t\r\f]+").expect("static pattern"));
    static LINES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s*\n\s*").expect("static pattern"));
    let text = DROP.replace_all(html, " ");
    let text = BLOCK.replace_all(&text, "\n");
    let text = TAG.replace_all(&text, " ");
    let text = text
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&");
    let text = SPACES.replace_all(&text, " ");
    LINES.replace_all(text.trim(), "\n").to_string()
}

/// A fetched page: its final URL and its text, cut to 5,000 characters.
#[derive(Debug, Clone)]
pub struct Page {
    pub url: String,
    pub title: Option<String>,
    pub text: String,
}

/// Fetches a page safely (see the module docs). Redirects are followed by hand, each target
/// checked like the first.
pub async fn fetch(url: &str, allow: &Allowlist) -> Result<Page, Error> {
    let mut url: reqwest::Url =
        url.trim().parse().map_err(|e| Error::validation("url", format!("not a valid URL: {e}")))?;
    for _ in 0..=MAX_REDIRECTS {
        let addr = vet(&url, allow).await?;
        let host = url.host_str().unwrap_or_default().to_string();
        // Connect to the address that was checked, not to whatever a second lookup returns,
        // and never through a proxy (`HTTP_PROXY` and friends): a proxy would resolve and
        // connect on its own, around the check.
        let client = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(FETCH_TIMEOUT)
            .resolve(&host, addr)
            .user_agent(concat!("miniclaw/", env!("CARGO_PKG_VERSION"), " (knowledge ingestion)"))
            .build()
            .map_err(|e| Error::Internal(e.into()))?;
        let resp = client.get(url.clone()).send().await.map_err(|e| {
            if e.is_timeout() {
                refuse(format!("{url} did not answer within {} s", FETCH_TIMEOUT.as_secs()))
            } else {
                refuse(format!("{url} could not be fetched: {e}"))
            }
        })?;
        if resp.status().is_redirection() {
            let location = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| refuse(format!("{url} redirects without a Location")))?;
            url = url.join(location).map_err(|e| refuse(format!("{url} redirects to a bad URL: {e}")))?;
            continue;
        }
        if !resp.status().is_success() {
            return Err(refuse(format!("{url} answered HTTP {}", resp.status().as_u16())));
        }
        let content_type = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_lowercase();
        let is_html = content_type.contains("html");
        if !(is_html || content_type.starts_with("text/") || content_type.is_empty()) {
            return Err(refuse(format!("{url} is {content_type}, not a web page or text")));
        }
        if resp.content_length().is_some_and(|n| n as usize > MAX_BODY_BYTES) {
            return Err(refuse(format!("{url} is larger than {} MiB", MAX_BODY_BYTES / 1024 / 1024)));
        }
        let body = read_limited(resp).await.map_err(|e| refuse(format!("{url}: {e}")))?;
        let raw = String::from_utf8_lossy(&body);
        let title = is_html.then(|| title_of(&raw)).flatten();
        let text = if is_html { html_to_text(&raw) } else { raw.trim().to_string() };
        let text: String = text.chars().take(PAGE_CHARS).collect();
        if text.trim().is_empty() {
            return Err(refuse(format!("{url} has no text")));
        }
        return Ok(Page { url: url.to_string(), title, text });
    }
    Err(refuse(format!("more than {MAX_REDIRECTS} redirects")))
}

async fn read_limited(mut resp: reqwest::Response) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(|e| e.to_string())? {
        body.extend_from_slice(&chunk);
        if body.len() > MAX_BODY_BYTES {
            return Err(format!("the page is larger than {} MiB", MAX_BODY_BYTES / 1024 / 1024));
        }
    }
    Ok(body)
}

fn title_of(html: &str) -> Option<String> {
    static TITLE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?is)<title[^>]*>(.*?)</title>").expect("static pattern"));
    let t = html_to_text(TITLE.captures(html)?.get(1)?.as_str());
    (!t.is_empty()).then(|| t.chars().take(200).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_break_at_sentences_and_never_exceed_the_limit() {
        let text = "Vienna is the capital of Austria. It has about two million people. ".repeat(20);
        let chunks = chunk(&text, CHUNK_CHARS);
        assert!(chunks.len() > 1);
        for c in &chunks {
            assert!(c.chars().count() <= CHUNK_CHARS, "{}", c.len());
            assert!(c.ends_with('.'), "breaks after a sentence: {c}");
        }
        let joined: String = chunks.join(" ");
        assert_eq!(joined.split_whitespace().count(), text.split_whitespace().count(), "nothing lost");
        let huge = "x".repeat(1000);
        assert!(chunk(&huge, CHUNK_CHARS).iter().all(|c| c.chars().count() <= CHUNK_CHARS));
        assert_eq!(chunk("  ", CHUNK_CHARS), Vec::<String>::new());
    }

    #[test]
    fn html_is_reduced_to_its_text() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body><script>alert(1)</script>\
                    <h1>Rust &amp; you</h1><p>Memory   safety<br>without GC.</p><!-- hidden --></body></html>";
        assert_eq!(html_to_text(html), "Rust & you\nMemory safety\nwithout GC.");
    }

    #[tokio::test]
    async fn refused_before_any_connection() {
        let none = Allowlist::default();
        for url in [
            "http://127.0.0.1:9/",
            "http://169.254.169.254/latest/meta-data/",
            "http://[::1]/",
            "http://[::7f00:1]/",
            "http://[64:ff9b:1::a9fe:a9fe]/",
            "http://[2001::1]/",
            "http://192.0.0.170/",
            "http://[fec0::1]/",
            "file:///etc/passwd",
            "ftp://example.com/",
        ] {
            let err = fetch(url, &none).await.unwrap_err();
            assert!(matches!(err, Error::Unprocessable { .. }), "{url}: {err}");
        }
        assert!(matches!(fetch("not a url", &none).await.unwrap_err(), Error::Invalid { .. }));
    }
}
