// Sortable tables: click (or press Enter on) a column heading of a table with class "sortable".
// Numbers sort by value (the leading number of a cell), everything else alphabetically.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var body = table.tBodies[0];
    table.querySelectorAll("thead th").forEach(function (th, column) {
      th.tabIndex = 0;
      th.setAttribute("role", "button");
      th.title = "Sort by this column";
      function sort() {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("thead th").forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var key = function (row) {
          var text = row.cells[column] ? row.cells[column].textContent.trim() : "";
          var number = parseFloat(text);
          return isNaN(number) ? text.toLowerCase() : number;
        };
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          var order = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (event) { if (event.key === "Enter") { sort(); } });
    });
  });
});
