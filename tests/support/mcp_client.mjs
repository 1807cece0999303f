// A real MCP client of an agent's MCP endpoint: the official TypeScript SDK
// (`@modelcontextprotocol/sdk`, installed by scripts/setup.sh --test into the cache's clients/
// folder). Initialize, list the tools, call two, read a resource, and the refusals: a tool the
// key's scopes do not allow and a tool that does not exist.
//
//   node mcp_client.mjs URL FULL_KEY NARROW_KEY   → one JSON object on stdout
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const cache = process.env.MINICLAW_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "miniclaw");
const sdk = join(process.env.MINICLAW_CLIENTS_DIR || join(cache, "clients"), "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");
const load = (path) => import(pathToFileURL(join(sdk, path)).href);
const { Client } = await load("client/index.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
const { McpError } = await load("types.js");

const [url, fullKey, narrowKey] = process.argv.slice(2);

async function connect(key) {
  const client = new Client({ name: "miniclaw-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

async function protocolError(call) {
  try {
    await call();
  } catch (e) {
    if (!(e instanceof McpError)) throw e;
    return { code: e.code, message: e.message };
  }
  return null;
}

const out = {};
const client = await connect(fullKey);
out.server = client.getServerVersion();
out.protocol_version = client.transport.protocolVersion ?? null;
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
const added = await client.callTool({ name: "add_memory", arguments: { content: "The user sings in a choir on Thursdays.", category: "interest" } });
out.add = { is_error: added.isError ?? false, structured: added.structuredContent };
const found = await client.callTool({ name: "search_memories", arguments: { query: "choir Thursdays" } });
out.search = { is_error: found.isError ?? false, structured: found.structuredContent };
const profile = await client.readResource({ uri: "miniclaw://agent/profile" });
out.profile = JSON.parse(profile.contents[0].text);
out.unknown_tool = await protocolError(() => client.callTool({ name: "format_disk", arguments: {} }));
await client.close();

const narrow = await connect(narrowKey);
const refused = await narrow.callTool({ name: "add_memory", arguments: { content: "The user hates choirs.", category: "preference" } });
out.narrow_add = { is_error: refused.isError ?? false, structured: refused.structuredContent };
await narrow.close();

console.log(JSON.stringify(out));
