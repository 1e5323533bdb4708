/** A plain-text table: a header row, a rule, the rows; columns padded to their widest cell. */
function table(header, rows) {
  const cells = [header, ...rows].map((row) =>
    row.map((cell) => (cell === null || cell === undefined ? "-" : String(cell))),
  )
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column].length)))
  const line = (row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join("  ")
      .trimEnd()
  return [line(cells[0]), widths.map((width) => "-".repeat(width)).join("  "), ...cells.slice(1).map(line)].join("\n")
}

/** A "met" cell: yes, NO, or "-" where no target applies. */
const yesNo = (met) => (met === undefined ? "-" : met ? "yes" : "NO")

module.exports = { table, yesNo }
