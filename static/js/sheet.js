// The score sheet: its print button opens the browser's print dialog (A4, css/sheet.css).
(function () {
  "use strict";
  for (const button of document.querySelectorAll("[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
})();
