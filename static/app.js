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
    const response = await fetch(`/v1/hosted-agents/${agent}/chat`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "text/event-stream", "x-requested-with": "miniclaw" },
      body: JSON.stringify(conversation ? { message, conversation_id: conversation } : { message }),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      reply.parentElement.remove();
      status.textContent = body.error ? body.error.message : `Error ${response.status}`;
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
      const response = await fetch(`/v1/hosted-agents/${agent}/chat/replies/${replyId}/stream`, {
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
