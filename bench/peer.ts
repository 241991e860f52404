import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

// The naive peer the fresh-burst scenario is compared with: one native `espeak-ng --stdout`
// process per request, its whole WAV sent when the process ends. Run as a process of its own by
// the bench (`bench/run.ts`); needs Debian's espeak-ng (`apt-get install espeak-ng`). It prints its
// port once listening.

const VOICES: Readonly<Record<string, string>> = { rw: 'sw', en: 'en-us', fr: 'fr' };
const MAX_BODY = 64 * 1024;

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
    if (body.length > MAX_BODY) request.destroy();
  });
  request.on('end', () => {
    let input = '';
    let language = 'en';
    try {
      ({ input, language } = JSON.parse(body) as { input: string; language: string });
    } catch {
      response.writeHead(400).end();
      return;
    }
    // The text goes on standard input, never on the command line.
    const child = spawn('espeak-ng', ['--stdout', '-v', VOICES[language] ?? 'en-us'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const parts: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => parts.push(chunk));
    child.on('close', (code) => {
      if (code !== 0) {
        response.writeHead(500).end();
        return;
      }
      const wav = Buffer.concat(parts);
      response.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': wav.byteLength }).end(wav);
    });
    child.stdin.end(input);
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address) process.stdout.write(`${address.port}\n`);
});
