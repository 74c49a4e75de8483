// A tap between an MCP client and a stdio MCP server, for the shared-upstream test: runs the command of
// its arguments as its child, passes stdin, stdout and stderr through, and appends every line the client
// writes to the file named by TAP_LOG, so a test can read what really reached the server (cancellations
// included). The child makes a process tree: the test checks that stopping the tap stops both.
import { appendFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
process.stderr.write(`tap ${process.pid} runs ${child.pid}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (process.env.TAP_LOG) appendFileSync(process.env.TAP_LOG, line + '\n');
  child.stdin.write(line + '\n');
}).on('close', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 1));
