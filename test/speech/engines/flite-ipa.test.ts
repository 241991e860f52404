import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ipaToFlitePhones } from '../../../src/speech/engines/flite/ipa-phones.ts';

const phones = (ipa: string) => {
  const read = ipaToFlitePhones(ipa);
  assert.ok(read.ok, `${ipa} refused: ${read.ok ? '' : read.symbol}`);
  return read.phones;
};

describe('IPA for Flite', () => {
  it('reads English IPA as US phones, the vowel after a stress mark stressed', () => {
    assert.equal(phones('həˈloʊ'), 'pau hh ax0 l ow1 pau');
    assert.equal(phones('ˈθɪŋk ðeɪ'), 'pau th ih1 ng k dh ey0 pau');
    assert.equal(phones('ˌɪntɚˈnæʃənəl'), 'pau ih1 n t er0 n ae1 sh ax0 n ax0 l pau');
    assert.equal(phones('t͡ʃɜːtʃ'), 'pau ch er0 ch pau');
  });

  it('never stresses a reduced vowel, and spells diphthongs with two phones where Flite has none', () => {
    assert.equal(phones('ˈə'), 'pau ax0 pau');
    assert.equal(phones('nɪə'), 'pau n ih0 ax0 pau');
  });

  it('gives nothing for no sound, and refuses what it has no phone for', () => {
    assert.equal(phones(' . '), '');
    for (const [ipa, symbol] of [
      ['bɔ̃ʒuʁ', 'ɔ̃'],
      ['ʔ', 'ʔ'],
      ['x', 'x'],
      ['[[h@l]]', '['],
    ]) {
      const read = ipaToFlitePhones(ipa as string);
      assert.deepEqual(read, { ok: false, symbol });
    }
  });
});
