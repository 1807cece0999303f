//! The chain settings (SPEC I1, I2): which EVM node, which chain, which ERC-8004 registry, and
//! the limits on what server-managed wallets may send.

use std::time::Duration;

use super::parse::{ConfigError, bad, parse_num};

/// The IdentityRegistry deployments miniclaw knows: Base and Celo mainnets share one address,
/// their Sepolia testnets another.
pub const KNOWN_REGISTRIES: &[(u64, &str, &str)] = &[
    (8453, "Base", "0x8004A169FB4a3325136EB29fA0ceB6D2e539a432"),
    (42220, "Celo", "0x8004A169FB4a3325136EB29fA0ceB6D2e539a432"),
    (84532, "Base Sepolia", "0x8004A818BFB912233c491871b3d84c89A494BD9e"),
    (11142220, "Celo Sepolia", "0x8004A818BFB912233c491871b3d84c89A494BD9e"),
];

/// The name of a known chain, for messages and explorer links.
pub fn chain_name(chain_id: u64) -> Option<&'static str> {
    KNOWN_REGISTRIES.iter().find(|(id, _, _)| *id == chain_id).map(|(_, name, _)| *name)
}

/// Where miniclaw reaches the chain. Present only when `EVM_RPC_URL` is set.
#[derive(Debug, Clone)]
pub struct ChainSettings {
    /// `EVM_RPC_URL`: the node's JSON-RPC endpoint (http or https).
    pub rpc_url: String,
    /// `EVM_CHAIN_ID`: the chain the node must be on (checked at start and by `doctor`).
    pub chain_id: u64,
    /// `ERC8004_REGISTRY_ADDRESS`, or the known deployment on `chain_id`.
    pub registry: String,
    /// `MINICLAW_CHAIN_RECEIPT_WAIT_SECS`: how long one job attempt waits for a receipt before
    /// it steps back and checks again later.
    pub receipt_wait: Duration,
    /// `MINICLAW_CHAIN_TIMEOUT_SECS`: the longest one RPC request may take.
    pub rpc_timeout: Duration,
    /// `MINICLAW_IDENTITY_SIGNER=sponsor`: registrations are sent (and their gas paid) by the
    /// platform's sponsor wallet, which then holds the identity tokens; default `agent`: each
    /// agent's own wallet.
    pub sponsor: bool,
    /// `MINICLAW_ESCROW_ADDRESS`: the ServiceEscrow contract escrowed orders use; unset, orders
    /// are in credits only.
    pub escrow: Option<String>,
    /// `MINICLAW_GAS_FLOOR_WEI`: the gas subsidy tops an agent wallet up to this balance (0: off).
    pub gas_floor_wei: u128,
    /// `MINICLAW_GAS_DAILY_BUDGET_WEI`: the most the sponsor wallet gives in top-ups per UTC day.
    pub gas_daily_budget_wei: u128,
    /// `MINICLAW_GAS_TENANT_DAILY_WEI`: the most one account's agents get in top-ups per UTC day
    /// (default a quarter of the daily budget), so one account cannot empty the day's budget.
    pub gas_tenant_daily_wei: u128,
    /// `MINICLAW_GAS_MIN_ACCOUNT_DAYS`: how old an account must be before its agents get top-ups
    /// (0–365, default 7): throwaway accounts get none.
    pub gas_min_account_days: u32,
    /// `MINICLAW_SPONSOR_URI_UPDATES_PER_DAY`: in sponsor mode, how many `setAgentURI`
    /// transactions the sponsor pays per account and UTC day (0–10000, default 20); past it a
    /// changed registration file is announced the next day.
    pub sponsor_uri_updates_per_day: u32,
    /// `MINICLAW_SPONSOR_REGISTRATIONS_PER_DAY`: with the sponsor wallet registering
    /// (`MINICLAW_IDENTITY_SIGNER=sponsor`), the registrations it pays per account and UTC day
    /// (0–10000, default 3); past it a registration is asked again the next day (429).
    pub sponsor_registrations_per_day: u32,
    /// `MINICLAW_CHAIN_CONFIRMATIONS` (formerly `MINICLAW_TOKEN_CONFIRMATIONS`): how deep under
    /// the chain's head a block must be before miniclaw acts on it (0–1000, default 3). The
    /// token indexer stays this far behind, so a reorganised block is not indexed; a
    /// transaction is signed again only when another is found holding its nonce this deep.
    pub confirmations: u64,
    /// `MINICLAW_NATIVE_USD`: the dollar price of one unit (10^18 wei) of the chain's native
    /// coin. What the platform pays on chain — the sponsor's gas, gas top-ups, escrow refunds
    /// it sends — is paid work held against the same spending limits as a model call, in
    /// dollars at this price; so it is required whenever the platform pays
    /// (`MINICLAW_IDENTITY_SIGNER=sponsor`, `MINICLAW_GAS_FLOOR_WEI` above 0, or an escrow).
    pub native_usd: Option<f64>,
    /// `MINICLAW_SLASH_SINK_ADDRESS`: where slashed token stakes go (default the burn address
    /// `0x000000000000000000000000000000000000dEaD`).
    pub slash_sink: String,
}

/// Where burned tokens go by convention: nobody holds its key.
pub const BURN: &str = "0x000000000000000000000000000000000000dEaD";

impl ChainSettings {
    /// Reads the chain variables; `None` when `EVM_RPC_URL` is unset (each variable is still
    /// checked, so a typo is not silently ignored).
    pub(super) fn parse(get: &impl Fn(&str) -> Option<String>) -> Result<Option<ChainSettings>, ConfigError> {
        let rpc_url = get("EVM_RPC_URL");
        if let Some(u) = &rpc_url {
            let parsed = url::Url::parse(u).map_err(|_| bad("EVM_RPC_URL", "is not a URL"))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(bad("EVM_RPC_URL", "scheme must be http or https"));
            }
        }
        let chain_id = match get("EVM_CHAIN_ID") {
            None => None,
            Some(v) => Some(
                v.parse::<u64>()
                    .ok()
                    .filter(|id| *id > 0)
                    .ok_or_else(|| bad("EVM_CHAIN_ID", format!("`{v}` is not a chain id number")))?,
            ),
        };
        let registry = get("ERC8004_REGISTRY_ADDRESS");
        if let Some(a) = &registry {
            let ok = a.len() == 42 && a.starts_with("0x") && a[2..].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                return Err(bad("ERC8004_REGISTRY_ADDRESS", "must be a 0x-prefixed 20-byte hex address"));
            }
        }
        let receipt_wait = Duration::from_secs(parse_num(get, "MINICLAW_CHAIN_RECEIPT_WAIT_SECS", 60u64, 1..=600)?);
        let rpc_timeout = Duration::from_secs(parse_num(get, "MINICLAW_CHAIN_TIMEOUT_SECS", 15u64, 1..=300)?);
        let sponsor = match get("MINICLAW_IDENTITY_SIGNER").as_deref() {
            None | Some("agent") => false,
            Some("sponsor") => true,
            Some(other) => {
                return Err(bad("MINICLAW_IDENTITY_SIGNER", format!("`{other}` is not one of agent, sponsor")));
            }
        };
        let escrow = get("MINICLAW_ESCROW_ADDRESS");
        if let Some(a) = &escrow {
            let ok = a.len() == 42 && a.starts_with("0x") && a[2..].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                return Err(bad("MINICLAW_ESCROW_ADDRESS", "must be a 0x-prefixed 20-byte hex address"));
            }
        }
        let confirmations = match get("MINICLAW_CHAIN_CONFIRMATIONS") {
            Some(_) => parse_num(get, "MINICLAW_CHAIN_CONFIRMATIONS", 3u64, 0..=1000)?,
            None => parse_num(get, "MINICLAW_TOKEN_CONFIRMATIONS", 3u64, 0..=1000)?,
        };
        let slash_sink = get("MINICLAW_SLASH_SINK_ADDRESS").unwrap_or_else(|| BURN.to_string());
        let ok = slash_sink.len() == 42
            && slash_sink.starts_with("0x")
            && slash_sink[2..].bytes().all(|b| b.is_ascii_hexdigit());
        if !ok {
            return Err(bad("MINICLAW_SLASH_SINK_ADDRESS", "must be a 0x-prefixed 20-byte hex address"));
        }
        let wei = |var: &'static str| -> Result<u128, ConfigError> {
            match get(var) {
                None => Ok(0),
                Some(v) => v.trim().parse::<u128>().map_err(|_| bad(var, format!("`{v}` is not an amount of wei"))),
            }
        };
        let (gas_floor_wei, gas_daily_budget_wei) =
            (wei("MINICLAW_GAS_FLOOR_WEI")?, wei("MINICLAW_GAS_DAILY_BUDGET_WEI")?);
        let gas_tenant_daily_wei = match get("MINICLAW_GAS_TENANT_DAILY_WEI") {
            None => gas_daily_budget_wei / 4,
            Some(_) => wei("MINICLAW_GAS_TENANT_DAILY_WEI")?,
        };
        let sponsor_uri_updates_per_day = match get("MINICLAW_SPONSOR_URI_UPDATES_PER_DAY") {
            None => 20,
            Some(v) => v.trim().parse::<u32>().ok().filter(|n| *n <= 10_000).ok_or_else(|| {
                bad("MINICLAW_SPONSOR_URI_UPDATES_PER_DAY", format!("`{v}` is not a count from 0 to 10000"))
            })?,
        };
        let sponsor_registrations_per_day = match get("MINICLAW_SPONSOR_REGISTRATIONS_PER_DAY") {
            None => 3,
            Some(v) => v.trim().parse::<u32>().ok().filter(|n| *n <= 10_000).ok_or_else(|| {
                bad("MINICLAW_SPONSOR_REGISTRATIONS_PER_DAY", format!("`{v}` is not a count from 0 to 10000"))
            })?,
        };
        let gas_min_account_days = match get("MINICLAW_GAS_MIN_ACCOUNT_DAYS") {
            None => 7,
            Some(v) => v.trim().parse::<u32>().ok().filter(|d| *d <= 365).ok_or_else(|| {
                bad("MINICLAW_GAS_MIN_ACCOUNT_DAYS", format!("`{v}` is not a number of days from 0 to 365"))
            })?,
        };
        let native_usd = match get("MINICLAW_NATIVE_USD") {
            None => None,
            Some(_) => Some(parse_num(get, "MINICLAW_NATIVE_USD", 0.0f64, 0.0..=10_000_000.0)?),
        };
        let Some(rpc_url) = rpc_url else { return Ok(None) };
        if native_usd.is_none() && (sponsor || gas_floor_wei > 0 || escrow.is_some()) {
            return Err(bad(
                "MINICLAW_NATIVE_USD",
                "is required when the platform pays on chain (a sponsor, a gas floor or an escrow): \
                 the dollar price of the native coin, so what it pays counts against the spending limits",
            ));
        }
        let chain_id = chain_id.ok_or_else(|| {
            bad("EVM_CHAIN_ID", "is required with EVM_RPC_URL (e.g. 8453 for Base, 84532 for Base Sepolia)")
        })?;
        let registry = match registry {
            Some(r) => r,
            None => KNOWN_REGISTRIES
                .iter()
                .find(|(id, _, _)| *id == chain_id)
                .map(|(_, _, address)| address.to_string())
                .ok_or_else(|| {
                    bad(
                        "ERC8004_REGISTRY_ADDRESS",
                        format!(
                            "there is no known IdentityRegistry on chain {chain_id} (EVM_CHAIN_ID): set its address"
                        ),
                    )
                })?,
        };
        Ok(Some(ChainSettings {
            rpc_url,
            chain_id,
            registry,
            receipt_wait,
            rpc_timeout,
            sponsor,
            escrow,
            gas_floor_wei,
            gas_daily_budget_wei,
            gas_tenant_daily_wei,
            gas_min_account_days,
            sponsor_uri_updates_per_day,
            sponsor_registrations_per_day,
            slash_sink,
            confirmations,
            native_usd,
        }))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> Result<Option<ChainSettings>, ConfigError> {
        let env: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        ChainSettings::parse(&|k: &str| env.get(k).cloned())
    }

    #[test]
    fn the_registry_defaults_to_the_known_deployment_of_the_chain() {
        assert!(parse(&[]).unwrap().is_none());
        let base = parse(&[("EVM_RPC_URL", "https://rpc.example"), ("EVM_CHAIN_ID", "8453")]).unwrap().unwrap();
        assert_eq!(base.registry, "0x8004A169FB4a3325136EB29fA0ceB6D2e539a432");
        let celo_test =
            parse(&[("EVM_RPC_URL", "https://rpc.example"), ("EVM_CHAIN_ID", "11142220")]).unwrap().unwrap();
        assert_eq!(celo_test.registry, "0x8004A818BFB912233c491871b3d84c89A494BD9e");
        let local = parse(&[
            ("EVM_RPC_URL", "http://127.0.0.1:8545"),
            ("EVM_CHAIN_ID", "31337"),
            ("ERC8004_REGISTRY_ADDRESS", "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!((local.chain_id, local.registry.as_str()), (31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3"));
    }

    #[test]
    fn an_unknown_chain_needs_an_address_and_a_node_needs_a_chain_id() {
        let e = parse(&[("EVM_RPC_URL", "http://127.0.0.1:8545"), ("EVM_CHAIN_ID", "31337")]).unwrap_err();
        assert_eq!(e.var, "ERC8004_REGISTRY_ADDRESS");
        assert_eq!(parse(&[("EVM_RPC_URL", "http://127.0.0.1:8545")]).unwrap_err().var, "EVM_CHAIN_ID");
        assert_eq!(parse(&[("EVM_RPC_URL", "ws://127.0.0.1:8545")]).unwrap_err().var, "EVM_RPC_URL");
        assert_eq!(parse(&[("EVM_CHAIN_ID", "0")]).unwrap_err().var, "EVM_CHAIN_ID");
        assert_eq!(parse(&[("MINICLAW_IDENTITY_SIGNER", "owner")]).unwrap_err().var, "MINICLAW_IDENTITY_SIGNER");
        assert_eq!(parse(&[("MINICLAW_ESCROW_ADDRESS", "0x12")]).unwrap_err().var, "MINICLAW_ESCROW_ADDRESS");
        assert_eq!(parse(&[("MINICLAW_GAS_FLOOR_WEI", "-1")]).unwrap_err().var, "MINICLAW_GAS_FLOOR_WEI");
    }

    #[test]
    fn the_platform_pays_on_chain_only_at_a_price() {
        let node = [
            ("EVM_RPC_URL", "http://127.0.0.1:8545"),
            ("EVM_CHAIN_ID", "31337"),
            ("ERC8004_REGISTRY_ADDRESS", "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
        ];
        let with = |extra: &[(&'static str, &'static str)]| parse(&[&node[..], extra].concat());
        assert_eq!(with(&[]).unwrap().unwrap().native_usd, None, "an agent's own wallet pays: no price needed");
        for pays in [
            ("MINICLAW_IDENTITY_SIGNER", "sponsor"),
            ("MINICLAW_GAS_FLOOR_WEI", "1000"),
            ("MINICLAW_ESCROW_ADDRESS", "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
        ] {
            assert_eq!(with(&[pays]).unwrap_err().var, "MINICLAW_NATIVE_USD", "{pays:?}");
            let priced = with(&[pays, ("MINICLAW_NATIVE_USD", "3000")]).unwrap().unwrap();
            assert_eq!(priced.native_usd, Some(3000.0));
        }
        assert_eq!(with(&[("MINICLAW_NATIVE_USD", "-1")]).unwrap_err().var, "MINICLAW_NATIVE_USD");
        assert_eq!(with(&[("MINICLAW_NATIVE_USD", "NaN")]).unwrap_err().var, "MINICLAW_NATIVE_USD");
    }
}
