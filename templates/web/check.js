// The live check of a party's form (docs/web.md): as the player types, ask the judge what
// it would answer (POST /game/<name>/check, read only) and show the problems, with their
// line numbers, and the total offered against the balance beside the textarea. The form
// works without it: sending is always the form's own POST.
"use strict";
(function () {
  var form = document.querySelector("form.send[data-check]");
  var live = document.getElementById("live");
  if (!form || !live || !window.fetch) {
    return;
  }
  var text = form.querySelector("textarea");
  var csrf = form.querySelector('input[name="csrf"]');
  var timer = null;
  var asked = 0; // only the latest answer is shown

  function item(parent, cls, words) {
    var li = document.createElement("li");
    li.className = cls;
    li.textContent = words;
    parent.appendChild(li);
  }

  function show(answer) {
    live.textContent = "";
    var list = document.createElement("ul");
    answer.problems.forEach(function (p) {
      item(list, "error", (p.line ? "line " + p.line + ": " : "") + p.message + (p.text ? " (" + p.text + ")" : ""));
    });
    if (answer.total !== null && answer.balance !== null) {
      item(list, answer.over ? "error" : "ok", "Offers total " + answer.total + " AgP of a balance of " + answer.balance + " AgP" + (answer.over ? ": more than you have" : ""));
    }
    if (!answer.problems.length) {
      var lines = answer.understood.length, commands = answer.commands.length;
      item(list, "ok", "The judge would take it: " + lines + " order line" + (lines === 1 ? "" : "s") + (commands ? ", and run " + answer.commands.map(function (c) { return c.keyword; }).join(", ") + " when sent" : "") + ".");
    }
    live.appendChild(list);
    live.hidden = false;
  }

  function ask() {
    var mine = ++asked;
    var body = new URLSearchParams();
    body.append("csrf", csrf.value);
    body.append("text", text.value);
    fetch(form.getAttribute("data-check"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) { if (answer && mine === asked) { show(answer); } })
      .catch(function () { /* the form still works: the reply says it all */ });
  }

  text.addEventListener("input", function () {
    if (timer) {
      clearTimeout(timer);
    }
    timer = setTimeout(ask, 600);
  });
  if (text.value.trim()) {
    ask();
  }
})();
