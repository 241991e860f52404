import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { LexiconInput } from '../../accounts/lexicons.ts';
import type { ActiveSession } from '../../accounts/sessions.ts';
import {
  type LexiconFormState,
  type LexiconNotice,
  type LexiconProblem,
  lexiconPage,
} from '../../web/pages/lexicon.ts';
import { sendPage } from '../page-headers.ts';
import type { WebContext } from '../web-context.ts';
import { formField, sessionOrSignIn, webPageContext } from '../web-session.ts';

const NOTICES: readonly LexiconNotice[] = ['added', 'saved', 'deleted', 'not_found'];

function inputOf(request: FastifyRequest): LexiconInput {
  return {
    language: formField(request, 'language'),
    phrase: formField(request, 'phrase'),
    kind: formField(request, 'kind'),
    says: formField(request, 'says'),
    wordLanguage: formField(request, 'word_language'),
  };
}

/** A refused field as the page explains it: IPA has rules of its own. */
function fieldProblem(field: keyof LexiconInput, input: LexiconInput): LexiconProblem {
  if (field === 'says') return input.kind === 'ipa' ? 'saysIpa' : 'says';
  if (field === 'wordLanguage') return input.kind === 'ipa' ? 'wordLanguageIpa' : 'wordLanguage';
  return field;
}

/**
 * GET /dashboard/lexicon and its forms: add (POST /dashboard/lexicon), save
 * (POST /dashboard/lexicon/:id) and delete (POST /dashboard/lexicon/:id/delete). A change that
 * succeeds redirects (303) to the page with a notice, so a reload never repeats it; a refused add
 * shows the form again with each message beside its field.
 */
export const lexiconRoutes: FastifyPluginAsync<WebContext> = async (app, context) => {
  const { lexicons } = context;
  const render = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: ActiveSession,
    extra: { notice?: LexiconNotice; refused?: LexiconFormState },
    status = 200,
  ) =>
    sendPage(
      reply,
      lexiconPage(webPageContext(request), {
        viewer: { kind: 'user', email: session.user.email, csrfToken: session.csrfToken },
        entries: await lexicons.list(session.user.accountId),
        dictionaries: await lexicons.dictionaries(session.user.accountId),
        ...extra,
      }),
      status,
    );

  app.get('/dashboard/lexicon', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const { notice } = request.query as { notice?: unknown };
    const known = NOTICES.find((n) => n === notice);
    return render(request, reply, session, known ? { notice: known } : {});
  });

  app.post('/dashboard/lexicon', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const input = inputOf(request);
    const result = await lexicons.add(session.user.accountId, input);
    if (result.ok) return reply.redirect('/dashboard/lexicon?notice=added', 303);
    const errors: LexiconFormState['errors'] =
      result.code === 'invalid_entry'
        ? { [result.field]: fieldProblem(result.field, input) }
        : result.code === 'duplicate'
          ? { phrase: 'duplicate' }
          : { form: result.code === 'full' ? 'full' : 'notSaved' };
    return render(request, reply, session, { refused: { values: input, errors } }, 400);
  });

  app.post('/dashboard/lexicon/:id', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const { id } = request.params as { id: string };
    const result = await lexicons.update(session.user.accountId, id, inputOf(request));
    if (result.ok) return reply.redirect('/dashboard/lexicon?notice=saved', 303);
    if (result.code === 'not_found') return reply.redirect('/dashboard/lexicon?notice=not_found', 303);
    const input = inputOf(request);
    const problem: LexiconProblem =
      result.code === 'invalid_entry' ? fieldProblem(result.field, input) : 'notSaved';
    return render(request, reply, session, { refused: { values: input, errors: { form: problem } } }, 400);
  });

  app.post('/dashboard/lexicon/:id/delete', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const { id } = request.params as { id: string };
    const result = await lexicons.remove(session.user.accountId, id);
    return reply.redirect(`/dashboard/lexicon?notice=${result.ok ? 'deleted' : 'not_found'}`, 303);
  });
};
