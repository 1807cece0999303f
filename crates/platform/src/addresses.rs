//! The addresses the server never fetches from (SSRF): every range of the IANA IPv4 and IPv6
//! Special-Purpose Address Registries that is not globally reachable, plus multicast, NAT64,
//! 6to4 and site-local; and the operator's `Allowlist` of internal ranges that may be fetched
//! all the same (`MINICLAW_URL_ALLOWLIST`, also used for `MINICLAW_TRUSTED_PROXIES`).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use miniclaw_core::Error;

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

/// A URL the server will not fetch (422 `url_refused`).
pub fn refuse(message: impl Into<String>) -> Error {
    Error::Unprocessable { code: "url_refused", message: message.into(), details: None }
}

/// Resolves the URL's host and returns one checked address to connect to: only http(s), no
/// credentials in the URL, and every address the name has public (or allowed by the operator).
pub async fn vet(url: &reqwest::Url, allow: &Allowlist) -> Result<SocketAddr, Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
