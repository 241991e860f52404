import type { BillingOutcome } from '../accounts/billing.ts';
import { tokensFor } from '../accounts/billing.ts';
import type { CompressedFormat } from '../speech/audio/compressed-formats.ts';
import { wavHeader } from '../speech/audio/wav.ts';
import { type SynthesisEvent, synthesize } from '../speech/synthesize.ts';
import type { FileExtension, GeneratedFileStore } from '../store/files/file-store.ts';
import { readyPool } from './admission.ts';
import type { CallLog, CallServices } from './call-services.ts';
import { type CallResult, refused, refusingOutages } from './refusal.ts';
import { billingRefusal, type SpeechRequest } from './stream-call.ts';

/** One billed file: who pays, what to say, in a WAV at the voice's rate or a compressed format. */
export interface FileCall {
  readonly accountId: string;
  readonly requestId: string;
  readonly speech: SpeechRequest;
  /** `wav`, or a compressed format. */
  readonly format: 'wav' | CompressedFormat;
  /** Stops synthesis when the client goes. */
  readonly signal: AbortSignal;
}

/** A saved, charged file. */
export interface SpokenFile {
  readonly id: string;
  readonly extension: FileExtension;
  readonly seconds: number;
  readonly billing: BillingOutcome;
}

/**
 * Speaks `call` into a stored file and charges it: checked against the balance first, written as
 * it is spoken (never held whole: a 10,000-character WAV is tens of MB), saved, then charged for
 * its exact duration; deleted unless the charge commits, so there is never a charge without a
 * file, nor a reachable file without a charge.
 */
export async function speakFile(
  services: CallServices,
  files: GeneratedFileStore,
  call: FileCall,
  log: CallLog,
): Promise<CallResult<{ readonly file: SpokenFile }>> {
  return refusingOutages(log, () => chargedFile(services, files, call));
}

async function chargedFile(
  services: CallServices,
  files: GeneratedFileStore,
  call: FileCall,
): Promise<CallResult<{ readonly file: SpokenFile }>> {
  const { speech, accountId } = call;
  const ready = readyPool(services.pool);
  if (!ready.ok) return ready;
  const tokens = tokensFor(speech.document.spokenCharacters, services.charsPerToken);
  const language = speech.voice.language;
  const precheck = await services.billing.precheck(accountId, tokens, 0, { language });
  if (!precheck.ok) return refused(billingRefusal(precheck));
  const wav = call.format === 'wav';
  const extension = call.format === 'wav' ? 'wav' : call.format.extension;
  // The WAV header, which needs the audio's length, fills the bytes reserved at the start (its
  // size does not depend on the length).
  const draft = await files.create(extension, wav ? wavHeader(0, speech.voice.sampleRate).length : 0);
  const endCall = services.metrics.callStarted('file');
  let saved: { id: string; seconds: number };
  try {
    let end: Extract<SynthesisEvent, { type: 'end' }> | undefined;
    for await (const event of synthesize(ready.pool, {
      document: speech.document,
      voice: speech.voice,
      target: call.format === 'wav' ? { kind: 'native' } : { kind: 'compressed', format: call.format },
      file: true,
      maxSeconds: speech.maxSeconds,
      signal: call.signal,
      clauses: services.clauseCache?.forAccount(accountId),
    })) {
      if (event.type === 'audio') await draft.append(event.bytes);
      else if (event.type === 'end') end = event;
    }
    if (!end) throw new Error('synthesis ended without a summary');
    if (end.bytes === 0) return refused({ code: 'nothing_to_say' });
    const { id } = await draft.commit(wav ? wavHeader(end.bytes, end.sampleRate) : undefined);
    saved = { id, seconds: end.seconds };
  } finally {
    endCall();
    // Nothing once committed; a temp file a failed removal leaves is swept with the rest.
    await draft.discard().catch(() => {});
  }
  const charge = await services.billing
    .commitCharge(accountId, {
      tokens,
      seconds: saved.seconds,
      characters: speech.document.spokenCharacters,
      language,
      requestId: call.requestId,
      studio: false,
    })
    .catch(async (error: unknown) => {
      await files.delete(saved.id, extension).catch(() => {});
      throw error;
    });
  if (!charge.ok) {
    await files.delete(saved.id, extension);
    return refused(billingRefusal(charge));
  }
  services.metrics.audioDelivered('file', speech.voice.engineVoice.engine, saved.seconds);
  return { ok: true, file: { id: saved.id, extension, seconds: saved.seconds, billing: charge.billing } };
}
