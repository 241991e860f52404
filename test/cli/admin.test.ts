import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as tar from 'tar';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService } from '../../src/accounts/billing.ts';
import { hasValidChecksum } from '../../src/accounts/keys.ts';
import { TopUpRequestService } from '../../src/accounts/topup-requests.ts';
import { accountCommands } from '../../src/cli/admin/accounts.ts';
import { voicePackCommands } from '../../src/cli/admin/voice-packs.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { admin, field, withoutStores } from '../helpers/admin-cli.ts';
import { postgres, storeFactories } from '../helpers/databases.ts';
import { packMetadata, writeVoicePack } from '../helpers/voice-packs.ts';

// The operator workflow from the API contract (Billing: "an operator credits tokens with the admin
// command-line tool ... a top-up below 289 tokens is refused"; Authentication: keys shown once).

let dir: string;
let dbPath: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-admin-'));
  dbPath = join(dir, 'admin.sqlite');
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('admin command line', () => {
  it('keeps an account’s lexicon, which `say --show normalized --account` reads', async () => {
    // The file `say` finds as the service's own database: DATA_DIR/ijwi.sqlite.
    const lexiconDb = join(dir, 'ijwi.sqlite');
    const created = await admin(['account', 'create', '--name', 'Lexicon Clinic', '--db', lexiconDb]);
    const account = field(created.stdout, 'account');
    const add = (...extra: string[]) =>
      admin(['lexicon', 'add', '--account', account, '--language', 'en', '--db', lexiconDb, ...extra]);
    const added = await add('--phrase', 'Uwase', '--respelling', 'oo wah seh');
    assert.equal(added.code, 0, added.stderr);
    const refused = await add('--phrase', 'Mugisha', '--ipa', 'ʘ');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /cannot say "ʘ"/);
    assert.equal((await add('--phrase', 'Both', '--ipa', 'a', '--respelling', 'b')).code, 2);
    const named = await add('--phrase', 'Gisozi', '--respelling', 'Gisozi', '--word-language', 'rw');
    assert.equal(named.code, 0, named.stderr);
    const ipaNamed = await add('--phrase', 'Nyanza', '--ipa', 'njanza', '--word-language', 'rw');
    assert.equal(ipaNamed.code, 1);
    assert.match(ipaNamed.stderr, /--word-language: an IPA entry is said as its IPA is written/);
    const listed = await admin(['lexicon', 'list', '--account', account, '--db', lexiconDb]);
    assert.match(listed.stdout, /Uwase\s+respelling\s+oo wah seh\s+-/);
    assert.match(listed.stdout, /Gisozi\s+respelling\s+Gisozi\s+rw/);

    const say = fileURLToPath(new URL('../../src/cli/say.ts', import.meta.url));
    const normalized = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          say,
          '-l',
          'en',
          '--show',
          'normalized',
          '--account',
          account,
          'Ask Uwase at 9am.',
        ],
        { env: { ...withoutStores(), DATA_DIR: dir }, timeout: 30_000 },
        (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
      );
    });
    assert.equal(normalized.trim(), 'Ask oo wah seh at nine a m.');

    for (const [entry] of listed.stdout.matchAll(/^lex_\w+/gm)) {
      assert.equal(
        (await admin(['lexicon', 'remove', '--account', account, '--entry', entry, '--db', lexiconDb])).code,
        0,
      );
    }
    assert.match(
      (await admin(['lexicon', 'list', '--account', account, '--db', lexiconDb])).stdout,
      /no lexicon entries/,
    );
  });

  it('lists customers’ requests to buy tokens and credits an approved one once, even approved twice at once', async () => {
    const created = await admin(['account', 'create', '--name', 'Buying Clinic', '--db', dbPath]);
    const account = field(created.stdout, 'account');
    const db = await openDatabase(dbPath);
    const requests = new TopUpRequestService(db.topUpRequests, new BillingService(db));
    const made = await requests.request(account, 350);
    const declined = await requests.request(account, 300);
    await db.close();
    assert.ok(made.ok && declined.ok);
    const listed = await admin(['topup-requests', '--db', dbPath]);
    assert.match(listed.stdout, new RegExp(`${made.request.reference}\\s+${account}\\s+350\\s+14\\.00 USD`));
    const approvals = await Promise.all([
      admin(['topup-requests', 'approve', '--request', made.request.id, '--db', dbPath]),
      admin(['topup-requests', 'approve', '--request', made.request.id, '--db', dbPath]),
    ]);
    for (const approval of approvals) assert.equal(approval.code, 0, approval.stderr);
    const refused = await admin([
      'topup-requests',
      'decline',
      '--request',
      declined.request.id,
      '--db',
      dbPath,
    ]);
    assert.equal(refused.code, 0, refused.stderr);
    assert.equal(
      (await admin(['topup-requests', 'approve', '--request', declined.request.id, '--db', dbPath])).code,
      1,
    );
    const balance = await admin(['balance', '--account', account, '--db', dbPath]);
    assert.equal(field(balance.stdout, 'balance'), '350', 'credited once, the declined one never');
    assert.match((await admin(['topup-requests', '--db', dbPath])).stdout, /no top-up requests waiting/);
  });

  it('creates an account and a key, tops up and shows the balance', async () => {
    const created = await admin(['account', 'create', '--name', 'Amahoro Clinic', '--db', dbPath]);
    assert.equal(created.code, 0, created.stderr);
    const accountId = field(created.stdout, 'account');
    assert.match(accountId, /^acct_/);

    const key = await admin(['key', 'create', '--account', accountId, '--name', 'reception', '--db', dbPath]);
    assert.equal(key.code, 0, key.stderr);
    const secret = field(key.stdout, 'key');
    assert.ok(hasValidChecksum(secret));
    assert.match(key.stderr, /only time the key is shown/);

    const db = await openDatabase(dbPath);
    try {
      const auth = await new AccountService(db).authenticate(secret);
      assert.deepEqual(auth, { ok: true, accountId, keyId: field(key.stdout, 'id') });
    } finally {
      await db.close();
    }

    const listed = await admin(['key', 'list', '--account', accountId, '--db', dbPath]);
    assert.equal(listed.code, 0);
    assert.ok(listed.stdout.includes(field(key.stdout, 'hint')));
    assert.ok(!listed.stdout.includes(secret), 'the key is never shown again');

    const small = await admin(['topup', '--account', accountId, '--tokens', '288', '--db', dbPath]);
    assert.equal(small.code, 1);
    assert.match(small.stderr, /at least 289 tokens/);

    const topUp = await admin(['topup', '--account', accountId, '--tokens', '300', '--db', dbPath]);
    assert.equal(topUp.code, 0, topUp.stderr);
    assert.equal(field(topUp.stdout, 'balance'), '300');

    const balance = await admin(['balance', '--account', accountId, '--db', dbPath]);
    assert.equal(balance.code, 0);
    assert.equal(field(balance.stdout, 'balance'), '300');
    assert.equal(field(balance.stdout, 'free generations left'), '5');

    const ledger = await admin(['ledger', '--account', accountId, '--db', dbPath]);
    assert.equal(ledger.code, 0);
    assert.match(ledger.stdout, /top_up\s+\+300/);

    // A stream refunded after an early charge (its client left before the first audio) cost the
    // customer nothing and is not shown; one that stood is.
    const billed = await openDatabase(dbPath);
    try {
      const billing = new BillingService(billed);
      for (let i = 0; i < 5; i++) {
        const trial = { tokens: 1, seconds: 1, characters: 5, language: 'en' as const, studio: false };
        assert.ok((await billing.commitCharge(accountId, { ...trial, requestId: `req_trial_${i}` })).ok);
      }
      const stream = { tokens: 2, seconds: 30, characters: 150, language: 'en' as const, studio: false };
      assert.ok((await billing.commitCharge(accountId, { ...stream, requestId: 'req_left_early' })).ok);
      assert.ok((await billing.refundCharge(accountId, 'req_left_early')).ok);
      assert.ok((await billing.commitCharge(accountId, { ...stream, requestId: 'req_heard' })).ok);
    } finally {
      await billed.close();
    }
    const netted = await admin(['ledger', '--account', accountId, '--db', dbPath]);
    assert.equal(netted.code, 0, netted.stderr);
    assert.match(netted.stdout, /charge\s+-2\s.*req_heard/);
    assert.doesNotMatch(netted.stdout, /req_left_early/);

    const revoke = await admin(['key', 'revoke', '--key', field(key.stdout, 'id'), '--db', dbPath]);
    assert.equal(revoke.code, 0, revoke.stderr);
    const again = await admin(['key', 'revoke', '--key', field(key.stdout, 'id'), '--db', dbPath]);
    assert.equal(again.code, 1);
  });

  it('puts the database in DATA_DIR when no --db is given', async () => {
    const dataDir = join(dir, 'data-dir');
    const created = await admin(['account', 'create', '--name', 'Env Test'], { DATA_DIR: dataDir });
    assert.equal(created.code, 0, created.stderr);
    assert.ok(existsSync(join(dataDir, 'ijwi.sqlite')));
  });

  it('lists every command of both tools in its help, each once, and exits 0', async () => {
    const help = await admin(['--help']);
    assert.equal(help.code, 0);
    const names = [...accountCommands, ...voicePackCommands].map((c) => c.name);
    // Each line that names a command, by the longest name it starts with (`topup-requests approve`).
    const named = help.stderr.split('\n').flatMap((line) => {
      const [longest] = names
        .filter((name) => line === `  ${name}` || line.startsWith(`  ${name} `))
        .sort((a, b) => b.length - a.length);
      return longest === undefined ? [] : [longest];
    });
    for (const name of names) {
      // `voice install` has a line for each way to give the pack: a folder, an archive, a URL.
      const expected = name === 'voice install' ? 3 : 1;
      assert.equal(named.filter((n) => n === name).length, expected, `${name} in:\n${help.stderr}`);
    }
  });

  it('exits 1 for an unknown account and 2 for a bad command line, without creating a database', async () => {
    const unknown = await admin(['balance', '--account', 'acct_nobody', '--db', dbPath]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no account acct_nobody/);

    const untouched = join(dir, 'never.sqlite');
    for (const args of [
      ['frobnicate'],
      ['topup', '--acount', 'x'],
      ['topup', '--account', 'x', '--tokens', '2.5'],
    ]) {
      const result = await admin([...args, '--db', untouched]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /usage: npm run admin/);
    }
    assert.ok(!existsSync(untouched));
  });
});

describe('admin command line on PostgreSQL', { skip: postgres.skip }, () => {
  const stores = storeFactories().find((s) => s.kind === 'postgres');

  before(() => stores?.assertReachable());
  after(() => stores?.dispose());

  it('uses DATABASE_URL, as the service does, when no --db is given', async () => {
    assert.ok(stores);
    const source = await stores.create();
    assert.ok(source.kind === 'postgres');
    const dataDir = join(dir, 'unused-data-dir');
    const created = await admin(['account', 'create', '--name', 'Shared Ledger'], {
      DATABASE_URL: source.url,
      DATA_DIR: dataDir,
    });
    assert.equal(created.code, 0, created.stderr);
    const db = await openDatabase(source);
    try {
      assert.equal((await db.accounts.find(field(created.stdout, 'account')))?.name, 'Shared Ledger');
    } finally {
      await db.close();
    }
    assert.ok(!existsSync(join(dataDir, 'ijwi.sqlite')), 'no SQLite file was made');
  });
});

describe('admin command line configuration', () => {
  it('exits 2 naming DATABASE_URL when it is not a PostgreSQL URL', async () => {
    const result = await admin(['balance', '--account', 'acct_x'], { DATABASE_URL: 'mysql://db/ijwi' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
  });
});

describe('admin voice packs', () => {
  it('passes a good voice pack with its licence, refuses a broken one naming the piece, and opens no database', async () => {
    const good = await admin(
      ['voice', 'check', '--folder', writeVoicePack(join(dir, 'good-pack'), { kind: 'mms' })],
      {
        DATA_DIR: join(dir, 'no-data'),
      },
    );
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /Tiny mms: a mms voice pack for rw, 16000 Hz/);
    assert.match(good.stdout, /licence: CC BY 4.0/);

    const metadata = packMetadata('mms', 16_000);
    delete metadata.n_speakers;
    const broken = writeVoicePack(join(dir, 'broken-pack'), {
      kind: 'mms',
      metadata,
      manifest: { licence: { name: 'CC BY-NC 4.0', url: 'https://example.org/nc', commercial: false } },
    });
    const refused = await admin(['voice', 'check', '--folder', broken], { DATA_DIR: join(dir, 'no-data') });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused:\n {2}- the model's metadata has no n_speakers/);
    assert.equal(existsSync(join(dir, 'no-data')), false);
  });

  it('installs a checked copy of a pack, lists it, refuses it twice, and removes it', async () => {
    const env = { DATA_DIR: join(dir, 'voices-data') };
    const source = writeVoicePack(join(dir, 'install-pack'), {
      kind: 'piper',
      sampleRate: 22_050,
      manifest: { name: 'Amy (medium)' },
    });
    writeFileSync(join(source, 'notes.txt'), 'not named by the manifest: not copied');
    const installed = await admin(['voice', 'install', '--folder', source], env);
    assert.equal(installed.code, 0, installed.stderr);
    assert.equal(field(installed.stdout, 'voice'), 'amy-medium');
    const copy = join(dir, 'voices-data', 'voices', 'amy-medium');
    assert.ok(existsSync(join(copy, 'model.onnx')) && existsSync(join(copy, 'espeak-ng-data', 'phontab')));
    assert.equal(existsSync(join(copy, 'notes.txt')), false);
    // The copy is the installed pack: the source may go.
    rmSync(source, { recursive: true });

    const again = await admin(
      [
        'voice',
        'install',
        '--folder',
        writeVoicePack(source, { kind: 'piper', sampleRate: 22_050, manifest: { name: 'Amy (medium)' } }),
      ],
      env,
    );
    assert.equal(again.code, 1);
    assert.match(again.stderr, /amy-medium is installed already/);

    const listed = await admin(['voice', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /amy-medium\s+piper\s+en\s+CC BY 4.0\s+-\s+ok/);

    // A file broken after installation shows in the list, not as a healthy voice.
    writeFileSync(join(copy, 'tokens.txt'), 'a 1\na 2\n');
    assert.match(
      (await admin(['voice', 'list'], env)).stdout,
      /amy-medium .*broken: the tokens file tokens.txt line 2: symbol "a" appears twice/,
    );

    assert.equal((await admin(['voice', 'remove', '--voice', 'amy-medium'], env)).code, 0);
    assert.equal(existsSync(copy), false);
    const gone = await admin(['voice', 'remove', '--voice', '../../etc'], env);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /no voice \.\.\/\.\.\/etc is installed/);
    assert.match((await admin(['voice', 'list'], env)).stdout, /no voice packs installed/);
  });

  it('assigns an installed pack to a voice of its language, keeps it while assigned, and reverts', async () => {
    const env = { DATA_DIR: join(dir, 'voices-assign') };
    const source = writeVoicePack(join(dir, 'assign-pack'), {
      kind: 'mms',
      manifest: {
        name: 'Kinyarwanda tiny',
        licence: { name: 'CC BY-NC 4.0', url: 'https://example.org/nc', commercial: false },
      },
    });
    // The pack may be named after the command, as a folder or a URL, or by its option: not both.
    const both = await admin(['voice', 'install', source, '--folder', source], env);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give the pack once/);
    assert.equal((await admin(['voice', 'check', source], env)).code, 0);
    const install = await admin(['voice', 'install', source], env);
    assert.equal(install.code, 0, install.stderr);
    // Its speaker measured at install, as the built-in voices are, and the gain kept with the pack.
    assert.match(install.stdout, /loudness of speaker 0: -?\d+\.\d LUFS, spoken at -18 LUFS \(gain [+-]\d/);
    const manifest = JSON.parse(
      readFileSync(join(dir, 'voices-assign', 'voices', 'kinyarwanda-tiny', 'ijwi-voice.json'), 'utf8'),
    );
    assert.equal(typeof manifest.speakers[0].gainDb, 'number');
    const assign = (...args: string[]) =>
      admin(['voice', 'assign', '--voice', 'kinyarwanda-tiny', ...args], env);

    const wrongLanguage = await assign('--language', 'en', '--speaker-id', '0');
    assert.equal(wrongLanguage.code, 1);
    assert.match(wrongLanguage.stderr, /kinyarwanda-tiny speaks rw, not en/);
    const noSpeaker = await assign('--language', 'rw', '--speaker-id', '0', '--pack-speaker', '3');
    assert.equal(noSpeaker.code, 1);
    assert.match(noSpeaker.stderr, /has no speaker 3 \(its speakers: 0\)/);
    const noSlot = await assign('--language', 'rw', '--speaker-id', '9');
    assert.equal(noSlot.code, 1);
    assert.match(noSlot.stderr, /there is no voice rw\/9/);
    const notInstalled = await admin(
      ['voice', 'assign', '--voice', 'nobody', '--language', 'rw', '--speaker-id', '1'],
      env,
    );
    assert.equal(notInstalled.code, 1);
    assert.match(notInstalled.stderr, /nobody: ijwi-voice.json is missing/);
    assert.equal((await assign('--language', 'xx', '--speaker-id', '1')).code, 2);
    const outside = await admin(
      ['voice', 'assign', '--voice', '../assign-pack', '--language', 'rw', '--speaker-id', '1'],
      env,
    );
    assert.equal(outside.code, 1, 'a pack outside the voices folder is not a voice pack id');
    assert.match(outside.stderr, /no voice pack \.\.\/assign-pack is installed/);

    const assigned = await assign('--language', 'rw', '--speaker-id', '1');
    assert.equal(assigned.code, 0, assigned.stderr);
    assert.match(assigned.stdout, /rw\/1 \(Mugisha\) is spoken by kinyarwanda-tiny, speaker 0/);
    assert.match(assigned.stdout, /NOT for commercial use/);
    assert.match(assigned.stdout, /restart the service/);
    assert.match(
      (await admin(['voice', 'list'], env)).stdout,
      /kinyarwanda-tiny\s+mms\s+rw\s+CC BY-NC 4.0\s+rw\/1\s+ok/,
    );

    const removeAssigned = await admin(['voice', 'remove', '--voice', 'kinyarwanda-tiny'], env);
    assert.equal(removeAssigned.code, 1);
    assert.match(removeAssigned.stderr, /kinyarwanda-tiny speaks rw\/1: revert first/);

    const reverted = await admin(['voice', 'revert', '--language', 'rw', '--speaker-id', '1'], env);
    assert.equal(reverted.code, 0, reverted.stderr);
    assert.match(reverted.stdout, /rw\/1 is the built-in voice again/);
    const twice = await admin(['voice', 'revert', '--language', 'rw', '--speaker-id', '1'], env);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /no voice pack speaks rw\/1/);
    assert.equal((await admin(['voice', 'remove', 'kinyarwanda-tiny'], env)).code, 0);

    // A file that is not the assignments the tool writes is left alone, not overwritten.
    const file = join(dir, 'voices-assign', 'voices', 'assignments.json');
    writeFileSync(file, '{"hand": "edited"}');
    const refused = await admin(['voice', 'revert', '--language', 'rw', '--speaker-id', '1'], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /assignments.json: /);
    assert.equal(readFileSync(file, 'utf8'), '{"hand": "edited"}');
  });

  it('refuses to install a pack holding a link', async () => {
    const env = { DATA_DIR: join(dir, 'voices-links') };
    const source = writeVoicePack(join(dir, 'link-pack'), { kind: 'mms' });
    rmSync(join(source, 'tokens.txt'));
    symlinkSync(join(dir, 'link-target-tokens.txt'), join(source, 'tokens.txt'));
    writeFileSync(join(dir, 'link-target-tokens.txt'), 'a 0\nb 1\n');
    const refused = await admin(['voice', 'install', '--folder', source], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /a pack holds no links/);
    assert.equal(existsSync(join(dir, 'voices-links', 'voices', 'tiny-mms')), false);
  });

  it('installs a pack from a URL (a .tar.gz of its folder), checking its SHA-256, and refuses hostile archives', async () => {
    const env = { DATA_DIR: join(dir, 'voices-url') };
    const packs = join(dir, 'url-packs');
    writeVoicePack(join(packs, 'kinyarwanda-tiny'), { kind: 'mms', manifest: { name: 'Kinyarwanda tiny' } });
    await tar.c({ gzip: true, file: join(dir, 'good.tar.gz'), cwd: packs }, ['kinyarwanda-tiny']);
    const linked = writeVoicePack(join(packs, 'linked'), { kind: 'mms', manifest: { name: 'Linked' } });
    symlinkSync('/etc/passwd', join(linked, 'extra'));
    await tar.c({ gzip: true, file: join(dir, 'linked.tar.gz'), cwd: packs }, ['linked']);
    writeFileSync(join(dir, 'garbage.tar.gz'), 'not an archive at all');
    const server = createServer((request, response) => {
      const file = join(dir, (request.url ?? '/').slice(1));
      if (!/^\/[a-z]+\.tar\.gz$/.test(request.url ?? '') || !existsSync(file)) {
        response.writeHead(404).end('not found');
        return;
      }
      const body = readFileSync(file);
      response.writeHead(200, { 'Content-Length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const sha256 = createHash('sha256')
        .update(readFileSync(join(dir, 'good.tar.gz')))
        .digest('hex');
      const wrong = await admin(
        ['voice', 'install', '--url', `${base}/good.tar.gz`, '--sha256', '0'.repeat(64)],
        env,
      );
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, new RegExp(`SHA-256 is ${sha256}, not 0{64}`));

      const good = await admin(['voice', 'install', `${base}/good.tar.gz`, '--sha256', sha256], env);
      assert.equal(good.code, 0, good.stderr);
      assert.equal(field(good.stdout, 'voice'), 'kinyarwanda-tiny');
      assert.match(good.stderr, /downloaded 100 %/);
      assert.ok(existsSync(join(dir, 'voices-url', 'voices', 'kinyarwanda-tiny', 'model.onnx')));

      const link = await admin(['voice', 'install', '--url', `${base}/linked.tar.gz`], env);
      assert.equal(link.code, 1);
      assert.match(link.stderr, /linked\/extra, a SymbolicLink: a pack holds plain files and folders only/);
      const garbage = await admin(['voice', 'install', '--url', `${base}/garbage.tar.gz`], env);
      assert.equal(garbage.code, 1);
      assert.match(garbage.stderr, /cannot be unpacked/);
      const missing = await admin(['voice', 'install', '--url', `${base}/missing.tar.gz`], env);
      assert.match(missing.stderr, /HTTP 404/);
      const local = await admin(['voice', 'install', '--url', 'file:///etc/passwd'], env);
      assert.match(local.stderr, /over http or https only/);
      assert.equal(
        (await admin(['voice', 'install', '--url', `${base}/good.tar.gz`, '--folder', packs], env)).code,
        2,
      );
    } finally {
      server.close();
    }
  });

  it('refuses a hostile local .tar.bz2 with the reason, and a licence given half or wrong', {
    skip: !existsSync('/usr/bin/bzip2') && 'needs bzip2',
  }, async () => {
    const env = { DATA_DIR: join(dir, 'voices-file') };
    const linked = writeVoicePack(join(dir, 'bz-packs', 'linked'), { kind: 'mms' });
    symlinkSync('/etc/passwd', join(linked, 'extra'));
    await tar.c({ file: join(dir, 'linked.tar'), cwd: join(dir, 'bz-packs') }, ['linked']);
    execFileSync('bzip2', ['-f', join(dir, 'linked.tar')]);
    const refused = await admin(['voice', 'install', join(dir, 'linked.tar.bz2')], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /linked\/extra, a SymbolicLink: a pack holds plain files and folders only/);
    assert.equal(existsSync(join(dir, 'voices-file', 'voices', 'tiny-mms')), false);

    const maybe = await admin(['voice', 'install', linked, '--licence', 'MIT', '--commercial', 'maybe'], env);
    assert.equal(maybe.code, 2);
    assert.match(maybe.stderr, /--commercial must be yes, no or unknown/);
    const half = await admin(['voice', 'install', linked, '--licence-url', 'https://example.org/l'], env);
    assert.equal(half.code, 2);
    assert.match(half.stderr, /--licence-url and --commercial go with --licence NAME/);
  });
});
