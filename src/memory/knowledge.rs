//! Knowledge ingestion (R3): text cut into chunks of at most 400 characters at sentence
//! boundaries, and web pages fetched without letting the server be turned against its own
//! network (SSRF): only http/https, every address the name resolves to — and every redirect's —
//! must be public unless the operator allows it, the connection goes straight (never through a
//! proxy) to the address that was checked, and size and time are bounded.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use crate::error::ApiError;

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

/// IPv4 ranges never fetched: every entry of the IANA IPv4 Special-Purpose Address Registry
/// that is not globally reachable, plus multicast (224.0.0.0/4) and the reserved 240.0.0.0/4.
/// (192.0.0.0/24 is refused whole, although two of its /32s are anycast services.)
pub const REFUSED_V4: &[(Ipv4Addr, u8, &str)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8, "\"this network\""),
    (Ipv4Addr::new(10, 0, 0, 0), 8, "private use"),
    (Ipv4Addr::new(100, 64, 0, 0), 10, "shared address space (carrier-grade NAT)"),
    (Ipv4Addr::new(127, 0, 0, 0), 8, "loopback"),
    (Ipv4Addr::new(169, 254, 0, 0), 16, "link-local (cloud metadata)"),
    (Ipv4Addr::new(172, 16, 0, 0), 12, "private use"),
    (Ipv4Addr::new(192, 0, 0, 0), 24, "IETF protocol assignments"),
    (Ipv4Addr::new(192, 0, 2, 0), 24, "documentation (TEST-NET-1)"),
    (Ipv4Addr::new(192, 88, 99, 0), 24, "6to4 relay anycast (deprecated)"),
    (Ipv4Addr::new(192, 168, 0, 0), 16, "private use"),
    (Ipv4Addr::new(198, 18, 0, 0), 15, "benchmarking"),
    (Ipv4Addr::new(198, 51, 100, 0), 24, "documentation (TEST-NET-2)"),
    (Ipv4Addr::new(203, 0, 113, 0), 24, "documentation (TEST-NET-3)"),
    (Ipv4Addr::new(224, 0, 0, 0), 4, "multicast"),
    (Ipv4Addr::new(240, 0, 0, 0), 4, "reserved"),
    (Ipv4Addr::new(255, 255, 255, 255), 32, "limited broadcast"),
];

/// IPv6 ranges never fetched: every entry of the IANA IPv6 Special-Purpose Address Registry that
/// is not globally reachable, plus NAT64 (64:ff9b::/96, which embeds IPv4 and may reach the
/// operator's own network), 6to4 (2002::/16, likewise), the deprecated site-local fec0::/10,
/// multicast and the rest of the IETF-reserved ::/8. IPv4-mapped (::ffff:0:0/96) and
/// IPv4-compatible (::/96) addresses are judged as the IPv4 address they hold, before this list.
/// (2001::/23 is refused whole, although some of its small blocks are anycast services.)
pub const REFUSED_V6: &[(Ipv6Addr, u8, &str)] = &[
    (Ipv6Addr::UNSPECIFIED, 128, "unspecified"),
    (Ipv6Addr::LOCALHOST, 128, "loopback"),
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 0), 8, "reserved by the IETF"),
    (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96, "IPv4/IPv6 translation (NAT64)"),
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48, "local-use IPv4/IPv6 translation"),
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64, "discard-only"),
    (Ipv6Addr::new(0x100, 0, 0, 1, 0, 0, 0, 0), 64, "dummy prefix"),
    (
        Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
        23,
        "IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID)",
    ),
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32, "documentation"),
    (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16, "6to4"),
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20, "documentation"),
    (Ipv6Addr::new(0x5f00, 0, 0, 0, 0, 0, 0, 0), 16, "segment routing SIDs"),
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7, "unique local"),
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10, "link-local"),
    (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10, "site-local (deprecated)"),
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8, "multicast"),
];

fn in_v4(ip: Ipv4Addr, net: Ipv4Addr, bits: u8) -> bool {
    let mask = if bits == 0 { 0 } else { u32::MAX << (32 - u32::from(bits)) };
    u32::from(ip) & mask == u32::from(net) & mask
}

fn in_v6(ip: Ipv6Addr, net: Ipv6Addr, bits: u8) -> bool {
    let mask = if bits == 0 { 0 } else { u128::MAX << (128 - u32::from(bits)) };
    u128::from(ip) & mask == u128::from(net) & mask
}

/// Whether an address is one the platform must never be made to call: anything in
/// [`REFUSED_V4`] or [`REFUSED_V6`] (loopback, private, link-local with the cloud metadata
/// address, carrier-grade NAT, documentation, benchmarking, translation and tunnelling
/// prefixes, multicast, broadcast, reserved). An IPv6 address that holds an IPv4 address
/// (`::ffff:a.b.c.d`, `::a.b.c.d`) is judged as that IPv4 address.
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return forbidden_v4(v4);
            }
            // IPv4-compatible (::/96, deprecated), except :: and ::1 themselves.
            if v6.segments()[..6] == [0; 6] && !v6.is_unspecified() && !v6.is_loopback() {
                let [.., a, b, c, d] = v6.octets();
                return forbidden_v4(Ipv4Addr::new(a, b, c, d));
            }
            REFUSED_V6.iter().any(|&(net, bits, _)| in_v6(v6, net, bits))
        }
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    REFUSED_V4.iter().any(|&(net, bits, _)| in_v4(ip, net, bits))
}

/// Operator exceptions (`MINICLAW_URL_ALLOWLIST`): exact IPs or CIDR ranges.
#[derive(Debug, Clone, Default)]
pub struct Allowlist(Vec<(IpAddr, u8)>);

impl Allowlist {
    pub fn parse(spec: &str) -> Result<Self, String> {
        let mut nets = Vec::new();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (addr, bits) = match item.split_once('/') {
                Some((a, b)) => (a, Some(b.parse::<u8>().map_err(|_| format!("bad prefix length in `{item}`"))?)),
                None => (item, None),
            };
            let ip: IpAddr = addr.parse().map_err(|_| format!("`{item}` is not an IP address or CIDR range"))?;
            let max = if ip.is_ipv4() { 32 } else { 128 };
            let bits = bits.unwrap_or(max);
            if bits > max {
                return Err(format!("prefix length too long in `{item}`"));
            }
            nets.push((ip, bits));
        }
        Ok(Allowlist(nets))
    }

    /// Whether `ip` is in one of the listed ranges (an IPv4-mapped IPv6 address also matches
    /// the IPv4 ranges).
    pub fn allows(&self, ip: IpAddr) -> bool {
        let canonical = ip.to_canonical();
        self.0.iter().any(|&(net, bits)| match (net, ip, canonical) {
            (IpAddr::V4(n), _, IpAddr::V4(i)) => in_v4(i, n, bits),
            (IpAddr::V6(n), IpAddr::V6(i), _) => in_v6(i, n, bits),
            _ => false,
        })
    }
}

fn refuse(message: impl Into<String>) -> ApiError {
    ApiError::Unprocessable { code: "url_refused", message: message.into(), details: None }
}

/// Resolves the URL's host and returns one checked address to connect to.
async fn vet(url: &reqwest::Url, allow: &Allowlist) -> Result<SocketAddr, ApiError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse(format!("only http and https URLs can be fetched, not {}", url.scheme())));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(refuse("URLs with credentials are not fetched"));
    }
    let host = url.host_str().ok_or_else(|| refuse("the URL has no host"))?;
    let port = url.port_or_known_default().unwrap_or(80);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::time::timeout(Duration::from_secs(5), tokio::net::lookup_host((host, port)))
            .await
            .map_err(|_| refuse(format!("resolving {host} took too long")))?
            .map_err(|_| refuse(format!("{host} could not be resolved")))?
            .collect(),
    };
    if addrs.is_empty() {
        return Err(refuse(format!("{host} has no addresses")));
    }
    // Every address must pass: a name that resolves to one public and one private address
    // could otherwise be used to reach the private one. The answer does not say which address
    // the name has: that would tell a caller what internal names resolve to.
    if addrs.iter().any(|a| is_forbidden(a.ip()) && !allow.allows(a.ip())) {
        return Err(refuse(format!(
            "{host} is not fetched: it is, or resolves to, an internal address (or another that is not publicly reachable)"
        )));
    }
    Ok(addrs[0])
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
pub async fn fetch(url: &str, allow: &Allowlist) -> Result<Page, ApiError> {
    let mut url: reqwest::Url =
        url.trim().parse().map_err(|e| ApiError::validation("url", format!("not a valid URL: {e}")))?;
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
            .map_err(|e| ApiError::Internal(e.into()))?;
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

    /// Every special-purpose range: (range, addresses inside it, addresses just outside it that
    /// are ordinary public ones). Outside addresses are left out where the neighbour is itself
    /// special-purpose or unallocated.
    const RANGES: &[(&str, &[&str], &[&str])] = &[
        ("0.0.0.0/8", &["0.0.0.0", "0.255.255.255"], &["1.0.0.0"]),
        ("10.0.0.0/8", &["10.0.0.0", "10.255.255.255"], &["9.255.255.255", "11.0.0.0"]),
        ("100.64.0.0/10", &["100.64.0.0", "100.127.255.255"], &["100.63.255.255", "100.128.0.0"]),
        ("127.0.0.0/8", &["127.0.0.1", "127.255.255.255"], &["126.255.255.255", "128.0.0.0"]),
        ("169.254.0.0/16", &["169.254.0.0", "169.254.169.254"], &["169.253.255.255", "169.255.0.0"]),
        ("172.16.0.0/12", &["172.16.0.0", "172.31.255.255"], &["172.15.255.255", "172.32.0.0"]),
        ("192.0.0.0/24", &["192.0.0.0", "192.0.0.9", "192.0.0.255"], &["191.255.255.255", "192.0.1.0"]),
        ("192.0.2.0/24", &["192.0.2.1", "192.0.2.255"], &["192.0.3.0"]),
        ("192.88.99.0/24", &["192.88.99.1"], &["192.88.98.255", "192.88.100.0"]),
        ("192.168.0.0/16", &["192.168.0.0", "192.168.255.255"], &["192.167.255.255", "192.169.0.0"]),
        ("198.18.0.0/15", &["198.18.0.0", "198.19.255.255"], &["198.17.255.255", "198.20.0.0"]),
        ("198.51.100.0/24", &["198.51.100.7"], &["198.51.99.255", "198.51.101.0"]),
        ("203.0.113.0/24", &["203.0.113.9"], &["203.0.112.255", "203.0.114.0"]),
        ("224.0.0.0/4", &["224.0.0.1", "239.255.255.255"], &["223.255.255.255"]),
        ("240.0.0.0/4", &["240.0.0.1", "255.255.255.254"], &[]),
        ("255.255.255.255/32", &["255.255.255.255"], &[]),
        ("::/128", &["::"], &[]),
        ("::1/128", &["::1"], &[]),
        (
            "::ffff:0:0/96 (as IPv4)",
            &["::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:192.0.0.1"],
            &["::ffff:8.8.8.8"],
        ),
        ("::/96 (as IPv4)", &["::127.0.0.1", "::10.1.2.3", "::169.254.169.254", "::0.0.0.2"], &["::8.8.8.8"]),
        ("::/8", &["::ffff:0:7f00:1", "0:0:0:1::"], &[]),
        ("64:ff9b::/96", &["64:ff9b::a00:1", "64:ff9b::808:808"], &[]),
        ("64:ff9b:1::/48", &["64:ff9b:1::a00:1", "64:ff9b:1:ffff::1"], &[]),
        ("100::/64", &["100::1", "100::ffff:ffff:ffff:ffff"], &[]),
        ("100:0:0:1::/64", &["100:0:0:1::1"], &[]),
        ("2001::/23", &["2001::1", "2001:0:4136:e378::1", "2001:2::1", "2001:1ff:ffff::1"], &["2001:200::1"]),
        ("2001:db8::/32", &["2001:db8::1", "2001:db8:ffff::1"], &["2001:db7:ffff::1", "2001:db9::1"]),
        ("2002::/16", &["2002:7f00:1::1", "2002:808:808::1"], &["2003::1"]),
        ("3fff::/20", &["3fff::1", "3fff:fff::1"], &["3fff:1000::1"]),
        ("5f00::/16", &["5f00::1"], &["5eff:ffff::1", "5f01::1"]),
        ("fc00::/7", &["fc00::1", "fd12:3456::1", "fdff:ffff::1"], &[]),
        ("fe80::/10", &["fe80::1", "febf:ffff::1"], &[]),
        ("fec0::/10", &["fec0::1", "feff:ffff::1"], &[]),
        ("ff00::/8", &["ff02::1", "ff0e::1", "ffff::1"], &[]),
    ];

    #[test]
    fn every_special_purpose_range_is_forbidden_and_its_neighbours_are_not() {
        for (range, inside, outside) in RANGES {
            for ip in *inside {
                assert!(is_forbidden(ip.parse().unwrap()), "{ip} is in {range}");
            }
            for ip in *outside {
                assert!(!is_forbidden(ip.parse().unwrap()), "{ip} is just outside {range}");
            }
        }
        // Every listed range has a row above, and its first address is refused.
        for (net, bits, what) in REFUSED_V4 {
            let range = format!("{net}/{bits}");
            assert!(RANGES.iter().any(|(r, ..)| *r == range), "no test row for {range} ({what})");
            assert!(is_forbidden(IpAddr::V4(*net)), "{range}");
        }
        for (net, bits, what) in REFUSED_V6 {
            let range = format!("{net}/{bits}");
            assert!(RANGES.iter().any(|(r, ..)| *r == range), "no test row for {range} ({what})");
            assert!(is_forbidden(IpAddr::V6(*net)), "{range}");
        }
        for ip in ["93.184.216.34", "1.1.1.1", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001::1"] {
            assert!(!is_forbidden(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn the_allowlist_matches_ips_and_ranges() {
        let a = Allowlist::parse("127.0.0.1, 10.0.0.0/8,fd00::/8").unwrap();
        assert!(a.allows("127.0.0.1".parse().unwrap()));
        assert!(!a.allows("127.0.0.2".parse().unwrap()));
        assert!(a.allows("10.200.1.1".parse().unwrap()));
        assert!(a.allows("fd12::1".parse().unwrap()));
        assert!(!a.allows("169.254.169.254".parse().unwrap()));
        assert!(a.allows("::ffff:10.1.2.3".parse().unwrap()), "an IPv4-mapped address matches its IPv4 range");
        assert!(!a.allows("::1".parse().unwrap()));
        assert!(Allowlist::parse("10.0.0.0/33").is_err());
        assert!(Allowlist::parse("example.com").is_err());
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
            assert_eq!(err.status(), axum::http::StatusCode::UNPROCESSABLE_ENTITY, "{url}: {err}");
        }
        assert_eq!(fetch("not a url", &none).await.unwrap_err().status(), axum::http::StatusCode::BAD_REQUEST);
    }
}
