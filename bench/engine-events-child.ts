/**
 * Child process of the in-process engine benchmark: runs {@link engineEvents} in a fresh
 * process (so the heap and handles left by earlier benchmarks do not weigh on it) and
 * prints its figures as one JSON line.
 */
import { engineEvents } from './engine-events.js';

const [events = '20000', conversations = '1000', rounds = '5'] = process.argv.slice(2);
const figures = await engineEvents(Number(events), Number(conversations), Number(rounds));
process.stdout.write(`${JSON.stringify(figures)}\n`);
