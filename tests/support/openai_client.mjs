// A real OpenAI Node SDK client of /v1 (the package `openai`, installed by scripts/setup.sh
// --test into the cache's clients/ folder): the models listed, one chat call, one streamed, and
// a refused call read through the SDK's error class.
//
//   node openai_client.mjs BASE_URL API_KEY AGENT_ID MESSAGE   → one JSON object on stdout
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";

const cache = process.env.MINICLAW_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "miniclaw");
const require = createRequire(join(process.env.MINICLAW_CLIENTS_DIR || join(cache, "clients"), "node_modules", "x.js"));
const { default: OpenAI } = await import(require.resolve("openai"));

const [baseURL, apiKey, agentId, message] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 30_000 });

const models = [];
for await (const m of client.models.list()) models.push({ id: m.id, object: m.object, owned_by: m.owned_by });

const plain = await client.chat.completions.create({ model: agentId, messages: [{ role: "user", content: message }] });

let text = "";
let finish = null;
let usage = null;
const stream = await client.chat.completions.create({
  model: agentId,
  messages: [{ role: "user", content: message }],
  stream: true,
  stream_options: { include_usage: true },
});
for await (const chunk of stream) {
  if (chunk.usage) usage = chunk.usage.total_tokens;
  for (const c of chunk.choices) {
    if (c.delta?.content) text += c.delta.content;
    if (c.finish_reason) finish = c.finish_reason;
  }
}

let refused = null;
try {
  await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
} catch (e) {
  if (!(e instanceof OpenAI.APIError)) throw e;
  refused = { class: e.constructor.name, status: e.status, type: e.type, param: e.param, code: e.code };
}

console.log(JSON.stringify({
  models,
  plain: { object: plain.object, content: plain.choices[0].message.content, finish_reason: plain.choices[0].finish_reason },
  stream: { content: text, finish_reason: finish, total_tokens: usage },
  refused,
}));
