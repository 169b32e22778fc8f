import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cities, cleanup, promptAgent, tempDir, openAt, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

const TSX = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));
const CHILD = fileURLToPath(new URL("./fixtures/crash-finalize.ts", import.meta.url));

describe("durability", () => {
  it("a crash in the middle of finalize loses nothing: the run stays in progress with every answer, and finalize succeeds afterwards", async () => {
    expect(existsSync(TSX)).toBe(true);
    const dir = tempDir();
    let platform = await openAt({ dir });
    const ds = await platform.createDataset(cities(10));
    const { slug } = await platform.publish(ds.dataset_id, {
      ...CITIES_PUBLISH,
    });
    const runId = (await platform.startRun(slug, "alice")).run.id;
    const tasks = await platform.runTasks(runId);
    const answers = tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) }));
    await platform.submit(runId, answers);
    await platform.close();

    const child = spawnSync(TSX, [CHILD, dir, runId], { encoding: "utf8", timeout: 120_000 });
    // killed by SIGKILL (tsx relays it as exit status 137)
    expect(
      child.signal === "SIGKILL" || child.status === 137,
      `${child.status} ${child.signal} ${child.stderr}`,
    ).toBe(true);
    expect(child.stdout).not.toContain("finalize returned");

    platform = await openAt({ dir });
    const run = await platform.getRun(runId);
    expect(run.status).toBe("in_progress");
    expect(run.receipt).toBeNull();
    expect(run.receipt_hash).toBeNull();
    expect([...(await platform.runAnswers(runId))].sort((a, b) => a[0] - b[0])).toEqual(
      answers.map((a) => [a.ordinal, a.answer_text]),
    );
    const f = await platform.finalize(runId);
    expect(f.counts.answered).toBe(tasks.length);
    expect((await platform.getRun(runId)).status).toBe("finalized");
    await platform.close();
  }, 120_000);
});
