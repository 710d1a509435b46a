import { Field, InputType } from 'type-graphql';

@InputType({
  description:
    'One property of a custom event. Stored as sent: never send personal data (values that look like e-mail addresses are refused unless EVENT_PROPS_ALLOW_EMAIL=true).',
})
export class PropertyInput {
  @Field({ description: 'The property name: 1–300 characters, no control characters, unique within the event.' })
  key!: string;

  @Field({ description: 'The property value: 1–2,000 characters, no control characters.' })
  value!: string;
}
