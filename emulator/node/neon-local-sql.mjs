// Points the service's serverless driver (@neondatabase/serverless) at
// `neonform emulator -postgres` (docs/emulator.md, SQL over HTTP).
//
// The driver's neon() sends each query over HTTPS to
// https://api.<the host without its first label>/sql, which a loopback address
// cannot be; the emulator answers SQL over HTTP on its Postgres proxy's port, the
// host and port of the connection URIs it gives. Preload this file into the
// program that uses the driver, such as the service's MCP server:
//
//   node --import ./emulator/node/neon-local-sql.mjs "$(command -v mcp-server-neon)" start "$NEON_API_KEY"
//
// It sets neonConfig.fetchEndpoint, the driver's setting for a local endpoint, to
// http://HOST:PORT/sql for a connection string to this machine (127.0.0.1,
// localhost, ::1); other hosts keep the driver's own endpoint. A preload cannot
// import the program's packages by name, so it finds the driver the program
// loads from the program's path (process.argv[1]), and sets it in both of the
// driver's builds (ESM and CommonJS), which keep separate settings.
import { createRequire } from 'node:module';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const driver = '@neondatabase/serverless';
const loopback = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

// local wraps the driver's endpoint: this machine's hosts get plain HTTP.
function local(original) {
  return (host, port, options) => {
    if (loopback.has(host)) {
      const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
      return `http://${h}${port ? `:${port}` : ''}/sql`;
    }
    return typeof original === 'function' ? original(host, port, options) : original;
  };
}

// esmEntry is the file the package's "exports" give an import.
function esmEntry(pkgDir) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  let e = pkg.exports?.['.'] ?? pkg.exports;
  for (const key of ['import', 'node', 'default']) {
    if (typeof e === 'object' && e !== null && e[key] !== undefined) e = e[key];
  }
  return typeof e === 'string' ? join(pkgDir, e) : join(pkgDir, pkg.module ?? pkg.main ?? 'index.js');
}

const program = process.argv[1] ? realpathSync(process.argv[1]) : join(process.cwd(), 'index.js');
const require = createRequire(program);
let cjsPath;
try {
  cjsPath = require.resolve(driver);
} catch {
  console.error(`neon-local-sql: ${program} does not load ${driver}: nothing to point at the emulator`);
}
// packageDir is the driver's directory: the nearest above its entry with its package.json.
function packageDir(entry) {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === driver) return dir;
    } catch {
      // no package.json here: look further up
    }
  }
  return dirname(entry);
}

if (cjsPath) {
  const cjs = require(driver);
  cjs.neonConfig.fetchEndpoint = local(cjs.neonConfig.fetchEndpoint);
  const esm = await import(pathToFileURL(esmEntry(packageDir(cjsPath))).href);
  if (esm.neonConfig !== cjs.neonConfig) {
    esm.neonConfig.fetchEndpoint = local(esm.neonConfig.fetchEndpoint);
  }
}
