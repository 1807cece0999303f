// Mind tab in headless Chromium: an agent that has talked enough (memories and conversations
// made through the API with the dashboard's own session) reflects from the dashboard, the
// reflection shows its actions and triage hints, and the dossier compiles and is fresh.
//
//   BASE_URL=http://127.0.0.1:8080 SCREENSHOT_DIR=/tmp/shots node tests/browser/mind.mjs
import assert from "node:assert/strict";
import { base, launch, shots, signupWithAgent, step } from "./harness.mjs";

const { browser, page } = await launch();

try {
  const agentUrl = await signupWithAgent(page, "mind");
  const agent = agentUrl.split("/").pop();

  step("too early to reflect");
  await page.click("[data-testid=tab-mind]");
  await page.click("[data-testid=reflect-now]");
  await page.locator("[data-testid=mind-notice]", { hasText: "Not yet" }).waitFor();

  step("talk enough (through the API, with the same session)");
  const facts = [
    ["The user likes strong black coffee in the morning", "preference"],
    ["The user likes strong black coffee every morning", "preference"],
    ["The user's name is Alice", "identity"],
    ["The user lives in Vienna", "identity"],
    ["The user wants to run a half marathon in October", "goal"],
    ["The user works as a product designer", "identity"],
    ["The user plays chess on weekends", "interest"],
    ["The user prefers short answers", "preference"],
    ["The user is preparing a museum workshop", "context"],
    ["The user reads science fiction", "interest"],
  ];
  for (const [content, category] of facts) {
    const r = await page.request.post(`${base}/v1/hosted-agents/${agent}/memories`, {
      data: { content, category },
      headers: { "x-requested-with": "test" }, // the session cookie authenticates: the API wants this header
    });
    assert.equal(r.status(), 201, await r.text());
  }
  for (let i = 0; i < 5; i++) {
    const r = await page.request.post(`${base}/v1/hosted-agents/${agent}/chat`, {
      data: { message: `hello number ${i}` },
      headers: { "x-requested-with": "test" },
    });
    assert.equal(r.status(), 200, await r.text());
  }

  step("reflect from the dashboard");
  await page.goto(`${agentUrl}/mind`);
  await page.click("[data-testid=reflect-now]");
  await page.locator("[data-testid=mind-notice]", { hasText: "Reflection applied" }).waitFor();
  const reflection = page.locator("[data-testid=reflection]").first();
  assert.match(await reflection.innerText(), /applied/);
  assert.match(await reflection.innerText(), /merge/);
  assert.match(await reflection.innerText(), /Triage hints:/);

  step("the traversal graph's health");
  const graph = page.locator("[data-testid=graph-health]");
  assert.match(await graph.innerText(), /\d+ nodes · \d+ edges/);
  assert.equal(await graph.locator("[data-testid=graph-metric]").count(), 8);
  assert.match(await graph.innerText(), /Orphan nodes\s+\S+\s+0/);

  step("compile the dossier");
  await page.click("[data-testid=compile-dossier]");
  await page.locator("[data-testid=mind-notice]", { hasText: "Dossier compiled" }).waitFor();
  // The dossier's Markdown is shown rendered: its sections are headings, no "##" left.
  assert.equal((await page.locator("[data-testid=dossier-content] h4", { hasText: "Index" }).count()), 1);
  assert.doesNotMatch(await page.locator("[data-testid=dossier-content]").innerText(), /^#/m);
  await page.locator("[data-testid=dossier]", { hasText: "fresh: chat uses it" }).waitFor();

  step("the task board: add a task, approve it, start it, finish it");
  await page.fill("[data-testid=task-title]", "Call the running club");
  await page.click("[data-testid=task-add]");
  await page.locator("[data-testid=mind-notice]", { hasText: "Task added" }).waitFor();
  const pending = page.locator("[data-testid=tasks-pending] [data-testid=task]", { hasText: "Call the running club" });
  await pending.waitFor();
  for (const [button, column] of [["task-approve", "approved"], ["task-start", "in_progress"], ["task-done", "done"]]) {
    await page.locator("[data-testid=task]", { hasText: "Call the running club" }).locator(`[data-testid=${button}]`).click();
    await page.locator(`[data-testid=tasks-${column}] [data-testid=task]`, { hasText: "Call the running club" }).waitFor();
  }
  await page.screenshot({ path: `${shots}/mind.png`, fullPage: true });

  step("the Timeline tab shows the milestones of all this");
  await page.click("[data-testid=tab-timeline]");
  await page.waitForURL(/\/timeline$/);
  for (const kind of ["created", "first_conversation", "first_reflection", "first_task_done"]) {
    assert.equal(await page.locator(`[data-testid=milestone][data-kind=${kind}]`).count(), 1, kind);
  }
  await page.screenshot({ path: `${shots}/timeline.png`, fullPage: true });
  console.log("mind flow: ok");
} finally {
  await browser.close();
}
