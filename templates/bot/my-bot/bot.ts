import { defineBot, type Handler } from 'switchboard';

const luckyNumber: Handler = ({ input }) => ({
  outcome: 'found',
  vars: { number: String(input['name']).length * 7 },
});

export const bot = defineBot({
  flows: [new URL('./greeter.yaml', import.meta.url)],
  handlers: { luckyNumber },
});
