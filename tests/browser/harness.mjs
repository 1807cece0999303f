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
