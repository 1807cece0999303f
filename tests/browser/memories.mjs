// Memories flow in headless Chromium: sign up → agent → Memories tab → add memories → search
// with the signal breakdown and explanation → pin → edit (history) → delete (confirm) →
// knowledge upload → a URL to an internal address is refused. Checks the phone width too.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/memories.mjs
import assert from "node:assert/strict";
import { launch, shots, signupWithAgent, step } from "./harness.mjs";

const { browser, page } = await launch();
page.on("dialog", (d) => d.accept());

try {
  await signupWithAgent(page, "mem");

  step("memories tab, empty");
  await page.click("[data-testid=tab-memories]");
  await page.getByText("No memories yet").waitFor();
  await page.locator("[data-testid=memory-health]").getByText("live memories").waitFor();

  step("add memories");
  for (const [content, category] of [
    ["The user lives in Vienna", "identity"],
    ["The user likes jazz", "interest"],
    ["The user wants to run a marathon", "goal"],
  ]) {
    await page.fill("[data-testid=memory-content]", content);
    await page.fill("[data-testid=memory-category]", category);
    await page.click("[data-testid=memory-add]");
    await page.getByText("Memory added.").waitFor();
  }
  assert.equal(await page.locator("[data-testid=memory-row]").count(), 3);
  assert.equal(await page.locator("[data-testid=memory-row]", { hasText: "Vienna" }).locator("code.pill").innerText(), "identity");
  await page.fill("[data-testid=memory-content]", "   ");
  await page.fill("[data-testid=memory-category]", "Bad Category");
  await page.click("[data-testid=memory-add]");
  await page.locator(".alert.error").waitFor();

  step("search shows signals and the explanation");
  await page.fill("[data-testid=memory-query]", "where does the user live");
  await page.click("[data-testid=memory-search]");
  await page.locator("[data-testid=explanation]").waitFor();
  const first = page.locator("[data-testid=memory-row]").first();
  assert.match(await first.innerText(), /Vienna/);
  assert.match(await first.locator("[data-testid=signals]").innerText(), /bm25 .* semantic .* prominence/s);
  await page.screenshot({ path: `${shots}/memories-search.png`, fullPage: true });
  await page.fill("[data-testid=memory-query]", "zzzz qqqq");
  await page.click("[data-testid=memory-search]");
  await page.getByText("No results:").waitFor();

  step("pin");
  await page.goto(`${page.url().split("?")[0]}`);
  const jazz = page.locator("[data-testid=memory-row]", { hasText: "jazz" });
  await jazz.locator("[data-testid=pin]").click();
  await page.getByText("Pinned.").waitFor();
  assert.equal(await page.locator("[data-testid=memory-row]", { hasText: "jazz" }).locator("[data-testid=pin]").innerText(), "Unpin");

  step("edit keeps a history");
  await page.click("text=The user lives in Vienna");
  await page.fill("[data-testid=edit-content]", "The user lives in Graz");
  await page.fill("input[name=reason]", "moved");
  await page.click("[data-testid=edit-save]");
  const history = page.locator("[data-testid=history-table]");
  await history.getByText("moved").waitFor();
  assert.equal(await history.locator("tbody tr").count(), 2);

  step("delete with confirmation");
  await page.click("text=← All memories");
  await page.locator("[data-testid=memory-row]", { hasText: "marathon" }).locator("[data-testid=delete]").click();
  await page.getByText("will not be re-learned").waitFor();
  assert.equal(await page.locator("[data-testid=memory-row]").count(), 2);

  step("knowledge: text upload and a refused URL");
  await page.fill("[data-testid=knowledge-text]", "Porgy & Bess is a jazz club in Vienna. It opened in 1993.");
  await page.click("[data-testid=knowledge-add]");
  await page.getByText("Stored as 1 chunk(s).").waitFor();
  await page.fill("[data-testid=knowledge-url]", "http://169.254.169.254/latest/meta-data/");
  await page.click("[data-testid=knowledge-url-add]");
  await page.locator(".alert.error", { hasText: "internal address" }).waitFor();

  step("phone width");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${page.url().split("?")[0]}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `memories page is ${overflow}px wider than the phone`);
  await page.screenshot({ path: `${shots}/memories-phone.png`, fullPage: true });
  console.log("memories flow: ok");
} catch (err) {
  await page.screenshot({ path: `${shots}/memories-failure.png`, fullPage: true }).catch(() => {});
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser.close();
}
