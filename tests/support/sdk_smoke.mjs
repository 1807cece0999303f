// The generated TypeScript client (clients/typescript, compiled to CommonJS in a scratch
// directory) against a running server: sign up, create an agent and a key, chat with the key,
// store and search a memory, and stream a reply. Prints one JSON line of what it saw.
//
//   node sdk_smoke.mjs <compiled dist directory> <base url>
import { createRequire } from 'node:module';

const [dist, base] = process.argv.slice(2);
const sdk = createRequire(import.meta.url)(`${dist}/index.js`);
const { client } = createRequire(import.meta.url)(`${dist}/client.gen.js`);

const must = (r, what) => {
  if (r.error !== undefined || !r.response.ok) {
    throw new Error(`${what}: ${r.response.status} ${JSON.stringify(r.error)}`);
  }
  return r.data;
};

client.setConfig({ baseUrl: base });
const session = must(
  await sdk.signup({ body: { email: 'sdk-ts@example.com', password: 'correct horse battery' } }),
  'signup',
);
const owner = { auth: session.session_token };
const agent = must(await sdk.createAgent({ ...owner, body: { name: 'Ada' } }), 'create agent');
const issued = must(
  await sdk.createKey({
    ...owner,
    path: { id: agent.id },
    body: { name: 'sdk', scopes: ['chat:write', 'memories:write', 'memories:read'] },
  }),
  'create key',
);
const keyed = { auth: issued.key, path: { id: agent.id } };
const reply = must(await sdk.chatTurn({ ...keyed, body: { message: 'Hello there!' } }), 'chat');
const memory = must(
  await sdk.createMemory({ ...keyed, body: { category: 'identity', content: 'The user lives in Vienna' } }),
  'create memory',
);
const found = must(await sdk.searchMemories({ ...keyed, body: { query: 'where does the user live' } }), 'search');
// A streamed reply: the SDK's request with `parseAs: 'stream'`, read as server-sent events.
const streamed = await sdk.chatTurn({
  ...keyed,
  body: { message: 'Tell me something' },
  headers: { accept: 'text/event-stream' },
  parseAs: 'stream',
});
const text = await new Response(streamed.data).text();
const events = text.split('\n').filter((l) => l.startsWith('event:')).map((l) => l.slice(6).trim());
console.log(JSON.stringify({
  agent: agent.id,
  key_scopes: issued.scopes,
  reply: reply.reply,
  memory: memory.content,
  found: found.results.map((r) => r.memory.content),
  events,
}));
