// Analytics tab in headless Chromium over seeded rows (4 turns five days ago, 6 two days ago):
// server-drawn SVG charts with one point per day of the range, bars for the distributions,
// the week-over-week comparison, a narrower date range, and the tenant overview.
//
//   BASE_URL=… AGENT_ID=… EMAIL=… PASSWORD=… SCREENSHOT_DIR=/tmp/shots node tests/browser/analytics.mjs
import assert from "node:assert/strict";
import { base, launch, shots, step } from "./harness.mjs";

const { AGENT_ID: agent, EMAIL: email, PASSWORD: password } = process.env;
assert.ok(agent && email && password, "AGENT_ID, EMAIL and PASSWORD are required");
const { browser, page } = await launch();

const points = (chart, series) =>
  page.locator(`[data-testid=chart-${chart}] g[data-series="${series}"] circle`).count();

try {
  step("sign in and open the agent's Analytics tab");
  await page.goto(`${base}/login`);
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await page.click("button[type=submit]");
  await page.waitForURL(/\/agents$/);
  await page.goto(`${base}/agents/${agent}`);
  await page.click("[data-testid=tab-analytics]");
  await page.waitForURL(/\/analytics$/);

  step("the last 30 days: a point per day, the seeded days in the lines and bars");
  assert.equal(await page.locator("[data-testid=total-messages]").innerText(), "10");
  assert.equal(await points("messages", "answered"), 30, "every day of the range, empty ones at 0");
  assert.equal(await points("latency", "p50"), 2, "latency only where there were turns");
  assert.equal(await points("cost", "cost"), 30);
  assert.match(await page.locator("[data-testid=chart-messages] title").first().textContent(), /Messages per day/);
  assert.equal(await page.locator("[data-testid=chart-intents] .bar").count(), 1);
  assert.match(await page.locator("[data-testid=chart-intents] .bar title").textContent(), /question: 10/);
  const cost = await page.locator("[data-testid=comparison-avg_cost_per_message]").innerText();
  assert.match(cost, /improved|changed|no figure in one of the periods/);
  assert.equal(await points("quality", "quality"), 1, "the day with a judged exchange");
  assert.match(await page.locator("[data-testid=chart-quality] circle title").textContent(), /quality: 6\.65/);
  await page.screenshot({ path: `${shots}/analytics.png`, fullPage: true });

  step("a narrower range: the last 3 days hold the six recent turns");
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 2 * 86400000).toISOString().slice(0, 10);
  await page.fill("input[name=from]", from);
  await page.fill("input[name=to]", today);
  await page.click("[data-testid=analytics-apply]");
  await page.waitForURL(/from=/);
  assert.equal(await page.locator("[data-testid=total-messages]").innerText(), "6");
  assert.equal(await points("messages", "answered"), 3);

  step("the tenant overview counts the same turns");
  await page.click("[data-testid=nav-analytics]");
  await page.waitForURL(/\/analytics$/);
  assert.equal(await page.locator("[data-testid=total-messages]").innerText(), "10");
  console.log("analytics flow: ok");
} finally {
  await browser.close();
}
