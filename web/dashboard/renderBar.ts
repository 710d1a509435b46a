/**
 * A bar above the chart saying what an extra series is (the charted dimension value, the selected goal), or why it
 * cannot be charted, with a "Clear ×" button; hidden when there is nothing to say.
 */
export type BarText = { readonly text: string } | { readonly reason: string };

export function renderBar(
  bar: HTMLElement,
  content: BarText | undefined,
  clear?: { readonly title: string; readonly onClear: () => void },
): void {
  if (!content) {
    bar.replaceChildren();
    bar.hidden = true;
    return;
  }
  const text = document.createElement('span');
  if ('reason' in content) {
    text.className = 'reason';
    text.textContent = content.reason;
  } else text.textContent = content.text;
  bar.replaceChildren(text);
  if (clear) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'clear';
    button.textContent = 'Clear ×';
    button.title = clear.title;
    button.addEventListener('click', clear.onClear);
    bar.append(' ', button);
  }
  bar.hidden = false;
}
