// Dashboard flow in headless Chromium: sign up → create agent → create key (shown once, copy
// button) → use the key against the API → revoke it → the key is refused. Checks the pages at
// laptop and phone widths. On failure a screenshot goes to $SCREENSHOT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/dashboard.mjs
import assert from "node:assert/strict";
import { base, launch, shots, step } from "./harness.mjs";

const { browser, context, page } = await launch();
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });

async function noHorizontalOverflow(label) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `${label}: page is ${overflow}px wider than the viewport`);
}

try {
  step("sign up");
  await page.goto(`${base}/`);
  await page.waitForURL(/\/login/);
  await page.click("text=Create an account");
  await page.fill("input[name=email]", `owner-${Date.now()}@example.com`);
  await page.fill("input[name=password]", "correct horse battery");
  await page.fill("input[name=tenant_name]", "Browser Test Co");
  await page.click("button[type=submit]");
  await page.waitForURL(/\/agents$/);
  await page.getByText("No agents yet").waitFor();
  await page.screenshot({ path: `${shots}/agents-empty.png`, fullPage: true });

  step("create an agent");
  await page.click("[data-testid=new-agent]");
  await page.fill("input[name=name]", "Ada");
  await page.fill("textarea[name=persona]", "A careful analyst who explains her reasoning.");
  await page.fill("input[name=timezone]", "Not/AZone");
  await page.click("button:has-text('Create agent')");
  await page.getByText("is not an IANA timezone").waitFor();
  await page.fill("input[name=timezone]", "Europe/Vienna");
  await page.click("button:has-text('Create agent')");
  await page.waitForURL(/\/agents\/[0-9a-f-]{36}\?created=1$/);
  const agentId = page.url().split("?")[0].split("/").pop();
  await page.locator("[data-testid=checklist]").waitFor();
  await page.screenshot({ path: `${shots}/agent-overview.png`, fullPage: true });

  step("change a setting");
  await page.click("[data-testid=tab-settings]");
  await page.screenshot({ path: `${shots}/agent-settings.png`, fullPage: true });
  await page.selectOption("select[name=tier]", "premium");
  await page.click("button:has-text('Save changes')");
  await page.getByText("Saved.").waitFor();
  assert.equal(await page.inputValue("select[name=tier]"), "premium");

  step("create a key with one scope");
  await page.click("[data-testid=tab-keys]");
  await page.fill("input[name=name]", "my miniapp");
  await page.check("input[name=scopes][value='agent:read']");
  await page.click("button:has-text('Create key')");
  const key = (await page.textContent("#new-key")).trim();
  assert.match(key, /^mck_[0-9a-f]{32}_[0-9a-f]{64}$/);
  await page.click("[data-copy]");
  await page.getByText("Copied").waitFor();
  assert.equal((await page.evaluate(() => navigator.clipboard.readText())).trim(), key, "copy button copies the key");
  await page.screenshot({ path: `${shots}/keys-new.png`, fullPage: true });

  step("the key works against the API, within its scope");
  const get = await fetch(`${base}/v1/hosted-agents/${agentId}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(get.status, 200);
  assert.equal((await get.json()).name, "Ada");
  const patch = await fetch(`${base}/v1/hosted-agents/${agentId}`, {
    method: "PATCH", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{\"name\":\"Eve\"}",
  });
  assert.equal(patch.status, 403);

  step("the key is shown once");
  await page.reload();
  assert.equal(await page.locator("#new-key").count(), 0, "key must not be shown again");

  step("revoke it (after confirming)");
  page.once("dialog", (d) => d.accept());
  await page.click("[data-testid=revoke]");
  await page.waitForURL(/\/keys\?notice=key_revoked$/);
  await page.getByText("Key revoked: requests with it are refused from now on.").waitFor();
  await page.locator("[data-testid=keys-table]").getByText("revoked").waitFor();
  const after = await fetch(`${base}/v1/hosted-agents/${agentId}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(after.status, 401);

  step("activity shows what happened");
  await page.click("[data-testid=tab-activity]");
  const activity = await page.textContent("[data-testid=activity-table]");
  for (const action of ["agent.created", "agent.updated", "key.issued", "key.revoked"]) {
    assert.ok(activity.includes(action), `activity lists ${action}`);
  }
  await noHorizontalOverflow("activity (laptop)");

  step("phone width");
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/agents", `/agents/${agentId}`, `/agents/${agentId}/settings`, `/agents/${agentId}/keys`, `/agents/${agentId}/activity`]) {
    await page.goto(`${base}${path}`);
    await noHorizontalOverflow(`${path} (phone)`);
  }
  await page.goto(`${base}/agents/${agentId}/keys`);
  await page.screenshot({ path: `${shots}/keys-phone.png`, fullPage: true });

  step("sign out");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click("[data-testid=logout]");
  await page.waitForURL(/\/login/);
  await page.goto(`${base}/agents`);
  await page.waitForURL(/\/login/);
  console.log("dashboard flow: ok");
} catch (err) {
  await page.screenshot({ path: `${shots}/failure.png`, fullPage: true }).catch(() => {});
  console.error(`dashboard flow failed at ${page.url()}: ${err.stack || err}`);
  console.error(`screenshot: ${shots}/failure.png`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
