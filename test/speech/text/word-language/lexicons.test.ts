import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  englishWords,
  frenchWordList,
  loadWordListsInThread,
  wordListsRead,
} from '../../../../src/speech/text/word-language/lexicons.ts';

describe('the word lists read in a thread of their own', () => {
  it('are this thread’s once read, and answer as lists read here would', async () => {
    assert.equal(wordListsRead(), false, 'nothing in this file read them before');
    await loadWordListsInThread();
    assert.equal(wordListsRead(), true);
    const english = englishWords();
    const french = frenchWordList();
    assert.ok(english.size > 100_000 && french.size > 300_000, `${english.size} and ${french.size} words`);
    for (const word of ['hello', 'thank', 'you', 'zebra', 'aardvark']) assert.ok(english.has(word), word);
    for (const word of ['bonjour', 'merci', 'été', 'zèbre', 'abaissa']) assert.ok(french.has(word), word);
    for (const word of ['muraho', 'nsengiyumva', 'qqqq']) {
      assert.ok(!english.has(word), word);
      assert.ok(!french.has(word), word);
    }
  });
});
