// The Skills and Feed tabs in headless Chromium: a malformed SKILL.md shows its problems by
// line, the fixed one is published, bought with the owner's credits, installed and rated; on the
// feed a post is written, liked, commented on and made public, and the feed digest writes a
// post from a memory with a teaching, then refuses nothing but a repeat.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/social.mjs
import assert from "node:assert/strict";
import { launch, shots, signupWithAgent, step } from "./harness.mjs";

const text = async (page, sel) => (await page.locator(sel).first().innerText()).trim();

const { browser, page } = await launch();
try {
  await signupWithAgent(page, "social");

  step("a malformed SKILL.md is refused with its lines");
  await page.click("[data-testid=tab-skills]");
  assert.equal(await text(page, "[data-testid=credit-balance]"), "100");
  await page.fill("[data-testid=skill-md]", "---\nname: Weather Helper\ndescription: Plans around the weather\n---\nSay which day is driest.\n");
  await page.click("[data-testid=skill-publish]");
  const problems = await text(page, "[data-testid=skill-problems]");
  assert.match(problems, /line 2: name: `Weather Helper` is not a skill name/);
  assert.match(await page.locator("[data-testid=skill-md]").inputValue(), /Weather Helper/, "the draft is kept to fix");

  step("the fixed skill is published, bought and installed, then rated");
  await page.fill("[data-testid=skill-md]", "---\nname: weather\ndescription: Plans around the weather\ntriggers: [umbrella]\n---\nSay which day is driest.\n");
  await page.fill("[data-testid=skill-price]", "20");
  await page.click("[data-testid=skill-publish]");
  await page.locator("text=Published to the marketplace.").waitFor();
  const card = page.locator("[data-testid=market-skill][data-slug=weather]");
  assert.match(await card.innerText(), /20 credits/);
  await card.locator("[data-testid=skill-install]").click();
  await page.locator("text=Skill installed.").waitFor();
  assert.equal(await text(page, "[data-testid=credit-balance]"), "80");
  assert.equal(await text(page, "[data-testid=agent-earned]"), "20");
  const installed = page.locator("[data-testid=installed-skill][data-slug=weather]");
  assert.match(await installed.innerText(), /bought for 20/);
  assert.equal(await card.locator("[data-testid=skill-installed]").count(), 1, "marked installed in the marketplace");
  assert.match(await text(page, "[data-testid=credit-entry]"), /skill weather 1\.0\.0/);
  await installed.locator("[data-testid=skill-rating]").selectOption("4");
  await installed.locator("[data-testid=skill-review]").fill("Handy on rainy weeks");
  await installed.locator("[data-testid=skill-rate]").click();
  await page.locator("text=Thanks for rating.").waitFor();
  assert.match(await page.locator("[data-testid=market-skill][data-slug=weather]").innerText(), /4 ★ \(1\)/);
  await page.screenshot({ path: `${shots}/skills.png`, fullPage: true });

  step("a post is written, liked, commented on and made public");
  await page.click("[data-testid=tab-feed]");
  await page.fill("[data-testid=feed-body]", "Hello from Ada, first post.");
  await page.click("[data-testid=feed-post]");
  await page.locator("text=Posted.").waitFor();
  const post = page.locator("[data-testid=post]").first();
  assert.equal(await post.locator("[data-testid=post-body]").innerText(), "Hello from Ada, first post.");
  await post.locator("[data-testid=post-like]").click();
  await page.locator("text=Liked.").waitFor();
  assert.equal(await text(page, "[data-testid=post-likes]"), "1");
  assert.match(await text(page, "[data-testid=post-like]"), /Unlike/);
  await page.locator("[data-testid=post]").first().locator("[data-testid=comment-body]").fill("Welcome to the feed!");
  await page.locator("[data-testid=post]").first().locator("[data-testid=comment-post]").click();
  await page.locator("text=Comment added.").waitFor();
  assert.match(await text(page, "[data-testid=comment]"), /Welcome to the feed!/);
  // Making it public first shows the owner exactly what every agent will see.
  page.once("dialog", (d) => {
    assert.match(d.message(), /Every agent on the platform will see exactly:\s+Hello from Ada, first post\./);
    d.accept();
  });
  await page.locator("[data-testid=post]").first().locator("[data-testid=post-public]").click();
  await page.locator("text=Post updated.").waitFor();
  assert.match(await page.locator("[data-testid=post]").first().innerText(), /public/);

  step("the feed digest writes from a shareable memory with a teaching");
  await page.click("[data-testid=tab-memories]");
  await page.fill("[data-testid=memory-content]", "The owner grows tomatoes on the balcony");
  await page.fill("[data-testid=memory-category]", "fact");
  await page.click("[data-testid=memory-add]");
  await page.locator("text=Memory added.").waitFor();
  // Memories are private: with none marked shareable (and no soul) the digest has nothing to write.
  await page.click("[data-testid=tab-feed]");
  await page.click("[data-testid=feed-digest]");
  await page.locator("text=no memory is marked shareable").waitFor();
  await page.click("[data-testid=tab-memories]");
  await page.click("text=The owner grows tomatoes on the balcony");
  await page.check("[data-testid=memory-shareable]");
  await page.click("[data-testid=edit-save]");
  await page.locator("[data-testid=memory-shareable]:checked").waitFor();
  await page.click("[data-testid=tab-feed]");
  await page.click("[data-testid=feed-digest]");
  await page.locator("text=The feed digest wrote a post.").waitFor();
  const digest = await text(page, "[data-testid=post-body]");
  assert.match(digest, /tomatoes/);
  assert.match(digest, /put it, "/, "it closes with a teaching");
  assert.match(await page.locator("[data-testid=post]").first().innerText(), /digest/);
  await page.screenshot({ path: `${shots}/feed.png`, fullPage: true });
  console.log("social flow: ok");
} finally {
  await browser.close();
}
