// The MCP client of bench/mcp_run_sql.sh: creates a project in the emulator, starts
// the service's MCP server over stdio with the SQL-over-HTTP preload, and calls its
// run_sql and describe_branch tools, failing on an answer that is not the one a user
// of the service would get. Run from the directory where the MCP server and the MCP
// SDK are installed:
//   node mcp_run_sql.mjs API_URL API_KEY PRELOAD
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [api, key, preload] = process.argv.slice(2);
const fail = (msg) => {
  console.error(`FAIL: ${msg}`);
  process.exit(1);
};

const res = await fetch(`${api}/projects`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ project: { name: 'mcp-check' } }),
});
if (res.status !== 201) fail(`creating a project: ${res.status} ${await res.text()}`);
const created = await res.json();
const projectId = created.project.id;
const branchId = created.branch.id;
console.log(`project ${projectId}, branch ${branchId}: ${created.connection_uris[0].connection_uri.replace(/:[^:@]*@/, ':…@')}`);

const require = createRequire(join(process.cwd(), 'index.js'));
const server = join(dirname(require.resolve('@neondatabase/mcp-server-neon/package.json')), 'dist', 'index.js');
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--import', preload, server, 'start', key],
  env: { ...process.env, NEON_API_HOST: api },
  stderr: 'inherit',
});
const client = new Client({ name: 'neonform-mcp-check', version: '1.0.0' });
await client.connect(transport);

// call calls a tool and returns its text; an error answer fails the check.
async function call(name, args) {
  const out = await client.callTool({ name, arguments: { params: args } });
  const text = (out.content ?? []).map((c) => c.text ?? '').join('\n');
  if (out.isError) fail(`${name} ${JSON.stringify(args)}: ${text}`);
  console.log(`${name} ${JSON.stringify(args.sql ?? args.branchId)}: ${text.length > 300 ? text.slice(0, 300) + '…' : text}`);
  return text;
}

await call('run_sql', { projectId, sql: 'CREATE TABLE items (id int PRIMARY KEY, name text)' });
await call('run_sql', { projectId, sql: "INSERT INTO items VALUES (1, 'neonform'), (2, 'emulator')" });
const rows = JSON.parse(await call('run_sql', { projectId, sql: 'SELECT id, name FROM items ORDER BY id' }));
const want = [{ id: 1, name: 'neonform' }, { id: 2, name: 'emulator' }];
if (JSON.stringify(rows) !== JSON.stringify(want)) fail(`SELECT answered ${JSON.stringify(rows)}, want ${JSON.stringify(want)}`);
const syntax = await client.callTool({ name: 'run_sql', arguments: { params: { projectId, sql: 'SELEC 1' } } });
const syntaxText = (syntax.content ?? []).map((c) => c.text ?? '').join('\n');
if (!syntax.isError || !syntaxText.includes('syntax error')) fail(`a syntax error answered ${JSON.stringify(syntax)}`);
console.log(`run_sql "SELEC 1": error: ${syntaxText}`);
const tree = await call('describe_branch', { projectId, branchId });
if (!tree.includes('items')) fail(`describe_branch does not show the table items: ${tree}`);
await client.close();
console.log('OK: run_sql and describe_branch work against the emulator');
