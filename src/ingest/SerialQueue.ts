/**
 * Runs async tasks one at a time, in submission order: "one write in flight" for engines whose updates are
 * read-modify-write without a lock (WritePolicy.singleWriter). A failed task does not stop the queue.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
