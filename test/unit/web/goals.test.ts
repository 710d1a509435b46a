import {
  formatRate,
  formatRevenue,
  goalFocus,
  goalInput,
  goalLabel,
  parseGoal,
  readGoals,
} from '../../../web/dashboard/goals';

describe('the goals a person enters', () => {
  it.each([
    ['Signup', { kind: 'event', event: 'Signup' }],
    ['  Outbound Link: Click ', { kind: 'event', event: 'Outbound Link: Click' }],
    ['/pricing', { kind: 'page', page: '/pricing' }],
    ['/blog/*', { kind: 'page', page: '/blog/*' }],
    ['/docs/**', { kind: 'page', page: '/docs/**' }],
    ['   ', undefined],
  ] as const)('reads %j as %j', (text, goal) => {
    expect(parseGoal(text)).toEqual(goal);
  });

  it('keeps the URL’s goals in order, without blanks or repeats, at most 20', () => {
    expect(readGoals(['Signup', '/pricing', '', 'Signup', ' /pricing '])).toEqual([
      { kind: 'event', event: 'Signup' },
      { kind: 'page', page: '/pricing' },
    ]);
    expect(readGoals(Array.from({ length: 25 }, (_, i) => `E${i}`))).toHaveLength(20);
  });

  it.each([
    [{ kind: 'event', event: 'Signup' }, { event: 'Signup' }, 'Signup'],
    [{ kind: 'page', page: '/blog/*' }, { page: '/blog/*' }, 'Visit /blog/*'],
  ] as const)('asks the API for %j as %j, named %j', (goal, input, label) => {
    expect(goalInput(goal)).toEqual(input);
    expect(goalLabel(goal)).toBe(label);
  });

  it.each([
    [
      { kind: 'event', event: 'Signup' },
      { event: 'Signup', panelEvent: 'Signup' },
    ],
    [
      { kind: 'page', page: '/pricing' },
      { page: '/pricing', panelPage: '/pricing' },
    ],
  ] as const)('charts %j and breaks the panels down by it', (goal, focus) => {
    expect(goalFocus(goal)).toEqual(focus);
  });

  it.each(['/blog/*', '/docs/**'])('lists the pattern %s but says why it is not charted', (page) => {
    expect(goalFocus({ kind: 'page', page })).toEqual({
      reason:
        `Visit ${page} matches many pages, whose hits the API sums over the whole range only: its figures are in the ` +
        'Goals panel; enter one of its pages as a goal (or under Pages) to chart it.',
    });
  });

  it.each([
    [0.125, '12.5 %'],
    [1, '100.0 %'],
    [0, '0.0 %'],
    [0.00049, '0.0 %'],
    [null, '—'],
  ])('writes the conversion rate %p as %s', (rate, text) => {
    expect(formatRate(rate)).toBe(text);
  });

  it('writes revenue per currency as the API gives it', () => {
    expect(
      formatRevenue([
        { currency: 'EUR', amount: '29.90' },
        { currency: 'JPY', amount: '500' },
      ]),
    ).toBe('29.90 EUR, 500 JPY');
    expect(formatRevenue([])).toBe('—');
  });
});
