/**
 * Cuts latin1 text chunks into lines (`\n`, with a trailing `\r` removed). A line longer than `maxLength`
 * is not kept whole: its head is reported with `overlong = true` and the rest skipped, so one newline-less
 * gigabyte cannot exhaust memory.
 */

export type LineHandler = (line: string, overlong: boolean) => void;

const OVERLONG_HEAD = 1_024;

export class LineSplitter {
  private partial = '';
  /** Inside a line already longer than maxLength: its head, with the rest being skipped. */
  private overlongHead: string | undefined;

  constructor(
    private readonly onLine: LineHandler,
    private readonly maxLength: number = 1024 * 1024,
  ) {}

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      if (newline < 0) break;
      if (this.overlongHead !== undefined) {
        this.onLine(this.overlongHead, true);
        this.overlongHead = undefined;
      } else {
        const line = this.partial === '' ? chunk.slice(start, newline) : this.partial + chunk.slice(start, newline);
        this.partial = '';
        if (line.length > this.maxLength) this.onLine(line.slice(0, OVERLONG_HEAD), true);
        else this.onLine(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line, false);
      }
      start = newline + 1;
    }
    if (start < chunk.length && this.overlongHead === undefined) {
      this.partial += chunk.slice(start);
      if (this.partial.length > this.maxLength) {
        this.overlongHead = this.partial.slice(0, OVERLONG_HEAD);
        this.partial = '';
      }
    }
  }

  /** The last line when the input does not end with a newline. */
  end(): void {
    if (this.overlongHead !== undefined) this.onLine(this.overlongHead, true);
    else if (this.partial !== '') {
      const line = this.partial;
      this.onLine(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line, false);
    }
    this.partial = '';
    this.overlongHead = undefined;
  }
}
