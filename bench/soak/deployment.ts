import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSource } from '../../src/store/db/database.ts';
import { admin, field } from '../../test/helpers/admin-cli.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../../test/helpers/private-postgres.ts';
import { type PrivateRedis, startPrivateRedis } from '../../test/helpers/private-redis.ts';
import { type S3TestServer, startS3Server } from '../../test/helpers/s3-server.ts';
import { writeVoicePack } from '../../test/helpers/voice-packs.ts';
import { SoakService } from './service.ts';

// What the soak runs against. Embedded: one instance on its defaults (SQLite and the file folder
// under its DATA_DIR), with a tiny neural voice pack installed and assigned to Mugisha (rw speaker
// 1) as an operator does it (`voice install`, `voice assign`), so that part of the traffic runs
// through a neural runtime process. Scale-out: two instances, each with a folder of its own,
// sharing a private PostgreSQL, a private Redis and an S3-compatible bucket, as the scale-out
// tests run them; the machine's shared PostgreSQL and Redis are never touched.

export type SoakMode = 'embedded' | 'scale-out';

/** The voice the neural pack speaks in the embedded mode. */
export const NEURAL_VOICE = { language: 'rw', speakerId: 1 } as const;

/** How the instances run, beside their stores. */
export interface InstanceOptions {
  /** The checkout whose `npm start` they run; this one by default. */
  readonly dir?: URL;
  /** Settings of their own (the stores' are the deployment's). */
  readonly env?: NodeJS.ProcessEnv;
}

export class SoakDeployment {
  readonly mode: SoakMode;
  /** The run's temporary folder: the instances' DATA_DIRs are under it. */
  readonly folder: string;
  /** The database the instances share: accounts are made and the ledger read through it. */
  readonly database: DatabaseSource;
  readonly postgres: PrivatePostgres | undefined;
  readonly redis: PrivateRedis | undefined;
  readonly #s3: S3TestServer | undefined;
  readonly #instances: InstanceOptions;
  #services: SoakService[] = [];

  private constructor(
    mode: SoakMode,
    folder: string,
    database: DatabaseSource,
    stores: { postgres?: PrivatePostgres; redis?: PrivateRedis; s3?: S3TestServer } = {},
    instances: InstanceOptions = {},
  ) {
    this.#instances = instances;
    this.mode = mode;
    this.folder = folder;
    this.database = database;
    this.postgres = stores.postgres;
    this.redis = stores.redis;
    this.#s3 = stores.s3;
  }

  /** Makes the stores (and, embedded, installs the neural pack); no instance runs yet. */
  static async create(mode: SoakMode, instances: InstanceOptions = {}): Promise<SoakDeployment> {
    const folder = await mkdtemp(join(tmpdir(), 'ijwi-soak-'));
    if (mode === 'embedded') {
      await installNeuralPack(folder);
      const database = { kind: 'sqlite', file: join(folder, 'ijwi.sqlite') } as const;
      return new SoakDeployment(mode, folder, database, {}, instances);
    }
    const [postgres, redis, s3] = await Promise.all([
      startPrivatePostgres(),
      startPrivateRedis(),
      startS3Server(),
    ]);
    return new SoakDeployment(
      mode,
      folder,
      { kind: 'postgres', url: postgres.url },
      { postgres, redis, s3 },
      instances,
    );
  }

  /** The running instances: one embedded, two scaled out. */
  get services(): readonly SoakService[] {
    return this.#services;
  }

  /** The embedded instance's DATA_DIR (its generated files are in `generated/` under it). */
  get dataDir(): string {
    return this.folder;
  }

  /** Whether a neural pack speaks `NEURAL_VOICE`. */
  get neural(): boolean {
    return this.mode === 'embedded';
  }

  /** Starts the instances; resolves once each one's health answers 200. */
  async start(): Promise<void> {
    if (this.mode === 'embedded') {
      const env = { ...this.#instances.env, DATA_DIR: this.folder };
      this.#services = [await SoakService.start(env, this.#instances.dir)];
      return;
    }
    const shared = {
      ...this.#instances.env,
      DATABASE_URL: this.postgres?.url ?? '',
      REDIS_URL: this.redis?.url ?? '',
      ...this.#s3?.env('generated/'),
    };
    this.#services = await Promise.all(
      [0, 1].map((i) =>
        SoakService.start({ ...shared, DATA_DIR: join(this.folder, `instance-${i}`) }, this.#instances.dir),
      ),
    );
  }

  /** SIGTERM to every instance, and their exits. */
  async stop(): Promise<void> {
    await Promise.all(this.#services.map((s) => s.stop()));
  }

  /** The stores stopped and every folder removed. */
  async close(): Promise<void> {
    await this.stop();
    await Promise.all([this.postgres?.close(), this.redis?.close(), this.#s3?.close()]);
    await rm(this.folder, { recursive: true, force: true });
  }
}

/** A tiny MMS pack installed under `dataDir`'s voices and assigned to `NEURAL_VOICE`, by the admin tool. */
async function installNeuralPack(dataDir: string): Promise<void> {
  const pack = writeVoicePack(join(dataDir, 'pack-source'), { kind: 'mms' });
  const env = { DATA_DIR: dataDir };
  const installed = await admin(['voice', 'install', '--folder', pack], env);
  if (installed.code !== 0) throw new Error(`voice install failed: ${installed.stderr}`);
  const assigned = await admin(
    [
      'voice',
      'assign',
      '--voice',
      field(installed.stdout, 'voice'),
      '--language',
      NEURAL_VOICE.language,
      '--speaker-id',
      String(NEURAL_VOICE.speakerId),
    ],
    env,
  );
  if (assigned.code !== 0) throw new Error(`voice assign failed: ${assigned.stderr}`);
}
