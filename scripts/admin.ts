// The admin CLI: `npm run admin -- <command> [options]` (docs/cli.md). Works on DATA_DIR like
// the server, runs migrations itself, and is safe while the server runs (SQLite WAL).
// Exit codes: 0 done, 1 the command failed, 2 wrong arguments.
import { parseArgs } from 'node:util';
import { ConfigError } from '../server/config.ts';
import { HttpError } from '../server/errors.ts';
import { CommandFailure, UsageError, adminConfig, openAdminContext, withBusyRetry, type Command } from './admin/cli.ts';
import { commands } from './admin/commands.ts';

const PROGRAM = 'npm run admin --';

function generalHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Beatnik admin CLI. Works on DATA_DIR (default ./data); safe to run while the server is serving.',
    '',
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run "${PROGRAM} help <command>" (or "<command> --help") for a command's options and an example.`,
    'Exit codes: 0 done, 1 the command failed, 2 wrong arguments.',
  ].join('\n');
}

function commandHelp(command: Command<unknown>): string {
  return [
    `Usage: ${PROGRAM} ${command.usage}`,
    '',
    command.summary,
    ...(command.details ?? []),
    '',
    'Example:',
    `  ${command.example}`,
  ].join('\n');
}

function findCommand(name: string): Command<unknown> {
  const command = commands.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"`);
  return command;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(generalHelp() + '\n');
    return 2;
  }
  let command: Command<unknown> | undefined;
  try {
    if (name === 'help' || name === '--help' || name === '-h') {
      process.stdout.write((rest[0] ? commandHelp(findCommand(rest[0])) : generalHelp()) + '\n');
      return 0;
    }
    command = findCommand(name);
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(commandHelp(command) + '\n');
      return 0;
    }
    const args = parseCommandArgs(command, rest);
    const out = { line: (text = '') => process.stdout.write(text + '\n') };
    if (command.runOffline) {
      await command.runOffline(adminConfig(), args, out);
      return 0;
    }
    const ctx = await openAdminContext();
    try {
      await withBusyRetry(() => command!.run!(ctx, args, out));
    } finally {
      await ctx.db.destroy();
    }
    return 0;
  } catch (err) {
    return report(err, command);
  }
}

function parseCommandArgs(command: Command<unknown>, rest: string[]): unknown {
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (err) {
    // node:util's messages name the option; drop its advice about '--' which does not apply here.
    throw new UsageError((err as Error).message.split('. To specify')[0]!.replace(/\.$/, ''));
  }
  const expected = command.positionals ?? [];
  if (parsed.positionals.length !== expected.length) {
    throw new UsageError(expected.length === 0
      ? `unexpected argument "${parsed.positionals[0]}"`
      : `expected ${expected.join(' ')}, got ${parsed.positionals.length} argument${parsed.positionals.length === 1 ? '' : 's'}`);
  }
  return command.parse({ values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals });
}

/** Writes the one-line error and returns the exit code. */
function report(err: unknown, command: Command<unknown> | undefined): number {
  if (err instanceof UsageError) {
    const hint = command ? `${PROGRAM} help ${command.name}` : `${PROGRAM} --help`;
    process.stderr.write(`admin: ${err.message} (see "${hint}")\n`);
    return 2;
  }
  if (err instanceof HttpError || err instanceof CommandFailure || err instanceof ConfigError) {
    process.stderr.write(`admin: ${err instanceof HttpError ? err.detail : err.message}\n`);
    return 1;
  }
  process.stderr.write(`admin: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
  if (process.env.DEBUG) console.error(err);
  return 1;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
