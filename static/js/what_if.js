// "Speel vanaf hier": the what-if form starts from the frame the replay shows. The replay
// (replay.js) writes its position as "i / n" into #position; i actions have been played.
(function () {
  "use strict";
  const input = document.getElementById("what-if-start");
  const position = document.getElementById("position");
  if (!input || !position) return;
  const sync = () => {
    const index = parseInt(position.textContent, 10);
    input.value = Number.isFinite(index) ? String(index) : "0";
  };
  new MutationObserver(sync).observe(position, { childList: true, characterData: true, subtree: true });
  sync();
})();
