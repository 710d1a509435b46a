/** Makes a directory's entries durable (a created, renamed or deleted file), as fsync does for a file's bytes. */
import { open } from 'node:fs/promises';

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
