import type { StreamFormat } from '../speech/audio/formats.ts';
import type { EngineId } from '../speech/engines/engine.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import type { Voice, VoiceGroup } from '../speech/voices/voices.ts';
import { html, type SafeHtml } from './html.ts';
import type { MessageKey } from './i18n/catalogue.ts';
import type { Translator } from './i18n/translator.ts';

// The speech catalogue's names (languages, genders, voice groups, engines) as the pages say them:
// each a message, so a new language, group or engine fails to compile until it has its words.

export const languageNameKey: Readonly<Record<LanguageCode, MessageKey>> = {
  rw: 'language.name.rw',
  en: 'language.name.en',
  fr: 'language.name.fr',
};

/** What the landing page says of each spoken language. */
export const languageNoteKey: Readonly<Record<LanguageCode, MessageKey>> = {
  rw: 'landing.languageNote.rw',
  en: 'landing.languageNote.en',
  fr: 'landing.languageNote.fr',
};

export const genderKey: Readonly<Record<Voice['gender'], MessageKey>> = {
  female: 'voice.gender.female',
  male: 'voice.gender.male',
};

export const groupKey: Readonly<Record<VoiceGroup, MessageKey>> = {
  kinyarwanda: 'voice.group.kinyarwanda',
  'us-english': 'voice.group.usEnglish',
  'african-english': 'voice.group.africanEnglish',
  french: 'voice.group.french',
};

/** How each engine makes speech, in a phrase. */
export const engineMethodKey: Readonly<Record<EngineId, MessageKey>> = {
  'espeak-ng': 'engine.method.espeakNg',
  flite: 'engine.method.flite',
  neural: 'engine.method.neural',
};

/** A spoken language's name, for a code the speech catalogue may not know (an old ledger row): the code itself. */
export function languageName(t: Translator, code: string | null): string {
  if (code === null) return '';
  const key = (languageNameKey as Readonly<Record<string, MessageKey>>)[code];
  return key === undefined ? code : t.text(key);
}

/** A voice's gender in words; one the site has no words for shows as its code. */
export function genderName(t: Translator, gender: string): SafeHtml {
  const key = (genderKey as Readonly<Record<string, MessageKey>>)[gender];
  return key === undefined ? html`<code>${gender}</code>` : html`${t.text(key)}`;
}

/** A voice group as people say it: "us-english" is "US English"; one the site has no words for shows as code. */
export function groupName(t: Translator, group: string): SafeHtml {
  const key = (groupKey as Readonly<Record<string, MessageKey>>)[group];
  return key === undefined ? html`<code>${group}</code>` : html`${t.text(key)}`;
}

/** A stream format's encoding and rate in words: "16-bit PCM, 8 kHz", "G.711 mu-law, 8 kHz". */
export function formatDescription(
  t: Translator,
  format: Pick<StreamFormat, 'encoding' | 'sampleRate'>,
): string {
  const khz = t.number(format.sampleRate / 1000);
  switch (format.encoding) {
    case 'pcm_s16le':
      return t.text('format.stream.pcm', { khz });
    case 'mulaw':
      return t.text('format.stream.mulaw', { khz });
    case 'alaw':
      return t.text('format.stream.alaw', { khz });
  }
}
