// The README's "Five minutes with it" in headless Chromium, as a newcomer meets it: creating an
// agent lands on its overview (a notice, the first-run checklist); at a laptop (1366×900) and a
// phone (390×844) width every page the tour names is a visible link without scrolling sideways;
// a chat keeps sending after the session token has expired (the app runs with
// MINICLAW_SESSION_SECS=10: the browser drops the cookie, the page renews the session); the
// checklist ticks itself off; a page that is not there is an HTML page with a way back.
// Screenshots of each width go to $SCREENSHOT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/tour.mjs
import assert from "node:assert/strict";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

const { browser, context, page } = await launch();
const TOUR = ["overview", "chat", "memories", "keys", "activity", "settings"];

async function tourLinksVisible(label) {
  // A navigation after the token expired passes through the renewal page first.
  await page.locator("[data-testid=agent-nav]").waitFor();
  const width = await page.evaluate(() => window.innerWidth);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `${label}: the page is ${overflow}px wider than the window`);
  for (const tab of TOUR) {
    const link = page.locator(`[data-testid=tab-${tab}]`);
    assert.ok(await link.isVisible(), `${label}: the ${tab} link is visible`);
    const box = await link.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${label}: the ${tab} link is inside the window (${JSON.stringify(box)})`);
  }
  const current = page.locator("[data-testid=agent-nav] a[aria-current=page]");
  assert.equal(await current.count(), 1, `${label}: the current page is marked`);
  assert.ok(await current.isVisible(), `${label}: the current page's link is visible`);
}

async function send(text) {
  const before = await page.locator("[data-testid=message][data-role=assistant] [data-testid=reply-meta]").count();
  await page.fill("[data-testid=chat-input]", text);
  await page.click("[data-testid=chat-send]");
  await page.waitForFunction(
    (n) => document.querySelectorAll("[data-testid=message][data-role=assistant] [data-testid=reply-meta]").length > n,
    before,
    { timeout: 30000 },
  );
}

try {
  await page.setViewportSize({ width: 1366, height: 900 });
  const agentUrl = await signupWithAgent(page, "tour");

  step("creating the agent lands on its overview, with the checklist");
  await page.locator("[data-testid=created]").waitFor();
  await page.locator("[data-testid=checklist]").waitFor();
  for (const s of ["step-chat", "step-memory", "step-key", "step-api"]) {
    assert.equal(await page.getAttribute(`[data-testid=${s}]`, "data-done"), "false", `${s} not done yet`);
  }
  await page.screenshot({ path: `${shots}/tour-overview-1366.png`, fullPage: true });

  for (const [w, h] of [[1366, 900], [390, 844]]) {
    step(`every tour page is one visible link at ${w}×${h}`);
    await page.setViewportSize({ width: w, height: h });
    for (const tab of TOUR) {
      await page.goto(`${agentUrl}${tab === "overview" ? "" : `/${tab}`}`);
      await tourLinksVisible(`${tab} at ${w}px`);
    }
    await page.goto(agentUrl);
    await page.screenshot({ path: `${shots}/tour-nav-${w}.png` });
    // Every other page of the agent fits the width too.
    const links = await page.locator("[data-testid=agent-nav] a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    assert.ok(links.length >= 20, `${links.length} agent pages`);
    for (const href of links) {
      await page.goto(`${base}${href}`);
      await page.locator("[data-testid=agent-nav]").waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${href} at ${w}px is ${overflow}px wider than the window`);
    }
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  step("a chat, then the session token expires, and the next message still goes through");
  await page.click("[data-testid=tab-chat]");
  await send("My name is Alice and I live in Vienna.");
  // The session cookie lives as long as its token (10 s here): wait until the browser drops it.
  for (let i = 0; i < 60; i++) {
    const cookies = await context.cookies(base);
    if (!cookies.some((c) => c.name === "mc_session")) break;
    await page.waitForTimeout(500);
  }
  assert.ok(!(await context.cookies(base)).some((c) => c.name === "mc_session"), "the session cookie expired");
  await send("I also play the cello on Sundays.");
  const replies = await page.locator("[data-testid=message][data-role=assistant]").count();
  assert.ok(replies >= 2, `two replies (${replies})`);
  assert.ok((await context.cookies(base)).some((c) => c.name === "mc_session"), "the session was renewed");

  step("the checklist ticks itself off");
  await page.goto(agentUrl);
  assert.equal(await page.getAttribute("[data-testid=step-chat]", "data-done"), "true");

  step("the API reference fits the window, renders its Markdown and leads back");
  for (const path of ["/docs", "/docs/memories"]) {
    await page.goto(`${base}${path}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${path} is ${overflow}px wider than the window`);
    assert.ok(!(await page.locator("main").innerText()).includes("`"), `${path} shows Markdown as text`);
    assert.ok(await page.locator("[data-testid=docs-dashboard]").isVisible(), `${path} links to the dashboard`);
  }
  assert.ok((await page.locator("main code").count()) > 10, "code spans rendered");
  await page.screenshot({ path: `${shots}/tour-docs.png` });

  step("a page that is not there is an HTML page with a way back");
  const missing = await page.goto(`${base}/agents/00000000-0000-4000-8000-000000000000`);
  assert.equal(missing.status(), 404);
  assert.match(missing.headers()["content-type"], /text\/html/);
  assert.ok((await page.locator("a[href='/agents']").count()) > 0, "a link back to the agents");
  await page.screenshot({ path: `${shots}/tour-404.png` });
  console.log("tour flow: ok");
} catch (err) {
  await page.screenshot({ path: `${shots}/failure-tour.png`, fullPage: true }).catch(() => {});
  console.error(`tour flow failed at ${page.url()}: ${err.stack || err}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
