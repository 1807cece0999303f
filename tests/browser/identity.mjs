// Identity and Wallet tabs in headless Chromium against a real EVM node (anvil): the owner
// creates the agent's wallet, funds it (anvil_setBalance), sets limits, sends within them, is
// refused above them, confirms a send above the threshold, registers the agent on the
// ERC-8004 registry and follows the status live, edits the registration-file profile, and sees
// the PoC identity dimension count the wallet and the registration.
//
//   BASE_URL=http://127.0.0.1:8080 ANVIL_URL=http://127.0.0.1:8545 SCREENSHOT_DIR=/tmp/shots node tests/browser/identity.mjs
import assert from "node:assert/strict";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

const anvil = process.env.ANVIL_URL;
assert.ok(anvil, "ANVIL_URL is required");
const ETH = 10n ** 18n;
const RECIPIENT = "0x000000000000000000000000000000000000beef";

async function rpc(method, params) {
  const r = await fetch(anvil, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = await r.json();
  assert.ok(!body.error, `${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

const { browser, page } = await launch();

async function send(amount) {
  await page.fill("[data-testid=send-to]", RECIPIENT);
  await page.fill("[data-testid=send-amount]", amount);
  await page.click("[data-testid=send-submit]");
  await page.waitForLoadState();
}

const alert = async () => (await page.locator(".alert").first().innerText()).trim();

try {
  const agentUrl = await signupWithAgent(page, "identity");

  step("the Wallet tab makes a wallet whose key is never shown");
  await page.click("[data-testid=tab-wallet]");
  await page.waitForURL(/\/wallet$/);
  await page.click("[data-testid=wallet-create]");
  await page.waitForURL(/notice=wallet_created/);
  const address = (await page.locator("[data-testid=wallet-address]").innerText()).trim();
  assert.match(address, /^0x[0-9a-f]{40}$/);
  assert.equal(await page.locator("[data-testid=wallet-balance]").innerText(), "0 ETH");
  assert.doesNotMatch(await page.content(), /private|sealed_key/i);

  step("funded on the node, the balance shows");
  await rpc("anvil_setBalance", [address, "0x" + (2n * ETH).toString(16)]);
  await page.reload();
  assert.equal(await page.locator("[data-testid=wallet-balance]").innerText(), "2 ETH");

  step("nothing can be sent before the owner sets limits");
  await send("0.1");
  assert.match(await alert(), /has not set this wallet's limits/);
  assert.equal(await page.locator("[data-testid=send-amount]").inputValue(), "0.1", "the form keeps what was typed");

  step("limits: 0.5 per transaction, 0.8 per 24 hours, confirm above 0.2");
  await page.fill("[data-testid=limit-tx]", "0.5");
  await page.fill("[data-testid=limit-day]", "0.8");
  await page.fill("[data-testid=limit-confirm]", "0.2");
  await page.click("[data-testid=limits-save]");
  await page.waitForURL(/notice=limits_saved/);
  assert.equal(await page.locator("[data-testid=limit-tx]").inputValue(), "0.5");

  step("a send within the limits goes out and the page follows it to confirmed");
  await send("0.1");
  await page.waitForURL(/notice=send_queued/);
  await page.locator("[data-testid=wallet-tx][data-status=confirmed]").waitFor({ timeout: 30000 });

  step("above the per-transaction limit: refused with the limit");
  await send("0.6");
  assert.match(await alert(), /above the per-transaction limit of 500000000000000000 wei/);

  step("above the threshold: waits for the owner, who confirms it");
  await send("0.3");
  await page.waitForURL(/notice=send_awaiting_confirmation/);
  await page.click("[data-testid=tx-confirm]");
  await page.waitForURL(/notice=send_confirmed/);
  await page.waitForFunction(
    () => document.querySelectorAll("[data-testid=wallet-tx][data-status=confirmed]").length === 2,
    null,
    { timeout: 30000 },
  );

  step("the 24-hour limit counts what was sent");
  await send("0.45");
  assert.match(await alert(), /above the daily limit of 800000000000000000 wei/);
  assert.equal(BigInt(await rpc("eth_getBalance", [RECIPIENT, "latest"])), 4n * ETH / 10n, "0.1 + 0.3 ETH arrived");

  step("an owner-held wallet is listed by address");
  await page.fill("[data-testid=external-address]", "0x00000000000000000000000000000000000000aa");
  await page.click("[data-testid=external-add]");
  await page.waitForURL(/notice=external_added/);
  assert.equal(await page.locator("[data-testid=external-wallet]").count(), 1);
  await page.screenshot({ path: `${shots}/wallet.png`, fullPage: true });

  step("the Identity tab registers the agent and follows the job live");
  await page.click("[data-testid=tab-identity]");
  await page.waitForURL(/\/identity$/);
  assert.equal(await page.locator("[data-testid=identity-status]").innerText(), "none");
  assert.match(await page.locator("[data-testid=registration-file]").innerText(), /Published once a registration is requested/);
  await page.click("[data-testid=identity-register]");
  await page.waitForURL(/notice=registration_requested/);
  await page.waitForFunction(
    () => document.querySelector("[data-testid=identity-status]")?.innerText === "registered",
    null,
    // The registration job shares the worker and two cores with the rest of the suite.
    { timeout: 60000 },
  );
  assert.equal(await page.locator("[data-testid=identity-agent-id]").innerText(), "0");
  assert.match(await page.locator("[data-testid=identity-tx]").innerText(), /^0x[0-9a-f]{64}$/);
  const file = JSON.parse(await page.locator("[data-testid=registration-json]").innerText());
  assert.equal(file.type, "https://eips.ethereum.org/EIPS/eip-8004#registration-v1");
  assert.equal(file.registrations[0].agentId, 0);
  assert.equal(await page.locator("[data-testid=identity-register]").count(), 0, "no second registration");

  step("the profile: a bad image is refused in place, a description is saved into the file");
  await page.fill("textarea[name=description]", "Ada keeps a runner's training diary.");
  await page.fill("input[name=image]", "ftp://example.com/ada.png");
  await page.click("[data-testid=identity-save]");
  assert.match(await alert(), /image must be an http\(s\) URL/);
  assert.equal(await page.locator("textarea[name=description]").inputValue(), "Ada keeps a runner's training diary.");
  await page.fill("input[name=image]", "https://example.com/ada.png");
  await page.click("[data-testid=identity-save]");
  await page.waitForURL(/notice=profile_saved/);
  const saved = JSON.parse(await page.locator("[data-testid=registration-json]").innerText());
  assert.equal(saved.description, "Ada keeps a runner's training diary.");
  assert.equal(saved.image, "https://example.com/ada.png");
  const served = await page.request.get(`${base}/agents/${agentUrl.split("/").pop()}/registration.json`);
  assert.equal((await served.json()).description, saved.description, "the public file says the same");
  await page.screenshot({ path: `${shots}/identity.png`, fullPage: true });

  step("the PoC identity dimension counts the wallet and the registration");
  await page.click("[data-testid=tab-poc]");
  const identity = await page.locator("[data-testid=poc-dimension-identity]").innerText();
  assert.match(identity, /Wallet registration\s+server-managed\s+15 \/ 15/);
  assert.match(identity, /ERC-8004 identity\s+registered, agentId 0\s+20 \/ 20/);
  console.log("identity flow: ok");
} finally {
  await browser.close();
}
