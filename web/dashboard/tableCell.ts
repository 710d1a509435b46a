/** A table cell of the dashboard's panels: its class names the column (CSS aligns numbers, tests read it). */
export function tableCell(className: string, text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.className = className;
  td.textContent = text;
  return td;
}
