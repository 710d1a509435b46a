import { LineSplitter } from '../../../src/logimport/LineSplitter';

function split(chunks: string[], maxLength?: number): Array<[string, boolean]> {
  const lines: Array<[string, boolean]> = [];
  const splitter = new LineSplitter((line, overlong) => lines.push([line, overlong]), maxLength);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('LineSplitter', () => {
  it.each([
    [
      ['a\nb\n'],
      [
        ['a', false],
        ['b', false],
      ],
    ],
    [
      ['a\r\nb'],
      [
        ['a', false],
        ['b', false],
      ],
    ],
    [
      ['a', 'b\nc', '\n'],
      [
        ['ab', false],
        ['c', false],
      ],
    ],
    [
      ['\n\n'],
      [
        ['', false],
        ['', false],
      ],
    ],
    [[''], []],
    [['x'], [['x', false]]],
  ])('%j → %j', (chunks, lines) => {
    expect(split(chunks)).toEqual(lines);
  });

  it('reports a line longer than the limit by its head and skips the rest, however it is chunked', () => {
    const long = 'y'.repeat(5_000);
    const expected = [
      ['ok', false],
      ['y'.repeat(1_024), true],
      ['next', false],
    ];
    expect(split([`ok\n${long}\nnext\n`], 2_000)).toEqual(expected);
    expect(split(['ok\n', ...long.match(/.{1,700}/g)!, '\nnext\n'], 2_000)).toEqual(expected);
    expect(split(['ok\n', long], 2_000)).toEqual(expected.slice(0, 2));
  });
});
