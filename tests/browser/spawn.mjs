// The spawn wizard in headless Chromium: a brief, the draft to review and edit, and the agent
// created only on confirmation, with the edited name and the drafted soul.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/spawn.mjs
import assert from "node:assert/strict";
import { launch, shots, signupWithAgent, step } from "./harness.mjs";

const { browser, page } = await launch();
try {
  await signupWithAgent(page, "spawn");
  step("a brief becomes a draft, and no agent yet");
  await page.goto(new URL("/agents", page.url()).href);
  const before = await page.locator(".agent-card").count();
  await page.click("[data-testid=spawn-agent]");
  await page.fill("[data-testid=spawn-brief]", "A gardening helper who tracks what I planted and when to water.");
  await page.click("[data-testid=spawn-draft]");
  await page.waitForURL(/\/agents\/spawn\/[0-9a-f-]{36}$/);
  await page.locator("[data-testid=spawn-review]").waitFor();
  const soul = await page.locator("textarea[name=soul]").inputValue();
  assert.ok(soul.length > 20, soul);
  await page.screenshot({ path: `${shots}/spawn.png`, fullPage: true });
  await page.goto(new URL("/agents", page.url()).href);
  assert.equal(await page.locator(".agent-card").count(), before, "a draft creates nothing");
  await page.goBack();

  step("confirming with a new name creates the agent with the drafted soul");
  await page.fill("[data-testid=spawn-name]", "Fern");
  await page.click("[data-testid=spawn-confirm]");
  await page.waitForURL(/\/agents\/[0-9a-f-]{36}\?created=1$/);
  assert.match(await page.locator("h1").innerText(), /Fern/);
  await page.click("[data-testid=tab-soul]");
  assert.equal((await page.locator("[data-testid=soul-current]").innerText()).trim(), soul.trim());
  console.log("spawn flow: ok");
} finally {
  await browser.close();
}
