// The part of Bun's API these examples use, so that this repository type-checks them
// without @types/bun (tsconfig.json here). In your own project, `bun add -d @types/bun`
// and delete this file.
declare const Bun: {
  /** The environment (the same object as `process.env`). */
  readonly env: Record<string, string | undefined>;
  /** Serves HTTP with a Fetch handler; `port: 0` takes a free port. */
  serve(options: {
    port?: number;
    hostname?: string;
    fetch(request: Request): Response | Promise<Response>;
  }): { readonly port: number; stop(closeActiveConnections?: boolean): Promise<void> };
};
