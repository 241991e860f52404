import { parentPort } from 'node:worker_threads';
import { readWordLists, type WordListParts } from './lexicons.ts';

// The thread of `loadWordListsInThread`: reads both word lists, sends what they are made of (the
// buffers transferred) and ends.

const { english, french } = readWordLists();
const lists = { english: english.parts(), french: french.parts() };
const buffers = (parts: WordListParts) => [parts.lines.buffer, parts.starts.buffer] as ArrayBuffer[];
parentPort?.postMessage(lists, [...buffers(lists.english), ...buffers(lists.french)]);
