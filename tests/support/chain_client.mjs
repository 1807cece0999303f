// An independent reader of what miniclaw wrote on chain and serves over HTTP: ethers for the
// registry, fetch for the registration file, ajv for its JSON Schema
// (docs/schemas/erc8004-registration-v1.schema.json). Installed by scripts/setup.sh --test.
//
//   node chain_client.mjs read <rpc url> <registry> <agentId> [file url]   → JSON on stdout
//     (the file is fetched from its agentURI, or from [file url] when the URI's host is not reachable here)
//   node chain_client.mjs validate                               (a file on stdin) → JSON on stdout
//   node chain_client.mjs token <rpc url> <token> [holder...]    → name, symbol, decimals, supply,
//     the holders' balances and every Transfer event, read with ethers
//   node chain_client.mjs pay <rpc url> <private key> <to> <wei> [data] → sends native value (with
//     the 0x data, if given), prints the tx hash
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const evmDir = process.env.MINICLAW_EVM_DIR
  || join(process.env.MINICLAW_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "miniclaw"), "evm");
const require = createRequire(join(evmDir, "node_modules", "noop.js"));
const { ethers } = require("ethers");
const Ajv = require("ajv");
const addFormats = require("ajv-formats");

const schema = JSON.parse(readFileSync(join(here, "../../docs/schemas/erc8004-registration-v1.schema.json"), "utf8"));

function validate(file) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const valid = ajv.validate(schema, file);
  return { valid, errors: ajv.errors || [] };
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "validate") {
  const file = JSON.parse(readFileSync(0, "utf8"));
  console.log(JSON.stringify(validate(file)));
} else if (cmd === "read") {
  const [rpc, registry, agentId, fileUrl] = args;
  const provider = new ethers.JsonRpcProvider(rpc, undefined, { staticNetwork: true });
  const abi = [
    "function tokenURI(uint256) view returns (string)",
    "function ownerOf(uint256) view returns (address)",
    "function getVersion() view returns (string)",
    "event Registered(uint256 indexed agentId, string agentURI, address indexed owner)",
  ];
  const contract = new ethers.Contract(registry, abi, provider);
  const uri = await contract.tokenURI(agentId);
  const owner = await contract.ownerOf(agentId);
  const version = await contract.getVersion();
  const events = await contract.queryFilter(contract.filters.Registered(), 0, "latest");
  const res = await fetch(fileUrl || uri);
  const file = await res.json();
  console.log(JSON.stringify({
    uri,
    owner,
    version,
    registered: events.map((e) => ({ agentId: e.args.agentId.toString(), owner: e.args.owner, uri: e.args.agentURI })),
    status: res.status,
    file,
    ...validate(file),
  }));
} else if (cmd === "token") {
  const [rpc, token, ...holders] = args;
  const provider = new ethers.JsonRpcProvider(rpc, undefined, { staticNetwork: true });
  const abi = [
    "function name() view returns (string)",
    "function symbol() view returns (string)",
    "function decimals() view returns (uint8)",
    "function totalSupply() view returns (uint256)",
    "function balanceOf(address) view returns (uint256)",
    "event Transfer(address indexed from, address indexed to, uint256 value)",
  ];
  const c = new ethers.Contract(token, abi, provider);
  const balances = {};
  for (const h of holders) balances[h.toLowerCase()] = (await c.balanceOf(h)).toString();
  const events = await c.queryFilter(c.filters.Transfer(), 0, "latest");
  console.log(JSON.stringify({
    name: await c.name(),
    symbol: await c.symbol(),
    decimals: Number(await c.decimals()),
    totalSupply: (await c.totalSupply()).toString(),
    balances,
    transfers: events.map((e) => ({ from: e.args.from.toLowerCase(), to: e.args.to.toLowerCase(), value: e.args.value.toString() })),
  }));
} else if (cmd === "pay") {
  const [rpc, key, to, wei, data] = args;
  const provider = new ethers.JsonRpcProvider(rpc, undefined, { staticNetwork: true });
  const wallet = new ethers.Wallet(key, provider);
  const tx = await wallet.sendTransaction({ to, value: BigInt(wei), ...(data ? { data } : {}) });
  const receipt = await tx.wait();
  console.log(JSON.stringify({ hash: tx.hash, status: receipt.status, from: wallet.address.toLowerCase() }));
} else {
  console.error("usage: chain_client.mjs read <rpc> <registry> <agentId> | validate | token <rpc> <token> [holder...] | pay <rpc> <key> <to> <wei>");
  process.exit(2);
}
