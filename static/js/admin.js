// Admin tables read as cards on a phone: every cell is given the name of its column, which
// admin.css shows before the value at narrow widths instead of the table's header row.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  document.querySelectorAll("#result_list, .inline-group .tabular table, .readable-steps").forEach(function (table) {
    // A sortable list's header also holds sort controls: the name is in its ".text" part.
    const names = Array.from(table.querySelectorAll("thead th")).map(function (th) {
      return (th.querySelector(".text") || th).textContent.trim();
    });
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.from(row.cells).forEach(function (cell, index) {
        if (names[index]) cell.dataset.label = names[index];
      });
    });
  });
});
