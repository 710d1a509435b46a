import { Field, InputType } from 'type-graphql';

@InputType({
  description:
    'A goal, set at query time: a custom event by name, or pages by pattern. Exactly one of `event` and `page`.',
})
export class GoalInput {
  @Field(() => String, { nullable: true, description: 'A custom event name, e.g. "Signup".' })
  event?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'A page path starting with "/", matched exactly, or with "*" (any characters within one path segment) and "**" (any suffix, "/" included), e.g. "/blog/*" or "/docs/**".',
  })
  page?: string | null;
}
