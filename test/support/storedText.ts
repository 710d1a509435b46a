/**
 * Everything a database holds, as text to search: every collection's every document, each key (field names are
 * where tally keeps dimension values and sketch registers) and each string value, also with percent escapes undone
 * (keys escape `.` and `$` as `%2E` and `%24`: `8%2E8%2E8%2E8` is the address 8.8.8.8), and binary values read as
 * Latin-1 and as UTF-8. For the privacy checks: no raw visitor id, address, User-Agent or referrer may be in it.
 */
import { Binary, MongoClient } from 'mongodb';

export interface StoredText {
  readonly collections: readonly string[];
  readonly documents: number;
  /** Keys and values, one per line. */
  readonly text: string;
}

export async function storedText(uri: string, dbName: string): Promise<StoredText> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    const db = client.db(dbName);
    const collections = (await db.listCollections().toArray()).map((collection) => collection.name).sort();
    const parts: string[] = [];
    let documents = 0;
    for (const name of collections) {
      for await (const document of db.collection(name).find()) {
        documents += 1;
        collect(document, parts);
      }
    }
    return { collections, documents, text: parts.join('\n') };
  } finally {
    await client.close();
  }
}

/** The entries of `raws` found anywhere in the stored text (an empty list when none is stored). */
export function storedRaws(stored: StoredText, raws: readonly string[]): string[] {
  return raws.filter((raw) => stored.text.includes(raw));
}

function collect(value: unknown, parts: string[]): void {
  if (typeof value === 'string') {
    pushText(value, parts);
  } else if (value instanceof Binary) {
    const bytes = Buffer.from(value.value());
    parts.push(bytes.toString('latin1'), bytes.toString('utf8'));
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, parts);
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      pushText(key, parts);
      collect(item, parts);
    }
  }
}

const PERCENT_ESCAPE = /%(?:u([0-9A-Fa-f]{4})|([0-9A-Fa-f]{2}))/g;

function pushText(text: string, parts: string[]): void {
  parts.push(text);
  const unescaped = text.replace(PERCENT_ESCAPE, (_, unit: string | undefined, byte: string | undefined) =>
    String.fromCharCode(parseInt(unit ?? (byte as string), 16)),
  );
  if (unescaped !== text) parts.push(unescaped);
}
