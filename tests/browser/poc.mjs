// PoC tab in headless Chromium: a new agent's card shows five dimensions with their
// sub-signals ("not available", left out of the weighting, where the platform has no source); after the operator records a
// Self.xyz verification, the identity dimension and the verification list show it.
//
//   BASE_URL=http://127.0.0.1:8080 ADMIN_PASSWORD=… SCREENSHOT_DIR=/tmp/shots node tests/browser/poc.mjs
import assert from "node:assert/strict";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

assert.ok(process.env.ADMIN_PASSWORD, "ADMIN_PASSWORD is required");
const { browser, page } = await launch();

try {
  const agentUrl = await signupWithAgent(page, "poc");
  const agent = agentUrl.split("/").pop();

  step("the card of a new agent");
  await page.click("[data-testid=tab-poc]");
  await page.waitForURL(/\/poc$/);
  const card = page.locator("[data-testid=poc-card]");
  await card.waitFor();
  for (const d of ["identity", "social", "economy", "skills", "reputation"]) {
    await page.locator(`[data-testid=poc-dimension-${d}]`).waitFor();
  }
  assert.equal(await page.locator("[data-testid=poc-grade]").innerText(), "grade D");
  assert.match(await page.locator("[data-testid=poc-dimension-economy]").innerText(), /Live pricing\s+not available/);
  assert.match(await page.locator("[data-testid=poc-dimension-identity]").innerText(), /Profile completeness\s+1 of 4/);
  assert.match(await page.locator("[data-testid=verifications]").innerText(), /No verification recorded yet/);

  step("the operator records a Self.xyz verification");
  const r = await page.request.post(`${base}/v1/admin/agents/${agent}/verifications`, {
    data: { provider: "self_xyz", status: "verified", evidence_url: "https://self.xyz/proofs/42" },
    headers: { authorization: `Bearer ${process.env.ADMIN_PASSWORD}` },
  });
  assert.equal(r.status(), 201, await r.text());

  step("the card and the list show it");
  await page.reload();
  const identity = await page.locator("[data-testid=poc-dimension-identity]").innerText();
  assert.match(identity, /Verification level\s+self_xyz\s+30 \/ 30/);
  assert.match(identity, /33\/100/);
  const row = page.locator("[data-testid=verification-record]");
  assert.equal(await row.count(), 1);
  assert.match(await row.innerText(), /self_xyz\s+verified\s+https:\/\/self\.xyz\/proofs\/42\s+operator/);
  // 33 × 15 / 100 = 4.95 → 5.
  assert.equal(await page.locator("[data-testid=poc-total]").innerText(), "5");
  await card.screenshot({ path: `${shots}/poc-card.png` });
  await page.screenshot({ path: `${shots}/poc.png`, fullPage: true });
  console.log("poc flow: ok");
} finally {
  await browser.close();
}
