// What every browser flow shares: the environment, Chromium with the flags this machine needs,
// a laptop-sized page, and step logging.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";

export const base = process.env.BASE_URL;
export const shots = process.env.SCREENSHOT_DIR || "screenshots";
assert.ok(base, "BASE_URL is required");
mkdirSync(shots, { recursive: true });

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  return { browser, context, page };
}

export const step = (name) => console.log(`• ${name}`);

// Signs up a new owner and creates the agent "Ada"; returns the agent page's URL.
export async function signupWithAgent(page, prefix) {
  step("sign up and create an agent");
  await page.goto(`${base}/signup`);
  await page.fill("input[name=email]", `${prefix}-${Date.now()}@example.com`);
  await page.fill("input[name=password]", "correct horse battery");
  await page.click("button[type=submit]");
  await page.waitForURL(/\/agents$/);
  await page.click("[data-testid=new-agent]");
  await page.fill("input[name=name]", "Ada");
  await page.click("button:has-text('Create agent')");
  await page.waitForURL(/\/agents\/[0-9a-f-]{36}\?created=1$/);
  return page.url().split("?")[0];
}
