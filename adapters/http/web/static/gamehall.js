// gamehall's match page: live updates from the seat's stream, moves, refusals, the replay.
// No framework and no build step; the server renders every frame, this script only fetches,
// swaps and sends. The seat token is in an HttpOnly cookie: this script never sees it.
"use strict";

(function () {
  // The lobby's forms show as many seats as the players chosen.
  for (const form of document.querySelectorAll("form.create")) {
    const count = form.querySelector("select[name=players]");
    if (!count) continue;
    const sync = () => {
      for (const seat of form.querySelectorAll("label.seat")) {
        seat.hidden = Number(seat.dataset.seat) >= Number(count.value);
      }
    };
    count.addEventListener("change", sync);
    sync();
  }

  const root = document.getElementById("match");
  if (!root) return;
  const urls = {
    frame: root.dataset.frameUrl,
    events: root.dataset.eventsUrl,
    command: root.dataset.commandUrl,
  };
  const csrf = root.dataset.csrf;
  const box = document.getElementById("frame-box");
  const notice = document.getElementById("notice");
  const connection = document.getElementById("connection");
  const slider = document.getElementById("replay");
  const shownAt = document.getElementById("replay-at");
  const eyes = document.getElementById("eyes");
  const chooser = document.getElementById("chooser");
  const title = root.querySelector("h1");
  let replayAt = null; // null: live
  let loading = null;
  let again = false;
  let source = null;
  let sending = false;
  let pending = null;
  // The match version of this page's last acknowledged move: a frame asked for after it names
  // it, so a node behind the one that took the move catches up before it answers.
  let version = null;

  function frameInfo() {
    const frame = document.getElementById("frame");
    return {
      seq: Number(frame.dataset.seq),
      last: Number(frame.dataset.last),
      ended: frame.dataset.ended === "1",
    };
  }

  function syncSlider() {
    const info = frameInfo();
    slider.max = String(Math.max(1, info.last));
    // The slider keeps the seq asked for last, even while an older frame is still arriving.
    slider.value = String(replayAt === null ? info.last : replayAt);
    shownAt.textContent = (replayAt === null ? "live, event " : "event ") + info.seq + " of " + info.last;
    root.classList.toggle("replaying", replayAt !== null);
    if (eyes) eyes.parentElement.hidden = !info.ended;
  }

  function show(text) {
    notice.textContent = text;
    notice.hidden = !text;
  }

  async function refresh() {
    if (loading) { again = true; return loading; }
    const params = new URLSearchParams();
    if (replayAt !== null) params.set("at", String(replayAt));
    if (eyes && eyes.value !== "") params.set("as", eyes.value);
    const url = urls.frame + (params.toString() ? "?" + params : "");
    loading = (async () => {
      try {
        const headers = version === null ? {} : { "X-Gamehall-Version": String(version) };
        const answer = await fetch(url, { credentials: "same-origin", headers: headers });
        const text = await answer.text();
        if (!answer.ok) { show(text); return; }
        const focused = document.activeElement && document.activeElement.getAttribute("aria-label");
        const oldWrap = box.querySelector(".board-wrap");
        const scrolled = oldWrap ? [oldWrap.scrollLeft, oldWrap.scrollTop] : null;
        box.innerHTML = text;
        syncSlider();
        startClocks();
        readable();
        const newWrap = box.querySelector(".board-wrap");
        if (scrolled && newWrap) [newWrap.scrollLeft, newWrap.scrollTop] = scrolled;
        if (focused) {
          const again = box.querySelector('[aria-label="' + CSS.escape(focused) + '"]');
          if (again) again.focus();
        }
        const log = box.querySelector(".log");
        if (log) log.scrollTop = log.scrollHeight;
      } catch (err) {
        show("The server cannot be reached; trying again.");
      } finally {
        loading = null;
        if (again) { again = false; refresh(); }
      }
    })();
    return loading;
  }

  // On a narrow or touch screen a board drawn to fit the width can come out too small to read
  // or tap:
  // it keeps a readable size instead (no text under 12 CSS px, no place under 34 px) and
  // scrolls sideways in its frame; "Whole board" shows it fitted to the screen for a glance.
  // On a desktop the whole board is in view first, and where its text comes out under that
  // size, "Readable size" zooms it the same way (the choice holds from frame to frame).
  const NARROW = 700, FONT = 12, TAP = 34;
  let fitted = null;  // the person's choice; null: the screen's default
  function readable() {
    const board = box.querySelector("svg.board");
    const wrap = board && board.closest(".board-wrap");
    if (!board || !wrap) return;
    board.style.width = "";
    board.style.maxWidth = "";
    wrap.classList.remove("zoomed");
    let toggle = wrap.querySelector(".fit-toggle");
    const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    const desk = window.innerWidth > NARROW && !touch;
    let factor = 1;
    for (const text of board.querySelectorAll("text")) {
      if (!text.textContent.trim()) continue;
      const m = text.getScreenCTM();
      const size = parseFloat(getComputedStyle(text).fontSize) * (m ? Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) : 1);
      if (size > 0) factor = Math.max(factor, FONT / size);
    }
    for (const place of board.querySelectorAll(".place")) {
      if (desk) break;  // a mouse points finer than a finger
      const r = place.getBoundingClientRect();
      const side = Math.min(r.width, r.height);
      if (side > 0) factor = Math.max(factor, TAP / side);
    }
    if (factor <= 1.01) { if (toggle) toggle.hidden = true; return; }
    const whole = fitted === null ? desk : fitted;
    if (!toggle) {
      toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "fit-toggle";
      toggle.addEventListener("click", () => {
        fitted = toggle.textContent === "Whole board";
        readable();
      });
      wrap.insertBefore(toggle, wrap.firstChild);
    }
    toggle.hidden = false;
    toggle.classList.toggle("over", desk);  // above the board's corner: the board stays in view
    toggle.textContent = whole ? "Readable size" : "Whole board";
    if (whole) return;
    board.style.width = Math.ceil(board.getBoundingClientRect().width * factor) + "px";
    board.style.maxWidth = "none";
    wrap.classList.add("zoomed");
  }
  window.addEventListener("resize", () => readable());

  // A timed match's running clock counts down between frames; each frame resets it to the
  // server's figure, so the page never drifts by more than the time since the last frame.
  let ticking = null;
  function startClocks() {
    const frame = document.getElementById("frame");
    if (frame.dataset.heading && title) title.textContent = frame.dataset.heading;
    clearInterval(ticking);
    const running = Array.from(box.querySelectorAll(".clock[data-running]"));
    if (!running.length) return;
    const from = performance.now();
    const tick = () => {
      const gone = (performance.now() - from) / 1000;
      for (const clock of running) {
        const left = Math.max(0, Number(clock.dataset.left) - gone);
        clock.textContent = clockText(left);
        clock.classList.toggle("low", left < 10);
      }
    };
    tick();
    ticking = setInterval(tick, 250);
  }

  function clockText(seconds) {
    const whole = Math.max(0, Math.ceil(seconds - 0.001));
    const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  function connect() {
    const seq = frameInfo().last;
    source = new EventSource(urls.events + "?after=" + seq);
    source.addEventListener("open", () => { connection.textContent = ""; });
    // A command's events come in a burst: one fetch after the burst, not one per event.
    const changed = () => {
      if (replayAt !== null) { syncLast(); return; }
      clearTimeout(pending);
      pending = setTimeout(refresh, 40);
    };
    source.addEventListener("event", changed);
    source.addEventListener("turn", changed);
    // Names and clocks change without an event: a player renamed, a clock's batch recorded.
    source.addEventListener("names", changed);
    source.addEventListener("clock", changed);
    source.addEventListener("end", () => {
      source.close();
      connection.textContent = "The match has ended.";
      changed();
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        connection.textContent = "Disconnected; reconnecting…";
        setTimeout(connect, 2000);
      } else {
        connection.textContent = "Reconnecting…";
      }
    });
  }

  function syncLast() {
    // In a replay a new event only moves the slider's end; the board stays where it is.
    slider.max = String(Number(slider.max) + 1);
  }

  // A browser holding several seats plays whichever the match waits for: the frame names
  // the seat it shows and where that seat's moves go.
  function commandUrl() {
    const frame = document.getElementById("frame");
    return (frame && frame.dataset.commandUrl) || urls.command;
  }

  async function send(command) {
    if (!urls.command || sending) return;
    sending = true;
    closeChooser();
    try {
      const answer = await fetch(commandUrl(), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ command: command, command_id: newId() }),
      });
      const type = answer.headers.get("Content-Type") || "";
      const body = type.startsWith("application/json") ? await answer.json() : { ok: false, refusal: await answer.text() };
      if (body.ok && Number.isInteger(body.version)) version = Math.max(version || 0, body.version);
      show(body.ok ? "" : body.refusal);
      // A refusal comes with the fresh state; a move's own events arrive on the stream.
      if (!body.ok || !source || source.readyState !== EventSource.OPEN) await refresh();
    } catch (err) {
      show("The move could not be sent: the server cannot be reached.");
      await refresh();
    } finally {
      sending = false;
    }
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "c-" + Date.now() + "-" + Math.random().toString(36).slice(2);
  }

  function choices(element) {
    try { return JSON.parse(element.dataset.commands); } catch (err) { return []; }
  }

  function closeChooser() {
    chooser.hidden = true;
    chooser.textContent = "";
  }

  function choose(element) {
    const options = choices(element);
    if (options.length === 1) { send(options[0].command); return; }
    chooser.textContent = "";
    const title = document.createElement("p");
    title.textContent = element.getAttribute("aria-label") || "Choose a move";
    chooser.appendChild(title);
    const list = document.createElement("ul");
    for (const option of options) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "command";
      button.textContent = option.text;
      button.addEventListener("click", () => send(option.command));
      item.appendChild(button);
      list.appendChild(item);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", closeChooser);
    chooser.appendChild(list);
    chooser.appendChild(cancel);
    chooser.hidden = false;
    const first = chooser.querySelector("button");
    if (first) first.focus();
  }

  box.addEventListener("click", (event) => {
    const target = event.target.closest("[data-commands]");
    if (target && replayAt === null) choose(target);
  });
  box.addEventListener("keydown", (event) => {
    const target = event.target.closest("[data-commands]");
    if (!target || target.tagName === "BUTTON") return;
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(target); }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeChooser();
  });

  function goTo(seq) {
    const info = frameInfo();
    const last = Math.max(1, Number(slider.max) || info.last);
    seq = Math.max(1, Math.min(seq, last));
    replayAt = seq >= last ? null : seq;
    refresh();
  }
  slider.addEventListener("input", () => goTo(Number(slider.value)));
  document.getElementById("step-back").addEventListener("click", () => goTo((replayAt === null ? frameInfo().last : replayAt) - 1));
  document.getElementById("step-forward").addEventListener("click", () => goTo((replayAt === null ? frameInfo().last : replayAt) + 1));
  document.getElementById("go-live").addEventListener("click", () => { replayAt = null; if (eyes) eyes.value = ""; refresh(); });
  if (eyes) eyes.addEventListener("change", refresh);

  // A shared screen handed to another seat stays covered until that seat's person asks.
  const cover = document.getElementById("handover");
  if (cover) {
    const shown = document.getElementById("shown");
    document.getElementById("handover-show").addEventListener("click", () => {
      cover.remove();
      shown.classList.remove("covered");
      history.replaceState(null, "", location.pathname);
    });
  }

  syncSlider();
  startClocks();
  readable();
  if (urls.events) connect();
})();
