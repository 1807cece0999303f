// Chat flow in headless Chromium: sign up → agent → Chat tab → tell the agent a fact (the reply
// streams over SSE, then shows its intent, triage and engine) → the fact becomes a memory →
// a new conversation asks for it and the reply uses that memory → rate it → small talk skips
// triage → correct that reply → the conversation list; the soul page (write, revise, word diff); the phone width.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/chat.mjs
import assert from "node:assert/strict";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

const { browser, page } = await launch();

async function send(text) {
  const before = await page.locator("[data-testid=message][data-role=assistant]").count();
  await page.fill("[data-testid=chat-input]", text);
  await page.click("[data-testid=chat-send]");
  // The page streams the reply, then shows the stored conversation.
  await page.waitForURL(/\/chat\?c=[0-9a-f-]{36}/);
  await page.waitForFunction(
    (n) => document.querySelectorAll("[data-testid=message][data-role=assistant] [data-testid=reply-meta]").length > n,
    before,
  );
  return page.locator("[data-testid=message][data-role=assistant]").last();
}

try {
  const agentUrl = await signupWithAgent(page, "chat");

  step("chat tab, first message");
  await page.click("[data-testid=tab-chat]");
  await page.getByText("None yet: say something.").waitFor();
  let reply = await send("My name is Alice and I live in Vienna.");
  const meta = await reply.locator("[data-testid=reply-meta] summary").innerText();
  assert.match(meta, /triage skipped \(brief\)/);
  assert.match(meta, /offline/);
  assert.match(await reply.locator(".bubble").innerText(), /offline engine/);
  await send("I really enjoy playing chess with my friends on weekends.");
  assert.equal(await page.locator("[data-testid=message]").count(), 4);

  step("the fact became a memory");
  let found = false;
  for (let i = 0; i < 40 && !found; i++) {
    await page.goto(`${agentUrl}/memories`);
    found = (await page.getByText("The user's name is Alice").count()) > 0;
    if (!found) await page.waitForTimeout(250);
  }
  assert.ok(found, "extraction stored the name");

  step("a new conversation remembers it");
  await page.goto(`${agentUrl}/chat`);
  await page.click("[data-testid=new-conversation]");
  reply = await send("What is my name?");
  assert.match(await reply.locator(".bubble").innerText(), /Alice/);
  await reply.locator("[data-testid=reply-meta] summary").click();
  const used = await reply.locator("[data-testid=reply-meta]").innerText();
  assert.match(used, /The user's name is Alice — certain/);
  assert.match(used, /rank \d\.\d\d, relevance/);
  await page.screenshot({ path: `${shots}/chat-memory.png`, fullPage: true });

  step("rate the reply");
  await reply.locator("[data-testid=feedback-good]").click();
  const rated = page.locator("[data-testid=message][data-role=assistant]").last();
  await rated.locator("[data-testid=feedback-given]", { hasText: "Rated good" }).waitFor();
  assert.equal(await rated.locator("[data-testid=feedback-good]").count(), 0, "a reply is rated once");
  assert.equal(await rated.locator("[data-testid=feedback-correct]").count(), 0, "a good reply is not corrected");

  step("small talk skips triage and memory");
  reply = await send("thanks!");
  assert.match(await reply.locator("[data-testid=reply-meta] summary").innerText(), /small talk · triage skipped \(trivial\) · 0 memories/);
  assert.equal(await page.locator("[data-testid=conversation-link]").count(), 2);

  step("correct a reply");
  await reply.locator("[data-testid=feedback-correct] summary").click();
  await reply.locator("[data-testid=correction-input]").fill("Say hello back to Alice by name.");
  await reply.locator("[data-testid=correction-send]").click();
  await page
    .locator("[data-testid=message][data-role=assistant]")
    .last()
    .locator("[data-testid=feedback-given]", { hasText: "Rated bad, corrected" })
    .waitFor();

  step("an empty message is refused in the page");
  await page.fill("[data-testid=chat-input]", "x".repeat(10));
  await page.evaluate(() => { document.querySelector("[data-testid=chat-input]").value = "   "; });
  await page.click("[data-testid=chat-send]");
  assert.equal(await page.locator("[data-testid=message]").count(), 4, "nothing was sent");

  step("soul: write, revise, compare");
  await page.goto(`${agentUrl}/soul`);
  await page.getByText("No soul yet.").waitFor();
  await page.fill("[data-testid=soul-content]", "I am Ada, warm and curious.");
  await page.click("[data-testid=soul-save]");
  await page.getByText("Soul saved as a new version.").waitFor();
  await page.fill("[data-testid=soul-content]", "I am Ada, warm, curious and kind.");
  await page.fill("[data-testid=soul-reason]", "kinder");
  await page.click("[data-testid=soul-save]");
  await page.getByText("Soul saved as a new version.").waitFor();
  assert.equal(await page.locator("[data-testid=soul-version]").count(), 2);
  await page.locator("[data-testid=soul-diff-link]").first().click();
  await page.locator("[data-testid=soul-diff] ins", { hasText: "kind." }).waitFor();
  await page.locator("[data-testid=soul-diff] del").first().waitFor();
  await page.screenshot({ path: `${shots}/soul-diff.png`, fullPage: true });
  await page.goto(`${agentUrl}/chat`);
  await page.locator("[data-testid=conversation-link]").first().click();

  step("phone width");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal scrolling at 390 px (overflow ${overflow}px)`);
  await page.screenshot({ path: `${shots}/chat-phone.png`, fullPage: true });
  console.log("chat flow: ok");
} finally {
  await browser.close();
}
