// An independent reader of what miniclaw wrote on chain and serves over HTTP: ethers for the
// registry, fetch for the registration file, ajv for its JSON Schema
// (docs/schemas/erc8004-registration-v1.schema.json). Installed by scripts/setup.sh --test.
//
//   node chain_client.mjs read <rpc url> <registry> <agentId> [file url]   → JSON on stdout
//     (the file is fetched from its agentURI, or from [file url] when the URI's host is not reachable here)
//   node chain_client.mjs validate                               (a file on stdin) → JSON on stdout
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
} else {
  console.error("usage: chain_client.mjs read <rpc> <registry> <agentId> | validate");
  process.exit(2);
}
