import { integratedLoudness } from '../audio/loudness-meter.ts';
import { littleEndianBytesToInt16 } from '../audio/pcm.ts';
import type { EnginePool } from '../pool/engine-pool.ts';
import { plainSpeech, synthesize } from '../synthesize.ts';
import type { LanguageCode } from '../text/verbalizer.ts';
import type { Voice } from '../voices/voices.ts';

/**
 * Every voice's integrated loudness, in LUFS (ITU-R BS.1770, EBU R128): AES TD1008's anchor for
 * speech in streams and on-demand audio, automated voice announcements included, in the -16 to
 * -20 LUFS range of AES TD1004 for network playback. Why this one: `README.md`.
 */
export const LOUDNESS_TARGET_LUFS = -18;

/**
 * What each voice is measured on: receptionist turns of its language (the first fifteen of the
 * bench's `turns.json`), about a minute of speech a voice. The tests check the calibration on
 * other turns.
 */
export const calibrationSentences: Readonly<Record<LanguageCode, readonly string[]>> = {
  rw: [
    'Muraho neza, murakaza neza kuri Ijwi.',
    'Mwaramutse! Nabafasha iki uyu munsi?',
    'Mwiriwe, ni iki nabakorera?',
    'Murakoze guhamagara. Mwihangane gato.',
    'Ese mwifuza kuvugana na muganga?',
    'Ibiro byacu bifungura saa mbiri za mu gitondo.',
    'Nimero yanyu ya telefoni ni iyihe?',
    'Gahunda yanyu yemejwe ku wa kabiri.',
    'Amafaranga mugomba kwishyura ni ibihumbi bitanu.',
    'Murakoze cyane, mugire umunsi mwiza!',
    'Mwatubwira amazina yanyu yose?',
    'Muganga azaboneka ejo mu gitondo.',
    'Ese mushaka guhindura gahunda yanyu?',
    'Twabohereje ubutumwa bugufi kuri telefoni yanyu.',
    'Mwihangane, umurongo urahuze. Mwongere muhamagare nyuma.',
  ],
  en: [
    'Good morning, thank you for calling Kigali Heights Clinic.',
    'How can I help you today?',
    'I can book that appointment for you. Which day suits you best?',
    'Doctor Uwimana is available on Tuesday at ten thirty.',
    'Could you please spell your last name for me?',
    'Your appointment is confirmed. You will receive a text message shortly.',
    "I'm sorry, the office is closed for the public holiday.",
    'Please hold for a moment while I check the schedule.',
    'The consultation fee is five thousand Rwandan francs.',
    'Is there anything else I can help you with?',
    "Thank you for your patience. I'm transferring you now.",
    'May I have the phone number we should call you back on?',
    'We are open from eight in the morning until six in the evening.',
    "I didn't quite catch that. Could you say it again?",
    'Your order has been shipped and should arrive tomorrow.',
  ],
  fr: [
    "Bonjour, merci d'avoir appelé la clinique de Kigali.",
    "Comment puis-je vous aider aujourd'hui ?",
    'Je peux vous prendre un rendez-vous. Quel jour vous convient ?',
    'Le docteur Mukamana est disponible mardi à dix heures trente.',
    "Pourriez-vous épeler votre nom de famille, s'il vous plaît ?",
    'Votre rendez-vous est confirmé. Vous recevrez un SMS sous peu.',
    "Je suis désolée, nos bureaux sont fermés aujourd'hui.",
    "Veuillez patienter un instant, je vérifie l'agenda.",
    'La consultation coûte cinq mille francs rwandais.',
    'Puis-je vous aider pour autre chose ?',
    'Merci de votre patience, je vous transfère.',
    'À quel numéro pouvons-nous vous rappeler ?',
    'Nous sommes ouverts de huit heures à dix-huit heures.',
    "Je n'ai pas bien compris. Pouvez-vous répéter ?",
    'Votre commande a été expédiée et arrivera demain.',
  ],
};

/**
 * The integrated loudness of `voice` at `gainDb` over `sentences` (the calibration sentences of
 * its language by default), measured on the audio the service delivers at the voice's own rate,
 * the sentences one after another as one programme.
 */
export async function voiceLoudness(
  pool: EnginePool,
  voice: Voice,
  gainDb: number,
  sentences: readonly string[] = calibrationSentences[voice.language],
): Promise<number> {
  const parts: Uint8Array[] = [];
  for (const sentence of sentences) {
    const request = { ...plainSpeech(sentence, voice.language), voice: { ...voice, gainDb } };
    for await (const event of synthesize(pool, { ...request, target: { kind: 'native' } }))
      if (event.type === 'audio') parts.push(event.bytes);
  }
  return integratedLoudness(littleEndianBytesToInt16(Buffer.concat(parts)), voice.sampleRate);
}

/** A voice's calibration: its loudness as its engine makes it, and the gain that brings it to the target. */
export interface Calibration {
  readonly measuredLufs: number;
  readonly gainDb: number;
}

/** Gains are kept to a tenth of a dB, well under what a listener can tell apart. */
const roundGain = (db: number): number => Math.round(db * 10) / 10;

/**
 * Measures `voice` without gain and gives the gain that brings it to `LOUDNESS_TARGET_LUFS`,
 * checked by a second measurement at that gain: the limiter takes a little off the loudest
 * voices' peaks, which the second pass puts back. Undefined for a voice that makes no audio loud
 * enough to measure (silence).
 */
export async function calibrate(pool: EnginePool, voice: Voice): Promise<Calibration | undefined> {
  const measuredLufs = await voiceLoudness(pool, voice, 0);
  if (!Number.isFinite(measuredLufs)) return undefined;
  const first = roundGain(LOUDNESS_TARGET_LUFS - measuredLufs);
  const atFirst = await voiceLoudness(pool, voice, first);
  return { measuredLufs, gainDb: roundGain(first + LOUDNESS_TARGET_LUFS - atFirst) };
}
