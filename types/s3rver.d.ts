// The package ships no typings: these cover the part of its API that the tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  export interface S3rverOptions {
    readonly address?: string;
    /** 0 for a free port. */
    readonly port?: number;
    readonly silent?: boolean;
    /** Where objects are kept on disk. */
    readonly directory?: string;
    readonly resetOnClose?: boolean;
    /** Buckets made at start. */
    readonly configureBuckets?: readonly { readonly name: string }[];
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
