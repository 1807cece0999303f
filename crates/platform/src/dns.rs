//! TXT lookups, for proving control of a domain (an agent's identity domain is served only once
//! its owner put the platform's challenge in a TXT record). A stub resolver: one question to one
//! recursive server (`MINICLAW_DNS_SERVER`, else the first `nameserver` of /etc/resolv.conf),
//! over UDP and, when the answer is truncated, again over TCP (RFC 1035 §4.2), each within a
//! 5-second timeout. Answers are matched by id and question; names in them may be compressed.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use rand::Rng;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The longest a lookup waits for its server.
const TIMEOUT: Duration = Duration::from_secs(5);
const TYPE_TXT: u16 = 16;
const CLASS_IN: u16 = 1;

#[derive(Debug, thiserror::Error)]
pub enum DnsError {
    #[error("{0} is not a domain name that can be looked up")]
    BadName(String),
    #[error("the DNS server did not answer in time")]
    Timeout,
    #[error("the DNS server could not be reached: {0}")]
    Io(#[from] std::io::Error),
    #[error("the DNS server answered with a malformed message")]
    Malformed,
    #[error("the DNS server refused the question (rcode {0})")]
    Failed(u8),
}

/// Where TXT questions go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolver {
    pub server: SocketAddr,
}

impl Resolver {
    /// `server`, else this machine's resolver (the first `nameserver` of /etc/resolv.conf, or
    /// 127.0.0.1:53 without one).
    pub fn new(server: Option<SocketAddr>) -> Resolver {
        let server = server.unwrap_or_else(|| {
            let conf = std::fs::read_to_string("/etc/resolv.conf").unwrap_or_default();
            let ip = conf
                .lines()
                .filter_map(|l| l.trim().strip_prefix("nameserver"))
                .find_map(|ip| ip.trim().parse::<IpAddr>().ok())
                .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
            SocketAddr::new(ip, 53)
        });
        Resolver { server }
    }

    /// The TXT records of `name` (each record's strings joined); empty when the name has none or
    /// does not exist.
    pub async fn txt(&self, name: &str) -> Result<Vec<String>, DnsError> {
        let id: u16 = rand::rng().random();
        let question = question(id, name)?;
        let answer = tokio::time::timeout(TIMEOUT, self.udp(&question)).await.map_err(|_| DnsError::Timeout)??;
        match parse(id, &question[12..], &answer)? {
            Answer::Records(records) => Ok(records),
            Answer::Truncated => {
                let answer =
                    tokio::time::timeout(TIMEOUT, self.tcp(&question)).await.map_err(|_| DnsError::Timeout)??;
                match parse(id, &question[12..], &answer)? {
                    Answer::Records(records) => Ok(records),
                    Answer::Truncated => Err(DnsError::Malformed),
                }
            }
        }
    }

    async fn udp(&self, question: &[u8]) -> Result<Vec<u8>, DnsError> {
        let local: SocketAddr = if self.server.is_ipv4() {
            (Ipv4Addr::UNSPECIFIED, 0).into()
        } else {
            "[::]:0".parse().expect("an address")
        };
        let socket = tokio::net::UdpSocket::bind(local).await?;
        socket.connect(self.server).await?;
        socket.send(question).await?;
        let mut buf = vec![0u8; 4096];
        let n = socket.recv(&mut buf).await?;
        buf.truncate(n);
        Ok(buf)
    }

    async fn tcp(&self, question: &[u8]) -> Result<Vec<u8>, DnsError> {
        let mut stream = tokio::net::TcpStream::connect(self.server).await?;
        let mut framed = (question.len() as u16).to_be_bytes().to_vec();
        framed.extend_from_slice(question);
        stream.write_all(&framed).await?;
        let len = stream.read_u16().await? as usize;
        let mut buf = vec![0u8; len];
        stream.read_exact(&mut buf).await?;
        Ok(buf)
    }
}

/// A TXT question for `name` with recursion desired.
fn question(id: u16, name: &str) -> Result<Vec<u8>, DnsError> {
    let bad = || DnsError::BadName(name.to_string());
    let name = name.trim_end_matches('.');
    if name.is_empty() || name.len() > 253 {
        return Err(bad());
    }
    let mut q = Vec::with_capacity(name.len() + 18);
    q.extend_from_slice(&id.to_be_bytes());
    q.extend_from_slice(&[0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]);
    for label in name.split('.') {
        if label.is_empty()
            || label.len() > 63
            || !label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(bad());
        }
        q.push(label.len() as u8);
        q.extend_from_slice(label.to_ascii_lowercase().as_bytes());
    }
    q.push(0);
    q.extend_from_slice(&TYPE_TXT.to_be_bytes());
    q.extend_from_slice(&CLASS_IN.to_be_bytes());
    Ok(q)
}

enum Answer {
    Records(Vec<String>),
    Truncated,
}

/// Reads an answer to question `id` (whose question section, as asked, is `asked`).
fn parse(id: u16, asked: &[u8], msg: &[u8]) -> Result<Answer, DnsError> {
    let u16_at = |i: usize| msg.get(i..i + 2).map(|b| u16::from_be_bytes([b[0], b[1]])).ok_or(DnsError::Malformed);
    if msg.len() < 12 || u16_at(0)? != id || msg[2] & 0x80 == 0 {
        return Err(DnsError::Malformed);
    }
    if msg[2] & 0x02 != 0 {
        return Ok(Answer::Truncated);
    }
    match msg[3] & 0x0f {
        0 => {}
        3 => return Ok(Answer::Records(Vec::new())),
        rcode => return Err(DnsError::Failed(rcode)),
    }
    let (questions, answers) = (u16_at(4)?, u16_at(6)?);
    // The question comes back as it was asked (names compare case-insensitively).
    if questions != 1 || !msg.get(12..12 + asked.len()).is_some_and(|q| q.eq_ignore_ascii_case(asked)) {
        return Err(DnsError::Malformed);
    }
    let mut at = 12 + asked.len();
    let mut records = Vec::new();
    for _ in 0..answers {
        at = skip_name(msg, at)?;
        let (kind, class, len) = (u16_at(at)?, u16_at(at + 2)?, u16_at(at + 8)? as usize);
        let data = msg.get(at + 10..at + 10 + len).ok_or(DnsError::Malformed)?;
        at += 10 + len;
        if kind != TYPE_TXT || class != CLASS_IN {
            continue; // a CNAME on the way, say
        }
        let (mut text, mut i) = (Vec::new(), 0);
        while i < data.len() {
            let n = data[i] as usize;
            text.extend_from_slice(data.get(i + 1..i + 1 + n).ok_or(DnsError::Malformed)?);
            i += 1 + n;
        }
        records.push(String::from_utf8_lossy(&text).into_owned());
    }
    Ok(Answer::Records(records))
}

/// The position after the name at `at` (labels, ending in a zero byte or a pointer).
fn skip_name(msg: &[u8], mut at: usize) -> Result<usize, DnsError> {
    loop {
        let len = *msg.get(at).ok_or(DnsError::Malformed)?;
        match len {
            0 => return Ok(at + 1),
            l if l & 0xc0 == 0xc0 => return if at + 2 <= msg.len() { Ok(at + 2) } else { Err(DnsError::Malformed) },
            l => at += 1 + l as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer to `question` with TXT records `texts` (each one string), its owner name a
    /// pointer to the question's name.
    fn answer(question: &[u8], texts: &[&str], flags: u8) -> Vec<u8> {
        let mut m = question.to_vec();
        m[2] = 0x81 | flags;
        m[3] = 0x80;
        m[7] = texts.len() as u8;
        for t in texts {
            m.extend_from_slice(&[0xc0, 12, 0, 16, 0, 1, 0, 0, 1, 0]);
            m.extend_from_slice(&((t.len() + 1) as u16).to_be_bytes());
            m.push(t.len() as u8);
            m.extend_from_slice(t.as_bytes());
        }
        m
    }

    #[test]
    fn a_question_reads_its_own_answer_and_no_other() {
        let q = question(7, "_miniclaw.Agent.example.com.").unwrap();
        assert_eq!(&q[12..22], b"\x09_miniclaw");
        let records = match parse(7, &q[12..], &answer(&q, &["miniclaw-verify=abc", "v=spf1"], 0)).unwrap() {
            Answer::Records(r) => r,
            Answer::Truncated => panic!("not truncated"),
        };
        assert_eq!(records, ["miniclaw-verify=abc", "v=spf1"]);
        assert!(parse(8, &q[12..], &answer(&q, &["x"], 0)).is_err(), "another id");
        let other = question(7, "other.example.com").unwrap();
        assert!(parse(7, &q[12..], &answer(&other, &["x"], 0)).is_err(), "another question");
        assert!(matches!(parse(7, &q[12..], &answer(&q, &[], 0x02)), Ok(Answer::Truncated)));
        let mut cut = answer(&q, &["miniclaw-verify=abc"], 0);
        cut.truncate(cut.len() - 3);
        assert!(parse(7, &q[12..], &cut).is_err(), "a record longer than the message");
        for bad in ["", "a..b", "bad name.example", &"x".repeat(64)] {
            assert!(question(1, bad).is_err(), "{bad}");
        }
    }
}
