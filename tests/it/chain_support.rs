//! A real EVM node for the identity tests: anvil (installed by `scripts/setup.sh --test`) on a
//! free loopback port, the committed IdentityRegistry deployed from anvil's first dev account,
//! a switchable proxy in front of it (to take the node "down"), and the independent client
//! (`tests/support/chain_client.mjs`: ethers, fetch, ajv).

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use alloy::network::{EthereumWallet, TransactionBuilder};
use alloy::primitives::{Address, Bytes, U256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use serde_json::Value;

use crate::common::TestAppBuilder;

/// Anvil's first dev account (funded with 10,000 ETH at start; a well-known test key).
pub const DEV_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// A master key for tests that make wallets.
pub const MASTER_KEY: &str = "4d696e69636c617720746573742d6d6173746572206b657920666f7220636861";

/// A test app on `rpc` (chain 31337) with `registry`, a master key, short receipt waits, and
/// the native coin at $1 (what the platform pays on chain is then a few cents at most).
pub fn chain_env(builder: TestAppBuilder, rpc: &str, registry: Address) -> TestAppBuilder {
    builder
        .env("MINICLAW_NATIVE_USD", "1")
        .env("EVM_RPC_URL", rpc)
        .env("EVM_CHAIN_ID", "31337")
        .env("ERC8004_REGISTRY_ADDRESS", &registry.to_string())
        .env("MINICLAW_MASTER_KEY", MASTER_KEY)
        .env("MINICLAW_CHAIN_RECEIPT_WAIT_SECS", "5")
}

pub fn evm_dir() -> std::path::PathBuf {
    std::env::var("MINICLAW_EVM_DIR")
        .map(Into::into)
        .unwrap_or_else(|_| miniclaw::config::default_cache_dir().join("evm"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A running anvil, killed when dropped.
pub struct Anvil {
    child: Child,
    pub url: String,
    pub provider: DynProvider,
}

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Anvil {
    /// Starts anvil (chain id 31337) and waits, at most 30 s, until it answers.
    pub async fn start() -> Anvil {
        let bin = evm_dir().join("node_modules/.bin/anvil");
        let port = free_port();
        let child = Command::new(&bin)
            .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--silent"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {} (scripts/setup.sh --test installs it): {e}", bin.display()));
        let url = format!("http://127.0.0.1:{port}");
        let signer: PrivateKeySigner = DEV_KEY.parse().unwrap();
        let provider =
            ProviderBuilder::new().wallet(EthereumWallet::from(signer)).connect_http(url.parse().unwrap()).erased();
        let anvil = Anvil { child, url, provider };
        let deadline = Instant::now() + Duration::from_secs(30);
        while anvil.provider.get_chain_id().await.is_err() {
            assert!(Instant::now() < deadline, "anvil did not answer within 30 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        anvil
    }

    /// Deploys the committed IdentityRegistry artifact; returns its address.
    pub async fn deploy_registry(&self) -> Address {
        self.deploy(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/contracts/IdentityRegistry.json"))).await
    }

    /// Deploys the committed ServiceEscrow artifact; returns its address.
    pub async fn deploy_escrow(&self) -> Address {
        self.deploy(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/contracts/ServiceEscrow.json"))).await
    }

    /// Deploys a committed artifact (a contract whose constructor takes no arguments).
    async fn deploy(&self, artifact: &str) -> Address {
        let artifact: Value = serde_json::from_str(artifact).unwrap();
        let code: Bytes = artifact["bytecode"].as_str().unwrap().parse().unwrap();
        let tx = TransactionRequest::default().with_deploy_code(code);
        let receipt = self.provider.send_transaction(tx).await.unwrap().get_receipt().await.unwrap();
        assert!(receipt.status(), "deployment reverted");
        receipt.contract_address.expect("a deployment has a contract address")
    }

    pub async fn rpc(&self, method: &'static str, params: Value) -> Value {
        self.provider.raw_request::<_, Value>(method.into(), params).await.unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    pub async fn set_balance(&self, address: &str, wei: U256) {
        self.rpc("anvil_setBalance", serde_json::json!([address, format!("{wei:#x}")])).await;
    }

    pub async fn balance(&self, address: &str) -> U256 {
        self.provider.get_balance(address.parse().unwrap()).await.unwrap()
    }

    /// The runtime code at `address` (to put back after `make_revert`).
    pub async fn code(&self, address: Address) -> Bytes {
        self.provider.get_code_at(address).await.unwrap()
    }

    pub async fn set_code(&self, address: Address, code: &Bytes) {
        self.rpc("anvil_setCode", serde_json::json!([address, code])).await;
    }

    /// Replaces the code at `address` with code that reverts every call with `reason`.
    pub async fn make_revert(&self, address: Address, reason: &str) {
        self.rpc("anvil_setCode", serde_json::json!([address, format!("0x{}", hex::encode(reverting_code(reason)))]))
            .await;
    }
}

/// EVM code that reverts with `Error(reason)`: the ABI-encoded error is written to memory word
/// by word, then returned by REVERT.
fn reverting_code(reason: &str) -> Vec<u8> {
    let mut payload = vec![0x08, 0xc3, 0x79, 0xa0];
    payload.extend_from_slice(&U256::from(32).to_be_bytes::<32>());
    payload.extend_from_slice(&U256::from(reason.len()).to_be_bytes::<32>());
    payload.extend_from_slice(reason.as_bytes());
    payload.resize(payload.len().div_ceil(32) * 32, 0);
    let mut code = Vec::new();
    for (i, word) in payload.chunks(32).enumerate() {
        code.push(0x7f); // PUSH32 word
        code.extend_from_slice(word);
        code.push(0x61); // PUSH2 offset
        code.extend_from_slice(&((i * 32) as u16).to_be_bytes());
        code.push(0x52); // MSTORE
    }
    let len = (4 + 64 + reason.len()) as u16;
    code.push(0x61); // PUSH2 length
    code.extend_from_slice(&len.to_be_bytes());
    code.extend_from_slice(&[0x60, 0x00, 0xfd]); // PUSH1 0, REVERT
    code
}

/// A TCP proxy in front of a node that can be switched off: while down, open connections are
/// cut and new ones closed at once, as with a crashed or unreachable node.
pub struct Proxy {
    pub url: String,
    up: Arc<AtomicBool>,
    cut: Arc<std::sync::Mutex<tokio_util::sync::CancellationToken>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
        self.cut.lock().unwrap().cancel();
    }
}

impl Proxy {
    pub async fn start(target: &str) -> Proxy {
        let target = target.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let up = Arc::new(AtomicBool::new(true));
        let cut = Arc::new(std::sync::Mutex::new(tokio_util::sync::CancellationToken::new()));
        let (flag, cuts) = (up.clone(), cut.clone());
        let task = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !flag.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let target = target.clone();
                let cancelled = cuts.lock().unwrap().clone();
                tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                            _ = cancelled.cancelled() => {}
                        }
                    }
                });
            }
        });
        Proxy { url, up, cut, task }
    }

    pub fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
        if !up {
            let mut cut = self.cut.lock().unwrap();
            cut.cancel();
            *cut = tokio_util::sync::CancellationToken::new();
        }
    }
}

/// Runs `tests/support/chain_client.mjs` with node; returns its JSON answer.
pub async fn chain_client(args: &[&str], stdin: Option<&str>) -> Value {
    use tokio::io::AsyncWriteExt;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/chain_client.mjs");
    let mut child = tokio::process::Command::new("node")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs (scripts/setup.sh --test installs it)");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).await.unwrap();
    drop(input);
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("chain client finished within 60 s")
        .unwrap();
    assert!(out.status.success(), "chain_client.mjs failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn reverting_code_encodes_the_reason() {
    let code = reverting_code("closed");
    assert_eq!(code[0], 0x7f);
    assert_eq!(&code[1..5], &[0x08, 0xc3, 0x79, 0xa0]);
    assert_eq!(&code[code.len() - 3..], &[0x60, 0x00, 0xfd]);
}

/// A JSON-RPC proxy in front of the node that can lag like a node behind a load balancer: while
/// lagging it answers `eth_getTransactionReceipt` and `eth_getTransactionByHash` with `null` (the
/// transaction mined on another backend is not visible here yet) and passes everything else on.
pub struct LaggingNode {
    pub url: String,
    lagging: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for LaggingNode {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl LaggingNode {
    pub async fn start(target: &str) -> LaggingNode {
        let lagging = Arc::new(AtomicBool::new(false));
        let (flag, target) = (lagging.clone(), target.to_string());
        let client = reqwest::Client::new();
        let app = axum::Router::new().route(
            "/",
            axum::routing::post(move |axum::Json(body): axum::Json<Value>| {
                let (flag, target, client) = (flag.clone(), target.clone(), client.clone());
                async move {
                    let hidden = |call: &Value| {
                        flag.load(Ordering::SeqCst)
                            && matches!(
                                call["method"].as_str(),
                                Some("eth_getTransactionReceipt" | "eth_getTransactionByHash")
                            )
                    };
                    let null = |call: &Value| serde_json::json!({ "jsonrpc": "2.0", "id": call["id"], "result": null });
                    let forward = |body: Value| {
                        let (client, target) = (client.clone(), target.clone());
                        async move {
                            let r = client.post(&target).json(&body).send().await.expect("the node answers");
                            r.json::<Value>().await.expect("JSON from the node")
                        }
                    };
                    let answer = match &body {
                        Value::Array(calls) => {
                            let mut out = Vec::new();
                            for call in calls {
                                out.push(if hidden(call) { null(call) } else { forward(call.clone()).await });
                            }
                            Value::Array(out)
                        }
                        call if hidden(call) => null(call),
                        _ => forward(body.clone()).await,
                    };
                    axum::Json(answer)
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        LaggingNode { url, lagging, task }
    }

    pub fn set_lagging(&self, lagging: bool) {
        self.lagging.store(lagging, Ordering::SeqCst);
    }
}
