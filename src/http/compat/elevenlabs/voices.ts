import { languages, type Voice, type VoiceGroup } from '../../../speech/voices/voices.ts';
import { voiceIdOf } from '../voice-id.ts';

/** The model ids listed by `GET /v1/models`: every one speaks every voice (the voice chooses). */
export const ELEVENLABS_MODEL_IDS = [
  'eleven_multilingual_v2',
  'eleven_flash_v2_5',
  'eleven_turbo_v2_5',
  'eleven_v3',
] as const;

const accentOf: Readonly<Record<VoiceGroup, string>> = {
  kinyarwanda: 'rwandan',
  'us-english': 'american',
  'african-english': 'african',
  french: 'french',
};

function languageName(voice: Voice): string {
  return languages.find((l) => l.code === voice.language)?.name ?? voice.language;
}

/** A voice in ElevenLabs' `Voice` shape; the labels carry its language and accent. */
export function elevenLabsVoice(voice: Voice) {
  const accent = accentOf[voice.group];
  return {
    voice_id: voiceIdOf(voice),
    name: voice.name,
    category: 'premade',
    labels: {
      language: voice.language,
      accent,
      gender: voice.gender,
      use_case: 'conversational',
    },
    description: `${languageName(voice)} (${accent} accent), ${voice.gender}`,
    available_for_tiers: [],
    high_quality_base_model_ids: [...ELEVENLABS_MODEL_IDS],
    verified_languages: ELEVENLABS_MODEL_IDS.map((model_id) => ({
      language: voice.language,
      model_id,
      accent,
    })),
    is_owner: false,
    is_legacy: false,
  };
}

/** A model in ElevenLabs' `Model` shape, listing the languages of Ijwi's voices. */
export function elevenLabsModel(modelId: (typeof ELEVENLABS_MODEL_IDS)[number], maxChars: number) {
  return {
    model_id: modelId,
    name: modelId,
    can_be_finetuned: false,
    can_do_text_to_speech: true,
    can_do_voice_conversion: false,
    can_use_style: false,
    can_use_speaker_boost: false,
    serves_pro_voices: false,
    token_cost_factor: 1,
    description: 'Every Ijwi voice in its own language; the voice id chooses the language.',
    requires_alpha_access: false,
    max_characters_request_free_user: maxChars,
    max_characters_request_subscribed_user: maxChars,
    maximum_text_length_per_request: maxChars,
    languages: languages.map((l) => ({ language_id: l.code, name: l.name })),
    model_rates: { character_cost_multiplier: 1 },
  };
}
