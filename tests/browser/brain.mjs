// Brain tab in headless Chromium: memories added through the API appear as a 3-D graph on a
// canvas with their clusters listed; hovering a memory shows its text, dragging rotates the
// graph, the wheel zooms it, and clicking a memory opens it.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/brain.mjs
import assert from "node:assert/strict";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

const { browser, page } = await launch();
const MEMORIES = [
  "Ada keeps bees in her garden", "The garden bees swarmed in May", "Ada harvests honey from the garden bees",
  "The bees need water in the garden", "Ada runs along the river every morning", "The river path is ten kilometres",
  "Ada trains for a river marathon", "Morning runs by the river calm Ada", "Ada plays jazz piano on Sundays",
  "Jazz chords on the piano relax Ada", "Ada learns a jazz standard each month", "The piano needs tuning before the jazz night",
];

try {
  const agentUrl = await signupWithAgent(page, "brain");
  const agent = agentUrl.split("/").pop();

  step("twelve memories about three things");
  for (const content of MEMORIES) {
    const r = await page.request.post(`${base}/v1/hosted-agents/${agent}/memories`, {
      data: { content, category: "context" },
      headers: { "x-requested-with": "fetch" },
    });
    assert.equal(r.status(), 201, await r.text());
  }

  step("the Brain tab draws them and lists the clusters");
  await page.click("[data-testid=tab-brain]");
  await page.waitForURL(/\/brain$/);
  const canvas = page.locator("#brain");
  await canvas.waitFor();
  assert.equal(await canvas.getAttribute("data-nodes"), "12");
  assert.ok(Number(await canvas.getAttribute("data-edges")) >= 0);
  const clusters = page.locator("[data-testid=brain-clusters] li");
  assert.equal(await clusters.count(), 2, "k = round(√(12 / 2)) = 2");

  step("hovering a memory shows it; dragging rotates; the wheel zooms");
  const point = async (i) => page.evaluate((i) => {
    const c = document.getElementById("brain");
    const r = c.getBoundingClientRect();
    const p = c.brainPoints[i];
    return { x: r.left + p.x * (r.width / c.width), y: r.top + p.y * (r.height / c.height) };
  }, i);
  const first = JSON.parse(await page.locator("#brain-data").textContent()).nodes[0];
  let p = await point(0);
  await page.mouse.move(p.x, p.y);
  const tip = page.locator("[data-testid=brain-tip]");
  await tip.waitFor();
  assert.ok((await tip.innerText()).startsWith(first.content), await tip.innerText());
  await page.screenshot({ path: `${shots}/brain.png`, fullPage: true });
  const before = await point(0);
  await page.mouse.down();
  await page.mouse.move(before.x + 80, before.y + 30, { steps: 5 });
  await page.mouse.up();
  const rotated = await point(0);
  assert.ok(Math.abs(rotated.x - before.x) + Math.abs(rotated.y - before.y) > 1, "the drag rotated the graph");
  const spread = async () => page.evaluate(() => {
    const xs = document.getElementById("brain").brainPoints.map((q) => q.x);
    return Math.max(...xs) - Math.min(...xs);
  });
  const wide = await spread();
  await page.mouse.move(rotated.x, rotated.y);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((w) => {
    const xs = document.getElementById("brain").brainPoints.map((q) => q.x);
    return Math.max(...xs) - Math.min(...xs) > w * 1.05;
  }, wide);

  step("clicking a memory opens it");
  p = await point(0);
  await page.mouse.click(p.x, p.y);
  await page.waitForURL(new RegExp(`/memories/${first.id}$`));
  console.log("brain flow: ok");
} finally {
  await browser.close();
}
