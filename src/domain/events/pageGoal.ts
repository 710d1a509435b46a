/**
 * Page goals (issue 28): a page path matched exactly, or with `*` (any characters within one path segment) and `**`
 * (any characters, `/` included: any suffix). Compiled once per query into a matcher; pure.
 */
import { BadUserInputError } from '../../errors/BadUserInputError';

export type PageMatcher = (page: string) => boolean;

export function parsePageGoal(pattern: string, field: string): PageMatcher {
  if (!pattern.startsWith('/')) {
    throw new BadUserInputError(`${field} must start with "/", got ${JSON.stringify(pattern.slice(0, 100))}`, field);
  }
  if (pattern.length > 2_048) {
    throw new BadUserInputError(`${field} must be at most 2048 characters, got ${pattern.length}`, field);
  }
  if (!pattern.includes('*')) return (page) => page === pattern;
  const source = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  const regex = new RegExp(`^${source}$`, 's');
  return (page) => regex.test(page);
}
