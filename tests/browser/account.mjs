// Accounts and teams in headless Chromium (SPEC H3, H4), with mail read from the loopback SMTP
// server's folder ($SMTP_DIR): an owner invites a viewer, who joins by the mailed link in a
// browser of their own and is refused a write; the owner turns on a second factor (codes made
// here with node:crypto, apart from the server's) and signs in with it, changes the password;
// the viewer resets a forgotten password by the mailed link. The owner issues a key of the
// account and revokes it.
//
//   BASE_URL=… SMTP_DIR=… SCREENSHOT_DIR=/tmp/shots node tests/browser/account.mjs
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { base, launch, shots, step } from "./harness.mjs";

const smtpDir = process.env.SMTP_DIR;
assert.ok(smtpDir, "SMTP_DIR is required");

// A mail's text with quoted-printable undone (soft line breaks joined, `=XX` decoded).
const quotedPrintable = (raw) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));

// The token of the newest link to `page` mailed to `address`, waiting up to 20 s for it.
async function mailedLink(address, page, after = 0) {
  for (let i = 0; i < 200; i++) {
    const mails = readdirSync(smtpDir).filter((f) => f.endsWith(".json")).sort()
      .filter((f) => JSON.parse(readFileSync(`${smtpDir}/${f}`, "utf8")).rcpt_tos.includes(address))
      .map((f) => quotedPrintable(readFileSync(`${smtpDir}/${f.replace(/\.json$/, ".eml")}`, "utf8")));
    if (mails.length > after) {
      const m = mails[mails.length - 1].match(new RegExp(`${page}\\?token=([0-9a-f]{64})`));
      if (m) return m[1];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${page} link reached ${address}`);
}

// RFC 6238 (HMAC-SHA1, 30 s, 6 digits) for a base32 secret, `ahead` seconds from now.
function totp(secret, ahead = 0) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secret) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor((Date.now() / 1000 + ahead) / 30)));
  const d = createHmac("sha1", key).update(counter).digest();
  const o = d[d.length - 1] & 15;
  return String((d.readUInt32BE(o) & 0x7fffffff) % 1000000).padStart(6, "0");
}

const { browser, page } = await launch();
const stamp = Date.now();
const owner = `owner-${stamp}@example.com`;
const viewer = `viewer-${stamp}@example.com`;
try {
  step("the owner signs up");
  await page.goto(`${base}/signup`);
  await page.fill("input[name=email]", owner);
  await page.fill("input[name=password]", "correct horse battery");
  await page.click("button[type=submit]");
  await page.waitForURL(/\/agents$/);

  step("the owner invites a viewer");
  await page.click("[data-testid=nav-team]");
  await page.getByTestId("my-role").filter({ hasText: "owner" }).waitFor();
  await page.fill("[data-testid=invite-form] input[name=email]", viewer);
  await page.selectOption("[data-testid=invite-form] select[name=role]", "viewer");
  await page.click("[data-testid=invite-form] button[type=submit]");
  await page.getByTestId("team-notice").filter({ hasText: "invitation is on its way" }).waitFor();
  await page.getByTestId("invitations").filter({ hasText: viewer }).waitFor();
  await page.screenshot({ path: `${shots}/team.png`, fullPage: true });

  step("the viewer joins by the mailed link, in a browser of their own");
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const them = await other.newPage();
  them.setDefaultTimeout(15000);
  await them.goto(`${base}/join?token=${await mailedLink(viewer, "/join")}`);
  await them.getByTestId("join-offer").filter({ hasText: "viewer" }).waitFor();
  await them.fill("input[name=password]", "a viewer's passphrase");
  await them.click("button[type=submit]");
  await them.waitForURL(/\/agents$/);
  await them.click("[data-testid=nav-team]");
  await them.getByTestId("my-role").filter({ hasText: "viewer" }).waitFor();
  assert.equal(await them.locator("[data-testid=invite-form]").count(), 0, "a viewer is offered no invitation form");

  step("a viewer's write is refused, with the reason");
  await them.goto(`${base}/agents/new`);
  await them.fill("input[name=name]", "Not mine to make");
  await them.click("button:has-text('Create agent')");
  await them.getByTestId("error-message").filter({ hasText: "your role in this team is viewer" }).waitFor();

  step("the owner issues a key of the account, shown once, and revokes it");
  await page.click("[data-testid=nav-keys]");
  // A checkbox's label is as wide as its text, not a column a word wide (the overview's
  // checklist marks are styled apart).
  const label = await page.locator("label.check").first().boundingBox();
  assert.ok(label.width > 150, `a scope's label is ${label.width}px wide`);
  await page.fill("input[name=name]", "every agent");
  await page.check("input[name=scopes][value='chat:write']");
  await page.fill("input[name=daily_usd_cap]", "2.5");
  await page.click("button:has-text('Issue key')");
  const key = (await page.locator("#new-key").textContent()).trim();
  assert.match(key, /^mck_[0-9a-f]{32}_[0-9a-f]{64}$/);
  await page.getByTestId("account-keys-table").filter({ hasText: "$2.50/day" }).waitFor();
  const models = (k) => fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${k}` } });
  assert.equal((await models(key)).status, 200);
  page.once("dialog", (d) => d.accept());
  await page.click("[data-testid=revoke-account-key]");
  await page.getByTestId("account-keys-notice").filter({ hasText: "revoked" }).waitFor();
  assert.equal((await models(key)).status, 401);
  await page.reload();
  assert.equal(await page.locator("#new-key").count(), 0, "the key is shown only once");

  step("the owner sets up a second factor");
  await page.click("[data-testid=nav-account]");
  await page.click("[data-testid=totp-setup]");
  const secret = (await page.getByTestId("totp-secret").textContent()).trim();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await page.fill("[data-testid=totp-confirm] input[name=code]", totp(secret));
  await page.click("[data-testid=totp-confirm] button[type=submit]");
  await page.getByTestId("recovery-codes").waitFor();
  assert.equal(await page.locator("[data-testid=recovery-codes] li").count(), 10);
  await page.screenshot({ path: `${shots}/account-second-factor.png`, fullPage: true });

  step("signing in now asks for a code");
  await page.click("[data-testid=logout]");
  await page.waitForURL(/\/login/);
  await page.fill("input[name=email]", owner);
  await page.fill("input[name=password]", "correct horse battery");
  await page.click("button[type=submit]");
  await page.getByTestId("code-form").waitFor();
  await page.fill("input[name=code]", "000000" === totp(secret, 30) ? "111111" : "000000");
  await page.click("[data-testid=code-form] button[type=submit]");
  await page.getByTestId("code-error").waitFor();
  // The step the set-up used is spent: the next one's code.
  await page.fill("input[name=code]", totp(secret, 30));
  await page.click("[data-testid=code-form] button[type=submit]");
  await page.waitForURL(/\/agents$/);

  step("the owner changes the password");
  await page.click("[data-testid=nav-account]");
  await page.fill("[data-testid=password-form] input[name=current_password]", "correct horse battery");
  await page.fill("[data-testid=password-form] input[name=new_password]", "a second good passphrase");
  await page.click("[data-testid=password-form] button[type=submit]");
  await page.getByTestId("account-notice").filter({ hasText: "password is changed" }).waitFor();

  step("the viewer resets a forgotten password by the mailed link");
  await other.clearCookies();
  await them.goto(`${base}/forgot-password`);
  await them.fill("input[name=email]", viewer);
  await them.click("button[type=submit]");
  await them.getByTestId("reset-result").waitFor();
  await them.goto(`${base}/reset-password?token=${await mailedLink(viewer, "/reset-password", 1)}`);
  await them.fill("input[name=password]", "the viewer's new passphrase");
  await them.click("[data-testid=reset-form] button[type=submit]");
  await them.getByTestId("reset-result").filter({ hasText: "password is set" }).waitFor();
  await them.goto(`${base}/login`);
  await them.fill("input[name=email]", viewer);
  await them.fill("input[name=password]", "the viewer's new passphrase");
  await them.click("button[type=submit]");
  await them.waitForURL(/\/agents$/);
  await other.close();
  console.log("account flow: ok");
} catch (e) {
  await page.screenshot({ path: `${shots}/account-failure.png`, fullPage: true }).catch(() => {});
  console.error(e);
  process.exitCode = 1;
} finally {
  await browser.close();
}
