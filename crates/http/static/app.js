// Small progressive enhancements for the dashboard; every page works without them.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  const text = source.textContent.trim();
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    document.execCommand("copy");
  }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
});

// Pages following something that runs in the background (a registration, a transaction) mark
// a section with data-refresh-seconds and reload while it is visible. Without the script the
// owner reloads by hand.
for (const el of document.querySelectorAll("[data-refresh-seconds]")) {
  const seconds = Math.max(1, Number(el.dataset.refreshSeconds) || 5);
  setTimeout(function reload() {
    if (document.visibilityState === "visible" && !document.activeElement?.closest("form")) location.reload();
    else setTimeout(reload, seconds * 1000);
  }, seconds * 1000);
  break;
}

document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

// Chat: send over the API and stream the reply into the page (Server-Sent Events over fetch,
// resumed with Last-Event-ID if the connection drops), then show the stored conversation.
// Without this script the form posts normally and the page waits for the reply.
function sseEvents(buffer) {
  const events = [];
  let cut;
  while ((cut = buffer.indexOf("\n\n")) >= 0) {
    const block = buffer.slice(0, cut);
    buffer = buffer.slice(cut + 2);
    const ev = { event: "message", id: null, data: [] };
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) ev.event = line.slice(6).trim();
      else if (line.startsWith("id:")) ev.id = line.slice(3).trim();
      else if (line.startsWith("data:")) ev.data.push(line.slice(5).replace(/^ /, ""));
    }
    if (ev.data.length) events.push({ ...ev, data: ev.data.join("\n") });
  }
  return { events, rest: buffer };
}

async function readStream(response, handle) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const parsed = sseEvents(buffer + decoder.decode(value, { stream: true }));
    buffer = parsed.rest;
    for (const ev of parsed.events) if (handle(ev)) return;
  }
}

// A session token lives minutes; the refresh cookie renews it (`POST /refresh` with the page's
// CSRF token, bound to the session, which a renewal keeps). A request answered 401 renews the
// session once and is sent again, so a page left open does not strand what the owner typed.
async function fetchRenewing(form, url, init) {
  const response = await fetch(url, init);
  const csrf = form.querySelector("input[name=csrf]");
  if (response.status !== 401 || !csrf) return response;
  const body = new URLSearchParams({ csrf: csrf.value, next: window.location.pathname });
  await fetch("/refresh", { method: "POST", credentials: "same-origin", body, redirect: "manual" }).catch(() => {});
  return fetch(url, init);
}

document.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-chat]");
  if (!form || !window.fetch || !window.TextDecoder) return;
  event.preventDefault();
  const agent = form.dataset.chat;
  const input = form.querySelector("textarea[name=message]");
  const cidInput = form.querySelector("input[name=conversation_id]");
  const status = form.querySelector("[data-testid=chat-status]");
  const button = form.querySelector("button[type=submit]");
  const message = input.value.trim();
  if (!message) return;
  const list = document.querySelector("[data-testid=messages]");
  const bubble = (role, text) => {
    const li = document.createElement("li");
    li.className = `msg ${role}`;
    li.dataset.role = role;
    li.dataset.testid = "message";
    const div = document.createElement("div");
    div.className = "bubble";
    div.textContent = text;
    li.append(div);
    list.append(li);
    return div;
  };
  bubble("user", message);
  const reply = bubble("assistant", "");
  button.disabled = true;
  status.textContent = "Thinking…";
  let conversation = cidInput.value, replyId = null, lastId = null, finished = false;
  const show = () => {
    const target = `/agents/${agent}/chat?c=${conversation}`;
    if (window.location.pathname + window.location.search === target) window.location.reload();
    else window.location.assign(`${target}#latest`);
  };
  const handle = (ev) => {
    if (ev.id) lastId = ev.id;
    const data = JSON.parse(ev.data);
    if (ev.event === "start") {
      conversation = data.conversation_id;
      replyId = data.message_id;
      status.textContent = "Answering…";
    } else if (ev.event === "token") {
      reply.textContent += data.text;
    } else if (ev.event === "done") {
      finished = true;
      show();
      return true;
    } else if (ev.event === "error") {
      finished = true;
      status.textContent = `Not answered: ${data.error.message}`;
      if (conversation) setTimeout(show, 1500);
      return true;
    }
    return false;
  };
  try {
    const response = await fetchRenewing(form, `/v1/hosted-agents/${agent}/chat`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "text/event-stream", "x-requested-with": "miniclaw" },
      body: JSON.stringify(conversation ? { message, conversation_id: conversation } : { message }),
    });
    if (!response.ok) {
      // Not sent: the message stays in the box, to send again.
      const body = await response.json().catch(() => ({}));
      reply.parentElement.previousElementSibling?.remove();
      reply.parentElement.remove();
      status.textContent = response.status === 401
        ? "Your session has ended: sign in again in another tab, then send; your message is kept here."
        : body.error ? body.error.message : `Error ${response.status}`;
      button.disabled = false;
      return;
    }
    input.value = "";
    await readStream(response, handle);
  } catch {
    // The connection dropped: resume the same reply from the last event it delivered.
  }
  for (let attempt = 0; !finished && replyId && attempt < 3; attempt++) {
    status.textContent = "Reconnecting…";
    try {
      const response = await fetchRenewing(form, `/v1/hosted-agents/${agent}/chat/replies/${replyId}/stream`, {
        credentials: "same-origin",
        headers: lastId ? { accept: "text/event-stream", "last-event-id": lastId } : { accept: "text/event-stream" },
      });
      if (response.ok) await readStream(response, handle);
    } catch {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  if (!finished) {
    status.textContent = "The connection was lost; reload to see the reply.";
    button.disabled = false;
  }
});

// The session-refresh page posts its form by itself (without this script, a button does).
for (const form of document.querySelectorAll("form[data-autosubmit]")) form.submit();

// Brain graph: the graph embedded in the page drawn on a canvas in 3-D (orthographic
// projection), rotated by dragging, zoomed by the wheel; hovering a memory shows it, clicking
// opens it. `canvas.brainPoints` keeps the projected points (x, y in canvas pixels).
(function brain() {
  const canvas = document.getElementById("brain");
  const data = document.getElementById("brain-data");
  if (!canvas || !data) return;
  const graph = JSON.parse(data.textContent);
  const palette = ["#74c0fc", "#ffa94d", "#8ce99a", "#e599f7", "#ffe066", "#ff8787", "#63e6be", "#b197fc",
                   "#ffc078", "#a9e34b", "#66d9e8", "#f783ac"];
  for (const s of document.querySelectorAll(".swatch[data-cluster]")) {
    s.style.background = palette[Number(s.dataset.cluster) % palette.length];
  }
  const nodes = graph.nodes;
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const span = Math.max(1e-9, ...nodes.flatMap((n) => [Math.abs(n.x), Math.abs(n.y), Math.abs(n.z)]));
  const ctx = canvas.getContext("2d");
  const tip = document.getElementById("brain-tip");
  let yaw = 0.6, pitch = 0.3, zoom = 1, drag = null, hover = -1;
  canvas.dataset.nodes = String(nodes.length);
  canvas.dataset.edges = String(graph.edges.length);

  function project() {
    const [cy, sy, cp, sp] = [Math.cos(yaw), Math.sin(yaw), Math.cos(pitch), Math.sin(pitch)];
    const scale = (Math.min(canvas.width, canvas.height) / 2.4) * zoom / span;
    return nodes.map((n) => {
      const x1 = n.x * cy + n.z * sy, z1 = -n.x * sy + n.z * cy;
      const y2 = n.y * cp - z1 * sp, z2 = n.y * sp + z1 * cp;
      return { x: canvas.width / 2 + x1 * scale, y: canvas.height / 2 - y2 * scale, depth: z2 };
    });
  }

  function draw() {
    const pts = project();
    canvas.brainPoints = pts;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.lineWidth = 1;
    for (const e of graph.edges) {
      const a = pts[index.get(e.source)], b = pts[index.get(e.target)];
      ctx.strokeStyle = `rgba(173, 181, 189, ${0.15 + 0.5 * (e.weight - 0.5)})`;
      ctx.beginPath(); ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y); ctx.stroke();
    }
    const order = pts.map((p, i) => i).sort((i, j) => pts[i].depth - pts[j].depth);
    for (const i of order) {
      const p = pts[i], n = nodes[i];
      ctx.fillStyle = palette[n.cluster % palette.length];
      ctx.beginPath(); ctx.arc(p.x, p.y, (i === hover ? 7 : 4) + n.importance / 4, 0, 2 * Math.PI); ctx.fill();
    }
  }

  function at(event) {
    const r = canvas.getBoundingClientRect();
    const x = (event.clientX - r.left) * (canvas.width / r.width), y = (event.clientY - r.top) * (canvas.height / r.height);
    let best = -1, bestD = 12 * 12;
    (canvas.brainPoints || []).forEach((p, i) => {
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d < bestD) { best = i; bestD = d; }
    });
    return { best, x: event.clientX - r.left, y: event.clientY - r.top };
  }

  canvas.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, moved: false }; });
  window.addEventListener("pointerup", () => { setTimeout(() => { drag = null; }, 0); });
  canvas.addEventListener("pointermove", (e) => {
    if (drag && e.buttons) {
      yaw += (e.clientX - drag.x) * 0.01; pitch += (e.clientY - drag.y) * 0.01;
      drag.moved = drag.moved || Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 2;
      drag.x = e.clientX; drag.y = e.clientY; draw(); return;
    }
    const { best, x, y } = at(e);
    hover = best;
    if (best >= 0) {
      const n = nodes[best];
      tip.textContent = `${n.content} (${n.category}, cluster ${n.cluster})`;
      tip.style.left = `${x + 12}px`; tip.style.top = `${y + 12}px`; tip.hidden = false;
    } else tip.hidden = true;
    draw();
  });
  canvas.addEventListener("mouseleave", () => { tip.hidden = true; hover = -1; draw(); });
  canvas.addEventListener("click", (e) => {
    if (drag && drag.moved) return;
    const { best } = at(e);
    if (best >= 0) location.href = `/agents/${canvas.dataset.agent}/memories/${nodes[best].id}`;
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoom = Math.min(8, Math.max(0.3, zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1)));
    draw();
  }, { passive: false });
  draw();
})();
