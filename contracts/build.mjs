// Compiles each contract of contracts/ (IdentityRegistry, AgentToken, ServiceEscrow) with solcjs
// (the npm `solc` package that scripts/setup.sh --test installs) into contracts/<Name>.json: the
// ABI, the creation bytecode, the compiler version and the source's SHA-256.
//
//   node contracts/build.mjs            # writes the artifacts
//   node contracts/build.mjs --check    # exits 1 when a committed artifact differs from a fresh build
//
// Where solc is found: MINICLAW_EVM_DIR (default ~/.cache/miniclaw/evm)/node_modules.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const evmDir = process.env.MINICLAW_EVM_DIR
  || join(process.env.MINICLAW_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "miniclaw"), "evm");
const require = createRequire(join(evmDir, "node_modules", "noop.js"));
const solc = require("solc");

const NAMES = ["IdentityRegistry", "AgentToken", "ServiceEscrow"];
let failed = false;

for (const NAME of NAMES) {
  const sourcePath = join(here, `${NAME}.sol`);
  const artifactPath = join(here, `${NAME}.json`);
  const source = readFileSync(sourcePath, "utf8");

  const input = {
    language: "Solidity",
    sources: { [`${NAME}.sol`]: { content: source } },
    settings: {
      // Cancun: what Base, Celo and their testnets run; anvil runs it too.
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors || []).filter((e) => e.severity === "error");
  if (errors.length) {
    for (const e of errors) console.error(e.formattedMessage);
    process.exit(1);
  }
  const contract = output.contracts[`${NAME}.sol`][NAME];
  const artifact = {
    contract: NAME,
    compiler: `solc ${solc.version()}`,
    settings: { evmVersion: input.settings.evmVersion, optimizer: input.settings.optimizer },
    source_sha256: createHash("sha256").update(source).digest("hex"),
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
  const text = `${JSON.stringify(artifact, null, 2)}\n`;

  if (process.argv.includes("--check")) {
    let committed = "";
    try {
      committed = readFileSync(artifactPath, "utf8");
    } catch {}
    if (committed !== text) {
      console.error(`${artifactPath} does not match ${sourcePath}: run \`node contracts/build.mjs\` and commit the result`);
      failed = true;
      continue;
    }
    console.log(`${NAME}.json matches its source`);
  } else {
    writeFileSync(artifactPath, text);
    console.log(`wrote ${artifactPath}`);
  }
}
if (failed) process.exit(1);
