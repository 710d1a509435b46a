/** Draws the top-line figures ("1,204 visitors ▲ 12 %") and their small print. */
import type { TopLine } from './topLine';

export function renderTopLine(box: HTMLElement, notesBox: HTMLElement, line: TopLine | undefined): void {
  box.replaceChildren(
    ...(line?.figures ?? []).map((figure) => {
      const element = document.createElement('div');
      element.className = 'figure';
      element.dataset.figure = figure.key;
      element.title = figure.title;
      const value = document.createElement('span');
      value.className = 'value';
      value.textContent = figure.value;
      const unit = document.createElement('span');
      unit.className = 'unit';
      unit.textContent = figure.marked ? `${figure.unit}*` : figure.unit;
      const change = document.createElement('span');
      change.className = 'change';
      change.dataset.direction = figure.change.direction;
      change.title = figure.change.title;
      change.textContent = figure.change.text;
      element.append(value, ' ', unit, ' ', change);
      return element;
    }),
  );
  notesBox.replaceChildren(
    ...(line?.notes ?? []).map((note) => {
      const p = document.createElement('p');
      p.textContent = note;
      return p;
    }),
  );
}
