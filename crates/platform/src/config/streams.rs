//! How long a slow peer may hold the server, and how many clients may watch one reply: the
//! total deadline of a streamed model call, the time a client has to send its request body,
//! the caps on followers of a streaming reply (SSE resumes) and on agent event streams.

use std::time::Duration;

use super::parse::{ConfigError, parse_num};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamLimits {
    /// `MINICLAW_LLM_STREAM_DEADLINE_SECS`: the longest a streamed model call may run in total,
    /// however steadily its provider keeps sending (each piece also has the route's idle timeout).
    pub llm_stream_deadline: Duration,
    /// `MINICLAW_REQUEST_BODY_TIMEOUT_SECS`: the time a client has to send its whole request
    /// body, counted from its headers (408 after it).
    pub request_body_timeout: Duration,
    /// `MINICLAW_FOLLOWERS_PER_REPLY`: SSE clients following one reply at once (the one that
    /// started it included); resumes beyond it get 429.
    pub followers_per_reply: usize,
    /// `MINICLAW_FOLLOWERS_PER_AGENT`: SSE clients following any of one agent's replies at once.
    pub followers_per_agent: usize,
    /// `MINICLAW_EVENT_STREAMS_PER_AGENT`: agent event streams open at once per server process;
    /// more get 429.
    pub event_streams_per_agent: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            llm_stream_deadline: Duration::from_secs(300),
            request_body_timeout: Duration::from_secs(30),
            followers_per_reply: 8,
            followers_per_agent: 32,
            event_streams_per_agent: 100,
        }
    }
}

impl StreamLimits {
    pub(super) fn read(get: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let d = StreamLimits::default();
        let secs = |var: &'static str, default: Duration| {
            parse_num(get, var, default.as_secs(), 1..=3600).map(Duration::from_secs)
        };
        let per_reply = parse_num(get, "MINICLAW_FOLLOWERS_PER_REPLY", d.followers_per_reply, 1..=1000)?;
        Ok(StreamLimits {
            llm_stream_deadline: secs("MINICLAW_LLM_STREAM_DEADLINE_SECS", d.llm_stream_deadline)?,
            request_body_timeout: secs("MINICLAW_REQUEST_BODY_TIMEOUT_SECS", d.request_body_timeout)?,
            followers_per_reply: per_reply,
            // An agent-wide cap below the per-reply one would make the latter meaningless.
            followers_per_agent: parse_num(
                get,
                "MINICLAW_FOLLOWERS_PER_AGENT",
                d.followers_per_agent.max(per_reply),
                per_reply..=100_000,
            )?,
            event_streams_per_agent: parse_num(
                get,
                "MINICLAW_EVENT_STREAMS_PER_AGENT",
                d.event_streams_per_agent,
                1..=1_000_000,
            )?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pairs: &[(&str, &str)]) -> Result<StreamLimits, ConfigError> {
        StreamLimits::read(&|k: &str| pairs.iter().find(|(var, _)| *var == k).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(read(&[]).unwrap(), StreamLimits::default());
        assert_eq!(
            read(&[("MINICLAW_LLM_STREAM_DEADLINE_SECS", "2")]).unwrap().llm_stream_deadline,
            Duration::from_secs(2)
        );
        for (var, value) in [
            ("MINICLAW_LLM_STREAM_DEADLINE_SECS", "0"),
            ("MINICLAW_REQUEST_BODY_TIMEOUT_SECS", "1.5"),
            ("MINICLAW_FOLLOWERS_PER_REPLY", "0"),
            ("MINICLAW_FOLLOWERS_PER_AGENT", "7"),
            ("MINICLAW_EVENT_STREAMS_PER_AGENT", "0"),
        ] {
            assert_eq!(read(&[(var, value)]).unwrap_err().var, var, "{value}");
        }
        // Per reply above the agent-wide default raises the agent's default with it.
        let l = read(&[("MINICLAW_FOLLOWERS_PER_REPLY", "50")]).unwrap();
        assert_eq!((l.followers_per_reply, l.followers_per_agent), (50, 50));
    }
}
