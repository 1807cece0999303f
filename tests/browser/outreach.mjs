// Outreach and notifications in headless Chromium: the owner turns outreach on, has the agent
// draft a proposal, edits and approves it; the email goes out through the outbox; a reply
// signed by the official `svix` package arrives at the webhook and is escalated; the owner
// rewrites the suggested reply and sends it in the thread; the escalation waits in the
// notification centre and is marked read; a Telegram bot is connected (a bad token first),
// then disconnected.
//
//   BASE_URL=… SVIX_SECRET=whsec_… PYTHON=…/venv/bin/python BOT_TOKEN=… node tests/browser/outreach.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

const secret = process.env.SVIX_SECRET;
const python = process.env.PYTHON;
const botToken = process.env.BOT_TOKEN;
assert.ok(secret && python && botToken, "SVIX_SECRET, PYTHON and BOT_TOKEN are required");
const signer = fileURLToPath(new URL("../support/svix_sign.py", import.meta.url));

// Posts a delivery to the inbound webhook, signed the way Svix signs it.
async function deliver(payload) {
  const body = JSON.stringify(payload);
  const id = `msg_${Date.now()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = execFileSync(python, [signer, secret, id, String(timestamp)], { input: body }).toString().trim();
  const r = await fetch(`${base}/webhooks/inbound-email`, {
    method: "POST",
    headers: { "content-type": "application/json", "svix-id": id, "svix-timestamp": String(timestamp), "svix-signature": signature },
    body,
  });
  return { status: r.status, json: await r.json() };
}

// Waits for the thread's status, reloading as the page itself does while the outbox works.
async function waitForStatus(page, status) {
  for (let i = 0; i < 60; i++) {
    if ((await page.locator("[data-testid=thread-status]").innerText()).trim() === status) return;
    await page.waitForTimeout(500);
    await page.reload();
  }
  assert.fail(`the thread never became ${status}`);
}

const { browser, page } = await launch();
try {
  const agentUrl = await signupWithAgent(page, "outreach");

  step("outreach is off until the owner turns it on");
  await page.click("[data-testid=tab-outreach]");
  await page.locator("[data-testid=outreach-off]").waitFor();
  assert.ok(await page.locator("[data-testid=propose-submit]").isDisabled());
  await page.goto(`${agentUrl}/settings`);
  await page.check("input[name=outreach_enabled]");
  await page.fill("input[name=outreach_auto_reply_confidence]", "1");
  await page.click("button:has-text('Save changes')");
  await page.getByText("Saved.").waitFor();

  step("a bad address is refused next to the form, which keeps what was typed");
  await page.click("[data-testid=tab-outreach]");
  assert.equal((await page.locator("[data-testid=quota-remaining]").innerText()).trim(), "5 of 5");
  await page.fill("[data-testid=propose-email]", "bob@");
  await page.fill("[data-testid=propose-purpose]", "invite Bob to the reading club");
  await page.evaluate(() => document.querySelector("[data-testid=propose-email]").setAttribute("type", "text"));
  await page.click("[data-testid=propose-submit]");
  await page.getByText(/Not proposed:/).waitFor();
  assert.equal(await page.locator("[data-testid=propose-purpose]").inputValue(), "invite Bob to the reading club");

  step("the agent drafts a proposal; the owner edits it");
  await page.fill("[data-testid=propose-email]", "bob@example.org");
  await page.fill("[data-testid=propose-name]", "Bob");
  await page.click("[data-testid=propose-submit]");
  await page.waitForURL(/\/outreach\/[0-9a-f-]{36}\?notice=proposal_ready$/);
  assert.equal((await page.locator("[data-testid=thread-status]").innerText()).trim(), "proposed");
  const drafted = await page.locator("[data-testid=proposal-body]").inputValue();
  assert.ok(drafted.length > 20, drafted);
  await page.fill("[data-testid=proposal-subject]", "The reading club on Thursday");
  await page.click("[data-testid=proposal-save]");
  await page.getByText("Proposal saved.").waitFor();
  assert.equal(await page.locator("[data-testid=proposal-subject]").inputValue(), "The reading club on Thursday");
  await page.screenshot({ path: `${shots}/outreach-proposal.png`, fullPage: true });

  step("approved, it goes out through the outbox");
  await page.click("[data-testid=proposal-approve]");
  await page.getByText(/Approved: the email is in the outbox/).waitFor();
  await waitForStatus(page, "sent");
  const messageId = (await page.locator("[data-testid=message-id]").first().textContent()).trim().replace(/^<|>$/g, "");
  assert.match(messageId, /@/);

  step("a signed reply lands in the thread and is escalated with a suggestion");
  const reply = await deliver({
    from: "Bob <bob@example.org>", to: ["agents@outreach.example.com"], subject: "Re: The reading club on Thursday",
    text: "Sounds lovely. What are you reading this month, and can I bring a friend?",
    message_id: `<${Date.now()}@mail.example.org>`, in_reply_to: `<${messageId}>`,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.json));
  assert.equal(reply.json.status, "received", JSON.stringify(reply.json));
  // The worker answers it in the background: below the threshold, it escalates.
  await waitForStatus(page, "escalated");
  await page.locator("[data-testid=escalation-reason]").waitFor();
  assert.ok((await page.locator("[data-testid=reply-body]").inputValue()).length > 0, "the suggestion fills the reply box");
  assert.equal(await page.locator("[data-testid=thread-message][data-direction=inbound]").count(), 1);
  await page.screenshot({ path: `${shots}/outreach-escalated.png`, fullPage: true });

  step("the owner rewrites the suggestion and sends it in the thread");
  await page.fill("[data-testid=reply-body]", "Middlemarch this month. Bring your friend, Ada");
  await page.click("[data-testid=reply-send]");
  await page.getByText(/Reply queued/).waitFor();
  for (let i = 0; i < 60 && (await page.locator("[data-testid=message-status]").last().innerText()).trim() !== "sent"; i++) {
    await page.waitForTimeout(500);
    await page.reload();
  }
  assert.equal((await page.locator("[data-testid=message-status]").last().innerText()).trim(), "sent");
  assert.equal(await page.locator("[data-testid=thread-message][data-direction=outbound]").count(), 2);

  step("the list shows the thread and the quota used");
  await page.click("[data-testid=tab-outreach]");
  assert.equal((await page.locator("[data-testid=quota-remaining]").innerText()).trim(), "3 of 5");
  assert.equal((await page.locator("[data-testid=waiting-count]").innerText()).trim(), "0");
  await page.locator("[data-testid=thread-row]").first().waitFor();

  step("the escalation waits in the notification centre until read");
  await page.click("[data-testid=tab-notifications]");
  await page.locator("[data-testid=notification][data-kind=escalation]").waitFor();
  assert.match(await page.locator("[data-testid=unread-count]").innerText(), /^[1-9]\d* unread$/);
  await page.screenshot({ path: `${shots}/notifications.png`, fullPage: true });
  await page.locator("[data-testid=notification][data-kind=escalation] [data-testid=mark-read]").click();
  await page.getByText("Marked read.").waitFor();
  assert.equal(await page.locator("[data-testid=notification][data-kind=escalation] [data-testid=mark-read]").count(), 0);
  if (await page.locator("[data-testid=read-all]").count()) {
    await page.click("[data-testid=read-all]");
    await page.getByText(/notification\(s\) marked read/).waitFor();
  }
  assert.equal((await page.locator("[data-testid=unread-count]").innerText()).trim(), "0 unread");

  step("a Telegram bot: a malformed token is refused, the real one connects, then disconnects");
  await page.fill("[data-testid=telegram-token]", "not-a-token");
  await page.click("[data-testid=telegram-connect]");
  await page.getByText(/Not connected:/).waitFor();
  await page.fill("[data-testid=telegram-token]", botToken);
  await page.click("[data-testid=telegram-connect]");
  await page.locator("[data-testid=telegram-connected]").waitFor();
  assert.equal((await page.locator("[data-testid=telegram-bot]").innerText()).trim(), "@ada_test_bot");
  assert.match(await page.locator("[data-testid=telegram-link]").innerText(), /^\/start [A-Za-z0-9]{10}$/);
  assert.ok(!(await page.content()).includes(botToken), "the token is never shown again");
  await page.screenshot({ path: `${shots}/telegram.png`, fullPage: true });
  page.once("dialog", (d) => d.accept());
  await page.click("[data-testid=telegram-disconnect]");
  await page.getByText(/Bot disconnected/).waitFor();
  await page.locator("[data-testid=telegram-token]").waitFor();
  console.log("outreach flow: ok");
} finally {
  await browser.close();
}
