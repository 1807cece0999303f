// The Economy tab in headless Chromium: the owner tips an agent, a second agent offers a
// service, the first orders it (the price held), the seller accepts and delivers, the buyer
// settles and the seller is paid; the owner stakes on the agent, sees the signal pool, and
// withdraws; the credit statement lists every movement.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/economy.mjs
import assert from "node:assert/strict";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

const text = async (page, sel) => (await page.locator(sel).first().innerText()).trim();

const { browser, page } = await launch();
try {
  const ada = await signupWithAgent(page, "economy");
  step("a second agent, Bea, offers a service");
  await page.goto(`${base}/agents`);
  await page.click("[data-testid=new-agent]");
  await page.fill("input[name=name]", "Bea");
  await page.click("button:has-text('Create agent')");
  await page.waitForURL(/\/agents\/[0-9a-f-]{36}\?created=1$/);
  const bea = page.url().split("?")[0];
  const beaId = bea.split("/").pop();
  await page.click("[data-testid=tab-economy]");
  const form = page.locator("[data-testid=service-form]");
  await form.locator("input[name=slug]").fill("review");
  await form.locator("input[name=title]").fill("Code review");
  await form.locator("textarea[name=description]").fill("One pull request, read closely.");
  await form.locator("input[name=price]").fill("10");
  await form.locator("button").click();
  await page.locator("text=Service saved.").waitFor();
  assert.match(await text(page, "[data-testid=service][data-slug=review]"), /10 credits/);

  step("the owner tips Ada, who orders Bea's review");
  await page.goto(`${ada}/economy`);
  assert.equal(await text(page, "[data-testid=owner-credits]"), "100");
  await page.fill("[data-testid=tip-amount]", "40");
  await page.click("[data-testid=tip-send]");
  await page.locator("text=Tip sent.").waitFor();
  assert.equal(await text(page, "[data-testid=agent-credits]"), "40");
  assert.equal(await text(page, "[data-testid=owner-credits]"), "60");
  const order = page.locator("[data-testid=order-form]");
  await order.locator("input[name=seller]").fill(beaId);
  await order.locator("input[name=service]").fill("review");
  await order.locator("input[name=request]").fill("PR #7, the parser");
  await order.locator("button").click();
  await page.locator("text=Order placed").waitFor();
  assert.equal(await text(page, "[data-testid=held]"), "10");
  assert.equal(await text(page, "[data-testid=agent-credits]"), "30");
  assert.equal(await text(page, "[data-testid=order-status]"), "offered");
  assert.equal(await page.locator("[data-testid=order-accept]").count(), 0, "the buyer cannot accept its own order");

  step("Bea accepts and delivers");
  await page.goto(`${bea}/economy`);
  await page.click("[data-testid=order-accept]");
  await page.locator("text=Order updated.").waitFor();
  assert.equal(await text(page, "[data-testid=order-status]"), "accepted");
  await page.fill("[data-testid=order-delivery]", "Two nits, otherwise good.");
  await page.click("[data-testid=order-deliver]");
  await page.locator("text=Order updated.").waitFor();
  assert.equal(await text(page, "[data-testid=order-status]"), "delivered");

  step("Ada settles and Bea is paid");
  await page.goto(`${ada}/economy`);
  assert.match(await text(page, "[data-testid=order]"), /Two nits/);
  await page.click("[data-testid=order-settle]");
  await page.locator("text=Order updated.").waitFor();
  assert.equal(await text(page, "[data-testid=order-status]"), "settled");
  assert.equal(await text(page, "[data-testid=held]"), "0");
  await page.goto(`${bea}/economy`);
  assert.equal(await text(page, "[data-testid=agent-credits]"), "10");

  step("the owner stakes on Ada, sees the pool, and withdraws");
  await page.goto(`${ada}/economy`);
  await page.fill("[data-testid=stake-topic]", "research");
  await page.fill("[data-testid=stake-amount]", "5");
  await page.click("[data-testid=stake-send]");
  await page.locator("text=Staked.").waitFor();
  assert.equal(await text(page, "[data-testid=backing]"), "5");
  assert.match(await text(page, "[data-testid=pool]"), /research/);
  assert.equal(await page.locator("[data-testid=stake][data-status=active]").count(), 1);
  await page.screenshot({ path: `${shots}/economy.png`, fullPage: true });
  await page.click("[data-testid=stake-withdraw]");
  await page.locator("text=Stake withdrawn").waitFor();
  assert.equal(await page.locator("[data-testid=stake][data-status=withdrawn]").count(), 1);
  assert.equal(await text(page, "[data-testid=owner-credits]"), "60");

  step("the statement lists every movement");
  const entries = await page.locator("[data-testid=statement-entry]").allInnerTexts();
  assert.ok(entries.some((e) => /order_hold/.test(e)) && entries.some((e) => /tip/.test(e)), entries.join("\n"));
  console.log("economy flow: ok");
} finally {
  await browser.close();
}
