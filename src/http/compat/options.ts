import type { AccountService } from '../../accounts/accounts.ts';
import type { CallServices } from '../../calls/call-services.ts';
import type { RateLimitStore } from '../../store/rate-limit/rate-limit-store.ts';
import type { LiveSockets } from '../routes/live.ts';
import type { TtsLexicons } from '../tts-request.ts';

/** What every compatible protocol's routes are given: the call room's services and the limits. */
export interface CompatibleOptions extends CallServices {
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly rateLimit: RateLimitStore;
  readonly requestsPerMinute: number;
  readonly lexicons: TtsLexicons;
  /** The operator's contact for buying tokens, named in a 402. */
  readonly supportEmail: string | null;
  /** The most characters one request speaks: the stream endpoint's limit. */
  readonly maxChars: number;
  /** The live connections of this instance, which a protocol's sockets join. */
  readonly sockets: LiveSockets;
}
