/**
 * The one rule every bench-bounty command line follows for options given more than once (probe29
 * B-F2): commander reads a single-valued option given twice as its last value, so a script that
 * appended `--policy offline` to `verify PACK --policy full` was told the pack is MET, and
 * `lock --pool 1 --pool 100` would lock the last amount. A value-taking option that is neither
 * variadic (`--bucket <field=unit...>`) nor declared with {@link repeatableOption} (`--agent-env`) is
 * refused the second time it is given, naming the option and both values.
 *
 * Used by every program: the platform commands (`registerPlatformCommands`), the verifier
 * (`registerVerifierCommands`), `serve` and the `bench-bounty` bin (`buildProgram`).
 * @packageDocumentation
 */
import { Option, type Command } from "commander";

/** Options declared repeatable: each occurrence adds a value (see {@link repeatableOption}). */
const REPEATABLE = new WeakSet<Option>();
/**
 * Commands given the rule ({@link refuseRepeatedOptions} is idempotent), each with the values of its
 * single-valued options seen in the current parse (option name to the first value).
 */
const GIVEN = new WeakMap<Command, Map<string, string>>();

/**
 * An option that may be given any number of times, each occurrence adding its value to a list
 * (`--agent-env A --agent-env B` is `["A", "B"]`); {@link refuseRepeatedOptions} lets it repeat.
 * @param flags commander flags taking one value, e.g. `"--agent-env <name>"`
 * @param description the help text
 * @returns the Option, its value a `string[]` in the order given (undefined when never given)
 */
export function repeatableOption(flags: string, description: string): Option {
  const option = new Option(flags, description).argParser((v: string, prev: string[] | undefined) => [
    ...(prev ?? []),
    v,
  ]);
  REPEATABLE.add(option);
  return option;
}

/** The message for `option` given a second time: the option and both values, as typed. */
export function repeatedOptionMessage(option: Option, first: string, second: string): string {
  return `option '${option.flags}' is given twice (${JSON.stringify(first)} and ${JSON.stringify(second)}): give it once (a single-valued option is never read as its last value)`;
}

/**
 * Makes `program` and every command under it refuse a single-valued option given twice: for each
 * value-taking option that is not variadic and not a {@link repeatableOption}, the second occurrence on
 * the command line (`--policy a --policy b`, `--policy=a --policy b`, its short flag) stops the parse
 * with commander's usage error (`cmd.error`: `error: option '--policy <name>' is given twice ("full" and
 * "offline"): ...`, exit code as each program's usage errors: 2 for the verifier, 1 otherwise).
 * A value from the environment (`.env()`) and a default are not occurrences; boolean flags (no value)
 * may repeat. Call it after the commands are registered; calling it again only equips commands added
 * since. Each command's record of what it saw is cleared when its parent dispatches to it, so a program
 * parsed again starts afresh.
 * @param program the root (or any) command
 * @returns `program`
 */
export function refuseRepeatedOptions(program: Command): Command {
  const equip = (cmd: Command): void => {
    if (!GIVEN.has(cmd)) {
      const given = new Map<string, string>();
      GIVEN.set(cmd, given);
      for (const option of cmd.options) {
        if (!(option.required || option.optional) || option.variadic || REPEATABLE.has(option)) continue;
        const name = option.name();
        cmd.on(`option:${name}`, (value: unknown) => {
          const v = String(value);
          const first = given.get(name);
          if (first !== undefined) cmd.error(`error: ${repeatedOptionMessage(option, first, v)}`);
          given.set(name, v);
        });
      }
      cmd.hook("preSubcommand", (_parent, sub) => {
        GIVEN.get(sub)?.clear();
      });
    }
    for (const sub of cmd.commands) equip(sub);
  };
  equip(program);
  return program;
}

/**
 * How a message names the option whose value it refuses: the flag (`--agents-per-account`) when the value
 * came from the command line or a default, and `VAR (the environment form of --flag)` when it came from
 * the option's environment variable (`.env()`), so a bad variable is never reported as a flag nobody
 * gave (probe14 D2-F22 for the verifier's URLs, probe30 B-F7 for `serve`'s numbers).
 * Used by every program: the verifier's `--rpc` / `--indexer` and `serve`'s options.
 * @param cmd the command that declares the option, after its parse
 * @param flag the option's long flag, e.g. `"--rpc"`
 * @returns `flag`, or the variable's name and the flag it stands for
 */
export function optionSourceName(cmd: Command, flag: string): string {
  const option = cmd.options.find((o) => o.long === flag);
  if (option?.envVar === undefined || cmd.getOptionValueSource(option.attributeName()) !== "env") return flag;
  return `${option.envVar} (the environment form of ${flag})`;
}
