/** A prize render and the legend of the three renders (compete seed). */
import { PRIZE_RENDER_MEANING, type PrizeRender } from "../domain/prize.js";

/** One prize as served, with its meaning as the tooltip. */
export function PrizeCell(props: { render: PrizeRender }) {
  const r = props.render;
  return (
    <span class={`prize prize-${r.kind}`} data-prize={r.kind} title={PRIZE_RENDER_MEANING[r.kind]}>
      {r.text}
    </span>
  );
}

/** What the three renders mean. */
export function PrizeLegend(props: { listOnly?: boolean }) {
  return (
    <div class="legend">
      <p>Prize renders:</p>
      <ul>
        <li>
          <code>Prize: 50 USDC, locked at 0x...</code>: {PRIZE_RENDER_MEANING.locked} (benchmark page only).
        </li>
        <li>
          <code>50 USDC</code>: {PRIZE_RENDER_MEANING.declared}.
          {props.listOnly && " This list never verifies, so it always shows this form."}
        </li>
        <li>
          <code>--</code>: {PRIZE_RENDER_MEANING.none}.
        </li>
      </ul>
    </div>
  );
}
