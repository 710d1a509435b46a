import { startArchiveProgress } from '../../../src/cli/ArchiveProgress';

function sink(isTTY: boolean): { write(text: string): boolean; isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  return { isTTY, write: (text: string) => chunks.push(text) > 0, text: () => chunks.join('') };
}

describe('startArchiveProgress', () => {
  it('draws a bar of documents against the estimate on a terminal', () => {
    const terminal = sink(true);
    const progress = startArchiveProgress(terminal, 'restore');
    progress.start(2_000);
    progress.advance('stats.daily', 1_500);
    progress.stop();
    expect(terminal.text()).toContain('restore');
    expect(terminal.text()).toContain('of ~2,000 documents');
    expect(terminal.text()).toContain('stats.daily');
  });

  it('writes nothing anywhere else', () => {
    const pipe = sink(false);
    const progress = startArchiveProgress(pipe, 'dump');
    progress.start(10);
    progress.advance('stats.daily', 20);
    progress.stop();
    expect(pipe.text()).toBe('');
  });
});
