import { parsePageGoal } from '../../../../src/domain/events/pageGoal';
import { BadUserInputError } from '../../../../src/errors/BadUserInputError';

describe('parsePageGoal', () => {
  it.each([
    ['/pricing', '/pricing', true],
    ['/pricing', '/pricing/', false],
    ['/pricing', '/pricing/x', false],
    ['/blog/*', '/blog/a', true],
    ['/blog/*', '/blog/', true],
    ['/blog/*', '/blog/a/b', false],
    ['/blog/*', '/blog', false],
    ['/blog/**', '/blog/a/b/c', true],
    ['/blog/**', '/blog/', true],
    ['/blog/**', '/blogs/a', false],
    ['/*/edit', '/post-1/edit', true],
    ['/*/edit', '/a/b/edit', false],
    ['/**/edit', '/a/b/edit', true],
    ['/shop/*.html', '/shop/cart.html', true],
    ['/shop/*.html', '/shop/cartXhtml', false],
    ['/a+b/(x)', '/a+b/(x)', true],
    ['/a+b/*', '/aab/x', false],
    ['/**', '/', true],
  ])('%s matches %s: %s', (pattern, page, expected) => {
    expect(parsePageGoal(pattern, 'goal')(page)).toBe(expected);
  });

  it('refuses a pattern not starting with "/", naming the field', () => {
    expect(() => parsePageGoal('blog/*', 'goals[2].page')).toThrow(
      new BadUserInputError('goals[2].page must start with "/", got "blog/*"', 'goals[2].page'),
    );
  });
});
