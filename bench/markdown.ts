import { plainDocument } from '../src/speech/input/document.ts';
import { markdownDocument } from '../src/speech/markdown/read.ts';
import { LiveClauses } from '../src/speech/text/live-clauses.ts';
import { fixed, printTable } from './stats.ts';

// What reading a reply as Markdown adds: `markdownDocument` (every plain `text` request) against
// the plain document it replaced, and the live clause cutter fed in 4-character pieces, whose
// question "is a construct open here?" is a parse too. In this process, one core, per reply of
// about 300 characters (the target: under 1 ms added per reply).

const REPLIES = [
  '**Great news!** Your table for four is booked for *Friday 14 May* at 7pm. To pay the deposit of 5,000 Frw, dial *182*7# or use [our payment page](https://example.rw/pay?ref=123). Please arrive 10 minutes early 😊 and bring your ID. Is there anything else I can help you with today?',
  '### Our opening hours\n\n- **Monday to Friday:** 8am to 6pm\n- **Saturday:** 9am to 1pm\n- *Sunday:* closed\n\n| Service | Price |\n|---|---|\n| Consultation | 15,000 Frw |\n| Blood test | 8,000 Frw |\n\nCall us on 0788 123 456 or write to info@kigali-clinic.rw 👍',
  'Good morning, thank you for calling the Kigali clinic. Your appointment with Dr. Uwase is confirmed for Tuesday at 10:30. Please bring your insurance card and arrive fifteen minutes early, as the car park fills quickly in the morning. If you need to change it, call us back on 0788 123 456. Have a good day.',
];
const ROUNDS = 2_000;
const WARM_UP = 300;

export interface MarkdownCost {
  /** Mean characters per reply. */
  readonly characters: number;
  /** Milliseconds per reply: the plain document, the Markdown document, and their difference. */
  readonly plainMs: number;
  readonly markdownMs: number;
  readonly addedMs: number;
  /** Milliseconds per reply for the live cutter fed in 4-character pieces. */
  readonly liveCutMs: number;
}

/** Mean milliseconds of `run` over every reply, after a warm-up. */
function perReply(run: (reply: string) => unknown): number {
  for (let i = 0; i < WARM_UP; i++) for (const reply of REPLIES) run(reply);
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) for (const reply of REPLIES) run(reply);
  return (performance.now() - started) / (ROUNDS * REPLIES.length);
}

function cutLive(reply: string): number {
  const clauses = new LiveClauses();
  let parts = 0;
  for (let at = 0; at < reply.length; at += 4) parts += clauses.push(reply.slice(at, at + 4)).length;
  return parts + clauses.flush().length;
}

export function markdownCost(): MarkdownCost {
  const plainMs = perReply(plainDocument);
  const markdownMs = perReply(markdownDocument);
  return {
    characters: REPLIES.reduce((n, r) => n + r.length, 0) / REPLIES.length,
    plainMs,
    markdownMs,
    addedMs: markdownMs - plainMs,
    liveCutMs: perReply(cutLive),
  };
}

export function printMarkdownCost(cost: MarkdownCost): void {
  console.log(
    `\nMarkdown: what reading a reply of ${fixed(cost.characters, 0)} characters costs, ms per reply, one core (target: under 1 ms added)`,
  );
  printTable(
    ['plain document', 'Markdown document', 'added', 'live cutter, 4-character pieces'],
    [[fixed(cost.plainMs, 4), fixed(cost.markdownMs, 4), fixed(cost.addedMs, 4), fixed(cost.liveCutMs, 4)]],
  );
}
