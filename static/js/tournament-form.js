// The organizer's forms (tournament and series): progressive enhancement only; without
// JavaScript every field shows and the form works the same.
//
// - Choosing another variant loads its settings (the "load" button does it without JS).
// - A field that applies only with some value of another field (data-applies-field,
//   data-applies-values: tournaments/forms.py APPLIES_WHEN) is hidden while it does not
//   apply; the server ignores it then.
// - The contracts (JSON in the field v_contracts, which the server validates) get an
//   editor: one row per round, a choice of contract each; rows follow the number of
//   rounds. The editor writes the JSON into the field, which it hides.
(function () {
  "use strict";
  const form = document.querySelector("form.organizer-form");
  if (!form) return;

  const loadPreset = document.getElementById("load-preset");
  const presetSelect = document.getElementById("id_preset");
  if (loadPreset && presetSelect) {
    presetSelect.addEventListener("change", () => loadPreset.click());
  }

  // --- Fields that apply only with some values of another -------------------------------

  // A hidden field is also disabled (not sent: the server ignores it anyway, and a
  // browser would refuse to send a form with a hidden required field left empty); one
  // the server locked stays disabled.
  const conditional = [...form.querySelectorAll("[data-applies-field]")];
  const inputsOf = (box) => [...box.querySelectorAll("input, select, textarea")];
  conditional.forEach((box) => inputsOf(box).forEach((i) => (i.dataset.locked = String(i.disabled))));
  function showWhatApplies() {
    conditional.forEach((box) => {
      const control = form.elements.namedItem(box.dataset.appliesField);
      if (!control) return;
      // a box: "on" while ticked, "" while not (a live club evening's schedule)
      const value = control.type === "checkbox" ? (control.checked ? "on" : "") : control.value;
      box.hidden = !box.dataset.appliesValues.split(",").includes(value);
      inputsOf(box).forEach((i) => (i.disabled = box.hidden || i.dataset.locked === "true"));
    });
  }
  new Set(conditional.map((box) => box.dataset.appliesField)).forEach((name) => {
    const control = form.elements.namedItem(name);
    if (control) control.addEventListener("change", showWhatApplies);
  });
  showWhatApplies();

  // --- The contracts editor ---------------------------------------------------------------

  const field = document.getElementById("id_v_contracts");
  const box = document.getElementById("contracts-editor");
  const data = JSON.parse(document.getElementById("contract-editor").textContent);
  if (!field || !box || !data || !data.choices.length) return;
  const T = JSON.parse(document.getElementById("form-strings").textContent);
  const fmt = (text, n) => text.replace("{n}", String(n));
  const roundsInput = form.elements.namedItem("rounds");
  const locked = field.dataset.locked ?? String(field.disabled);

  // The choice (index into data.choices) of each round so far; round r of a shorter
  // list uses entry r modulo its length, as the game does (docs/rules.md §3).
  const start = data.rows.length ? data.rows : [0];
  let choices = [];

  function roundCount() {
    const n = parseInt(roundsInput ? roundsInput.value : "", 10);
    return Number.isFinite(n) && n > 0 ? Math.min(n, 64) : start.length;
  }

  function write() {
    field.value = JSON.stringify(choices.map((i) => data.choices[i].contract));
  }

  function select(round) {
    const sel = document.createElement("select");
    sel.id = `contract-round-${round + 1}`;
    sel.dataset.round = String(round + 1);
    sel.setAttribute("aria-label", fmt(T.contract_of_round, round + 1));
    // The selects have no name (the field carries the JSON): only a locked form's are off.
    sel.dataset.locked = locked;
    sel.disabled = locked === "true";
    data.choices.forEach((choice, i) => {
      const option = document.createElement("option");
      option.value = String(i);
      option.textContent = choice.label;
      sel.append(option);
    });
    sel.value = String(choices[round]);
    sel.addEventListener("change", () => {
      choices[round] = Number(sel.value);
      write();
    });
    return sel;
  }

  function render() {
    const n = roundCount();
    // Rows added take the cycle's next contract; rows removed go.
    choices = Array.from({ length: n }, (_, r) => (r < choices.length ? choices[r] : start[r % start.length]));
    const list = document.createElement("ol");
    list.className = "contracts-rows";
    choices.forEach((_, r) => {
      const item = document.createElement("li");
      item.dataset.testid = "contract-row";
      const label = document.createElement("label");
      label.htmlFor = `contract-round-${r + 1}`;
      label.textContent = fmt(T.round, r + 1);
      item.append(label, " ", select(r));
      list.append(item);
    });
    box.replaceChildren(list);
    write();
  }

  choices = start.slice();
  field.hidden = true;
  box.hidden = false;
  // The editor takes the field's place: the label and the help text point at it.
  const fieldLabel = form.querySelector('label[for="id_v_contracts"]');
  if (fieldLabel) fieldLabel.htmlFor = "contract-round-1";
  if (roundsInput) roundsInput.addEventListener("input", render);
  render();
})();
