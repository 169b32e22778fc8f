/**
 * Issue 13 item 3, re-probed: under bubblewrap a CLI agent started by a root runner kept every
 * capability (`CapEff: 000001fffeffffff`), so it could `umount` the tmpfs that hides the store and
 * read every gold answer. The sandbox now drops every capability: the unmount is refused, the store
 * stays hidden, and the agent's effective capability set is empty. Re-probed again (F3): a store named
 * through a symlink made bwrap fail for every task; it is now hidden at its real path. SQLite only: a
 * PostgreSQL store is no local file to hide.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentArgv, bubblewrapAvailable, hiddenMounts } from "../src/agent-process.js";
import { runBenchmark } from "../src/runner.js";
import {
  cities,
  CITIES_PUBLISH,
  cleanup,
  manualClock,
  openAt,
  openTemp,
  tempDir,
  TEST_ENGINE,
} from "./helpers.js";

afterEach(cleanup);

describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
  "a sandboxed CLI agent cannot unhide the store",
  () => {
    it("has no capabilities, cannot umount the store's tmpfs, and never reads a gold", async () => {
      const clock = manualClock();
      const h = await openTemp({ clock: clock.now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, {
        ...CITIES_PUBLISH,
      });
      const storeDir = h.ctx.store.dir;
      const spy = join(tempDir(), "escape.sh");
      // what the probe's agent did: umount the tmpfs over the store, then read the store file
      writeFileSync(
        spy,
        `#!/bin/sh
cat > /dev/null
cap=$(grep CapEff /proc/self/status | tr -s '\\t ' ' ' | cut -d' ' -f2)
umount ${JSON.stringify(storeDir)} 2>/dev/null && um=unmounted || um=refused
files=$(ls -A ${JSON.stringify(storeDir)} | wc -l)
printf '{"answers":[{"ordinal":0,"answer_text":"cap=%s umount=%s files=%s"}]}' "$cap" "$um" "$files"
`,
        { mode: 0o755 },
      );
      const r = await runBenchmark(await h.backend("escaper"), slug, "escaper", {
        kind: "command",
        command: `sh ${spy}`,
      });
      const answers = await h.runAnswers(r.run_id);
      const report = [...answers.values()][0]!;
      expect(report).toBe("cap=0000000000000000 umount=refused files=0");
    }, 60_000);
  },
);

describe("hidden paths are mounted at their real path (issue 13 re-probe F3)", () => {
  it("hides a store named through a symlink at the real directory, skips missing and nested paths", () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "real", "runs"), { recursive: true });
    symlinkSync(join(base, "real"), join(base, "link"));
    expect(hiddenMounts([join(base, "link"), join(base, "real", "runs"), join(base, "missing")])).toEqual([
      join(base, "real"),
    ]);
    const argv = agentArgv("true", base, [join(base, "link")], true);
    expect(argv.slice(argv.indexOf("--tmpfs"), argv.indexOf("--tmpfs") + 2)).toEqual([
      "--tmpfs",
      join(base, "real"),
    ]);
  });
});

describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
  "a store named through a symlink (issue 13 re-probe F3)",
  () => {
    it("runs the agent, which sees neither the link nor the real directory's files", async () => {
      const base = tempDir();
      mkdirSync(join(base, "real"));
      symlinkSync(join(base, "real"), join(base, "link"));
      const link = join(base, "link");
      const real = join(base, "real");
      const clock = manualClock();
      const h = await openAt({ dir: link, clock: clock.now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, CITIES_PUBLISH);
      const spy = join(tempDir(), "spy.sh");
      writeFileSync(
        spy,
        `#!/bin/sh
cat > /dev/null
l=$(ls -A ${JSON.stringify(link)} | wc -l)
r=$(ls -A ${JSON.stringify(real)} | wc -l)
printf '{"answers":[{"ordinal":0,"answer_text":"link=%s real=%s"}]}' "$l" "$r"
`,
        { mode: 0o755 },
      );
      const r = await runBenchmark(await h.backend("spy"), slug, "spy", {
        kind: "command",
        command: `sh ${spy}`,
      });
      const answers = await h.runAnswers(r.run_id);
      expect(answers.size).toBeGreaterThan(0);
      for (const a of answers.values()) expect(a).toBe("link=0 real=0");
    }, 60_000);
  },
);
